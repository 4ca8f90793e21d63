/**
 * Who may reach the MCP endpoint over HTTP, and how much they may send: the one policy both HTTP entries share,
 * Web-standard only (Request, Response, streams), so it runs on Workers, Deno, Bun and Node alike.
 */
import { readJson } from "../arguments/read/bounded-json";
import { type MCPAuthorization, protectedResourceMetadataUrl } from "./authorization";
import type { MCPServerOptions } from "./exchange";

/** Default `maxBodyBytes`: a call's arguments may be 1 MiB (dispatch's limit), plus the JSON-RPC envelope. */
export const MCP_MAX_BODY_BYTES = 2 * 1024 * 1024;
/** Default `maxBatchSize` (MCP 2025-06-18 dropped batches; older clients may still send small ones). */
export const MCP_MAX_BATCH_SIZE = 16;
/** Default `maxConcurrentRequests`: requests one handler serves at once. */
export const MCP_MAX_CONCURRENT_REQUESTS = 64;
/** Defaults of the `subscriptions/listen` streams: how many are open at once, in all and per caller, and for how long. */
export const MCP_MAX_LISTENS = 32;
export const MCP_MAX_LISTENS_PER_CALLER = 2;
export const MCP_LISTEN_IDLE_MS = 5 * 60_000;
export const MCP_LISTEN_LIFETIME_MS = 30 * 60_000;
/** Default `bodyTimeoutMs`: time to receive a request's body once its credentials passed. */
export const MCP_BODY_TIMEOUT_MS = 30_000;
/** Default time limit of one `tools/call` over HTTP. */
export const MCP_HTTP_TIMEOUT_MS = 60_000;
/**
 * The deepest JSON-RPC body read: the envelope and the call's parameters (a handful of levels) around arguments
 * that dispatch limits to 64 levels by default (`maxArgumentsDepth`), with room for a registry that allows more.
 */
export const MCP_MAX_BODY_DEPTH = 256;

/** The host names a server accepts when no `allowedHosts` are given. */
export const LOOPBACK_HOSTS: readonly string[] = ["localhost", "127.0.0.1", "::1"];

/** Options of the HTTP entries (`mcpFetchHandler`, `mcpHttpHandler`). */
export interface MCPHttpOptions extends MCPServerOptions {
  /**
   * Host names (no port) a request's `Host` header may name: the defence against DNS rebinding. Default: the
   * loopback names (`localhost`, `127.0.0.1`, `::1`). A public deployment lists its own names, or `"any"` when
   * the platform routes only its own hosts to it (Workers, Deno Deploy, a serverless function).
   */
  allowedHosts?: readonly string[] | "any";
  /**
   * Browser origins (`https://app.example`) whose pages may call the tools. Default: none but the server's own
   * host. `"any"` turns the check off (only with `authenticate` that does not rely on cookies).
   */
  allowedOrigins?: readonly string[] | "any";
  /**
   * Who is calling. Return anything (a user, a token's claims) to accept the request: it reaches every tool as
   * `ToolContext.auth`. Return `undefined`/`null`/`false` to answer 401; throw `MCPAuthError` for 403 (or a 401 of
   * your own text). Runs before the body is read.
   */
  authenticate?: (request: Request) => unknown;
  /**
   * The URL of this server's OAuth protected-resource metadata (RFC 9728), sent in `WWW-Authenticate` with a 401 so
   * that MCP clients can find the authorization server. Default with `authorization`: the handler's own.
   */
  resourceMetadataUrl?: string;
  /**
   * This server as an OAuth protected resource (MCP authorization): its URL and authorization servers. The
   * handler then serves the Protected Resource Metadata (RFC 9728) at `/.well-known/oauth-protected-resource` plus
   * the resource's path, and its challenges point there with the scopes to ask for. Verify tokens (audience
   * included) in `authenticate`.
   */
  authorization?: MCPAuthorization;
  /** Refuse request bodies larger than this many bytes (413). Default 2 MiB (2,097,152). */
  maxBodyBytes?: number;
  /** Refuse JSON-RPC batches of more messages than this (400). Default 16. */
  maxBatchSize?: number;
  /**
   * Requests this handler serves at once, from the moment they arrive until their answer is sent; one more is
   * answered 503 with `Retry-After`, before its credentials or body are read. Default 64.
   */
  maxConcurrentRequests?: number;
  /**
   * Requests one authenticated caller may have served at once (503 with `Retry-After` beyond), so that one caller
   * never takes the slots others need. Default a quarter of `maxConcurrentRequests`. Callers are told apart by
   * `callerId` or what `authenticate` returned; without `authenticate` every caller is the same, and only
   * `maxConcurrentRequests` applies.
   */
  maxRequestsPerCaller?: number;
  /**
   * `subscriptions/listen` streams open at once (503 beyond). They hold no request slot: an idle subscription never
   * keeps a call from being served. Default 32.
   */
  maxListens?: number;
  /**
   * `subscriptions/listen` streams one caller may hold open at once (503 beyond). Default 2. Callers are told apart
   * as for `maxRequestsPerCaller`: without `authenticate` every caller is the same, and only `maxListens` applies.
   */
  maxListensPerCaller?: number;
  /** A `subscriptions/listen` stream with nothing sent for this many milliseconds is closed (the client listens again). Default 5 minutes. */
  listenIdleMs?: number;
  /** A `subscriptions/listen` stream is closed after this many milliseconds whatever it sent. Default 30 minutes. */
  listenLifetimeMs?: number;
  /** Time to receive a request's whole body once its credentials passed (408 after it). Default 30 s. */
  bodyTimeoutMs?: number;
  /**
   * `true`: always answer with one JSON body; `false`: always with an SSE stream. Default: JSON, unless the client
   * asked for progress (a `progressToken`), which needs the stream.
   */
  jsonResponse?: boolean;
}

