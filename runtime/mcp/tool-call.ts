/** `tools/call`: one call through the registry's dispatch pipeline, on any revision and transport. */
import type { ApprovalDecision } from "../dispatch/approval";
import type { PendingApproval } from "../dispatch/approval-error";
import type { NormalizedCall } from "../dispatch/call";
import type { ToolMessage } from "../dispatch/messages";
import type { DispatchOptions, ToolErrorEvent } from "../dispatch/options";
import { TRACE_PARENT, type TracedDispatchOptions } from "../dispatch/trace-parent";
import { serverCallSpan } from "./call-span";
import { readTraceparent } from "../telemetry/trace-context";
import { toMCPResult } from "./format/answer";
import { mcpOutputSchema } from "./format/tools";
import type { RegisteredTool } from "../registry/core";
import { ToolError, ToolResultError, ToolTimeoutError, ToolValidationError } from "../tool/errors";
import {
  APPROVAL_INPUT,
  approvalQuestion,
  decisionFrom,
  decodeRequestState,
  encodeRequestState,
  ownKey,
} from "./approval";
import type { Era, MCPEndpoint, MCPExchange } from "./exchange";
import { throttleProgress } from "./progress";
import { canElicit, INTERNAL_ERROR, INVALID_PARAMS, isRecord, type JsonRpcRequest } from "./protocol";
import { MCPProtocolError } from "./protocol-error";
import { UNNAMED_CALLER, callerName } from "./caller";
import { enforceScopes, visibleTo } from "./scopes";

/** tooltype's own error classes, whose texts are written for the caller (by class, and by name across package copies). */
const CALLER_FACING = new Set(["ToolError", "ToolValidationError", "ToolTimeoutError", "ToolResultError"]);

/**
 * The answer to one `tools/call`:
 * - Invalid arguments and failing tools are `isError: true` results the model can read and correct; an unknown tool
 *   is JSON-RPC error -32602, as the protocol asks.
 * - The call's `ToolContext` gets the caller (`auth`, from the HTTP `authenticate` hook), a `progress` function that
 *   sends `notifications/progress` when the client sent a `progressToken` (throttled: progress.ts), and a signal
 *   aborted when the client cancels (a closed stream, `notifications/cancelled`).
 * - A `needsApproval` tool asks the client's user first (approval.ts).
 * - Error policy: with `exposeErrors: false` (the HTTP default) only texts written for the caller go out verbatim
 *   (a `ToolError`, a validation error, tooltype's own timeout and result errors, and whatever a tool's or
 *   registry's own `handleToolError` returns); any other failure becomes a generic text, since an exception's
 *   message may carry paths, connection strings or tokens.
 */
