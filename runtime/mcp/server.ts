/**
 * The MCP server of a registry (SDK `Server`), shared by every transport: stdio, the Web-standard HTTP handler and
 * the Node bridge over it.
 *
 * - `tools/list` is `registry.toMCPTools()` (`toMCPTools(registry.list())`, so any registry serves) (title, annotations, output schemas included).
 * - `tools/call` runs through the registry's dispatch pipeline. Invalid arguments and failing tools are
 *   `isError: true` results the model can read; an unknown tool is JSON-RPC error -32602, as the protocol asks.
 * - The call's `ToolContext` gets the caller (`auth`, from the HTTP `authenticate` hook), a `progress` function that
 *   sends `notifications/progress` when the client sent a `progressToken` (at most one per `progressIntervalMs`,
 *   see progress.ts), and a signal aborted by the client's
 *   `notifications/cancelled` (the SDK's, on a connection that lives across requests) or by the HTTP layer.
 * - Error policy: with `exposeErrors: false` (the HTTP default) only texts written for the caller go out verbatim
 *   (a `ToolError`, a validation error, tooltype's own timeout and result errors, and whatever a tool's or
 *   registry's own `handleToolError` returns); any other failure becomes a generic text, since an exception's
 *   message may carry paths, connection strings or tokens. stdio (a local child process) exposes them by default.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type CallToolResult,
  CallToolRequestSchema,
  EmptyResultSchema,
  ErrorCode,
  type ListToolsResult,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { fitsSchema } from "../arguments/schema-fit";
import type { ToolErrorEvent } from "../dispatch/options";
import { toMCPResult } from "../providers/mcp/answer";
import { mcpOutputSchema, toMCPTools } from "../providers/mcp/tools";
import { PROGRESS_INTERVAL_MS, PROGRESS_SETTLE_MS, throttleProgress } from "./progress";
import { MCPProtocolError } from "./protocol-error";
import { enforceScopes } from "./scopes";
import type { BaseToolRegistry as ToolRegistry } from "../registry/core";
import { ToolError, ToolResultError, ToolTimeoutError, ToolValidationError } from "../tool/errors";
import type { JsonSchema } from "../tool/meta";

/** How the server introduces itself to clients, and what it lets out. */
export interface MCPServerOptions {
  /** Server name in the `initialize` result (default `"tooltype"`). */
  name?: string;
  /** Server version in the `initialize` result (default `"0.0.0"`). */
  version?: string;
  /** Instructions for the client's model, sent in the `initialize` result. */
  instructions?: string;
  /** Values for every call's `ToolContext.metadata` (laid over each tool's own `metadata`). */
  metadata?: Record<string, unknown>;
  /**
   * Send every failure's own text to the client. Default `true` for `createMCPServer`/`serveMCP` (a local
   * process), `false` for the HTTP handlers: there only texts written for the caller go out, anything else as a
   * generic "failed" text (log the real error with the registry's `onToolError` hook).
   */
  exposeErrors?: boolean;
  /** A time limit for each `tools/call`, in milliseconds (`DispatchOptions.timeoutMs`). HTTP default 60,000. */
  timeoutMs?: number;
  /**
   * At most one `notifications/progress` per call in this many milliseconds (default 100; 0 sends every report).
   * The newest report of an interval is sent at its end, and the last one before the result.
   */
  progressIntervalMs?: number;
}

/** What the HTTP layer adds for one request. */
export interface MCPRequestScope {
  /**
   * The `authenticate` result, passed to tools as `ToolContext.auth`. Present (even `undefined`), it is the caller
   * a tool's `scopes` are checked against; a scope without it (stdio) checks none.
   */
  auth?: unknown;
  /** Aborted when the request is cancelled or its connection closes. */
  signal?: AbortSignal;
}

/** tooltype's own error classes, whose texts are written for the caller (by class, and by name across package copies). */
const CALLER_FACING = new Set(["ToolError", "ToolValidationError", "ToolTimeoutError", "ToolResultError"]);

