/**
 * The OpenAI Responses API, both ways (the `openAIResponses` provider): flat function tools (`{ type: "function", name, description, parameters,
 * strict }`), reading `function_call` items from a response (or an item list), answering with
 * `function_call_output` items, and `tool_choice`.
 *
 * The agent loop's side (`client.responses.create`, whole or streamed) is here too: the request (`input`, tools,
 * `text.format` for a structured answer), reading a `Response` (its output items go back into `input` as they came,
 * reasoning items included), and `accumulateToolCalls("responses")` for the stream events.
 *
 * Strict by default: the Responses API treats a function tool as strict unless it says `strict: false`, so
 * `toResponsesTools()` writes the strict form (rewritten, see strict.ts) and `strict: true` for every tool that does
 * not opt out (`@tool({ strict: false })`, or `toResponsesTools({ strict: false })` for the whole export). It always
 * writes `strict` explicitly, so what the model is held to is visible in the request.
 *
 * Types are tooltype's own; the checks at the bottom keep them assignable to the `openai` SDK's.
 */
import type OpenAI from "openai";
import type {
  FunctionTool,
  Response,
  ResponseFunctionCallOutputItem,
  ResponseInputItem,
  ResponseStreamEvent,
  ToolChoiceFunction,
  ToolChoiceOptions as SdkToolChoiceOptions,
} from "openai/resources/responses/responses";
import type { NormalizedCall } from "../dispatch/call";
import type { ToolMessage } from "../dispatch/messages";
import { type ToolContentPart, dataUrl } from "../tool/content";
import {
  type LoopReply,
  type OutputFormatSource,
  type ProviderLoop,
  type ToolChoice,
  type ToolChoiceOptions,
  type ToolFormatSource,
  type ToolProvider,
  isAsyncIterable,
  isChoiceMode,
} from "./provider";
import { ownsResponses } from "./sniff";
import { type CallState, IndexedCalls, StreamAccumulator, type UpdateDraft } from "./stream";
import { toStrictSchema } from "#strict";
import { checkToolCount } from "./openai-limits";

/** One function tool of a Responses API request (the SDK's `FunctionTool`). */
export interface ResponsesFunctionTool {
  type: "function";
  name: string;
  description?: string | null;
  parameters: { [key: string]: unknown } | null;
  strict: boolean | null;
}

/** A `function_call` output item (the SDK's `ResponseFunctionToolCall`). */
export interface ResponsesFunctionCall {
  type: "function_call";
  call_id: string;
  name: string;
  /** JSON text; may be malformed. */
  arguments: string;
  id?: string;
}

/** A piece of a `function_call_output` that holds images or files (the SDK's `ResponseFunctionCallOutputItem`). */
export type ResponsesOutputContent =
  | { type: "input_text"; text: string }
  | { type: "input_image"; image_url: string; detail: "auto" }
  | { type: "input_file"; file_data: string; filename: string }
  | { type: "input_file"; file_url: string; filename?: string };

/** The answer to one `function_call` item (the SDK's `ResponseInputItem.FunctionCallOutput`). */
export interface ResponsesFunctionCallOutput {
  type: "function_call_output";
  call_id: string;
  /** The tool's text, or a list of text, image and file pieces when it returned images or files. */
  output: string | ResponsesOutputContent[];
}

/** What dispatch reads: a Responses API `Response` (its `output` items), or a list of items. */
export type ResponsesInput = { output: readonly object[] } | readonly object[];

/** `tool_choice` of a Responses API request. */
export type ResponsesToolChoice = "none" | "auto" | "required" | { type: "function"; name: string };

/** Request fields for the tool choice: spread them into `responses.create({ ... })`. */
export interface ResponsesToolChoiceParams {
  tool_choice: ResponsesToolChoice;
  parallel_tool_calls?: boolean;
}

/** `toResponsesTools` options. */
export interface ResponsesToolsOptions {
  /** Default `true`, as in the Responses API itself; a tool's own `strict` option wins. */
  strict?: boolean;
  /** Check the limits of one request, such as the number of tools (default `true`); see `OpenAIToolsOptions`. */
  checkLimits?: boolean;
}

export function toResponsesTool(tool: ToolFormatSource, options: ResponsesToolsOptions = {}): ResponsesFunctionTool {
  const strict = tool.options.strict ?? options.strict ?? true;
  const entry: FunctionTool = {
    type: "function",
    name: tool.name,
    parameters: strict ? toStrictSchema(tool.parameters, tool.name) : tool.parameters,
    strict,
  };
  if (tool.description !== "") entry.description = tool.description;
  return entry;
}

export function toResponsesTools(tools: Iterable<ToolFormatSource>, options: ResponsesToolsOptions = {}): ResponsesFunctionTool[] {
  const list = Array.from(tools);
  if (options.checkLimits !== false) checkToolCount(list.length, "responses");
  return list.map((tool) => toResponsesTool(tool, options));
}