export async function callTool(
  endpoint: MCPEndpoint,
  request: JsonRpcRequest,
  era: Era,
  exchange: MCPExchange,
): Promise<Record<string, unknown>> {
  const params = isRecord(request.params) ? request.params : {};
  const name = params.name;
  if (typeof name !== "string")
    throw new MCPProtocolError(INVALID_PARAMS, "Invalid params: tools/call needs the tool's name (params.name).");
  const args = params.arguments ?? {};
  const { registry, options } = endpoint;
  const found = registry.get(name);
  const tool = found && visibleTo(found, exchange, options.listAllTools) ? found : undefined;
  if (!tool) {
    const names = registry
      .list()
      .filter((t) => visibleTo(t, exchange, options.listAllTools))
      .map((t) => t.name);
    throw new MCPProtocolError(
      INVALID_PARAMS,
      `Unknown tool: ${JSON.stringify(name).slice(0, 100)}. ${names.length > 0 ? `Valid tools: ${names.join(", ")}.` : "No tools are registered."}`,
    );
  }
  enforceScopes(tool, exchange);
  const meta = isRecord(params._meta) ? params._meta : {};
  const progressToken = meta.progressToken;
  let failure: ToolErrorEvent | undefined;
  const signal = exchange.signal;
  let notified = false;
  // Progress is advisory: a notification that cannot be sent (the client left, a JSON answer) is dropped.
  const progress =
    (typeof progressToken === "string" || typeof progressToken === "number") && exchange.notify
      ? throttleProgress((update) => {
          notified = true;
          exchange.notify!({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken, ...update } });
        }, options.progressIntervalMs)
      : undefined;
  // A W3C trace context the client sent (`_meta.traceparent`, and `tracestate` with it) joins the call's metadata, so
  // the tool can continue the caller's trace; anything but a well-formed traceparent is ignored.
  const trace = traceContext(meta);
  const metadata = trace === undefined ? options.metadata : { ...options.metadata, ...trace };
  // Traced here too (a tracer provider is registered): this request's span continues that trace, the tool's under it.
  const span = serverCallSpan(name, request.id, meta.traceparent);
  const dispatchOptions: TracedDispatchOptions = {
    ...(span === undefined ? {} : { [TRACE_PARENT]: span.context }),
    signal,
    ...(metadata === undefined ? {} : { metadata }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    auth: exchange.auth,
    onToolError: (event) => (failure = event),
    ...(progress === undefined ? {} : { onProgress: (update) => progress.report(update) }),
  };
  const calls: NormalizedCall[] = [{ kind: "args", id: String(request.id), name, args }];

  let message: ToolMessage | Raw;
  try {
    const pending = await endpoint.access.pending(calls, dispatchOptions);
    message =
      pending.length > 0
        ? await approved(endpoint, tool, calls, pending, params, era, exchange, dispatchOptions)
        : (await endpoint.access.dispatch(calls, dispatchOptions))[0]!;
  } catch (error) {
    span?.fail(error);
    if (error instanceof MCPProtocolError) throw error;
    // The call was aborted (no answer goes to a cancelled request), or a handler set to `false` rethrew.
    if (options.exposeErrors || signal.aborted) throw error;
    throw new MCPProtocolError(INTERNAL_ERROR, `Internal error: ${name} failed; the details stay on the server.`);
  } finally {
    progress?.finish(!signal.aborted);
    if (failure !== undefined) span?.fail(failure.error, `${name} failed (${failure.kind})`);
    span?.end();
  }
  if (message instanceof Raw) return message.result;
  if (notified && !signal.aborted && exchange.settle) await exchange.settle();
  if (
    !options.exposeErrors &&
    failure?.kind === "tool" &&
    !callerFacing(failure.error) &&
    !ownHandler(endpoint, tool.options.handleToolError)
  ) {
    return {
      content: [
        {
          type: "text",
          text: `Error: ${name} failed. The server keeps the details; try other arguments or another tool.`,
        },
      ],
      isError: true,
    };
  }
  return { ...toMCPResult(message as ToolMessage, mcpOutputSchema(tool)) };
}

/**
 * A call that needs a human's yes: the answer once the client's user decided (the call run, or its rejection), an
 * `input_required` result that asks, or a tool error for a client that can ask nobody.
 */
