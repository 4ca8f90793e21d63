/**
 * The OpenAI Responses API, both ways (the `openAIResponses` provider): flat function tools (`{ type: "function", name, description, parameters,
 * strict }`), reading `function_call` items from a response (or an item list), answering with
 * `function_call_output` items, and `tool_choice`.
 *
 * Strict by default: the Responses API treats a function tool as strict unless it says `strict: false`, so
 * `toResponsesTools()` writes the strict form (rewritten, see strict.ts) and `strict: true` for every tool that does
 * not opt out (`@tool({ strict: false })`, or `toResponsesTools({ strict: false })` for the whole export). It always
 * writes `strict` explicitly, so what the model is held to is visible in the request.
 *
 * Types are tooltype's own; the checks at the bottom keep them assignable to the `openai` SDK's.
 */
import type { FunctionTool, ResponseFunctionCallOutputItem, ResponseInputItem, ToolChoiceFunction, ToolChoiceOptions as SdkToolChoiceOptions } from "openai/resources/responses/responses";
import type { NormalizedCall } from "../dispatch/call";
import type { ToolMessage } from "../dispatch/messages";
import { type ToolContentPart, dataUrl } from "../tool/content";
import { type ToolChoice, type ToolChoiceOptions, type ToolFormatSource, type ToolProvider, isChoiceMode } from "./provider";
import { checkToolCount, toStrictSchema } from "./strict";

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

/** The Responses API: a `Response` (its `output` list) or a list of items. */
export const openAIResponses: ToolProvider<ResponsesInput, ResponsesFunctionCallOutput[], ResponsesFunctionTool[], ResponsesToolsOptions, ResponsesToolChoiceParams> = {
  name: "responses",
  owns: (message) => Array.isArray(message) || Array.isArray((message as { output?: unknown }).output),
  readCalls: readResponsesCalls,
  answer: (_message, results) => toResponsesOutputs(results),
  exportTools: toResponsesTools,
  toolChoice: responsesToolChoice,
};

type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameTool: MutuallyAssignable<ResponsesFunctionTool, FunctionTool> = true;
const fitsOutput: [ResponsesFunctionCallOutput] extends [ResponseInputItem] ? true : false = true;
const fitsContent: [ResponsesOutputContent] extends [ResponseFunctionCallOutputItem] ? true : false = true;
const fitsChoice: [ResponsesToolChoice] extends [SdkToolChoiceOptions | ToolChoiceFunction] ? true : false = true;
void [sameTool, fitsOutput, fitsChoice, fitsContent];