/** One `function_call_output` item per result, in call order (errors included, as text). */
export function toResponsesOutputs(results: readonly ToolMessage[]): ResponsesFunctionCallOutput[] {
  return results.map((result) => {
    const item: ResponseInputItem.FunctionCallOutput & ResponsesFunctionCallOutput = {
      type: "function_call_output",
      call_id: result.tool_call_id,
      output: result.parts ? responsesContent(result.parts) : result.content,
    };
    return item;
  });
}

/** Content parts as `input_text`, `input_image` (URL or data URL) and `input_file` (data URL or URL) pieces. */
export function responsesContent(parts: readonly ToolContentPart[]): ResponsesOutputContent[] {
  let files = 0;
  return parts.map((part): ResponsesOutputContent => {
    if (part.type === "text") return { type: "input_text", text: part.text };
    if (part.type === "image") return { type: "input_image", image_url: dataUrl(part), detail: "auto" };
    files++;
    if (part.url !== undefined) return { type: "input_file", file_url: part.url, ...(part.filename === undefined ? {} : { filename: part.filename }) };
    // OpenAI asks for a file name with inline file data.
    return { type: "input_file", file_data: dataUrl(part), filename: part.filename ?? `file-${files}` };
  });
}

export function responsesToolChoice(choice: ToolChoice, options: ToolChoiceOptions = {}): ResponsesToolChoiceParams {
  const tool_choice: ResponsesToolChoice =
    isChoiceMode(choice) ? choice : { type: "function", name: choice };
  const params: ResponsesToolChoiceParams = { tool_choice };
  if (options.parallel !== undefined) params.parallel_tool_calls = options.parallel;
  return params;
}

/** Every `function_call` item, keyed by `call_id` (other items, such as messages and reasoning, carry no call). */
export function readResponsesCalls(message: ResponsesInput): NormalizedCall[] {
  const items: readonly unknown[] = Array.isArray(message) ? message : (message as { output: readonly unknown[] }).output;
  const calls: NormalizedCall[] = [];
  for (const item of items) {
    if (typeof item !== "object" || item === null) continue;
    const record = item as Record<string, unknown>;
    if (record.type !== "function_call") continue;
    const id = typeof record.call_id === "string" ? record.call_id : "";
    const name = typeof record.name === "string" ? record.name : "";
    const args = record.arguments;
    if (typeof args === "string") calls.push({ kind: "text", id, name, text: args });
    else if (args === undefined || args === null) calls.push({ kind: "text", id, name, text: "" });
    else calls.push({ kind: "args", id, name, args });
  }
  return calls;
}


/** A Response as the loop reads it (the SDK's `Response`): its output items, and their text. */
export interface ResponsesReply {
  output: readonly object[];
  output_text?: string;
}

/** One event of a streamed response (the SDK's `ResponseStreamEvent`, as far as the loop reads it). */
export interface ResponsesStreamEvent {
  type: string;
  output_index?: number;
  item_id?: string;
  item?: unknown;
  delta?: unknown;
  arguments?: unknown;
  response?: unknown;
}

/** An input item as the loop types it (other items, such as the model's own output items, pass through as they are). */
export type ResponsesInputItem =
  | { role: "user" | "assistant" | "system" | "developer"; content: string; type?: "message" }
  | ResponsesFunctionCall
  | ResponsesFunctionCallOutput;

/** The request the loop sends (plus whatever other fields the caller put in `params`, passed through unchanged). */
export interface ResponsesRequest {
  model: string;
  input: ResponsesInputItem[];
  tools?: ResponsesFunctionTool[];
  tool_choice?: ResponsesToolChoice;
  parallel_tool_calls?: boolean;
  text?: { format?: { type: "json_schema"; name: string; schema: { [key: string]: unknown }; strict?: boolean; description?: string } };
  stream?: boolean;
}

/** An OpenAI client as far as the loop uses the Responses API: `new OpenAI()` is one. */
export interface ResponsesClient {
  responses: {
    /** Send one request; with `stream: true` the result is an async iterable of events. */
    create(body: ResponsesRequest, options?: { signal?: AbortSignal }): PromiseLike<ResponsesReply | AsyncIterable<ResponsesStreamEvent>>;
  };
}

/** What `runTools` sends to the Responses API besides the tools: the model and the input (other fields pass through). */
export interface ResponsesLoopParams {
  model: string;
  input: string | readonly object[];
}

