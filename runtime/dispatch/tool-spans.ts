/**
 * One span per call a traced dispatch answers, after OpenTelemetry's GenAI conventions: `execute_tool {name}`, with
 * `gen_ai.operation.name`, `gen_ai.tool.name`, `gen_ai.tool.call.id` and `gen_ai.tool.type`, an error status and
 * `error.type` when the call failed. Built from dispatch's own hooks (start once the arguments are read, end with
 * the answer, so a call that timed out or was refused has its span too) and a middleware that makes the call's span
 * the active one while the tool runs (its own spans become children where a context manager is registered).
 */
import type { DispatchOptions, ToolErrorEvent, ToolMiddleware } from "./options";
import type { OTelSpan } from "../telemetry/otel-api";
import { SPAN_KIND, STATUS_ERROR } from "../telemetry/otel-api";
import type { Tracing } from "../telemetry/tracing";
import { TRACE_PARENT, type TracedDispatchOptions } from "./trace-parent";

/** `options` with each call's span added around what they already observe and wrap. */
export function withToolSpans(options: TracedDispatchOptions, tracing: Tracing): DispatchOptions {
  const { api, tracer } = tracing;
  const parent = options[TRACE_PARENT] ?? api.context.active();
  // Call ids are unique within a message as dispatch answers it; a queue per id keeps a repeated id's spans apart.
  const open = new Map<string, OTelSpan[]>();
  const spanOf = (id: string): OTelSpan | undefined => open.get(id)?.[0];
  const close = (id: string): OTelSpan | undefined => {
    const queue = open.get(id);
    const span = queue?.shift();
    if (queue !== undefined && queue.length === 0) open.delete(id);
    return span;
  };
  const failed = (event: ToolErrorEvent): void => {
    const span = event.kind === "aborted" ? close(event.call.id) : spanOf(event.call.id);
    if (span === undefined) return;
    span.setAttribute("error.type", errorType(event));
    span.setStatus({ code: STATUS_ERROR, message: messageOf(event.error) });
    if (event.kind === "aborted") span.end();
  };
  const activate: ToolMiddleware = (call, next) => {
    const span = spanOf(call.id);
    return span === undefined ? next() : api.context.with(api.trace.setSpan(parent, span), () => next());
  };
  const wrap = !tracing.propagates
    ? options.wrap
    : options.wrap === undefined
      ? [activate]
      : [activate, ...[options.wrap].flat()];
  return {
    ...options,
    ...(wrap === undefined ? {} : { wrap }),
    onToolStart: (event) => {
      const span = tracer.startSpan(
        `execute_tool ${event.call.name}`,
        {
          kind: SPAN_KIND.internal,
          attributes: {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": event.call.name,
            "gen_ai.tool.call.id": event.call.id,
            "gen_ai.tool.type": "function",
            ...(event.tool?.description ? { "gen_ai.tool.description": event.tool.description.slice(0, 1_000) } : {}),
          },
        },
        parent,
      );
      const queue = open.get(event.call.id);
      if (queue === undefined) open.set(event.call.id, [span]);
      else queue.push(span);
      return options.onToolStart?.call(undefined, event);
    },
    onToolError: (event) => {
      failed(event);
      return options.onToolError?.call(undefined, event);
    },
    onToolEnd: (event) => {
      const span = close(event.call.id);
      if (span !== undefined) {
        if (event.status === "error") span.setStatus({ code: STATUS_ERROR });
        span.end();
      }
      return options.onToolEnd?.call(undefined, event);
    },
  };
}

/** `error.type`: the class of what went wrong, low in cardinality (never a message). */
function errorType(event: ToolErrorEvent): string {
  if (event.kind === "aborted") return "aborted";
  if (event.kind === "validation") return "invalid_arguments";
  const error = event.error;
  try {
    if (error instanceof Error && typeof error.name === "string" && error.name !== "") return error.name;
  } catch {
    // A hostile thrown value (a revoked Proxy): named generically.
  }
  return "tool_error";
}

/** A short message for the status; the text an error's own `message` getter gives, if it gives one safely. */
function messageOf(error: unknown): string | undefined {
  try {
    if (error instanceof Error && typeof error.message === "string") return error.message.slice(0, 500);
  } catch {
    // As above.
  }
  return undefined;
}