/**
 * Thrown by `authenticate` to refuse a request with a status of your choosing: 403 when the caller is known but may
 * not use this server (`scope` names what is missing), 401 when its credentials are wrong.
 */
export class MCPAuthError extends Error {
  override readonly name = "MCPAuthError";
  constructor(
    readonly status: 401 | 403,
    message: string,
    readonly scope?: string,
  ) {
    super(message);
  }
}

/** The policy with its defaults applied, made once per handler. */
export interface HttpPolicy {
  readonly hosts: ReadonlySet<string> | "any";
  readonly origins: ReadonlySet<string> | "any";
  readonly authenticate: ((request: Request) => unknown) | undefined;
  readonly resourceMetadataUrl: string | undefined;
  /** The scopes a 401 challenge asks for (`authorization.scopesSupported`). */
  readonly challengeScope: string | undefined;
  readonly maxBodyBytes: number;
  readonly maxBatchSize: number;
  readonly maxConcurrentRequests: number;
  readonly maxRequestsPerCaller: number;
  readonly maxListens: number;
  readonly maxListensPerCaller: number;
  readonly listenIdleMs: number;
  readonly listenLifetimeMs: number;
  readonly bodyTimeoutMs: number;
  readonly exposeErrors: boolean;
}

export function httpPolicy(options: MCPHttpOptions): HttpPolicy {
  const list = (
    value: readonly string[] | "any" | undefined,
    fallback: readonly string[],
    normalise: (entry: string) => string,
  ) => (value === "any" ? "any" : new Set((value ?? fallback).map(normalise)));
  return {
    hosts: list(options.allowedHosts, LOOPBACK_HOSTS, (host) => stripBrackets(host.toLowerCase())),
    origins: list(options.allowedOrigins, [], (origin) => origin.toLowerCase().replace(/\/+$/, "")),
    authenticate: options.authenticate,
    resourceMetadataUrl: options.resourceMetadataUrl ?? protectedResourceMetadataUrl(options.authorization),
    challengeScope: options.authorization?.scopesSupported?.join(" ") || undefined,
    maxBodyBytes: positive(options.maxBodyBytes, "maxBodyBytes") ?? MCP_MAX_BODY_BYTES,
    maxBatchSize: positive(options.maxBatchSize, "maxBatchSize") ?? MCP_MAX_BATCH_SIZE,
    maxConcurrentRequests:
      positive(options.maxConcurrentRequests, "maxConcurrentRequests") ?? MCP_MAX_CONCURRENT_REQUESTS,
    maxRequestsPerCaller:
      positive(options.maxRequestsPerCaller, "maxRequestsPerCaller") ??
      Math.max(
        1,
        Math.floor(
          (positive(options.maxConcurrentRequests, "maxConcurrentRequests") ?? MCP_MAX_CONCURRENT_REQUESTS) / 4,
        ),
      ),
    maxListens: positive(options.maxListens, "maxListens") ?? MCP_MAX_LISTENS,
    maxListensPerCaller: positive(options.maxListensPerCaller, "maxListensPerCaller") ?? MCP_MAX_LISTENS_PER_CALLER,
    listenIdleMs: positive(options.listenIdleMs, "listenIdleMs") ?? MCP_LISTEN_IDLE_MS,
    listenLifetimeMs: positive(options.listenLifetimeMs, "listenLifetimeMs") ?? MCP_LISTEN_LIFETIME_MS,
    bodyTimeoutMs: positive(options.bodyTimeoutMs, "bodyTimeoutMs") ?? MCP_BODY_TIMEOUT_MS,
    exposeErrors: options.exposeErrors ?? false,
  };
}