/** The text of a Response's output messages (`output_text` parts), and its refusal. */
function responseText(output: readonly object[]): { text: string | null; refusal: string | null } {
  let text: string | null = null;
  let refusal: string | null = null;
  for (const item of output as readonly { type?: unknown; content?: unknown }[]) {
    if (item.type !== "message" || !Array.isArray(item.content)) continue;
    for (const part of item.content as readonly { type?: unknown; text?: unknown; refusal?: unknown }[]) {
      if (part.type === "output_text" && typeof part.text === "string") text = (text ?? "") + part.text;
      if (part.type === "refusal" && typeof part.refusal === "string") refusal = (refusal ?? "") + part.refusal;
    }
  }
  return { text, refusal };
}

/** The agent loop on the Responses API. */
const responsesLoop: ProviderLoop<ResponsesClient, ResponsesLoopParams, object, ResponsesReply, ResponsesFunctionCall, ResponsesStreamEvent> = {
  isClient: (client) => typeof (client as { responses?: { create?: unknown } }).responses?.create === "function",
  owned: [
    { field: "tools", use: "the registry's tools (and prepareStep's activeTools)" },
    { field: "tool_choice", use: "the toolChoice option" },
    { field: "parallel_tool_calls", use: "the parallelToolCalls option" },
    { field: "stream", use: "the stream option" },
  ],
  conversation: (params) => (typeof params.input === "string" ? [{ role: "user", content: params.input }] : [...params.input]),
  request(params, step) {
    const body: Record<string, unknown> = { ...params, input: [...step.items] };
    const tools = [
      ...toResponsesTools(step.tools, step.strict === undefined ? {} : { strict: step.strict }),
      ...step.loopTools.map((tool) => toResponsesTool(tool, { strict: false })),
    ];
    if (tools.length > 0) {
      body.tools = tools;
      if (step.toolChoice !== undefined) body.tool_choice = responsesToolChoice(step.toolChoice).tool_choice;
      if (step.parallelToolCalls !== undefined) body.parallel_tool_calls = step.parallelToolCalls;
    }
    if (step.output) {
      const text = (params as { text?: Record<string, unknown> }).text;
      if (text?.format !== undefined) throw new TypeError("runTools: params.text.format is set by the loop; use the responseFormat option instead.");
      body.text = { ...text, format: responsesTextFormat(step.output) };
    }
    if (step.stream) body.stream = true;
    return body;
  },
  send: (client, request, signal) => client.responses.create(request as unknown as ResponsesRequest, { signal }),
  reply(response) {
    if (isAsyncIterable(response)) throw new TypeError("runTools: the client returned a stream for a request without stream: true.");
    const output = (response as { output?: unknown } | undefined)?.output;
    if (!Array.isArray(output)) throw new TypeError("runTools: the response has no output list; is the client an OpenAI Responses API client?");
    return response as ResponsesReply;
  },
  accumulate: () => new ResponsesAccumulator(),
  read(reply): LoopReply<object, ResponsesReply, ResponsesFunctionCall> {
    const calls = reply.output
      .filter((item): item is ResponsesFunctionCall => (item as { type?: unknown }).type === "function_call")
      .map((call) => ({ call, read: responsesLoop.readCall(call) }));
    return { message: reply, items: [...reply.output], calls, ...responseText(reply.output) };
  },
  readCall: (call) => readResponsesCalls([call])[0] ?? { kind: "invalid", id: "", name: "", error: "the call is not a function_call item" },
  answer: (_reply, results) => toResponsesOutputs(results),
  userTurn: (text) => ({ role: "user", content: text }),
};

/** `text.format` for a structured answer: the strict rewrite when `strict`, as for tools. */
function responsesTextFormat(output: OutputFormatSource): NonNullable<NonNullable<ResponsesRequest["text"]>["format"]> {
  const format: NonNullable<NonNullable<ResponsesRequest["text"]>["format"]> = {
    type: "json_schema",
    name: output.name,
    schema: output.strict ? toStrictSchema(output.schema, output.name) : output.schema,
    strict: output.strict,
  };
  if (output.description) format.description = output.description;
  return format;
}

/**
 * Responses stream events in, complete `function_call` items out: `response.output_item.added` opens an item (a
 * call's `call_id` and name come first), `response.function_call_arguments.delta` adds to its arguments,
 * `response.output_item.done` (or `.function_call_arguments.done`) completes it; `response.output_text.delta` and
 * `response.refusal.delta` are the text. `done()` is the `response.completed` event's Response when it came, else
 * the items as assembled.
 */
class ResponsesAccumulator extends StreamAccumulator<ResponsesStreamEvent, ResponsesFunctionCall, ResponsesReply> {
  /** Output items by `output_index`; function calls also as call states, by the same index. */
  readonly #items = new Map<number, object>();
  readonly #calls = new IndexedCalls<ResponsesFunctionCall>((index, state) => this.#call(index, state));
  #completed: ResponsesReply | undefined;
  #refusal: string | null = null;

  constructor() {
    super("responses");
  }

