/**
 * The MCP methods a tool server answers, on the 2026-07-28 revision and on the older ones, for every transport
 * (stdio and other connections: server.ts; HTTP: fetch.ts), which hands a request over as an `MCPExchange`.
 */
import { loopAccess } from "../registry/core";
import type { BaseToolRegistry as ToolRegistry } from "../registry/core";
import type { Era, MCPEndpoint, MCPExchange, MCPServerOptions } from "./exchange";
import { toMCPTools } from "./format/tools";
import { PROGRESS_INTERVAL_MS } from "./progress";
import { defaultServerInfo } from "./server-info";
import {
  type ClientCapabilities,
  errorResponse,
  INTERNAL_ERROR,
  INVALID_PARAMS,
  isRecord,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  LEGACY_VERSIONS,
  META_CLIENT_CAPABILITIES,
  META_PROTOCOL_VERSION,
  META_SERVER_INFO,
  META_SUBSCRIPTION_ID,
  metaCapabilities,
  METHOD_NOT_FOUND,
  MODERN_VERSION,
  SUPPORTED_VERSIONS,
  UNSUPPORTED_PROTOCOL_VERSION,
} from "./protocol";
import { MCPProtocolError } from "./protocol-error";
import { visibleTo } from "./scopes";
import { callTool } from "./tool-call";

export type { Era, LegacySession, MCPEndpoint, MCPExchange, MCPServerOptions } from "./exchange";

/**
 * The endpoint of `registry`: it answers a request with what its transport knows of it and knows no transport.
 * - Which revision a request speaks: one whose `_meta` names `io.modelcontextprotocol/protocolVersion` is of the
 *   current revision (another version there: `UnsupportedProtocolVersion`, -32022, with the versions served);
 *   `initialize` opens an older revision (2025-11-25, 2025-06-18, 2025-03-26), and a request with no version in its
 *   `_meta` is read as one of those.
 * - `server/discover` (current), `initialize` and `ping` (older), `tools/list` (deterministic: registration order;
 *   `ttlMs` and `cacheScope` on the current revision), `tools/call` (tool-call.ts). Results of the current revision
 *   carry `resultType` and the server's identity in `_meta`.
 * - `subscriptions/listen` is the transport's (it keeps a stream open); `acknowledgeListen` writes its first message.
 */
/** The protocol version a request's `_meta` names, if any. */
function metaVersionOf(request: JsonRpcRequest): unknown {
  return isRecord(request.params) && isRecord(request.params._meta)
    ? request.params._meta[META_PROTOCOL_VERSION]
    : undefined;
}

export function mcpEndpoint(registry: ToolRegistry, options: MCPServerOptions = {}): MCPEndpoint {
  const progressIntervalMs = options.progressIntervalMs ?? PROGRESS_INTERVAL_MS;
  if (typeof progressIntervalMs !== "number" || !(progressIntervalMs >= 0) || !Number.isFinite(progressIntervalMs)) {
    throw new TypeError(
      `createMCPServer: progressIntervalMs must be a finite number of milliseconds, 0 or more; got ${String(progressIntervalMs)}.`,
    );
  }
  for (const name of ["listTtlMs", "approvalTtlMs"] as const) {
    const value = options[name];
    if (value !== undefined && !(typeof value === "number" && value >= 0 && Number.isFinite(value))) {
      throw new TypeError(
        `createMCPServer: ${name} must be a finite number of milliseconds, 0 or more; got ${String(value)}.`,
      );
    }
  }
  // Without a name or version of its own, the server is the app's (its package.json), read once per process.
  const serverInfo = {
    name: options.name ?? defaultServerInfo().name,
    version: options.version ?? defaultServerInfo().version,
  };
  const endpoint: MCPEndpoint = {
    registry,
    access: loopAccess(registry, "createMCPServer"),
    options: {
      ...options,
      exposeErrors: options.exposeErrors ?? true,
      progressIntervalMs,
      listTtlMs: options.listTtlMs ?? 60_000,
      approvalTtlMs: options.approvalTtlMs ?? 15 * 60 * 1000,
    },
    serverInfo,
    eraOf(request, session) {
      const version =
        isRecord(request.params) && isRecord(request.params._meta)
          ? request.params._meta[META_PROTOCOL_VERSION]
          : undefined;
      if (version === undefined)
        return { modern: false, capabilities: session?.capabilities, version: session?.version ?? LEGACY_VERSIONS[0]! };
      if (version !== MODERN_VERSION) return unsupported(request.id, version);
      // The revision requires the client's capabilities on every request (the conformance suite: 400, -32602).
      if (!isRecord((request.params as { _meta: Record<string, unknown> })._meta[META_CLIENT_CAPABILITIES])) {
        return errorResponse(
          request.id,
          INVALID_PARAMS,
          `Invalid params: a request of the ${MODERN_VERSION} revision carries the client's capabilities in _meta (${META_CLIENT_CAPABILITIES}), an object ({} for none).`,
        );
      }
      // The revision removed initialize and ping: a request of it for either is for a method that does not exist (404).
      if (request.method === "initialize" || request.method === "ping") {
        return errorResponse(
          request.id,
          METHOD_NOT_FOUND,
          `Method not found: the ${MODERN_VERSION} revision has no ${request.method} (server/discover tells a client what the server offers).`,
        );
      }
      return { modern: true, capabilities: metaCapabilities(request) };
    },
    async answer(request, exchange) {
      try {
        if (request.method === "initialize" && metaVersionOf(request) === undefined)
          return reply(request.id, initializeResult(endpoint, request, exchange));
        const era = endpoint.eraOf(request, exchange.session);
        if ("jsonrpc" in era) return era;
        const result = await answerIn(endpoint, request, era, exchange);
        return reply(request.id, era.modern ? modernResult(endpoint, result) : result);
      } catch (error) {
        if (error instanceof MCPProtocolError) return errorResponse(request.id, error.code, error.message, error.data);
        // A cancelled request's answer is read by nobody (a connection sends none); over HTTP it ends the response.
        if (exchange.signal.aborted)
          return errorResponse(request.id, INTERNAL_ERROR, `Request cancelled: ${errorText(exchange.signal.reason)}`);
        return errorResponse(
          request.id,
          INTERNAL_ERROR,
          endpoint.options.exposeErrors ? errorText(error) : "Internal error: the details stay on the server.",
        );
      }
    },
  };
  return endpoint;
}

