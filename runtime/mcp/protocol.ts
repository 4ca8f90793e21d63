/**
 * The words of the MCP wire that the server answers in (revisions, `_meta` keys, JSON-RPC error codes, message
 * shapes): plain data, so a Worker that serves a handful of methods carries no protocol library.
 */

/** The current revision: stateless, every request carries its version and the client's capabilities in `_meta`. */
export const MODERN_VERSION = "2026-07-28";
/** Revisions of clients that open with `initialize` (the Inspector, desktop clients, SDK 1.x), newest first. */
export const LEGACY_VERSIONS: readonly string[] = ["2025-11-25", "2025-06-18", "2025-03-26"];
/** Every revision this server answers, the current one first (`server/discover`, `UnsupportedProtocolVersion`). */
export const SUPPORTED_VERSIONS: readonly string[] = [MODERN_VERSION, ...LEGACY_VERSIONS];

/** The `_meta` keys of the current revision. */
export const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
export const META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
export const META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
export const META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";
export const META_SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

/** JSON-RPC's codes and the ones the MCP revision reserves (-32020 to -32099). */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
export const HEADER_MISMATCH = -32020;
export const MISSING_CLIENT_CAPABILITY = -32021;
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

export type RequestId = string | number;

export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: RequestId;
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}

export type JsonRpcResponse =
  | { jsonrpc: "2.0"; id: RequestId; result: Record<string, unknown> }
  | { jsonrpc: "2.0"; id: RequestId | null; error: JsonRpcError };

/** The client's capabilities as a request declares them (the part the server reads). */
export interface ClientCapabilities {
  elicitation?: { form?: object; url?: object } | Record<string, never>;
  [key: string]: unknown;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isRequest(message: unknown): message is JsonRpcRequest {
  return (
    isRecord(message) &&
    typeof message.method === "string" &&
    (typeof message.id === "string" || typeof message.id === "number")
  );
}

export function isNotification(message: unknown): message is JsonRpcNotification {
  return isRecord(message) && typeof message.method === "string" && !("id" in message);
}

export function isResponse(message: unknown): boolean {
  return isRecord(message) && ("result" in message || "error" in message) && !("method" in message);
}

/** The protocol version a request of the current revision names in its `_meta`, if any. */
export function metaVersion(message: { params?: unknown }): unknown {
  const meta = isRecord(message.params) && isRecord(message.params._meta) ? message.params._meta : undefined;
  return meta?.[META_PROTOCOL_VERSION];
}

/** The client's capabilities a request of the current revision declares (none when absent). */
export function metaCapabilities(message: { params?: unknown }): ClientCapabilities {
  const meta = isRecord(message.params) && isRecord(message.params._meta) ? message.params._meta : undefined;
  const capabilities = meta?.[META_CLIENT_CAPABILITIES];
  return isRecord(capabilities) ? (capabilities as ClientCapabilities) : {};
}

/** Whether the client can be asked a question (form elicitation), as its capabilities say. */
export function canElicit(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation;
  if (!isRecord(elicitation)) return false;
  // `{}` means form mode (the revision keeps the 2025-06-18 reading); a client that lists modes must list form.
  return Object.keys(elicitation).length === 0 || isRecord(elicitation.form);
}

export function errorResponse(id: RequestId | null, code: number, message: string, data?: unknown): JsonRpcResponse {
  return { jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } };
}
