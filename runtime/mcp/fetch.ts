/**
 * `mcpFetchHandler`: the registry as an MCP endpoint with the Web-standard signature, answering endpoint.ts's methods
 * itself, with no MCP SDK and no Node built-in, so a Worker serving tools stays small.
 */
import type { BaseToolRegistry as ToolRegistry } from "../registry/core";
import { watchTools } from "../registry/tool-changes";
import { acknowledgeListen, listChanged, type MCPEndpoint, mcpEndpoint } from "./endpoint";
import { protectedResourceAnswer } from "./authorization";
import {
  admit,
  corsHeaders,
  errorMessage,
  type HttpPolicy,
  httpPolicy,
  MCP_HTTP_TIMEOUT_MS,
  type MCPHttpOptions,
  refusal,
} from "./http-policy";
import { callerName } from "./caller";
import { CallerSlots } from "./caller-slots";
import {
  errorResponse,
  HEADER_MISMATCH,
  INVALID_PARAMS,
  INVALID_REQUEST,
  isRecord,
  isRequest,
  type JsonRpcRequest,
  type JsonRpcResponse,
  LEGACY_VERSIONS,
  METHOD_NOT_FOUND,
  metaVersion,
  MODERN_VERSION,
  UNSUPPORTED_PROTOCOL_VERSION,
} from "./protocol";
import { scopeRefusal } from "./scope-challenge";
import { signedSessions } from "./sessions";

const SESSION_HEADER = "mcp-session-id";
const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache", "x-accel-buffering": "no" };

/**
 * `(request) => Promise<Response>` serving the registry's tools over MCP Streamable HTTP, stateless: for Cloudflare
 * Workers, Deno, Bun, Hono, a Next.js route handler, and Node through `mcpHttpHandler`.
 * - Stateless: any instance can answer any request. Nothing is kept between requests but the calls still running.
 * - Security first (http-policy.ts): host, origin, method, `authenticate`, body and batch limits, before anything
 *   of the request is read as a message.
 * - The 2026-07-28 revision: one message per POST whose headers must agree with its body (`MCP-Protocol-Version`
 *   with `_meta`, `Mcp-Method`, `Mcp-Name` for `tools/call`: else 400 `HeaderMismatch`), an unsupported version is
 *   400 `UnsupportedProtocolVersion`, an unknown method 404. Cancelling is closing the response.
 *   `subscriptions/listen` keeps its response open and writes tool list changes there.
 * - Older revisions (a client that sends `initialize`): answered as before, each POST on its own; the initialize
 *   answer carries an `Mcp-Session-Id` (a correlation key signed for the caller, not server state), so a client's
 *   later `notifications/cancelled` finds the call it names when it reaches the same instance, and nobody else's.
 * - At most `maxConcurrentRequests` requests at once, and `maxRequestsPerCaller` of one authenticated caller;
 *   subscriptions hold no request slot but caps of their own, an idle timeout and a lifetime; a body must arrive within
 *   `bodyTimeoutMs`. Progress needs a stream: the answer is one JSON body unless a call carries a `progressToken`
 *   (see `jsonResponse`).
 */
