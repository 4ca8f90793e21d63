/**
 * The OpenAI Responses API on the wire: tooltype's own copies of the `openai` SDK's types it reads and writes (flat
 * function tools, custom tools, `function_call` and `function_call_output` items, their custom tool counterparts, `tool_choice`, the loop's request, Response and
 * stream events). The checks at the bottom keep them assignable to the SDK's.
 */
import type OpenAI from "openai";
import type { LoopTypes } from "../provider";
import type {
  CustomTool,
  FunctionTool,
  ResponseCustomToolCall,
  ResponseCustomToolCallOutput,
  Response,
  Tool as SdkTool,
  ToolSearchTool,
  NamespaceTool,
  ResponseFunctionCallOutputItem,
  ResponseInputItem,
  ResponseStreamEvent,
  ToolChoiceAllowed,
  ToolChoiceFunction,
  ToolChoiceOptions as SdkToolChoiceOptions,
} from "openai/resources/responses/responses";

/** One function tool of a Responses API request (the SDK's `FunctionTool`). */
export interface ResponsesFunctionTool {
  type: "function";
  name: string;
  description?: string | null;
  parameters: { [key: string]: unknown } | null;
  strict: boolean | null;
  /** `true` for a deferred tool: the model loads its definition through `tool_search`. */
  defer_loading?: boolean;
}

/** The hosted tool search (the SDK's `ToolSearchTool`), which a request needs when a function is deferred. */
export interface ResponsesToolSearchTool {
  type: "tool_search";
}

/** Functions grouped under one name (the SDK's `NamespaceTool`): the tool search shows its name and description. */
export interface ResponsesNamespaceTool {
  type: "namespace";
  name: string;
  description: string;
  tools: ResponsesFunctionTool[];
}

/**
 * A free-form tool (the SDK's `CustomTool`): the model sends its input as raw text, held to `format`'s grammar when
 * there is one (its pattern, in Rust's `regex` syntax).
 */
export interface ResponsesCustomTool {
  type: "custom";
  name: string;
  description?: string;
  format?: { type: "grammar"; syntax: "regex"; definition: string };
  /** `true` for a deferred tool: the model loads its definition through `tool_search`. */
  defer_loading?: boolean;
}

/**
 * One tool of a Responses API request as tooltype writes it: a function, a custom (free-form) tool, a namespace of
 * functions, or the tool search.
 */
export type ResponsesTool =
  | ResponsesFunctionTool
  | ResponsesCustomTool
  | ResponsesNamespaceTool
  | ResponsesToolSearchTool;

/** A `function_call` output item (the SDK's `ResponseFunctionToolCall`). */
export interface ResponsesFunctionCall {
  type: "function_call";
  call_id: string;
  name: string;
  /** JSON text; may be malformed. */
  arguments: string;
  id?: string;
}

/** A `custom_tool_call` output item (the SDK's `ResponseCustomToolCall`): a free-form tool's raw text input. */
export interface ResponsesCustomCall {
  type: "custom_tool_call";
  call_id: string;
  name: string;
  /** The raw text, never JSON-parsed. */
  input: string;
  id?: string;
}

/** A call item of a Response that tooltype answers: a function call or a custom tool call. */
export type ResponsesCall = ResponsesFunctionCall | ResponsesCustomCall;

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

/** The answer to one `custom_tool_call` item (the SDK's `ResponseCustomToolCallOutput`). */
export interface ResponsesCustomCallOutput {
  type: "custom_tool_call_output";
  call_id: string;
  output: string | ResponsesOutputContent[];
}

/** The answer to one call item: `function_call_output` for a function call, `custom_tool_call_output` for a custom one. */
export type ResponsesCallOutput = ResponsesFunctionCallOutput | ResponsesCustomCallOutput;

/** What dispatch reads: a Responses API `Response` (its `output` items), or a list of items. */
export type ResponsesInput = { output: readonly object[] } | readonly object[];

/** `tool_choice` of a Responses API request. */
export type ResponsesToolChoice =
  | "none"
  | "auto"
  | "required"
  | { type: "function"; name: string }
  | {
      type: "allowed_tools";
      mode: "auto" | "required";
      tools: ({ type: "function"; name: string } | { type: "tool_search" })[];
    };

/** Request fields for the tool choice: spread them into `responses.create({ ... })`. */
export interface ResponsesToolChoiceParams {
  tool_choice: ResponsesToolChoice;
  parallel_tool_calls?: boolean;
}

