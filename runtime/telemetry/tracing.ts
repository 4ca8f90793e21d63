/**
 * Whether calls are traced, decided per dispatch: only when an OpenTelemetry tracer provider is registered (the API
 * keeps it on a global object under a well-known symbol, which is read without loading anything). Then the API is
 * loaded (#lazy/otel, or the one `useOpenTelemetry` gave) and tooltype's tracer made, once per provider.
 */
import { loadOpenTelemetry } from "#lazy/otel";
import type { OTelApi, OTelTracer } from "./otel-api";

/** Where `@opentelemetry/api` 1.x keeps its registered globals (the tracer provider under `trace`). */
const GLOBALS = Symbol.for("opentelemetry.js.api.1");

export interface Tracing {
  readonly api: OTelApi;
  readonly tracer: OTelTracer;
  /**
   * Whether a context manager is registered: without one, making a span active while a tool runs changes nothing,
   * and the middleware that would do it is left out.
   */
  readonly propagates: boolean;
}

let given: OTelApi | undefined;
let loaded: OTelApi | null | undefined;
let made: { provider: unknown; manager: unknown; tracing: Tracing | undefined } | undefined;

/** The API `useOpenTelemetry` (dispatch/use-open-telemetry.ts) was given, or `undefined` to take it back. */
export function giveOpenTelemetry(api: object | undefined): void {
  // Typed as any object: the API's own types are not tooltype's to name (an optional peer); its shape is otel-api.ts.
  given = api as OTelApi | undefined;
  made = undefined;
}

/** The tracer of this moment, or undefined when no tracer provider is registered (the common, untraced case). */
export function activeTracing(): Tracing | undefined {
  // Small enough for V8 to inline into every dispatch (under 27 bytes of bytecode) without spending the budget for
  // inlining that the dispatch pipeline's stages share; the rest only once some OpenTelemetry global is registered.
  const globals = (globalThis as Record<symbol, OTelGlobals | undefined>)[GLOBALS];
  return globals === undefined ? undefined : tracingOf(globals);
}

/** What `@opentelemetry/api` keeps under its global symbol (of it, what tooltype reads). */
interface OTelGlobals {
  trace?: unknown;
  context?: unknown;
}

function tracingOf(globals: OTelGlobals): Tracing | undefined {
  const provider = globals.trace;
  if (provider === undefined) return undefined;
  const manager = globals.context;
  if (made !== undefined && made.provider === provider && made.manager === manager) return made.tracing;
  const api = given ?? loadedApi();
  made = {
    provider,
    manager,
    tracing:
      api === undefined
        ? undefined
        : { api, tracer: api.trace.getTracer("tooltype"), propagates: manager !== undefined },
  };
  return made.tracing;
}

function loadedApi(): OTelApi | undefined {
  if (loaded === undefined) loaded = loadOpenTelemetry() ?? null;
  return loaded ?? undefined;
}
