/**
 * A scripted OpenAI-compatible Chat Completions server, for tests and the offline run of the examples.
 *
 * Owns: listening on 127.0.0.1 (random port), answering `POST /v1/chat/completions` (and `/chat/completions`) with
 * real `ChatCompletion` JSON built from a script, or with `stream: true` as server-sent events in OpenAI's format
 * (`data: <ChatCompletionChunk>` events, then `data: [DONE]`), recording every parsed request body, and answering
 * OpenAI-style error bodies for what it cannot serve (exhausted script, bad JSON, unknown route).
 *
 * Streaming is cut the way OpenAI cuts it: a first chunk with the role, the content in pieces, then each tool call
 * in index order, its id, type and name in one chunk with empty arguments, then its arguments text in pieces of
 * `fragmentSize` characters (default 5), then a chunk with the `finish_reason`, a usage chunk when
 * `stream_options.include_usage` asks for one, and `[DONE]`. `chunkDelayMs` spaces the chunks out in time.
 *
 * A script is either a list of steps (step i answers request i; a step is a reply or a function of the request) or
 * one function of `(request, index)` that returns `undefined` when the conversation is over. Replies are small:
 * `{ content }` for a final answer, `{ tool_calls: [{ name, arguments }] }` for (parallel) tool calls; ids
 * `call_1`, `call_2`, ... are generated when a call does not name its own.
 *
 * Every error response carries `x-should-retry: false`, so the OpenAI SDK does not retry it: a retry would only
 * replay the same script position (or consume the next step) and slow the test down with backoff.
 */
import * as http from "node:http";
import { listenOnLoopback } from "../support/listen";
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParams,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";

/** One tool call in a scripted reply. `arguments` objects are sent as JSON text; strings are sent as written. */
export interface ScriptedToolCall {
  name: string;
  arguments: string | Record<string, unknown>;
  id?: string;
}

/** What the scripted model says: a final answer, or one or more (parallel) tool calls. */
export type ScriptedReply =
  | { content: string; tool_calls?: undefined }
  | { tool_calls: ScriptedToolCall[]; content?: string | null };

/** Computes a reply from the request. `index` counts the requests that reached the script, from 0. */
export type ScriptFunction = (
  request: ChatCompletionCreateParams,
  index: number,
) => ScriptedReply | undefined | Promise<ScriptedReply | undefined>;

/** One step of a list script: a fixed reply or a function of the request. */
export type ScriptStep =
  | ScriptedReply
  | ((request: ChatCompletionCreateParams, index: number) => ScriptedReply | Promise<ScriptedReply>);

/** A list of steps (request i gets step i), or one function that returns `undefined` once the script is over. */
export type Script = readonly ScriptStep[] | ScriptFunction;

