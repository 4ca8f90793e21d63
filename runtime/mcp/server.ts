/**
 * The MCP server of a registry on a connection that lives across requests: stdio, an in-memory pair, any transport
 * with the SDK's `Transport` shape. The methods are endpoint.ts's; this file carries messages both ways.
 */
import { watchTools } from "../registry/tool-changes";
import type { BaseToolRegistry as ToolRegistry } from "../registry/core";
import {
  acknowledgeListen,
  type LegacySession,
  listChanged,
  type MCPEndpoint,
  mcpEndpoint,
  type MCPServerOptions,
} from "./endpoint";
import { PROGRESS_GAP_MS, PROGRESS_SETTLE_MS } from "./progress";
import {
  errorResponse,
  INTERNAL_ERROR,
  isNotification,
  isRecord,
  isRequest,
  isResponse,
  type JsonRpcRequest,
  type JsonRpcResponse,
  META_SUBSCRIPTION_ID,
  METHOD_NOT_FOUND,
  type RequestId,
} from "./protocol";

export type { MCPServerOptions } from "./endpoint";

/**
 * A connection for JSON-RPC messages, the shape of the SDK's `Transport` (1.x and 2.x): `StdioServerTransport`,
 * `InMemoryTransport`, or your own.
 */
export interface MCPTransport {
  /** Opens the connection (the server calls it when it connects). */
  start(): Promise<void>;
  /** Sends one JSON-RPC message to the client. */
  send(message: never): Promise<void>;
  /** Closes the connection. */
  close(): Promise<void>;
  /** Set by the server: told of each JSON-RPC message from the client. */
  onmessage?: ((message: never, extra?: never) => void) | undefined;
  /** Set by the server: told when the connection closes. */
  onclose?: (() => void) | undefined;
  /** Set by the server: told of a transport error. */
  onerror?: ((error: Error) => void) | undefined;
}

/** A registry's MCP server: connect it to a transport (one at a time), close it when done. */
export interface MCPServer {
  /** Serve on `transport` (starts it); resolves once it listens. */
  connect(transport: MCPTransport): Promise<void>;
  /** Ends the subscriptions (each with its closing result), aborts the running calls and closes the transport. */
  close(): Promise<void>;
  /** The name and version the server introduces itself with. */
  readonly serverInfo: { name: string; version: string };
}

/** The registry's MCP server, for any connection. `serveMCP` makes one and connects it. */
export function createMCPServer(registry: ToolRegistry, options: MCPServerOptions = {}): MCPServer {
  const endpoint = mcpEndpoint(registry, options);
  let connection: Connection | undefined;
  return {
    serverInfo: endpoint.serverInfo,
    async connect(transport) {
      if (connection)
        throw new Error("createMCPServer: this server is already connected; make one server per connection.");
      connection = new Connection(endpoint, transport as unknown as Wire);
      await connection.start();
    },
    async close() {
      await connection?.close();
      connection = undefined;
    },
  };
}

/** Serve the registry's tools on `transport` (e.g. `new StdioServerTransport()`); resolves once connected. */
export async function serveMCP(
  registry: ToolRegistry,
  transport: MCPTransport,
  options: MCPServerOptions = {},
): Promise<MCPServer> {
  const server = createMCPServer(registry, options);
  await server.connect(transport);
  return server;
}

/** The transport as this file uses it. */
interface Wire {
  start(): Promise<void>;
  send(message: object): Promise<void>;
  close(): Promise<void>;
  onmessage?: (message: unknown) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
}

/**
 * One connection's side of the server:
 * - A client of the current revision sends `_meta` on every request; one of an older revision opens with
 *   `initialize`, whose answer this connection keeps (its revision, its capabilities).
 * - `notifications/cancelled` aborts the call it names (the current revision's way on stdio, and the older ones').
 * - `subscriptions/listen` opens a subscription for tool list changes, acknowledged first, ended by the client's
 *   `notifications/cancelled`; an older client that initialized gets `notifications/tools/list_changed`.
 * - An older client that declared elicitation is asked for approval by a request of the server's own
 *   (`elicitation/create`); the current revision asks through an `input_required` result instead (approval.ts).
 * - Progress: the SDK clients read the messages of one chunk of a stream (stdio) in one go and handle a response at
 *   once but a notification a microtask later, by which time the response has removed the call's progress handler,
 *   so a report sent right before the result would be dropped. A client of an older revision answers a ping only
 *   after it handled what came before, so a call that sent reports pings first (at most `PROGRESS_SETTLE_MS`); on
 *   the current revision, which has no ping, the result waits until the last report was written.
 */
class Connection {
  readonly #endpoint: MCPEndpoint;
  readonly #wire: Wire;
  readonly #session: LegacySession = { version: "", capabilities: {} };
  /** Requests being answered (and subscriptions), by id: `notifications/cancelled` aborts them. */
  readonly #running = new Map<RequestId, AbortController>();
  /** The subscriptions, by the id of their `subscriptions/listen` request: how each is ended. */
  readonly #listening = new Map<RequestId, () => void>();
  /** The server's own requests waiting for the client's answer. */
  readonly #asked = new Map<string, (message: Record<string, unknown>) => void>();
  #nextId = 0;
  #lastSent: Promise<void> = Promise.resolve();
  #closed = false;
  #stopWatching: (() => void) | undefined;

  constructor(endpoint: MCPEndpoint, wire: Wire) {
    this.#endpoint = endpoint;
    this.#wire = wire;
  }

