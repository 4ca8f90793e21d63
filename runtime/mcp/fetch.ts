/**
 * `mcpFetchHandler`: the registry as an MCP endpoint with the Web-standard signature `(Request) => Promise<Response>`,
 * on the SDK's Web-standard Streamable HTTP transport. One handler for Cloudflare Workers, Deno, Bun, Hono, a
 * Next.js route handler, and Node through the bridge in node.ts.
 *
 * - Stateless: every POST gets a fresh server and transport, so any instance can answer any request and the
 *   platform may run as many as it likes. Nothing is kept between requests but the calls still running here.
 * - Security first (http-policy.ts): host, origin, method, `authenticate`, body and batch limits, before anything
 *   of the request reaches the server.
 * - Cancellation: the initialize answer carries an `Mcp-Session-Id` (a correlation key signed for the caller, not
 *   server state), so a client's later `notifications/cancelled` finds the call it names when it reaches the same
 *   instance, and nobody else's; a call is also aborted when its request's connection closes.
 * - At most `maxConcurrentRequests` requests at once; a body must arrive within `bodyTimeoutMs`.
 * - Progress needs a stream: the answer is one JSON body unless a call carries a `progressToken` (see
 *   `jsonResponse`).
 * Nothing here generates code or imports a Node built-in.
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { BaseToolRegistry as ToolRegistry } from "../registry/core";
import { protectedResourceAnswer } from "./authorization";
import { admit, corsHeaders, errorMessage, httpPolicy, MCP_HTTP_TIMEOUT_MS, type MCPHttpOptions, refusal } from "./http-policy";
import { scopeRefusal } from "./scope-challenge";
import { createMCPServer } from "./server";
import { signedSessions } from "./sessions";

const SESSION_HEADER = "mcp-session-id";

/** `(request) => Promise<Response>` serving the registry's tools over MCP Streamable HTTP, stateless. */
export function mcpFetchHandler(registry: ToolRegistry, options: MCPHttpOptions = {}): (request: Request) => Promise<Response> {
  const policy = httpPolicy(options);
  const serverOptions = { ...options, exposeErrors: policy.exposeErrors, timeoutMs: options.timeoutMs ?? MCP_HTTP_TIMEOUT_MS };
  /** Calls running in this instance, by session and request id, for `notifications/cancelled`. */
  const running = new Map<string, AbortController>();
  const sessions = signedSessions();
  /** Requests being served, from arrival until their answer is sent (`maxConcurrentRequests`). */
  let inFlight = 0;

  const internalError = (error: unknown): Response =>
    refusal(500, -32603, policy.exposeErrors ? `Internal error: ${errorMessage(error)}` : "Internal error: the server could not answer this request.");

  // Never rejects: a host (a Worker, Node through node.ts, a framework's route) gets an answer for every request.
  return (request) => {
    const metadata = protectedResourceAnswer(request, options.authorization);
    if (metadata !== undefined) return Promise.resolve(metadata);
    if (inFlight >= policy.maxConcurrentRequests) {
      return Promise.resolve(
        refusal(503, -32000, `Server busy: this server serves at most ${policy.maxConcurrentRequests} requests at once (maxConcurrentRequests). Try again shortly.`, { "retry-after": "1" }),
      );
    }
    inFlight++;
    let released = false;
    const release = (): void => {
      if (!released) inFlight--;
      released = true;
    };
    return answer(request, release).catch((error: unknown) => {
      release();
      return internalError(error);
    });
  };

  /** The answer to one request; `release` runs once its answer has been sent (or at once for a refusal). */
  async function answer(request: Request, release: () => void): Promise<Response> {
    const admitted = await admit(request, policy);
    if (admitted instanceof Response) {
      release();
      return admitted;
    }
    const { auth, body } = admitted;
    const messages = Array.isArray(body) ? body : [body];
    const forbidden = scopeRefusal(registry, request, messages, auth, policy);
    if (forbidden !== undefined) return (release(), forbidden);
    // A session id counts only if this handler issued it to this caller: anything else cancels nothing.
    const claimed = request.headers.get(SESSION_HEADER);
    const session = claimed !== null && claimed.length <= 200 && (await sessions.verify(claimed, auth)) ? claimed : null;

    if (session !== null) cancelNamed(running, session, messages);
    const controller = new AbortController();
    const keys = session === null ? [] : callIds(messages).map((id) => key(session, id));
    for (const k of keys) running.set(k, controller);

    const server = createMCPServer(registry, serverOptions, { auth, signal: AbortSignal.any([controller.signal, request.signal]) });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: options.jsonResponse ?? !messages.some(asksProgress),
    });
    const done = (): void => {
      for (const k of keys) if (running.get(k) === controller) running.delete(k);
      void transport.close().catch(() => undefined);
      void server.close().catch(() => undefined);
      release();
    };
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(request, { parsedBody: body });
      const headers = new Headers(response.headers);
      for (const [name, value] of Object.entries(corsHeaders(request.headers.get("origin")))) headers.set(name, value);
      if (messages.some(isInitialize) && response.ok && !headers.has(SESSION_HEADER)) headers.set(SESSION_HEADER, await sessions.issue(auth));
      return closeAfter(response, headers, done);
    } catch (error) {
      done();
      return internalError(error);
    }
  }
}

/**
 * The answer with `headers`, closing the per-request server once its body has been sent (a stream ends later than
 * the handler returns).
 */
function closeAfter(response: Response, headers: Headers, done: () => void): Response {
  if (!response.body) {
    done();
    return new Response(null, { status: response.status, statusText: response.statusText, headers });
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: finished, value } = await reader.read();
        if (finished) {
          controller.close();
          done();
        } else controller.enqueue(value);
      } catch (error) {
        controller.error(error);
        done();
      }
    },
    cancel(reason) {
      done();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/** Abort the calls named by the `notifications/cancelled` messages of this body. */
function cancelNamed(running: Map<string, AbortController>, session: string, messages: unknown[]): void {
  for (const message of messages) {
    if (!isObject(message) || message.method !== "notifications/cancelled" || !isObject(message.params)) continue;
    const id = message.params.requestId;
    if (typeof id !== "string" && typeof id !== "number") continue;
    const controller = running.get(key(session, id));
    controller?.abort(new Error(typeof message.params.reason === "string" ? message.params.reason : "Cancelled by the client."));
  }
}

function callIds(messages: unknown[]): (string | number)[] {
  return messages.flatMap((m) => (isObject(m) && m.method === "tools/call" && (typeof m.id === "string" || typeof m.id === "number") ? [m.id] : []));
}

function asksProgress(message: unknown): boolean {
  return isObject(message) && isObject(message.params) && isObject(message.params._meta) && message.params._meta.progressToken !== undefined;
}

function isInitialize(message: unknown): boolean {
  return isObject(message) && message.method === "initialize";
}

function key(session: string, id: string | number): string {
  return `${session}\u0000${typeof id}:${id}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