export function mcpFetchHandler(
  registry: ToolRegistry,
  options: MCPHttpOptions = {},
): (request: Request) => Promise<Response> {
  const policy = httpPolicy(options);
  const endpoint = mcpEndpoint(registry, {
    ...options,
    exposeErrors: policy.exposeErrors,
    timeoutMs: options.timeoutMs ?? MCP_HTTP_TIMEOUT_MS,
  });
  const cacheScope = policy.authenticate ? "private" : "public";
  /** Calls of older clients running in this instance, by session and request id, for `notifications/cancelled`. */
  const running = new Map<string, AbortController>();
  const sessions = signedSessions(options.callerId);
  /** Requests being served, from arrival until their answer is sent (`maxConcurrentRequests`). */
  let inFlight = 0;
  /** What each authenticated caller holds: requests being served (`maxRequestsPerCaller`), open subscriptions. */
  const requestSlots = new CallerSlots();
  const listenSlots = new CallerSlots();

  const internalError = (error: unknown): Response =>
    refusal(
      500,
      -32603,
      policy.exposeErrors
        ? `Internal error: ${errorMessage(error)}`
        : "Internal error: the server could not answer this request.",
    );

  // Never rejects: a host (a Worker, Node through node.ts, a framework's route) gets an answer for every request.
  return (request) => {
    const metadata = protectedResourceAnswer(request, options.authorization);
    if (metadata !== undefined) return Promise.resolve(metadata);
    if (inFlight >= policy.maxConcurrentRequests) {
      return Promise.resolve(
        refusal(
          503,
          -32000,
          `Server busy: this server serves at most ${policy.maxConcurrentRequests} requests at once (maxConcurrentRequests). Try again shortly.`,
          { "retry-after": "1" },
        ),
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
    const busy = (why: string): Response =>
      refusal(503, -32000, `Server busy: ${why}. Try again shortly.`, { "retry-after": "1" });
    const admitted = await admit(request, policy);
    if (admitted instanceof Response) {
      release();
      return admitted;
    }
    const { auth, body } = admitted;
    // One caller may not hold every slot; without authenticate callers cannot be told apart, and share them all.
    const caller = policy.authenticate ? (callerName(auth, options.callerId) ?? "unnamed") : "anonymous";
    if (policy.authenticate) {
      const slot = requestSlots.take(caller, policy.maxRequestsPerCaller);
      if (slot === undefined) {
        release();
        return busy(
          `this caller already has ${policy.maxRequestsPerCaller} requests being served (maxRequestsPerCaller)`,
        );
      }
      const own = release;
      release = () => {
        slot();
        own();
      };
    }
    // A call its caller lacks scopes for is refused before anything runs, with the challenge that names them, where
    // callers may see such tools (`listAllTools`); otherwise the call is of a tool the caller cannot see (unknown).
    const forbidden =
      options.listAllTools === true
        ? scopeRefusal(registry, request, Array.isArray(body) ? body : [body], auth, policy)
        : undefined;
    if (forbidden !== undefined) {
      release();
      return forbidden;
    }
    const origin = request.headers.get("origin");
    const respond = (response: Response): Response => withHeaders(response, corsHeaders(origin));
    if (
      Array.isArray(body) &&
      (request.headers.get("mcp-protocol-version") === MODERN_VERSION ||
        body.some((m) => isRecord(m) && metaVersion(m) !== undefined))
    ) {
      release();
      return respond(
        refusal(
          400,
          INVALID_REQUEST,
          "Invalid request: the 2026-07-28 revision has no batches; send each request in a POST of its own.",
        ),
      );
    }
    const modern =
      !Array.isArray(body) &&
      (metaVersion(isRecord(body) ? body : {}) !== undefined ||
        request.headers.get("mcp-protocol-version") === MODERN_VERSION);
    if (modern) {
      const refused = checkModern(request, body);
      if (refused) {
        release();
        return respond(refused);
      }
      if ((body as JsonRpcRequest).method === "subscriptions/listen") {
        // A subscription holds a slot of its own, never a request's: an idle one must not keep a call waiting.
        release();
        // Without authenticate every client is the one caller "anonymous": a limit per caller would be a limit on the
        // whole server, and a client that reopens a stream before its old one's close arrives would be refused.
        const perCaller = policy.authenticate ? policy.maxListensPerCaller : policy.maxListens;
        const slot = listenSlots.take(caller, perCaller, policy.maxListens);
        if (slot === undefined) {
          const why =
            listenSlots.total >= policy.maxListens
              ? `this server keeps at most ${policy.maxListens} subscriptions open (maxListens)`
              : `this caller already has ${policy.maxListensPerCaller} subscriptions open (maxListensPerCaller)`;
          return respond(busy(why));
        }
        return respond(listen(endpoint, body as JsonRpcRequest, request.signal, slot, policy));
      }
      return respond(await answerModern(request, body as JsonRpcRequest, auth, release));
    }
    return respond(await answerLegacy(request, Array.isArray(body) ? body : [body], auth, release));
  }

  /** One request of the current revision. */
  async function answerModern(
    request: Request,
    message: JsonRpcRequest,
    auth: unknown,
    release: () => void,
  ): Promise<Response> {
    const era = endpoint.eraOf(message);
    if ("jsonrpc" in era) {
      release();
      // A removed method is 404 like any unknown one; every other refusal of the revision's rules is 400.
      return json(era, statusOf(era) === 404 ? 404 : 400);
    }
    const controller = new AbortController();
    const signal = AbortSignal.any([controller.signal, request.signal]);
    const stream = options.jsonResponse === false || (options.jsonResponse !== true && asksProgress(message));
    const exchange = { auth, signal, cacheScope } as const;
    if (!stream) {
      try {
        const response = await endpoint.answer(message, exchange);
        return json(response, statusOf(response));
      } finally {
        release();
      }
    }
    return streamed((send) => endpoint.answer(message, { ...exchange, notify: send }), controller, release);
  }

  /** The messages of an older revision's POST (a batch of them, for the oldest clients). */
  async function answerLegacy(
    request: Request,
    messages: unknown[],
    auth: unknown,
    release: () => void,
  ): Promise<Response> {
    const header = request.headers.get("mcp-protocol-version");
    if (header !== null && !LEGACY_VERSIONS.includes(header)) {
      release();
      return refusal(
        400,
        -32000,
        `Bad Request: unsupported protocol version ${JSON.stringify(header.slice(0, 40))} (supported: ${[MODERN_VERSION, ...LEGACY_VERSIONS].join(", ")}).`,
      );
    }
    // A session id counts only if this handler issued it to this caller: anything else cancels nothing.
    const claimed = request.headers.get(SESSION_HEADER);
    const session =
      claimed !== null && claimed.length <= 200 && (await sessions.verify(claimed, auth)) ? claimed : null;
    if (session !== null) cancelNamed(running, session, messages);
    const requests = messages.filter(isRequest);
    // Gateways route and authorize on these headers: where an older client sends them, they must say what the body
    // says.
    const disagreement = legacyHeadersDisagree(request, requests);
    if (disagreement !== undefined) {
      release();
      return refusal(400, HEADER_MISMATCH, `Header mismatch: ${disagreement}.`);
    }
    if (requests.length === 0) {
      release();
      const malformed = messages.some(
        (m) => !isRecord(m) || (typeof m.method !== "string" && !("result" in m) && !("error" in m)),
      );
      return malformed
        ? refusal(
            400,
            INVALID_REQUEST,
            "Invalid request: the body is not a JSON-RPC request, notification or response.",
          )
        : new Response(null, { status: 202 });
    }
    const controller = new AbortController();
    const keys =
      session === null ? [] : requests.filter((m) => m.method === "tools/call").map((m) => key(session, m.id));
    for (const k of keys) running.set(k, controller);
    const forget = (): void => {
      for (const k of keys) running.delete(k);
      release();
    };
    const signal = AbortSignal.any([controller.signal, request.signal]);
    const exchange = { auth, signal, cacheScope } as const;
    const headers: Record<string, string> = {};
    const issued = requests.some((m) => m.method === "initialize") ? await sessions.issue(auth) : undefined;
    // A caller that cannot be named gets no session: its calls run, but notifications/cancelled cannot name them.
    if (issued !== undefined) headers[SESSION_HEADER] = issued;
    const batch = Array.isArray(messages) && messages.length > 1;
    const stream = options.jsonResponse === false || (options.jsonResponse !== true && requests.some(asksProgress));
    if (!stream) {
      try {
        const answers = await Promise.all(requests.map((m) => endpoint.answer(m, exchange)));
        return json(batch ? answers : answers[0]!, 200, headers);
      } finally {
        forget();
      }
    }
    return streamed(
      async (send) => {
        const answers = await Promise.all(requests.map((m) => endpoint.answer(m, { ...exchange, notify: send })));
        for (const response of answers.slice(0, -1)) send(response);
        return answers.at(-1)!;
      },
      controller,
      forget,
      headers,
    );
  }
}

/**
 * The header checks of the current revision (the headers are what proxies and gateways route by, so they must say
 * what the body says): a refusal, or `undefined` when the request may be answered.
 */
function checkModern(request: Request, body: unknown): Response | undefined {
  if (!isRequest(body)) {
    if (isRecord(body) && typeof body.method === "string") return new Response(null, { status: 202 });
    return json(
      errorResponse(
        null,
        INVALID_REQUEST,
        "Invalid request: a request of the 2026-07-28 revision is one JSON-RPC request per POST.",
      ),
      400,
    );
  }
  const mismatch = (what: string): Response =>
    json(errorResponse(body.id, HEADER_MISMATCH, `Header mismatch: ${what}.`), 400);
  const version = request.headers.get("mcp-protocol-version");
  const inBody = metaVersion(body);
  if (version === null) return mismatch("the MCP-Protocol-Version header is missing");
  if (version !== inBody) {
    // No version in the body is a malformed request of the revision, not a disagreement: the specification is
    // silent on the code, and the conformance suite expects -32602 (invalid params), as here.
    if (inBody === undefined) {
      return json(
        errorResponse(
          body.id,
          INVALID_PARAMS,
          `Invalid params: MCP-Protocol-Version says ${JSON.stringify(version.slice(0, 40))} but the body's _meta names no protocol version (io.modelcontextprotocol/protocolVersion).`,
        ),
        400,
      );
    }
    return mismatch(
      `MCP-Protocol-Version ${JSON.stringify(version.slice(0, 40))} does not match the body's ${JSON.stringify(String(inBody).slice(0, 40))}`,
    );
  }
  const method = request.headers.get("mcp-method");
  if (method === null) return mismatch("the Mcp-Method header is missing");
  if (method !== body.method)
    return mismatch(
      `Mcp-Method ${JSON.stringify(method.slice(0, 60))} does not match the body's method ${JSON.stringify(body.method.slice(0, 60))}`,
    );
  if (body.method === "tools/call") {
    const header = request.headers.get("mcp-name");
    const name = isRecord(body.params) ? body.params.name : undefined;
    if (header === null) return mismatch("the Mcp-Name header is missing");
    const decoded = decodeHeader(header);
    if (decoded === undefined) return mismatch("the Mcp-Name header is not a valid value");
    if (decoded !== name)
      return mismatch(`Mcp-Name ${JSON.stringify(decoded.slice(0, 80))} does not match the body's tool name`);
  }
  return undefined;
}

/**
 * What an older revision's `Mcp-Method` or `Mcp-Name` header, when present, says against the requests of its body
 * (every request must have that method; every `tools/call` that tool name), or `undefined` when they agree.
 */
function legacyHeadersDisagree(request: Request, requests: readonly JsonRpcRequest[]): string | undefined {
  const method = request.headers.get("mcp-method");
  if (method !== null) {
    const other = requests.find((m) => m.method !== method);
    if (other)
      return `Mcp-Method ${JSON.stringify(method.slice(0, 60))} does not match the body's method ${JSON.stringify(other.method.slice(0, 60))}`;
  }
  const header = request.headers.get("mcp-name");
  if (header !== null) {
    const name = decodeHeader(header);
    if (name === undefined) return "the Mcp-Name header is not a valid value";
    const other = requests.find((m) => m.method === "tools/call" && (!isRecord(m.params) || m.params.name !== name));
    if (other) return `Mcp-Name ${JSON.stringify(name.slice(0, 80))} does not match the body's tool name`;
  }
  return undefined;
}

/** A header value as the revision encodes it: plain, or `=?base64?…?=` around the UTF-8 bytes. */
function decodeHeader(value: string): string | undefined {
  if (!value.startsWith("=?base64?") || !value.endsWith("?=")) return value;
  try {
    const binary = atob(value.slice(9, -2));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The HTTP status of a current-revision answer: 400 for the revision's own request errors, 404 for an unknown method. */
function statusOf(response: JsonRpcResponse): number {
  if (!("error" in response)) return 200;
  if (response.error.code === METHOD_NOT_FOUND) return 404;
  return response.error.code === UNSUPPORTED_PROTOCOL_VERSION || response.error.code === HEADER_MISMATCH ? 400 : 200;
}

/**
 * `subscriptions/listen` over HTTP: an SSE response that stays open, its acknowledgement first, then a
 * `notifications/tools/list_changed` each time the registry gains tools, until the client closes it.
 */
function listen(
  endpoint: MCPEndpoint,
  message: JsonRpcRequest,
  closed: AbortSignal,
  release: () => void,
  policy: HttpPolicy,
): Response {
  const era = endpoint.eraOf(message);
  const ack = "jsonrpc" in era ? era : acknowledgeListen(message);
  if ("jsonrpc" in ack) {
    release();
    return json(ack, statusOf(ack));
  }
  const encoder = new TextEncoder();
  let stop = (): void => undefined;
  let idle: ReturnType<typeof setTimeout> | undefined;
  let lifetime: ReturnType<typeof setTimeout> | undefined;
  let open = true;
  const end = (): void => {
    open = false;
    stop();
    clearTimeout(idle);
    clearTimeout(lifetime);
    release();
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      // Idle or too old: the stream ends, and a client that still wants changes listens again.
      const close = (): void => {
        if (!open) return;
        end();
        controller.close();
      };
      const send = (notification: object): void => {
        if (!open) return;
        controller.enqueue(encoder.encode(event(notification)));
        clearTimeout(idle);
        idle = quietTimer(close, policy.listenIdleMs);
      };
      lifetime = quietTimer(close, policy.listenLifetimeMs);
      send(ack.notification);
      if (ack.tools) stop = watchTools(endpoint.registry, () => send(listChanged(message.id)));
      closed.addEventListener("abort", end, { once: true });
    },
    cancel() {
      end();
    },
  });
  return new Response(body, { status: 200, headers: SSE_HEADERS });
}

/** A timer that does not keep a Node process alive on its own (an open subscription should not hold up an exit). */
function quietTimer(run: () => void, ms: number): ReturnType<typeof setTimeout> {
  const timer = setTimeout(run, ms);
  (timer as { unref?: () => void }).unref?.();
  return timer;
}

/**
 * An SSE answer: the notifications `run` sends as they come, then its response; the request is released once the
 * stream ends, and a client that closes the stream cancels the call.
 */
function streamed(
  run: (send: (message: object) => void) => Promise<JsonRpcResponse>,
  controller: AbortController,
  release: () => void,
  headers: Record<string, string> = {},
): Response {
  const encoder = new TextEncoder();
  let open = true;
  const body = new ReadableStream<Uint8Array>({
    start(stream) {
      const send = (message: object): void => {
        if (open) stream.enqueue(encoder.encode(event(message)));
      };
      run(send)
        .then(
          (response) => {
            if (!controller.signal.aborted) send(response);
          },
          (error: unknown) => {
            send(errorResponse(null, -32603, `Internal error: ${errorMessage(error)}`));
          },
        )
        .finally(() => {
          if (open) stream.close();
          open = false;
          release();
        });
    },
    cancel() {
      open = false;
      controller.abort(new Error("The client closed the stream."));
    },
  });
  return new Response(body, { status: 200, headers: { ...SSE_HEADERS, ...headers } });
}

function event(message: object): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

function json(message: unknown, status: number, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(message), { status, headers: { "content-type": "application/json", ...headers } });
}

function withHeaders(response: Response, extra: Record<string, string>): Response {
  if (Object.keys(extra).length === 0) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** Abort the calls named by the `notifications/cancelled` messages of this body. */
function cancelNamed(running: Map<string, AbortController>, session: string, messages: unknown[]): void {
  for (const message of messages) {
    if (!isRecord(message) || message.method !== "notifications/cancelled" || !isRecord(message.params)) continue;
    const id = message.params.requestId;
    if (typeof id !== "string" && typeof id !== "number") continue;
    const controller = running.get(key(session, id));
    controller?.abort(
      new Error(typeof message.params.reason === "string" ? message.params.reason : "Cancelled by the client."),
    );
  }
}

function asksProgress(message: unknown): boolean {
  return (
    isRecord(message) &&
    isRecord(message.params) &&
    isRecord(message.params._meta) &&
    message.params._meta.progressToken !== undefined
  );
}

function key(session: string, id: string | number): string {
  return `${session}\u0000${typeof id}:${id}`;
}