/** A request the policy let through: who called and the parsed JSON-RPC body. */
export interface Admitted {
  auth: unknown;
  body: unknown;
}

/**
 * The request's refusal (a Response), or what passed. In order, each refusal a JSON-RPC error body with its status:
 * 1. Host (DNS rebinding): the `Host` header's name (and the request URL's, where they differ) must be allowed;
 *    default the loopback names only.
 * 2. Origin: a browser's `Origin` must be listed or be the request's own host; a request without one (a program,
 *    not a page) passes. A page on another site can never drive the tools.
 * 3. Method: POST only (stateless: no GET stream, no DELETE of a session; the 2026-07-28 revision has neither) → 405; a
 * browser's
 *    OPTIONS preflight from an allowed origin → 204 with the CORS headers the POST needs.
 * 4. `authenticate(request)`: nothing returned → 401 with `WWW-Authenticate` (MCP's authorization rules, RFC 6750
 *    and RFC 9728's `resource_metadata`); an `MCPAuthError(403)` → 403 (`insufficient_scope`).
 * 5. Body: at most `maxBodyBytes` (by Content-Length, then counted while read) → 413; JSON → else 400 (-32700); a
 *    batch of at most `maxBatchSize` messages → else 400.
 */
export async function admit(request: Request, policy: HttpPolicy): Promise<Response | Admitted> {
  const urlHost = new URL(request.url).host;
  const hostHeader = request.headers.get("host") ?? urlHost;
  if (policy.hosts !== "any") {
    // Both must be allowed: they agree on every platform, and a proxy or test harness that makes them differ
    // must not open a way around the check.
    for (const candidate of hostHeader === urlHost ? [hostHeader] : [hostHeader, urlHost]) {
      if (!policy.hosts.has(hostName(candidate))) {
        return refusal(
          403,
          -32000,
          `Host ${JSON.stringify(truncate(candidate))} is not allowed (DNS rebinding protection). The server's owner lists its host names in allowedHosts.`,
        );
      }
    }
  }
  const origin = request.headers.get("origin");
  if (origin !== null && policy.origins !== "any" && !originAllowed(origin, hostHeader, policy.origins)) {
    return refusal(
      403,
      -32000,
      `Origin ${JSON.stringify(truncate(origin))} is not allowed. The server's owner lists the web origins that may call it in allowedOrigins.`,
    );
  }
  if (request.method === "OPTIONS" && origin !== null) {
    // A browser's CORS preflight from an allowed origin: say what the real request may carry.
    return new Response(null, { status: 204, headers: { ...corsHeaders(origin), ...PREFLIGHT } });
  }
  if (request.method !== "POST") {
    return refusal(405, -32000, "Method not allowed: this MCP server is stateless and takes POST requests only.", {
      allow: "POST",
    });
  }

  let auth: unknown;
  if (policy.authenticate) {
    try {
      auth = await policy.authenticate(request);
    } catch (error) {
      if (error instanceof MCPAuthError || (error instanceof Error && error.name === "MCPAuthError")) {
        const { status, scope } = error as MCPAuthError;
        return status === 403
          ? refusal(
              403,
              -32000,
              `Forbidden: ${error.message}`,
              challengeHeaders(origin, challenge(policy, "insufficient_scope", scope)),
            )
          : refusal(
              401,
              -32000,
              `Unauthorized: ${error.message}`,
              challengeHeaders(origin, challenge(policy, "invalid_token")),
            );
      }
      return refusal(
        500,
        -32603,
        policy.exposeErrors
          ? `Internal error in authenticate: ${errorMessage(error)}`
          : "Internal error: the server could not check the request's credentials.",
      );
    }
    if (auth === undefined || auth === null || auth === false) {
      const presented = request.headers.has("authorization");
      return refusal(
        401,
        -32000,
        presented
          ? "Unauthorized: the credentials were not accepted."
          : "Unauthorized: this MCP server needs credentials (an Authorization header).",
        challengeHeaders(origin, challenge(policy, presented ? "invalid_token" : undefined)),
      );
    }
  }

  const text = await readBody(request, policy.maxBodyBytes, policy.bodyTimeoutMs);
  if (text === TOO_SLOW) {
    return refusal(
      408,
      -32600,
      `Request timeout: the body was not received within ${policy.bodyTimeoutMs} ms (bodyTimeoutMs).`,
      { connection: "close" },
    );
  }
  if (text === undefined) {
    return refusal(
      413,
      -32600,
      `Request body too large: this server takes at most ${policy.maxBodyBytes} bytes (maxBodyBytes).`,
    );
  }
  // The body's size was counted as it arrived; its depth is refused before parsing (a million levels: about 3 s).
  const read = readJson(text, { maxBytes: Infinity, maxDepth: MCP_MAX_BODY_DEPTH });
  if (!read.ok) {
    return read.problem === "too_deep"
      ? refusal(400, -32600, `Invalid request: the body nests deeper than ${MCP_MAX_BODY_DEPTH} levels.`)
      : refusal(400, -32700, "Parse error: the request body is not valid JSON.");
  }
  const body = read.value;
  if (Array.isArray(body) && body.length > policy.maxBatchSize) {
    return refusal(
      400,
      -32600,
      `Invalid request: a batch of ${body.length} messages is more than this server takes (${policy.maxBatchSize}, maxBatchSize).`,
    );
  }
  return { auth, body };
}

