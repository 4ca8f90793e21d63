/**
 * `fromMCP`'s `authorization` option: OAuth for an imported server done once, in one place. The SDK's transport runs
 * discovery, registration and the token exchange; this file hands the authorization URL to the app, takes the user's
 * redirect back, redeems its code on the transport and retries what the server refused, once.
 */
import type { MCPClientTransport, MCPOAuthClientProvider } from "./client-sdk";

/** `fromMCP`'s `authorization` option; `P` the app's provider class. */
export interface MCPClientAuthorization<P extends MCPOAuthClientProvider = MCPOAuthClientProvider> {
  /**
   * The MCP SDK's `OAuthClientProvider` (either SDK's): where the client's registration, tokens, PKCE verifier and
   * discovery state are kept (in memory, a file, a database: the app's choice). Its `redirectToAuthorization` is not
   * called: `authorize` takes the authorization URL instead. A provider that already holds valid tokens connects
   * without `authorize` being called.
   */
  provider: P;
  /**
   * Sends the user to `authorizationUrl` (opens a browser, shows a link) and resolves once they come back, with the
   * URL the authorization server redirected them to (the provider's `redirectUrl` with `code`, `state` and `iss`),
   * its query, or the code alone. Given the URL or its query, `fromMCP` checks that its `state` is the one it sent
   * (the provider's `state()` makes one; give it one) and the SDK checks its `iss`; with the code alone neither can
   * be checked. `signal` aborts when `timeoutMs` runs
   * out or the connection is closed.
   */
  authorize(
    authorizationUrl: URL,
    context: { signal: AbortSignal },
  ): string | URL | URLSearchParams | Promise<string | URL | URLSearchParams>;
  /** Give up waiting for `authorize` after this many milliseconds (default 300,000: five minutes). */
  timeoutMs?: number;
}

/** An SDK HTTP transport with an OAuth provider: `finishAuth` redeems the code the user brought back. */
interface AuthorizingTransport extends MCPClientTransport {
  finishAuth(authorizationCode: string, iss?: string): Promise<void>;
}

const DEFAULT_AUTHORIZE_TIMEOUT_MS = 300_000;
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);
/** The error codes of an authorization response (RFC 6749 §4.1.2.1, OpenID Connect Core §3.1.2.6). */
const AUTHORIZATION_ERRORS = new Set([
  "invalid_request",
  "unauthorized_client",
  "access_denied",
  "unsupported_response_type",
  "invalid_scope",
  "server_error",
  "temporarily_unavailable",
  "interaction_required",
  "login_required",
  "account_selection_required",
  "consent_required",
]);

/** What each authorization has in common: the authorization URL the SDK made last, per option object. */
const sessions = new WeakMap<object, AuthorizationRequests>();

/** The authorization URLs the SDK hands to the provider, counted, so that a failure can tell it asked for one. */
class AuthorizationRequests {
  count = 0;
  latest: URL | undefined;
}

function requestsOf(authorization: object): AuthorizationRequests {
  let requests = sessions.get(authorization);
  if (requests === undefined) {
    requests = new AuthorizationRequests();
    sessions.set(authorization, requests);
  }
  return requests;
}

/**
 * The OAuth provider to make an SDK transport with when you pass `authorization` to `fromMCP` with your own transport
 * (`new StreamableHTTPClientTransport(url, { authProvider: authorizingProvider(authorization) })`): the app's
 * provider, except that the authorization URL goes to `authorization.authorize`, through `fromMCP`, rather than to its
 * `redirectToAuthorization`. `fromMCP` makes its transport with it when given the server's URL.
 */