export interface ScriptedServer {
  /** `http://127.0.0.1:<port>/v1`, ready for `new OpenAI({ baseURL, apiKey: "test" })`. */
  readonly baseURL: string;
  /** The parsed body of every chat completion request received, in order (including ones answered with an error). */
  readonly requests: ChatCompletionCreateParams[];
  /** Stops listening and drops open keep-alive connections. */
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** How streamed replies are cut. */
export interface ScriptedServerOptions {
  /** Characters of content or arguments text per chunk (default 5). */
  fragmentSize?: number;
  /** Milliseconds between two chunks of a stream (default 0: all written at once). */
  chunkDelayMs?: number;
}

/** Starts a server on 127.0.0.1 with a random port that answers chat completions from `script`. */
export async function startScriptedServer(
  script: Script,
  options: ScriptedServerOptions = {},
): Promise<ScriptedServer> {
  const fragmentSize = Math.max(1, Math.floor(options.fragmentSize ?? 5));
  const chunkDelayMs = Math.max(0, options.chunkDelayMs ?? 0);
  const requests: ChatCompletionCreateParams[] = [];
  let scriptPosition = 0;
  let completionCount = 0;
  let toolCallCount = 0;

  const nextReply = async (request: ChatCompletionCreateParams, index: number): Promise<ScriptedReply | undefined> => {
    if (typeof script === "function") return script(request, index);
    const step = script[index];
    if (step === undefined) return undefined;
    return typeof step === "function" ? step(request, index) : step;
  };

  const toCompletion = (request: ChatCompletionCreateParams, reply: ScriptedReply): ChatCompletion => {
    completionCount += 1;
    const calls: ChatCompletionMessageFunctionToolCall[] | undefined = reply.tool_calls?.map((call) => ({
      id: call.id ?? `call_${++toolCallCount}`,
      type: "function",
      function: {
        name: call.name,
        arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
      },
    }));
    const content = reply.content ?? null;
    const hasCalls = calls !== undefined && calls.length > 0;
    return {
      id: `chatcmpl-scripted-${completionCount}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: request.model,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content, refusal: null, ...(hasCalls ? { tool_calls: calls } : {}) },
          finish_reason: hasCalls ? "tool_calls" : "stop",
          logprobs: null,
        },
      ],
      usage: usageFor(request, content, calls),
    };
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/v1/chat/completions" && path !== "/chat/completions") {
      return sendError(
        res,
        404,
        `Unknown route ${req.method} ${path}: the scripted server only answers POST /v1/chat/completions.`,
        "invalid_request_error",
        "unknown_url",
      );
    }
    if (req.method !== "POST") {
      return sendError(
        res,
        405,
        `Method ${req.method} not allowed on ${path}; use POST.`,
        "invalid_request_error",
        "method_not_allowed",
      );
    }

    let text: string;
    try {
      text = await readBody(req);
    } catch (error) {
      return sendError(res, 413, (error as Error).message, "invalid_request_error", "request_too_large");
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      return sendError(
        res,
        400,
        `We could not parse the JSON body of your request: ${(error as Error).message}`,
        "invalid_request_error",
        "invalid_json",
      );
    }
    const problem = checkRequest(body);
    if (problem) return sendError(res, 400, problem, "invalid_request_error", "invalid_request");

    const request = body as ChatCompletionCreateParams;
    requests.push(request);
    // Only requests that reach the script advance it: a rejected request does not consume a step.
    const index = scriptPosition++;

    let reply: ScriptedReply | undefined;
    try {
      reply = await nextReply(request, index);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return sendError(res, 500, `Scripted step ${index} threw: ${message}`, "server_error", "script_error");
    }
    if (reply === undefined) {
      const steps =
        typeof script === "function" ? "its function returned undefined" : `it has ${script.length} step(s)`;
      return sendError(
        res,
        500,
        `The script is exhausted: request #${index + 1} arrived but ${steps}.`,
        "server_error",
        "script_exhausted",
      );
    }
    const completion = toCompletion(request, reply);
    if (request.stream === true)
      return sendStream(
        res,
        toChunks(completion, fragmentSize, request.stream_options?.include_usage === true),
        chunkDelayMs,
      );
    sendJson(res, 200, completion);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, `Scripted server failure: ${String(error)}`, "server_error", null);
      else res.destroy();
    });
  });

  const port = await listenOnLoopback(server);

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** A tool result as the model sees it in a request: the message plus the name of the call it answers. */
export interface ToolResult {
  tool_call_id: string;
  /** The tool name, from the assistant message that made the call (undefined if no such call is in the request). */
  name: string | undefined;
  content: string;
}

/**
 * The tool messages that follow the last assistant message of a request, in order: what a script reads to write its
 * answer. Empty when the request ends with anything else.
 */
export function toolResults(request: ChatCompletionCreateParams): ToolResult[] {
  const messages = request.messages;
  let lastAssistant = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === "assistant") {
      lastAssistant = i;
      break;
    }
  }
  if (lastAssistant < 0) return [];
  const assistant = messages[lastAssistant];
  const names = new Map<string, string>();
  if (assistant.role === "assistant") {
    for (const call of assistant.tool_calls ?? []) {
      names.set(call.id, call.type === "function" ? call.function.name : call.custom.name);
    }
  }
  const results: ToolResult[] = [];
  for (const message of messages.slice(lastAssistant + 1)) {
    if (message.role !== "tool") continue;
    results.push({
      tool_call_id: message.tool_call_id,
      name: names.get(message.tool_call_id),
      content: textOf(message.content),
    });
  }
  return results;
}