/** An SDK `Server` offering the registry's tools. Connect it with `server.connect(transport)`. */
export function createMCPServer(registry: ToolRegistry, options: MCPServerOptions = {}, scope: MCPRequestScope = {}): Server {
  const server = new Server(
    { name: options.name ?? "tooltype", version: options.version ?? "0.0.0" },
    {
      capabilities: { tools: {} },
      jsonSchemaValidator: walkingValidator,
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    },
  );
  const exposeErrors = options.exposeErrors ?? true;
  const progressIntervalMs = options.progressIntervalMs ?? PROGRESS_INTERVAL_MS;
  if (typeof progressIntervalMs !== "number" || !(progressIntervalMs >= 0) || !Number.isFinite(progressIntervalMs)) {
    throw new TypeError(`createMCPServer: progressIntervalMs must be a finite number of milliseconds, 0 or more; got ${String(progressIntervalMs)}.`);
  }

  server.setRequestHandler(ListToolsRequestSchema, (): ListToolsResult => ({ tools: toMCPTools(registry.list()) }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    const tool = registry.get(name);
    if (!tool) {
      const names = registry.list().map((t) => t.name);
      throw new MCPProtocolError(
        ErrorCode.InvalidParams,
        `Unknown tool: ${JSON.stringify(name)}. ${names.length > 0 ? `Valid tools: ${names.join(", ")}.` : "No tools are registered."}`,
      );
    }
    enforceScopes(tool, scope);
    const progressToken = request.params._meta?.progressToken;
    let failure: ToolErrorEvent | undefined;
    const signal = scope.signal ? AbortSignal.any([extra.signal, scope.signal]) : extra.signal;
    // Progress is advisory: a notification that cannot be sent (the client left) is dropped.
    let notified = false;
    const progress =
      progressToken === undefined
        ? undefined
        : throttleProgress((update) => {
            notified = true;
            extra.sendNotification({ method: "notifications/progress", params: { progressToken, ...update } }).catch(() => undefined);
          }, progressIntervalMs);
    let message;
    try {
      [message] = await registry.runCalls(
        { tool_calls: [{ id: String(extra.requestId), name, args: args ?? {} }] },
        {
          signal,
          ...(options.metadata === undefined ? {} : { metadata: options.metadata }),
          ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
          auth: scope.auth,
          onToolError: (event) => (failure = event),
          ...(progress === undefined ? {} : { onProgress: (update) => progress.report(update) }),
        },
      );
    } catch (error) {
      // The call was aborted (the SDK sends no answer to a cancelled request), or a handler set to `false` rethrew.
      if (exposeErrors || signal.aborted) throw error;
      throw new MCPProtocolError(ErrorCode.InternalError, `Internal error: ${name} failed; the details stay on the server.`);
    } finally {
      progress?.finish(!signal.aborted);
    }
    // The SDK client reads the messages of one chunk of a stream (stdio) in one go: it handles a response at once
    // but a notification a microtask later, by which time the response has removed the call's progress handler, so
    // a report sent right before the result is dropped. The client answers a ping only after it has handled what
    // came before it. Over the HTTP handlers (a scope) the client reads one SSE event at a time, and a stateless
    // server could not receive the ping's answer.
    if (notified && !signal.aborted && !scope.signal) {
      await extra.sendRequest({ method: "ping" }, EmptyResultSchema, { timeout: PROGRESS_SETTLE_MS }).catch(() => undefined);
    }
    const result = toMCPResult(message!, mcpOutputSchema(tool));
    if (!exposeErrors && failure?.kind === "tool" && !callerFacing(failure.error) && !ownHandler(registry, tool.options.handleToolError)) {
      return { content: [{ type: "text", text: `Error: ${name} failed. The server keeps the details; try other arguments or another tool.` }], isError: true };
    }
    return result;
  });

  return server;
}

/** Serve the registry's tools on `transport` (e.g. `new StdioServerTransport()`); resolves once connected. */
export async function serveMCP(registry: ToolRegistry, transport: Transport, options: MCPServerOptions = {}): Promise<Server> {
  const server = createMCPServer(registry, options);
  await server.connect(transport);
  return server;
}

function callerFacing(error: unknown): boolean {
  if (error instanceof ToolError || error instanceof ToolValidationError || error instanceof ToolTimeoutError || error instanceof ToolResultError) return true;
  return error instanceof Error && CALLER_FACING.has(error.name);
}

/** A tool's or the registry's `handleToolError` string or function: its author chose the text, so it goes out. */
function ownHandler(registry: ToolRegistry, own: unknown): boolean {
  const handler = own ?? registry.options.handleToolError;
  return typeof handler === "string" || typeof handler === "function";
}

/**
 * The SDK validates elicitation answers with ajv by default, which compiles code at run time (forbidden on Workers)
 * and costs a compile per fresh server; tooltype never elicits, and a schema walk is enough where one is checked.
 */
const walkingValidator: jsonSchemaValidator = {
  getValidator: <T>(schema: object) => (input: unknown) =>
    fitsSchema(input, schema, schema as JsonSchema)
      ? { valid: true as const, data: input as T, errorMessage: undefined }
      : { valid: false as const, data: undefined, errorMessage: "The value does not match the requested schema." },
};