export function authorizingProvider<P extends MCPOAuthClientProvider>(authorization: MCPClientAuthorization<P>): P {
  const requests = requestsOf(authorization);
  const provider = authorization.provider;
  const redirectToAuthorization = async (url: URL) => {
    requests.count += 1;
    requests.latest = url;
  };
  // Every other member read from the app's provider as it is (its getters and optional methods included), so that
  // the SDK sees the provider the app wrote.
  return new Proxy(provider, {
    get(target, property) {
      if (property === "redirectToAuthorization") return redirectToAuthorization;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * One connection's authorization: the transport `fromMCP` connects on (the app's, kept open across a refused
 * handshake so that the retry runs on it with the new token), and `attempt`, which runs a request and, when the SDK
 * asked for an authorization on the way, authorizes and runs it once more.
 */
export class ClientAuthorization {
  readonly transport: MCPClientTransport;
  private readonly requests: AuthorizationRequests;
  private readonly inner: AuthorizingTransport;
  private readonly closed = new AbortController();
  /** Authorizations completed on this connection: a request that started before one need not ask again. */
  private completed = 0;
  private pending: Promise<void> | undefined;
  private started = false;
  /** While connecting: a close by the SDK's failed handshake leaves the transport open if an authorization follows. */
  private connecting = false;
  private connectMark = 0;

  constructor(
    private readonly authorization: MCPClientAuthorization,
    transport: MCPClientTransport,
    private readonly server: string,
  ) {
    if (typeof (transport as Partial<AuthorizingTransport>).finishAuth !== "function")
      throw new TypeError(
        "fromMCP: authorization needs an HTTP transport of the MCP SDK (StreamableHTTPClientTransport, made with `authProvider: authorizingProvider(authorization)`), or the server's URL.",
      );
    this.inner = transport as AuthorizingTransport;
    this.requests = requestsOf(authorization);
    this.transport = this.shield(this.inner);
  }

  /** Connect with `connect`, authorizing once if the server asks; `connect` is run again on the same transport. */
  async connect<T>(connect: () => Promise<T>): Promise<T> {
    this.connecting = true;
    this.connectMark = this.requests.count;
    try {
      return await this.attempt("connecting", connect);
    } catch (error) {
      await this.inner.close().catch(() => undefined);
      throw error;
    } finally {
      this.connecting = false;
    }
  }

  /** Run `request`; if the SDK asked for an authorization while it ran, authorize and run it once more. */
  async attempt<T>(what: string, request: () => Promise<T>): Promise<T> {
    const mark = this.requests.count;
    const completed = this.completed;
    try {
      return await request();
    } catch (error) {
      if (this.requests.count === mark) throw error;
      // Another request may have authorized meanwhile: then the token is new and this one only retries.
      if (this.completed === completed && (await this.forgetDiscovery())) {
        // A token was presented and refused: the server may now name another authorization server, which the SDK
        // learns only by discovering again (it leaves dropping its saved discovery to the host, SEP-2352). The URL made
        // from the saved one is let go, and the request sent once more makes the one `authorize` gets.
        const again = this.requests.count;
        this.connectMark = again;
        try {
          return await request();
        } catch (second) {
          if (this.requests.count === again) throw second;
        }
      }
      if (this.completed === completed) await this.authorizeOnce();
      this.connectMark = this.requests.count;
    }
    const retryMark = this.requests.count;
    try {
      return await request();
    } catch (error) {
      if (this.requests.count !== retryMark || isUnauthorized(error))
        throw new Error(
          `fromMCP: ${this.server} refused the token it was authorized for (HTTP 401 or 403 again after the authorization, while ${what}): the token's scope or audience does not satisfy it. Check the scopes the provider's clientMetadata asks for, and the server's resource (its audience check).`,
          { cause: error },
        );
      throw error;
    }
  }

  /**
   * Whether the provider held a token the server just refused, and kept a discovery it can drop: then it is dropped
   * (`invalidateCredentials("discovery")`), so that the next authorization finds the server's authorization server
   * anew. A first authorization (no token yet) keeps the discovery it just made.
   */
  private async forgetDiscovery(): Promise<boolean> {
    const provider = this.authorization.provider as MCPOAuthClientProvider & {
      discoveryState?: unknown;
      invalidateCredentials?: (scope: "discovery") => unknown;
    };
    if (typeof provider.invalidateCredentials !== "function" || typeof provider.discoveryState !== "function")
      return false;
    if ((await provider.tokens()) === undefined) return false;
    await provider.invalidateCredentials("discovery");
    return true;
  }

  /** The authorization URL to the app, the code it brought back to the transport; one at a time per connection. */
  private authorizeOnce(): Promise<void> {
    this.pending ??= this.authorize().finally(() => {
      this.pending = undefined;
      this.completed += 1;
    });
    return this.pending;
  }

  private async authorize(): Promise<void> {
    const url = this.requests.latest!;
    const prefix = `fromMCP: the authorization with ${this.server} did not complete`;
    if (!allowedAuthorizationUrl(url))
      throw new Error(
        `${prefix}: its authorization server's authorization endpoint is not an https URL (${url.protocol}), so it was not opened. An authorization server must be served over https (http only on this machine).`,
      );
    const limitMs = this.authorization.timeoutMs ?? DEFAULT_AUTHORIZE_TIMEOUT_MS;
    const signal = AbortSignal.any([this.closed.signal, AbortSignal.timeout(limitMs)]);
    let answer: string | URL | URLSearchParams;
    try {
      answer = await untilAborted(Promise.resolve(this.authorization.authorize(url, { signal })), signal);
    } catch (error) {
      if (signal.aborted && !this.closed.signal.aborted)
        throw new Error(
          `${prefix}: authorization.authorize brought no code back within ${limitMs} ms (authorization.timeoutMs); the user did not finish authorizing, or the redirect back never reached the app.`,
          { cause: error },
        );
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`${prefix}: authorization.authorize failed: ${reason}`, { cause: error });
    }
    const { code, iss } = redirectAnswer(answer, url, prefix);
    try {
      await this.inner.finishAuth(code, iss);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`${prefix}: redeeming the authorization code failed: ${reason}`, { cause: error });
    }
  }

  /**
   * The transport as the SDK client sees it: started once however many times the client connects, and left open when
   * a handshake fails for want of an authorization (the client's own handlers are let go, as a close would).
   */
  private shield(inner: AuthorizingTransport): MCPClientTransport {
    const start = async () => {
      if (this.started) return;
      this.started = true;
      await inner.start();
    };
    const close = async () => {
      if (this.connecting && this.requests.count !== this.connectMark) {
        const onclose = (inner as { onclose?: () => void }).onclose;
        Object.assign(inner, { onclose: undefined, onerror: undefined, onmessage: undefined });
        onclose?.();
        return;
      }
      this.closed.abort();
      await inner.close();
    };
    return new Proxy(inner, {
      get(target, property) {
        if (property === "start") return start;
        if (property === "close") return close;
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
      set(target, property, value) {
        return Reflect.set(target, property, value, target);
      },
    });
  }
}

/**
 * The code and issuer of what `authorize` brought back, checked: the authorization server's refusal named, a redirect
 * for another request (its `state`) refused.
 */
export function redirectAnswer(
  answer: string | URL | URLSearchParams,
  authorizationUrl: URL,
  prefix: string,
): { code: string; iss: string | undefined } {
  if (typeof answer === "string") {
    if (answer === "") throw new Error(`${prefix}: authorization.authorize resolved with an empty code.`);
    return { code: answer, iss: undefined };
  }
  const params = answer instanceof URL ? answer.searchParams : answer instanceof URLSearchParams ? answer : undefined;
  if (params === undefined)
    throw new Error(
      `${prefix}: authorization.authorize resolved with ${typeof answer}; it resolves with the redirect's URL, its query, or the code.`,
    );
  const expectedState = authorizationUrl.searchParams.get("state");
  if (expectedState !== null && params.get("state") !== expectedState)
    throw new Error(
      `${prefix}: the redirect's state is not the one of this authorization request, so its code was not used (a redirect of another request, or forged).`,
    );
  const error = params.get("error");
  if (error !== null)
    // Only a registered error code is named: the rest (a description, a page) is the authorization server's text.
    throw new Error(
      `${prefix}: the authorization server answered ${AUTHORIZATION_ERRORS.has(error) ? error : "with an error"} instead of a code (the user refused, or the request was not accepted).`,
    );
  const code = params.get("code");
  if (code === null || code === "")
    throw new Error(`${prefix}: the redirect carries no authorization code (no \`code\` in its query).`);
  return { code, iss: params.get("iss") ?? undefined };
}

/** Whether an authorization URL may be handed to the app to open: https, or http on this machine. */
export function allowedAuthorizationUrl(url: URL): boolean {
  return url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.has(url.hostname));
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** An SDK error that says the server answered 401 (or 403 after a step-up) to the token. */
function isUnauthorized(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { name, status, data } = error as { name?: unknown; status?: unknown; data?: { status?: unknown } };
  return name === "UnauthorizedError" || status === 401 || data?.status === 401;
}
