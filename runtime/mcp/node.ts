/**
 * `mcpHttpHandler`: the Web-standard handler (fetch.ts) for Node's `http` server, Express and the like, through a
 * small Request/Response bridge that uses Node's classes only through types (no Node built-in import in a bundle).
 */
import type { BaseToolRegistry as ToolRegistry } from "../registry/core";
import type { MCPHttpOptions } from "./http-policy";
import { mcpFetchHandler } from "./fetch";
import { refusal } from "./http-policy";

/**
 * What the handler reads of a request: the part of Node's `http.IncomingMessage` it uses (Express's `req` too).
 * Written out here rather than imported from `node:http`, so the declarations of `tooltype/mcp` need no
 * `@types/node` in a project that has none (Workers, Deno, a browser build that only uses `mcpFetchHandler`).
 */
export interface NodeHttpRequest {
  /** The request method (`GET`, `POST`, …). */
  method?: string | undefined;
  /** The request target, e.g. `/mcp?x=1`. */
  url?: string | undefined;
  /** The request headers, lower-cased, as Node gives them. */
  headers: { host?: string | undefined; [name: string]: string | string[] | undefined };
  /** Whether the whole body has been read. */
  complete: boolean;
  /** Listens to the body's `data`, `end` and `error` events. */
  // `any[]`: Node's own overload for any event, which a `(chunk: Uint8Array) => void` listener must fit.
  // biome-ignore lint/suspicious/noExplicitAny: Node's IncomingMessage and ServerResponse listeners take any arguments
  on(event: string, listener: (...args: any[]) => void): unknown;
  /** Stops reading the body (backpressure, or a body over the size limit). */
  pause(): unknown;
  /** Reads the body again after `pause()`. */
  resume(): unknown;
}

/** What the handler writes of a response: the part of Node's `http.ServerResponse` it uses (Express's `res` too). */
export interface NodeHttpResponse {
  /** Whether the status line and headers were sent. */
  readonly headersSent: boolean;
  /** Whether the connection may serve another request after this one. */
  shouldKeepAlive: boolean;
  /** Sends the status and headers. */
  writeHead(status: number, headers: Record<string, string | string[]>): unknown;
  /** Writes a piece of the body; false when the caller should wait for `drain`. */
  write(chunk: Uint8Array): boolean;
  /** Ends the response, with a last piece of text. */
  end(text?: string): unknown;
  /** Closes the connection. */
  destroy(): unknown;
  /** Listens to `close` (the client went away) and `drain`. */
  // biome-ignore lint/suspicious/noExplicitAny: Node's IncomingMessage and ServerResponse listeners take any arguments
  on(event: string, listener: (...args: any[]) => void): unknown;
  /** Listens once to `drain` or `close`. */
  // biome-ignore lint/suspicious/noExplicitAny: Node's IncomingMessage and ServerResponse listeners take any arguments
  once(event: string, listener: (...args: any[]) => void): NodeHttpResponse;
}

/**
 * A Node HTTP handler serving the registry over Streamable HTTP, stateless (see `mcpFetchHandler`). Mount it at your
 * MCP path: `http.createServer((req, res) => handler(req, res))`, or in Express
 * `app.post("/mcp", (req, res) => handler(req, res, req.body))` when a body parser already read the body.
 */
export function mcpHttpHandler(
  registry: ToolRegistry,
  options: MCPHttpOptions = {},
): (req: NodeHttpRequest, res: NodeHttpResponse, parsedBody?: unknown) => Promise<void> {
  const handle = mcpFetchHandler(registry, options);
  // Never rejects: under a plain `http.createServer` an unhandled rejection ends the process, so one hostile
  // request could stop the server for everyone.
  return async (req, res, parsedBody) => {
    const closed = new AbortController();
    res.on("close", () => closed.abort(new Error("The client closed the connection.")));
    try {
      const request = toRequest(req, parsedBody, closed.signal);
      const response = request instanceof Response ? request : await handle(request);
      // A body left unread (refused before or while reading) must not be taken for the next request on this socket.
      if (!req.complete) res.shouldKeepAlive = false;
      await writeResponse(response, res, closed.signal);
    } catch {
      answerFailure(res);
    }
  };
}

/** The last resort when something failed before or while answering: a 500 if nothing was sent yet, else a cut. */
function answerFailure(res: NodeHttpResponse): void {
  try {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.shouldKeepAlive = false;
    const failure = refusal(500, -32603, "Internal error: the server could not answer this request.");
    res.writeHead(failure.status, { "content-type": "application/json", connection: "close" });
    void failure.text().then(
      (text) => res.end(text),
      () => res.destroy(),
    );
  } catch {
    res.destroy();
  }
}

/**
 * The request's URL from its `Host` header and target, or `undefined` when they do not form one (`Host: local host`,
 * `localhost:abc`, `[::1`, a port over 65535): such a request names no server and is answered 400.
 */
function requestUrl(req: NodeHttpRequest): URL | undefined {
  const host = req.headers.host ?? "localhost";
  try {
    const base = new URL(`http://${host}`);
    // The header must be exactly a host and an optional port, as the URL reads it: a path, user info or query
    // smuggled in would make the URL name another host than the header the policy checks.
    if (base.host !== host.toLowerCase().replace(/:80$/, "")) return undefined;
    return new URL(req.url ?? "/", base);
  } catch {
    return undefined;
  }
}

/**
 * An IncomingMessage as a Web Request (the body streamed from the message's events, or `parsedBody` as JSON), or
 * the 400 answer for a request whose Host header and target form no URL.
 */
export function toRequest(req: NodeHttpRequest, parsedBody: unknown, signal: AbortSignal): Request | Response {
  const url = requestUrl(req);
  if (url === undefined) {
    return refusal(400, -32600, "Bad request: the Host header and the request target do not form a valid URL.");
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const method = req.method ?? "GET";
  if (method === "GET" || method === "HEAD") return new Request(url, { method, headers, signal });
  if (parsedBody !== undefined) {
    headers.delete("content-length");
    return new Request(url, { method, headers, signal, body: JSON.stringify(parsedBody) });
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      req.on("data", (chunk: Uint8Array) => {
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        // Backpressure: stop reading until the consumer asks for more.
        if ((controller.desiredSize ?? 1) <= 0) req.pause();
      });
      req.on("end", () => controller.close());
      req.on("error", (error: unknown) => controller.error(error));
    },
    pull() {
      req.resume();
    },
    cancel() {
      // Not read to its end (over the size limit): stop reading; the response then closes the connection.
      req.pause();
    },
  });
  return new Request(url, { method, headers, signal, body, duplex: "half" } as RequestInit);
}

/** Write a Web Response to a ServerResponse, streaming its body (SSE events go out as they come). */
export async function writeResponse(response: Response, res: NodeHttpResponse, signal: AbortSignal): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = name === "set-cookie" ? [...((headers[name] as string[] | undefined) ?? []), value] : value;
  });
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const stop = (): void => void reader.cancel().catch(() => undefined);
  signal.addEventListener("abort", stop, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise<void>((resolve) => res.once("drain", resolve).once("close", resolve));
    }
  } catch {
    // The client went away mid-stream; nothing is left to write to.
  } finally {
    signal.removeEventListener("abort", stop);
    res.end();
  }
}
