/**
 * A scripted JSON HTTP server for provider round trips (Anthropic, Gemini, the Responses API, the legacy functions
 * API): the official SDK client talks to it on 127.0.0.1 (random port) as it would to the provider. Step i of the
 * script answers request i with a JSON body written in the provider's documented response shape; every request
 * (method, path, parsed body) is recorded so a test can check exactly what reached the wire. An unscripted request
 * is a 500 with a message, never a hang. A step may answer with `sse(events)` instead: a `text/event-stream` of
 * `event:` / `data:` records, as the providers stream; or with `sseText(text)`, a recorded stream sent as written.
 */
import * as http from "node:http";
import { listenOnLoopback } from "./listen";

export interface RecordedRequest {
  method: string;
  path: string;
  body: unknown;
}

/** A streamed answer: each event as an `event:` line (when named) and a `data:` line of JSON. */
export class SseAnswer {
  constructor(readonly events: readonly { readonly event?: string; readonly data: unknown }[]) {}
}

export function sse(events: readonly { readonly event?: string; readonly data: unknown }[]): SseAnswer {
  return new SseAnswer(events);
}

/** A streamed answer written out as the wire carried it (a recording): sent byte for byte. */
export class SseText {
  constructor(readonly text: string) {}
}

export function sseText(text: string): SseText {
  return new SseText(text);
}

/** Answers one request with a JSON body (status 200), or with `sse(events)` / `sseText(text)` a stream. */
export type ScriptedResponse = (request: RecordedRequest, index: number) => unknown;

export interface ScriptedHttpServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly origin: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startScriptedHttp(steps: readonly ScriptedResponse[]): Promise<ScriptedHttpServer> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = text === "" ? undefined : JSON.parse(text);
      } catch {
        body = text;
      }
      const request: RecordedRequest = { method: req.method ?? "", path: (req.url ?? "/").split("?")[0]!, body };
      const index = requests.push(request) - 1;
      const step = steps[index];
      // x-should-retry: false keeps the SDKs from retrying a scripted failure.
      const headers = { "content-type": "application/json", "x-should-retry": "false" };
      if (!step) {
        res.writeHead(500, headers);
        res.end(
          JSON.stringify({
            error: {
              message: `script exhausted: request #${index + 1} (${request.method} ${request.path}) has no step`,
            },
          }),
        );
        return;
      }
      try {
        const answer = step(request, index);
        if (answer instanceof SseText) {
          res.writeHead(200, {
            "content-type": "text/event-stream",
            "cache-control": "no-cache",
            "x-should-retry": "false",
          });
          res.end(answer.text);
          return;
        }
        if (answer instanceof SseAnswer) {
          res.writeHead(200, {
            "content-type": "text/event-stream",
            "cache-control": "no-cache",
            "x-should-retry": "false",
          });
          for (const { event, data } of answer.events)
            res.write(`${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`);
          res.end();
          return;
        }
        res.writeHead(200, headers);
        res.end(JSON.stringify(answer));
      } catch (error) {
        res.writeHead(500, headers);
        res.end(JSON.stringify({ error: { message: `step ${index} threw: ${String(error)}` } }));
      }
    });
  });
  const port = await listenOnLoopback(server);
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** The wire form of a value: what an SDK sends after JSON serialisation. */
export function wire(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}
