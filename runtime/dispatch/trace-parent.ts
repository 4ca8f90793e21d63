/** How a caller inside tooltype (a loop's step, an MCP request) hands dispatch the parent of the calls' spans. */
import type { OTelContext } from "../telemetry/otel-api";
import type { Tracing } from "../telemetry/tracing";
import type { DispatchOptions } from "./options";

/** Where the caller puts the context the calls' spans belong under. */
export const TRACE_PARENT: unique symbol = Symbol("tooltype.traceParent");

/** Dispatch options that carry a parent context for the calls' spans. */
export type TracedDispatchOptions = DispatchOptions & { readonly [TRACE_PARENT]?: OTelContext };

/** Adds each call's span to `options` (tool-spans.ts's `withToolSpans`). */
export type SpanWrapper = (options: TracedDispatchOptions, tracing: Tracing) => DispatchOptions;