const PREFLIGHT = {
  "access-control-allow-methods": "POST",
  "access-control-allow-headers":
    "authorization, content-type, accept, mcp-session-id, mcp-protocol-version, mcp-method, mcp-name, last-event-id",
  "access-control-max-age": "600",
};

/**
 * What lets a page read the answer: its origin echoed (only origins `admit` let through reach this) and the session
 * header made readable. A request without `Origin` (not a browser) gets none.
 */
export function corsHeaders(origin: string | null): Record<string, string> {
  if (origin === null) return {};
  return { "access-control-allow-origin": origin, "access-control-expose-headers": "mcp-session-id", vary: "origin" };
}

/** A 401/403's challenge, readable by a page of an allowed origin: its MCP client looks there for where to authorize. */
export function challengeHeaders(origin: string | null, value: string): Record<string, string> {
  const cors = origin === null ? {} : { ...corsHeaders(origin), "access-control-expose-headers": "www-authenticate" };
  return { ...cors, "www-authenticate": value };
}

/** A JSON-RPC error response with no id (the request was refused before it was read as a message). */
export function refusal(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * `Bearer` challenge (RFC 6750) with the resource metadata URL (RFC 9728) MCP clients look for; a 401's `scope` is
 * what a client asks for to start with, a 403's what the refused request needs.
 */
export function challenge(
  policy: HttpPolicy,
  error: "invalid_token" | "insufficient_scope" | undefined,
  scope?: string,
  description?: string,
): string {
  const params = ['realm="mcp"'];
  if (error) params.push(`error="${error}"`);
  const asked = scope ?? (error === "insufficient_scope" ? undefined : policy.challengeScope);
  if (asked) params.push(`scope="${quoted(asked)}"`);
  if (policy.resourceMetadataUrl) params.push(`resource_metadata="${quoted(policy.resourceMetadataUrl)}"`);
  if (description) params.push(`error_description="${quoted(description)}"`);
  return `Bearer ${params.join(", ")}`;
}

function quoted(value: string): string {
  return value.replace(/["\\\r\n]/g, "");
}

/** An Origin passes when listed, or when it is the request's own scheme-less host (same origin). */
function originAllowed(origin: string, hostHeader: string, allowed: ReadonlySet<string>): boolean {
  const normalised = origin.toLowerCase();
  if (allowed.has(normalised)) return true;
  if (normalised === "null") return false;
  try {
    return new URL(normalised).host === hostHeader.toLowerCase();
  } catch {
    return false;
  }
}

/** The name of a Host header, without the port and without IPv6 brackets. */
function hostName(header: string): string {
  const host = header.toLowerCase();
  if (host.startsWith("[")) return host.slice(1, host.indexOf("]"));
  const colon = host.lastIndexOf(":");
  return colon === -1 ? host : host.slice(0, colon);
}

function stripBrackets(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

/** The body as text, or `undefined` once it is longer than `max` bytes (stops reading there). */
/** What `readBody` answers when the body did not arrive in time. */
const TOO_SLOW = Symbol("too slow");

/** The body as text; `undefined` past `max` bytes; `TOO_SLOW` when it was not whole within `timeoutMs`. */
async function readBody(
  request: Request,
  max: number,
  timeoutMs: number,
): Promise<string | undefined | typeof TOO_SLOW> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > max) return undefined;
  if (!request.body) return "";
  const reader = request.body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<typeof TOO_SLOW>((resolve) => {
    timer = setTimeout(() => resolve(TOO_SLOW), timeoutMs);
  });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), late]);
      if (next === TOO_SLOW) {
        await reader.cancel().catch(() => undefined);
        return TOO_SLOW;
      }
      const { done, value } = next;
      if (done) break;
      size += value.byteLength;
      if (size > max) {
        await reader.cancel().catch(() => undefined);
        return undefined;
      }
      chunks.push(value);
    }
  } finally {
    clearTimeout(timer);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

function positive(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!(typeof value === "number" && value > 0))
    throw new RangeError(`tooltype/mcp: ${name} must be a positive number; got ${String(value)}.`);
  return value;
}

function truncate(text: string): string {
  return text.length <= 100 ? text : `${text.slice(0, 100)}…`;
}
