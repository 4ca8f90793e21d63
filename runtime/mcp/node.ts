/**
 * `mcpHttpHandler`: the Web-standard handler (fetch.ts) for Node's `http` server, Express and the like, through a
 * small Request/Response bridge. Same policy, same answers; only the plumbing differs.
 *
 * The bridge uses Node's own classes only through types (a request is read from its events, a response written
 * with `writeHead`/`write`/`end`), so this file adds no Node built-in import to a bundle that does not use it.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { BaseToolRegistry as ToolRegistry } from "../registry/core";
import type { MCPHttpOptions } from "./http-policy";
import { mcpFetchHandler } from "./fetch";

/**
 * A Node HTTP handler serving the registry over Streamable HTTP, stateless (see `mcpFetchHandler`). Mount it at your
 * MCP path: `http.createServer((req, res) => handler(req, res))`, or in Express
 * `app.post("/mcp", (req, res) => handler(req, res, req.body))` when a body parser already read the body.
 */
export function mcpHttpHandler(
  registry: ToolRegistry,
  options: MCPHttpOptions = {},
): (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) => Promise<void> {
  const handle = mcpFetchHandler(registry, options);
  return async (req, res, parsedBody) => {
    const closed = new AbortController();
    res.on("close", () => closed.abort(new Error("The client closed the connection.")));
    const response = await handle(toRequest(req, parsedBody, closed.signal));
    // A body left unread (refused before or while reading) must not be taken for the next request on this socket.
    if (!req.complete) res.shouldKeepAlive = false;
    await writeResponse(response, res, closed.signal);
  };
}

/** An IncomingMessage as a Web Request (the body streamed from the message's events, or `parsedBody` as JSON). */
export function toRequest(req: IncomingMessage, parsedBody: unknown, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const method = req.method ?? "GET";
  const url = `http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`;
  if (method === "GET" || method === "HEAD") return new Request(url, { method, headers, signal });
  if (parsedBody !== undefined) {
    headers.delete("content-length");
    return new Request(url, { method, headers, signal, body: JSON.stringify(parsedBody) });
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      req.on("data", (chunk: Buffer) => {
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        // Backpressure: stop reading until the consumer asks for more.
        if ((controller.desiredSize ?? 1) <= 0) req.pause();
      });
      req.on("end", () => controller.close());
      req.on("error", (error) => controller.error(error));
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
export async function writeResponse(response: Response, res: ServerResponse, signal: AbortSignal): Promise<void> {
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
