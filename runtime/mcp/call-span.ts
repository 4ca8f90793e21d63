/**
 * Spans of MCP's `tools/call` when a tracer provider is registered: the server's (`tools/call {tool}`, continuing the
 * trace a client's `_meta.traceparent` names, with the tool's `execute_tool` span under it) and the client's
 * (`fromMCP`: `tools/call {tool}` under the active context, sent on as `_meta.traceparent`). Attribute names follow
 * OpenTelemetry's MCP conventions (`mcp.method.name`, `gen_ai.tool.name`, `jsonrpc.request.id`).
 */
import type { OTelContext, OTelSpan } from "../telemetry/otel-api";
import { SPAN_KIND, STATUS_ERROR } from "../telemetry/otel-api";
import { remoteContext, writeTraceparent } from "../telemetry/trace-context";
import { activeTracing } from "../telemetry/tracing";

export interface CallSpan {
  /** The context the call runs under (the server's dispatch, the client's request). */
  readonly context: OTelContext;
  /** The `traceparent` that names this span, for the request's `_meta`. */
  readonly traceparent: string;
  fail(error: unknown, message?: string): void;
  end(): void;
}

/** The server's span of one `tools/call`, or undefined when nothing is traced. */
export function serverCallSpan(tool: string, requestId: unknown, traceparent: unknown): CallSpan | undefined {
  const tracing = activeTracing();
  if (tracing === undefined) return undefined;
  const parent = remoteContext(tracing.api, traceparent, tracing.api.context.active());
  return callSpan(tracing.api, tracing.tracer.startSpan(...spanOf(tool, requestId, SPAN_KIND.server), parent), parent);
}

/** The client's span of one `tools/call` to a remote server, or undefined when nothing is traced. */
export function clientCallSpan(tool: string): CallSpan | undefined {
  const tracing = activeTracing();
  if (tracing === undefined) return undefined;
  const parent = tracing.api.context.active();
  return callSpan(tracing.api, tracing.tracer.startSpan(...spanOf(tool, undefined, SPAN_KIND.client), parent), parent);
}

function spanOf(
  tool: string,
  requestId: unknown,
  kind: number,
): [string, { kind: number; attributes: Record<string, string> }] {
  const name = tool.slice(0, 200);
  const id =
    typeof requestId === "string" || typeof requestId === "number" ? String(requestId).slice(0, 200) : undefined;
  return [
    `tools/call ${name}`,
    {
      kind,
      attributes: {
        "mcp.method.name": "tools/call",
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": name,
        ...(id === undefined ? {} : { "jsonrpc.request.id": id }),
      },
    },
  ];
}

function callSpan(
  api: { trace: { setSpan(c: OTelContext, s: OTelSpan): OTelContext } },
  span: OTelSpan,
  parent: OTelContext,
): CallSpan {
  let ended = false;
  return {
    context: api.trace.setSpan(parent, span),
    traceparent: writeTraceparent(span.spanContext()),
    fail(error, message) {
      span.setAttribute("error.type", error instanceof Error && error.name ? error.name : "tool_error");
      const text = message ?? (error instanceof Error ? error.message : undefined);
      span.setStatus({ code: STATUS_ERROR, ...(text === undefined ? {} : { message: text.slice(0, 500) }) });
    },
    end() {
      if (ended) return;
      ended = true;
      span.end();
    },
  };
}