async function approved(
  endpoint: MCPEndpoint,
  tool: RegisteredTool,
  calls: NormalizedCall[],
  pending: PendingApproval[],
  params: Record<string, unknown>,
  era: Era,
  exchange: MCPExchange,
  dispatchOptions: DispatchOptions,
): Promise<ToolMessage | Raw> {
  const { access, registry, options } = endpoint;
  const call = calls[0]!;
  const args = call.kind === "args" ? call.args : undefined;
  const secret = registry.options.approvalSecret ?? ownKey();
  const caller = callerName(exchange.auth, options.callerId);
  if (caller === undefined) return cannotAsk(tool.name, UNNAMED_CALLER);
  const binding = { caller, name: tool.name, args };

  if (era.modern) {
    if (params.requestState !== undefined) {
      const state = await decodeRequestState(secret, params.requestState, binding);
      if (typeof state === "string")
        throw new MCPProtocolError(
          INVALID_PARAMS,
          `Invalid params: the requestState was refused: ${state}. Nothing was run.`,
        );
      // Valid, unexpired, this caller's, and not used yet: only then is the user's answer (and any edit) read.
      if (await access.resumedBefore(state.nonce))
        throw new MCPProtocolError(
          INVALID_PARAMS,
          "Invalid params: the requestState was refused: it was resumed before. Nothing was run.",
        );
      const responses = isRecord(params.inputResponses) ? params.inputResponses : {};
      const decision = decisionFrom(state.pending[0]!.id, responses[APPROVAL_INPUT], args);
      // No answer to the question: ask it again, as the revision asks of a server still missing an input.
      if (!decision)
        return new Raw({
          resultType: "input_required",
          inputRequests: { [APPROVAL_INPUT]: elicit(tool.name, args, true) },
          requestState: params.requestState,
        });
      return resumed(endpoint, state, decision, dispatchOptions);
    }
    if (!canElicit(era.capabilities)) return cannotAsk(tool.name, "it declares no elicitation (form) capability");
    const state = await access.pause("mcp", calls, pending, dispatchOptions);
    return new Raw({
      resultType: "input_required",
      inputRequests: { [APPROVAL_INPUT]: elicit(tool.name, args, true) },
      requestState: await encodeRequestState(secret, state, binding, options.approvalTtlMs),
    });
  }

  if (!exchange.ask) {
    return cannotAsk(
      tool.name,
      `this server answers clients of revision ${era.version} over HTTP one request at a time and cannot wait for a question's answer; use a client of the 2026-07-28 revision, or stdio`,
    );
  }
  if (!canElicit(era.capabilities)) return cannotAsk(tool.name, "it declares no elicitation capability");
  const state = await access.pause("mcp", calls, pending, dispatchOptions);
  const answer = await exchange
    .ask(
      "elicitation/create",
      approvalQuestion(tool.name, args, era.version !== "2025-06-18" && era.version !== "2025-03-26"),
    )
    .catch((error: unknown) => {
      if (dispatchOptions.signal?.aborted) throw error;
      return undefined;
    });
  return resumed(
    endpoint,
    state,
    decisionFrom(pending[0]!.id, answer, args) ?? {
      id: pending[0]!.id,
      approved: false,
      reason: "The client gave no answer.",
    },
    dispatchOptions,
  );
}

function elicit(name: string, args: unknown, withMode: boolean): Record<string, unknown> {
  return { method: "elicitation/create", params: approvalQuestion(name, args, withMode) };
}

async function resumed(
  endpoint: MCPEndpoint,
  state: Parameters<MCPEndpoint["access"]["resume"]>[0],
  decision: ApprovalDecision,
  dispatchOptions: DispatchOptions,
): Promise<ToolMessage> {
  try {
    const [message] = await endpoint.access.resume(state, [decision], dispatchOptions);
    return message!;
  } catch (error) {
    // A state resumed before, or one the registry's own checks refuse: nothing ran.
    if (error instanceof TypeError) throw new MCPProtocolError(INVALID_PARAMS, `Invalid params: ${error.message}`);
    throw error;
  }
}

function cannotAsk(name: string, why: string): Raw {
  return new Raw({
    content: [
      {
        type: "text",
        text: `Error: ${name} needs a human's approval before it runs (needsApproval), and this client cannot ask one: ${why}. The tool was not run.`,
      },
    ],
    isError: true,
  });
}

/** A result written here rather than a call's answer (a question, a refusal to ask). */
class Raw {
  constructor(readonly result: Record<string, unknown>) {}
}

function callerFacing(error: unknown): boolean {
  if (
    error instanceof ToolError ||
    error instanceof ToolValidationError ||
    error instanceof ToolTimeoutError ||
    error instanceof ToolResultError
  )
    return true;
  return error instanceof Error && CALLER_FACING.has(error.name);
}

/** A tool's or the registry's `handleToolError` string or function: its author chose the text, so it goes out. */
function ownHandler(endpoint: MCPEndpoint, own: unknown): boolean {
  const handler = own ?? endpoint.registry.options.handleToolError;
  return typeof handler === "string" || typeof handler === "function";
}

/** A well-formed `traceparent` (telemetry/trace-context.ts reads it) and its `tracestate`, or nothing. */
function traceContext(meta: Record<string, unknown>): { traceparent: string; tracestate?: string } | undefined {
  const { traceparent, tracestate } = meta;
  if (typeof traceparent !== "string" || readTraceparent(traceparent) === undefined) return undefined;
  return typeof tracestate === "string" && tracestate.length <= 512 ? { traceparent, tracestate } : { traceparent };
}