  async start(): Promise<void> {
    this.#wire.onmessage = (message) => this.#receive(message);
    this.#wire.onclose = () => this.#ended();
    this.#wire.onerror = () => undefined;
    await this.#wire.start();
  }

  async close(): Promise<void> {
    for (const [id, stop] of [...this.#listening]) {
      stop();
      // A subscription the server ends gets its result, so the client knows it ended on purpose.
      await this.#send({
        jsonrpc: "2.0",
        id,
        result: { resultType: "complete", _meta: { [META_SUBSCRIPTION_ID]: id } },
      });
    }
    this.#ended();
    await this.#wire.close();
  }

  #ended(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const controller of this.#running.values()) controller.abort(new Error("The connection closed."));
    for (const stop of this.#listening.values()) stop();
    this.#listening.clear();
    this.#stopWatching?.();
    for (const resolve of this.#asked.values())
      resolve({ error: { code: INTERNAL_ERROR, message: "The connection closed." } });
    this.#asked.clear();
  }

  #send(message: object): Promise<void> {
    if (this.#closed) return Promise.resolve();
    const sent = this.#wire.send(message).catch(() => undefined);
    this.#lastSent = sent;
    return sent;
  }

  /**
   * The current revision has no ping: a call that sent progress waits until its last report was written and one
   * turn of the event loop has passed, so that the result reaches the client in a read of its own.
   */
  async #flushed(): Promise<void> {
    await this.#lastSent;
    await new Promise<void>((resolve) => setTimeout(resolve, PROGRESS_GAP_MS));
  }

  #receive(message: unknown): void {
    if (isResponse(message)) {
      const record = message as Record<string, unknown>;
      const resolve = this.#asked.get(String(record.id));
      this.#asked.delete(String(record.id));
      resolve?.(record);
      return;
    }
    if (isRequest(message)) {
      void this.#answer(message);
      return;
    }
    if (isNotification(message) && message.method === "notifications/cancelled" && isRecord(message.params)) {
      const id = message.params.requestId;
      if (typeof id !== "string" && typeof id !== "number") return;
      const reason = typeof message.params.reason === "string" ? message.params.reason : "Cancelled by the client.";
      this.#running.get(id)?.abort(new Error(reason));
      const stop = this.#listening.get(id);
      if (stop) {
        stop();
        this.#listening.delete(id);
      }
    }
    // Other notifications (`notifications/initialized`, …) need nothing.
  }

  async #answer(request: JsonRpcRequest): Promise<void> {
    if (request.method === "subscriptions/listen") return this.#listen(request);
    const controller = new AbortController();
    this.#running.set(request.id, controller);
    let response: JsonRpcResponse | undefined;
    try {
      response = await this.#endpoint.answer(request, {
        signal: controller.signal,
        session: this.#session,
        notify: (notification) => void this.#send(notification),
        ask: (method, params) => this.#ask(method, params, controller.signal),
        settle: () =>
          this.#session.version === ""
            ? this.#flushed()
            : this.#ask("ping", {}, controller.signal, PROGRESS_SETTLE_MS).then(
                () => undefined,
                () => undefined,
              ),
      });
      if (request.method === "initialize" && "result" in response) this.#watchForLegacy();
    } catch (error) {
      response = errorResponse(
        request.id,
        INTERNAL_ERROR,
        this.#endpoint.options.exposeErrors && error instanceof Error ? error.message : "Internal error.",
      );
    } finally {
      this.#running.delete(request.id);
    }
    // A cancelled request gets no answer.
    if (!controller.signal.aborted) await this.#send(response);
  }

  #listen(request: JsonRpcRequest): void {
    const era = this.#endpoint.eraOf(request, this.#session);
    if ("jsonrpc" in era) return void this.#send(era);
    if (!era.modern)
      return void this.#send(
        errorResponse(
          request.id,
          METHOD_NOT_FOUND,
          "Method not found: subscriptions/listen is of the 2026-07-28 revision; this connection opened with initialize.",
        ),
      );
    const ack = acknowledgeListen(request);
    if ("jsonrpc" in ack) return void this.#send(ack);
    void this.#send(ack.notification);
    const stop = ack.tools
      ? watchTools(this.#endpoint.registry, () => void this.#send(listChanged(request.id)))
      : () => undefined;
    this.#listening.set(request.id, stop);
  }

  /** An older client that initialized this connection hears of tool list changes without asking. */
  #watchForLegacy(): void {
    this.#stopWatching ??= watchTools(
      this.#endpoint.registry,
      () => void this.#send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" }),
    );
  }

  /** Sends a request of the server's own and resolves to the client's result (rejects on an error or abort). */
  #ask(method: string, params: Record<string, unknown>, signal: AbortSignal, timeoutMs?: number): Promise<unknown> {
    const id = `tooltype-${++this.#nextId}`;
    return new Promise<unknown>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const done = (): void => {
        this.#asked.delete(id);
        clearTimeout(timer);
        signal.removeEventListener("abort", aborted);
      };
      const aborted = (): void => {
        done();
        reject(signal.reason);
      };
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          done();
          reject(new Error(`The client did not answer ${method} within ${timeoutMs} ms.`));
        }, timeoutMs);
      }
      signal.addEventListener("abort", aborted, { once: true });
      this.#asked.set(id, (message) => {
        done();
        if (isRecord(message.error)) reject(new Error(String(message.error.message)));
        else resolve(message.result);
      });
      void this.#send({ jsonrpc: "2.0", id, method, params });
    });
  }
}