  protected read(event: ResponsesStreamEvent, update: UpdateDraft<ResponsesFunctionCall>): void {
    const index = typeof event.output_index === "number" ? event.output_index : -1;
    switch (event.type) {
      case "response.output_item.added": {
        const item = event.item as { type?: unknown; call_id?: unknown; name?: unknown; arguments?: unknown } | undefined;
        if (typeof item !== "object" || item === null) break;
        this.#items.set(index, item);
        if (item.type === "function_call") {
          const text = typeof item.arguments === "string" ? item.arguments : "";
          const state = this.#calls.open(index, typeof item.call_id === "string" ? item.call_id : "", typeof item.name === "string" ? item.name : "", text);
          update.deltas.push({ call: state, argumentsDelta: text });
        }
        break;
      }
      case "response.function_call_arguments.delta": {
        const state = this.#open(index);
        const piece = typeof event.delta === "string" ? event.delta : "";
        state.arguments += piece;
        update.deltas.push({ call: state, argumentsDelta: piece });
        break;
      }
      case "response.function_call_arguments.done":
      case "response.output_item.done": {
        const item = event.item as { type?: unknown; arguments?: unknown } | undefined;
        if (event.type === "response.output_item.done" && typeof item === "object" && item !== null) this.#items.set(index, item);
        const state = this.#calls.get(index);
        if (!state || state.complete) break;
        const text = event.type === "response.function_call_arguments.done" ? event.arguments : item?.arguments;
        if (typeof text === "string") state.arguments = text;
        update.completed.push(this.#calls.complete(index)!);
        break;
      }
      case "response.output_text.delta":
        if (typeof event.delta === "string") {
          this.text += event.delta;
          update.text = event.delta;
        }
        break;
      case "response.refusal.delta":
        if (typeof event.delta === "string") {
          this.#refusal = (this.#refusal ?? "") + event.delta;
          update.refusal = event.delta;
        }
        break;
      case "response.completed":
      case "response.incomplete": {
        const response = event.response as (ResponsesReply & { status?: unknown }) | undefined;
        if (typeof response === "object" && response !== null && Array.isArray(response.output)) this.#completed = response;
        this.finish = typeof response?.status === "string" ? response.status : event.type.slice("response.".length);
        update.finishReason = this.finish;
        update.completed.push(...this.#calls.completeAll());
        break;
      }
    }
  }

  get refusal(): string | null {
    return this.#refusal;
  }

  get calls(): ResponsesFunctionCall[] {
    return this.#calls.done;
  }

  get partial(): CallState[] {
    return this.#calls.partial;
  }

  protected reply(): ResponsesReply {
    this.#calls.completeAll();
    if (this.#completed) return this.#completed;
    const output = [...this.#items].sort(([a], [b]) => a - b).map(([index, item]) => this.#calls.written(index) ?? item);
    return { output, output_text: this.text };
  }

  #open(index: number): CallState {
    const state = this.#calls.get(index);
    if (!state) throw new Error(`accumulateToolCalls(responses): arguments for output item ${index}, which is not a function call that was announced (response.output_item.added).`);
    if (state.complete) throw new Error(`accumulateToolCalls(responses): a fragment for output item ${index} arrived after the call was complete.`);
    return state;
  }

  #call(index: number, state: CallState): ResponsesFunctionCall {
    const item = this.#items.get(index) as Partial<ResponsesFunctionCall> | undefined;
    return { ...item, type: "function_call", call_id: state.id, name: state.name, arguments: state.arguments };
  }

}


/** The Responses API: a `Response` (its `output` list) or a list of items. */
export const openAIResponses: ToolProvider<ResponsesInput, ResponsesFunctionCallOutput[], ResponsesFunctionTool[], ResponsesToolsOptions, ResponsesToolChoiceParams> = {
  name: "responses",
  owns: ownsResponses,
  readCalls: readResponsesCalls,
  answer: (_message, results) => toResponsesOutputs(results),
  exportTools: toResponsesTools,
  toolChoice: responsesToolChoice,
  loop: responsesLoop as ProviderLoop,
};

type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameTool: MutuallyAssignable<ResponsesFunctionTool, FunctionTool> = true;
const fitsOutput: [ResponsesFunctionCallOutput] extends [ResponseInputItem] ? true : false = true;
const fitsContent: [ResponsesOutputContent] extends [ResponseFunctionCallOutputItem] ? true : false = true;
const fitsChoice: [ResponsesToolChoice] extends [SdkToolChoiceOptions | ToolChoiceFunction] ? true : false = true;
const fitsClient: [OpenAI] extends [ResponsesClient] ? true : false = true;
const fitsReply: [Response] extends [ResponsesReply] ? true : false = true;
const fitsEvent: [ResponseStreamEvent] extends [ResponsesStreamEvent] ? true : false = true;
void [sameTool, fitsOutput, fitsChoice, fitsContent, fitsClient, fitsReply, fitsEvent];