async function answerIn(
  endpoint: MCPEndpoint,
  request: JsonRpcRequest,
  era: Era,
  exchange: MCPExchange,
): Promise<Record<string, unknown>> {
  switch (request.method) {
    case "server/discover":
      return {
        supportedVersions: [...SUPPORTED_VERSIONS],
        capabilities: { tools: { listChanged: true } },
        ...(endpoint.options.instructions === undefined ? {} : { instructions: endpoint.options.instructions }),
        ...cacheable(endpoint, exchange),
      };
    case "ping":
      return {};
    case "tools/list":
      return {
        tools: toMCPTools(
          endpoint.registry.list().filter((tool) => visibleTo(tool, exchange, endpoint.options.listAllTools)),
        ),
        ...(era.modern ? cacheable(endpoint, exchange) : {}),
      };
    case "tools/call":
      return callTool(endpoint, request, era, exchange);
    default:
      throw new MCPProtocolError(
        METHOD_NOT_FOUND,
        `Method not found: ${JSON.stringify(request.method).slice(0, 100)}. This server offers tools (tools/list, tools/call).`,
      );
  }
}

function initializeResult(
  endpoint: MCPEndpoint,
  request: JsonRpcRequest,
  exchange: MCPExchange,
): Record<string, unknown> {
  const params = isRecord(request.params) ? request.params : {};
  const asked = params.protocolVersion;
  // The client's own revision when this server speaks it, else the newest older one (the client may then close).
  const version = typeof asked === "string" && LEGACY_VERSIONS.includes(asked) ? asked : LEGACY_VERSIONS[0]!;
  if (exchange.session) {
    exchange.session.version = version;
    exchange.session.capabilities = isRecord(params.capabilities) ? (params.capabilities as ClientCapabilities) : {};
  }
  return {
    protocolVersion: version,
    // List changes reach an older client only on a connection (its HTTP stream was a GET this server does not keep).
    capabilities: { tools: exchange.session ? { listChanged: true } : {} },
    serverInfo: endpoint.serverInfo,
    ...(endpoint.options.instructions === undefined ? {} : { instructions: endpoint.options.instructions }),
  };
}

function cacheable(endpoint: MCPEndpoint, exchange: MCPExchange): { ttlMs: number; cacheScope: "public" | "private" } {
  return { ttlMs: endpoint.options.listTtlMs, cacheScope: exchange.cacheScope ?? "public" };
}

/** A result of the current revision: `resultType` (unless the method set it) and the server's identity. */
function modernResult(endpoint: MCPEndpoint, result: Record<string, unknown>): Record<string, unknown> {
  const meta = isRecord(result._meta) ? result._meta : {};
  return { resultType: "complete", ...result, _meta: { ...meta, [META_SERVER_INFO]: endpoint.serverInfo } };
}

function reply(id: JsonRpcRequest["id"], result: Record<string, unknown>): JsonRpcResponse {
  return { jsonrpc: "2.0", id, result };
}

function unsupported(id: JsonRpcRequest["id"], requested: unknown): JsonRpcResponse {
  return errorResponse(
    id,
    UNSUPPORTED_PROTOCOL_VERSION,
    `Unsupported protocol version: ${JSON.stringify(requested)?.slice(0, 60)}. This server speaks ${SUPPORTED_VERSIONS.join(", ")}.`,
    {
      supported: [...SUPPORTED_VERSIONS],
      requested: typeof requested === "string" ? requested : String(requested),
    },
  );
}

/** The first message of a `subscriptions/listen` stream: what the server agreed to send (tool list changes only). */
export function acknowledgeListen(
  request: JsonRpcRequest,
): { notification: JsonRpcNotification; tools: boolean } | JsonRpcResponse {
  const params = isRecord(request.params) ? request.params : {};
  if (params.notifications !== undefined && !isRecord(params.notifications)) {
    return errorResponse(
      request.id,
      INVALID_PARAMS,
      "Invalid params: subscriptions/listen takes { notifications: { toolsListChanged?: boolean, … } }.",
    );
  }
  const tools = isRecord(params.notifications) && params.notifications.toolsListChanged === true;
  return {
    tools,
    notification: {
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { _meta: { [META_SUBSCRIPTION_ID]: request.id }, notifications: tools ? { toolsListChanged: true } : {} },
    },
  };
}

/** A tool list change on the stream of subscription `id`. */
export function listChanged(id: JsonRpcRequest["id"]): JsonRpcNotification {
  return {
    jsonrpc: "2.0",
    method: "notifications/tools/list_changed",
    params: { _meta: { [META_SUBSCRIPTION_ID]: id } },
  };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