/** The text of the last user message of a request ("" if none). */
export function lastUserText(request: ChatCompletionCreateParams): string {
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const message = request.messages[i];
    if (message.role === "user") return textOf(message.content);
  }
  return "";
}

function textOf(content: ChatCompletionMessageParam["content"]): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => ("text" in part && typeof part.text === "string" ? part.text : "")).join("");
}

/** The minimal shape checks OpenAI itself answers with a 400. */
function checkRequest(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return "The request body must be a JSON object.";
  const { model, messages } = body as { model?: unknown; messages?: unknown };
  if (typeof model !== "string" || model === "") return "You must provide a model parameter.";
  if (!Array.isArray(messages) || messages.length === 0) return "`messages` must be a non-empty array.";
  return undefined;
}

/** A completion cut into the chunks OpenAI would stream for it. */
function toChunks(completion: ChatCompletion, fragmentSize: number, includeUsage: boolean): ChatCompletionChunk[] {
  const { message, finish_reason } = completion.choices[0]!;
  const chunks: ChatCompletionChunk[] = [];
  const chunk = (
    delta: ChatCompletionChunk.Choice.Delta,
    finish: ChatCompletionChunk.Choice["finish_reason"] = null,
  ): void => {
    chunks.push({
      id: completion.id,
      object: "chat.completion.chunk",
      created: completion.created,
      model: completion.model,
      choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    });
  };
  const calls = (message.tool_calls ?? []).filter((call) => call.type === "function");
  // OpenAI opens with the role, and content "" for a text reply or null before tool calls.
  chunk({ role: "assistant", content: calls.length > 0 && !message.content ? null : "" });
  for (const piece of fragments(message.content ?? "", fragmentSize)) chunk({ content: piece });
  calls.forEach((call, index) => {
    chunk({
      tool_calls: [{ index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }],
    });
    for (const piece of fragments(call.function.arguments, fragmentSize))
      chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  chunk({}, finish_reason as ChatCompletionChunk.Choice["finish_reason"]);
  if (includeUsage) {
    chunks.push({
      id: completion.id,
      object: "chat.completion.chunk",
      created: completion.created,
      model: completion.model,
      choices: [],
      usage: completion.usage ?? null,
    });
  }
  return chunks;
}

function fragments(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

/** Server-sent events: one `data:` event per chunk, then `data: [DONE]`. */
async function sendStream(res: http.ServerResponse, chunks: ChatCompletionChunk[], delayMs: number): Promise<void> {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  for (const chunk of chunks) {
    if (res.destroyed) return;
    res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
  }
  res.end("data: [DONE]\n\n");
}

/** Rough token counts (4 characters a token), deterministic so tests can rely on them being present. */
function usageFor(
  request: ChatCompletionCreateParams,
  content: string | null,
  calls: ChatCompletionMessageFunctionToolCall[] | undefined,
): NonNullable<ChatCompletion["usage"]> {
  const prompt_tokens = Math.ceil(JSON.stringify(request.messages).length / 4);
  const completion_tokens = Math.ceil(((content ?? "").length + (calls ? JSON.stringify(calls).length : 0)) / 4);
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      // Past the limit, keep draining (so the error response can still be written) but stop buffering.
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on("end", () => {
      if (size > MAX_BODY_BYTES) reject(new Error(`The request body is larger than ${MAX_BODY_BYTES} bytes.`));
      else resolve(Buffer.concat(chunks).toString("utf8"));
    });
    req.on("error", reject);
  });
}

function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: http.OutgoingHttpHeaders = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** An OpenAI-style error body: `{ error: { message, type, param, code } }`. */
function sendError(res: http.ServerResponse, status: number, message: string, type: string, code: string | null): void {
  sendJson(res, status, { error: { message, type, param: null, code } }, { "x-should-retry": "false" });
}