/** `toResponsesTools` options. */
export interface ResponsesToolsOptions {
  /** Default `true`, as in the Responses API itself; a tool's own `strict` option wins. */
  strict?: boolean;
  /**
   * Check the limits of one request, such as the number of tools (default `true`; deferred tools are not counted,
   * as the model loads only what it finds); see `OpenAIToolsOptions`.
   */
  checkLimits?: boolean;
  /**
   * `true`: defer the deferred tools (`deferred: true`, JSDoc `@deferred`): write them with `defer_loading`, group
   * the tools that name a `namespace` into `namespace` tools, and end the list with the hosted `tool_search` tool
   * (when any tool is deferred). Default `false`: every tool whole and on its own, as a request without a tool
   * search needs them.
   */
  toolSearch?: boolean;
  /**
   * Write free-form tools (JSDoc `@freeform`, `freeform: true`) as custom tools (`{ type: "custom", name,
   * description, format? }`), whose input the model sends as raw text, held to the tool's pattern as a `regex`
   * grammar. Default `false`: every tool is a function tool (a free-form one with its one string parameter).
   * `runTools` always writes them as custom tools.
   */
  customTools?: boolean;
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
  /** A custom tool call's whole input (`response.custom_tool_call_input.done`). */
  input?: unknown;
  response?: unknown;
}

/** An input item as the loop types it (other items, such as the model's own output items, pass through as they are). */
export type ResponsesInputItem =
  | { role: "user" | "assistant" | "system" | "developer"; content: string; type?: "message" }
  | ResponsesFunctionCall
  | ResponsesFunctionCallOutput
  | ResponsesCustomCall
  | ResponsesCustomCallOutput;

/** The request the loop sends (plus whatever other fields the caller put in `params`, passed through unchanged). */
export interface ResponsesRequest {
  model: string;
  input: ResponsesInputItem[];
  tools?: ResponsesTool[];
  tool_choice?: ResponsesToolChoice;
  parallel_tool_calls?: boolean;
  text?: {
    format?: {
      type: "json_schema";
      name: string;
      schema: { [key: string]: unknown };
      strict?: boolean;
      description?: string;
    };
  };
  stream?: boolean;
}

/** An OpenAI client as far as the loop uses the Responses API: `new OpenAI()` is one. */
export interface ResponsesClient {
  responses: {
    /** Send one request; with `stream: true` the result is an async iterable of events. */
    create(
      body: ResponsesRequest,
      options?: { signal?: AbortSignal },
    ): PromiseLike<ResponsesReply | AsyncIterable<ResponsesStreamEvent>>;
  };
}

/** What `runTools` sends to the Responses API besides the tools: the model and the input (other fields pass through). */
export interface ResponsesLoopParams {
  model: string;
  input: string | readonly object[];
}

/**
 * The Responses API: the Response, its `function_call` and `custom_tool_call` items, and input items (its output
 * items, the answers).
 */
export interface ResponsesLoopTypes extends LoopTypes {
  readonly reply: ResponsesReply;
  readonly call: ResponsesCall;
  readonly item: object | ResponsesCallOutput | ResponsesInputItem;
}

/** The Responses API: the model and the `input` (a string or items); other fields (`instructions`, …) pass through. */
export interface ResponsesRunParams {
  model: string;
  input: string | readonly object[];
  /** Set by the loop from the registry: leave it out. */
  tools?: never;
  /** Set by the loop: use the `toolChoice` option. */
  tool_choice?: never;
  /** Set by the loop: use the `parallelToolCalls` option. */
  parallel_tool_calls?: never;
  /** Set by the loop: use the `stream` option. */
  stream?: never;
}

type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameTool: MutuallyAssignable<ResponsesFunctionTool, FunctionTool> = true;
const fitsSearch: [ResponsesToolSearchTool] extends [ToolSearchTool] ? true : false = true;
const fitsNamespace: [ResponsesNamespaceTool] extends [NamespaceTool] ? true : false = true;
const fitsTools: [ResponsesTool] extends [SdkTool] ? true : false = true;
const fitsOutput: [ResponsesFunctionCallOutput] extends [ResponseInputItem] ? true : false = true;
const fitsCustomTool: [ResponsesCustomTool] extends [CustomTool] ? true : false = true;
const fitsCustomCall: [ResponsesCustomCall] extends [ResponseCustomToolCall] ? true : false = true;
const readsCustomCall: [ResponseCustomToolCall] extends [ResponsesCustomCall] ? true : false = true;
const fitsCustomOutput: [ResponsesCustomCallOutput] extends [ResponseCustomToolCallOutput] ? true : false = true;
const fitsContent: [ResponsesOutputContent] extends [ResponseFunctionCallOutputItem] ? true : false = true;
const fitsChoice: [ResponsesToolChoice] extends [SdkToolChoiceOptions | ToolChoiceFunction | ToolChoiceAllowed]
  ? true
  : false = true;
const fitsClient: [OpenAI] extends [ResponsesClient] ? true : false = true;
const fitsReply: [Response] extends [ResponsesReply] ? true : false = true;
const fitsEvent: [ResponseStreamEvent] extends [ResponsesStreamEvent] ? true : false = true;
void [
  sameTool,
  fitsCustomTool,
  fitsCustomCall,
  readsCustomCall,
  fitsCustomOutput,
  fitsNamespace,
  fitsSearch,
  fitsTools,
  fitsOutput,
  fitsChoice,
  fitsContent,
  fitsClient,
  fitsReply,
  fitsEvent,
];
