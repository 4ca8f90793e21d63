/**
 * What the MCP methods (endpoint.ts) and the transports (server.ts, fetch.ts) say to each other: the server's
 * options, what a transport knows of one request (`MCPExchange`), the revision a request speaks.
 */
import type { LoopAccess } from "../registry/core";
import type { BaseToolRegistry as ToolRegistry } from "../registry/core";
import type { ClientCapabilities, JsonRpcRequest, JsonRpcResponse, JsonRpcNotification } from "./protocol";

/** How the server introduces itself to clients, and what it lets out. */
export interface MCPServerOptions {
  /**
   * Server name in `server/discover`, `initialize` and each result's `_meta`. Default: the `name` of the app's
   * package.json (the one nearest its main module, else the working directory), else `"tooltype-server"`.
   */
  name?: string | undefined;
  /** Server version there. Default: the `version` of that package.json, else tooltype's version. */
  version?: string | undefined;
  /** Instructions for the client's model, sent by `server/discover` and `initialize`. */
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
  /** How long a client may keep a `tools/list` or `server/discover` answer, in milliseconds (`ttlMs`; default 60,000). */
  listTtlMs?: number;
  /**
   * How long a client has to bring back a user's approval of a `needsApproval` tool (the sealed `requestState`),
   * in milliseconds. Default 15 minutes.
   */
  approvalTtlMs?: number;
  /**
   * List every tool to every caller (`true`), or only the tools a caller holds the scopes for (`false`, the
   * default). A tool a caller cannot see is, to that caller, a tool that does not exist: `tools/list` leaves it out,
   * a call of it is an unknown tool (no scope challenge), and no error names it. Set `true` where clients should
   * learn of tools they may step up to (a call then gets the 403 `insufficient_scope` challenge naming the scopes).
   * A server with no caller (stdio: the local user who started it) lists every tool either way.
   */
  listAllTools?: boolean;
  /**
   * A stable id for the caller an `authenticate` result stands for, which approval states (`requestState`) and
   * session ids are bound to. Without it a caller is named by that result: a string or number as itself, plain JSON
   * (a token's claims) by its canonical text. A result that is not plain JSON (a BigInt, a cycle, a `Map`, a class
   * instance) cannot be told from another caller's, so no state or session is issued to it unless this names it.
   */
  callerId?: (auth: unknown) => string;
}

/** What a transport knows of one request. */
export interface MCPExchange {
  /** The `authenticate` result, passed to tools as `ToolContext.auth`. */
  auth?: unknown;
  /** Aborted when the request is cancelled (a closed stream, `notifications/cancelled`) or times out. */
  signal: AbortSignal;
  /** Sends a notification about this request (progress), where the transport has a way to. */
  notify?: (notification: JsonRpcNotification) => void;
  /** What `initialize` said on this connection (older revisions, on a connection that lives across requests). */
  session?: LegacySession;
  /** Asks the client a question and resolves to its answer (older revisions, on a live connection only). */
  ask?: (method: string, params: Record<string, unknown>) => Promise<unknown>;
  /** Resolves once the client has handled what was sent before (older revisions on a stream: see server.ts). */
  settle?: () => Promise<void>;
  /** `"private"` when the answer depends on the caller (an `authenticate`d endpoint): no shared cache may keep it. */
  cacheScope?: "public" | "private";
}

/** An older revision's connection, as `initialize` opened it. */
export interface LegacySession {
  version: string;
  capabilities: ClientCapabilities;
}

/** The revision a request speaks, read from it. */
export type Era =
  | { modern: true; capabilities: ClientCapabilities }
  | { modern: false; capabilities: ClientCapabilities | undefined; version: string };

/** A registry's MCP methods, made once per server or handler. */
export interface MCPEndpoint {
  readonly registry: ToolRegistry;
  readonly access: LoopAccess;
  readonly options: Required<
    Pick<MCPServerOptions, "exposeErrors" | "progressIntervalMs" | "listTtlMs" | "approvalTtlMs">
  > &
    MCPServerOptions;
  readonly serverInfo: { name: string; version: string };
  /** The answer to one request (never rejects: a failure is a JSON-RPC error). */
  answer(request: JsonRpcRequest, exchange: MCPExchange): Promise<JsonRpcResponse>;
  /** The revision `request` speaks, or the `UnsupportedProtocolVersion` error for a version this server does not. */
  eraOf(request: JsonRpcRequest, session?: LegacySession): Era | JsonRpcResponse;
}
