/**
 * OpenAI Chat Completions, both ways: the `tools` of a request (optionally rewritten for strict mode, see
 * strict.ts), the legacy `functions` list, the legacy `function_call` answer, and `tool_choice`.
 *
 * The public types are tooltype's own copies of the SDK's, and this file checks at build time that they stay
 * assignable (tool definitions: mutually): a change on OpenAI's side breaks tooltype's build, not a request. The
 * copies keep `openai` an optional peer in earnest: our .d.ts files never import it, so a project that talks to
 * another provider type-checks without the SDK installed (and without `skipLibCheck`).
 */
import type {
  ChatCompletionCreateParams,
  ChatCompletionFunctionCallOption,
  ChatCompletionFunctionMessageParam,
  ChatCompletionFunctionTool,
  ChatCompletionToolChoiceOption,
} from "openai/resources/chat/completions";
import { ToolExportError } from "../errors";
import type { ToolMessage } from "../messages";
import { type ToolChoice, type ToolChoiceOptions, type ToolFormatSource, isChoiceMode } from "./source";
import { checkToolCount, toStrictSchema } from "./strict";

/** One entry of `tools` in an OpenAI Chat Completions request (the SDK's `ChatCompletionFunctionTool`). */
export interface OpenAIFunctionTool {
  type: "function";
  function: {
    name: string;
    description?: string;
    parameters?: { [key: string]: unknown };
    strict?: boolean | null;
  };
}

/** One entry of the legacy `functions` list (the SDK's `ChatCompletionCreateParams.Function`). */
export interface OpenAIFunctionDefinition {
  name: string;
  description?: string;
  parameters?: { [key: string]: unknown };
}

/** The answer to a legacy `function_call` (the SDK's `ChatCompletionFunctionMessageParam`). */
export interface OpenAIFunctionMessage {
  role: "function";
  name: string;
  content: string;
}

/** `tool_choice` of a Chat Completions request. */
export type OpenAIToolChoice = "none" | "auto" | "required" | { type: "function"; function: { name: string } };

/** Request fields for the tool choice: spread them into `chat.completions.create({ ... })`. */
export interface OpenAIToolChoiceParams {
  tool_choice: OpenAIToolChoice;
  /** `false` when `{ parallel: false }` was asked for (strict tools and parallel calls do not mix, says OpenAI). */
  parallel_tool_calls?: boolean;
}

/** Request fields for the legacy `functions` API: `function_call`. */
export interface OpenAIFunctionChoiceParams {
  function_call: "none" | "auto" | { name: string };
}

/** `toOpenAITools` options. */
export interface OpenAIToolsOptions {
  /**
   * Strict mode (Structured Outputs) for every tool that does not set its own `strict` option: the schema is rewritten
   * into OpenAI's strict subset (see the README) and `strict: true` is sent. A tool's own option wins.
   */
  strict?: boolean;
  /**
   * Check the limits of one request, such as OpenAI's 128 tools (default `true`). Turn it off to export a large
   * registry once and send a subset per request; each tool's own schema is checked either way.
   */
  checkLimits?: boolean;
}

/** `{ type: "function", function: { name, description, parameters } }`, plus `strict` when the tool or the export sets it. */
export function toOpenAITool(tool: ToolFormatSource, options: OpenAIToolsOptions = {}): OpenAIFunctionTool {
  const strict = tool.options.strict ?? options.strict;
  const fn: ChatCompletionFunctionTool["function"] = { name: tool.name };
  // An empty description is left out rather than sent as "" (the model reads nothing either way).
  if (tool.description !== "") fn.description = tool.description;
  fn.parameters = strict === true ? toStrictSchema(tool.parameters, tool.name) : tool.parameters;
  if (typeof strict === "boolean") fn.strict = strict;
  const entry: ChatCompletionFunctionTool = { type: "function", function: fn };
  return entry;
}

export function toOpenAITools(tools: Iterable<ToolFormatSource>, options: OpenAIToolsOptions = {}): OpenAIFunctionTool[] {
  const list = Array.from(tools);
  if (options.checkLimits !== false) checkToolCount(list.length, "openai");
  return list.map((tool) => toOpenAITool(tool, options));
}

/** The legacy `functions` list: `{ name, description, parameters }` (no strict mode in that API). */
export function toOpenAIFunctions(tools: Iterable<ToolFormatSource>): OpenAIFunctionDefinition[] {
  const list = Array.from(tools);
  checkToolCount(list.length, "openai-functions");
  return list.map((tool) => {
    const fn: ChatCompletionCreateParams.Function = { name: tool.name };
    if (tool.description !== "") fn.description = tool.description;
    fn.parameters = tool.parameters;
    return fn;
  });
}

/** The answer to a legacy `function_call`: `{ role: "function", name, content }` (errors included, as text). */
export function toOpenAIFunctionMessage(results: readonly ToolMessage[]): OpenAIFunctionMessage {
  const result = results[0];
  const answer: ChatCompletionFunctionMessageParam & OpenAIFunctionMessage = {
    role: "function",
    name: result?.name ?? "",
    content: result?.content ?? "",
  };
  return answer;
}

/** `tool_choice` (and `parallel_tool_calls`) for Chat Completions. */
export function openAIToolChoice(choice: ToolChoice, options: ToolChoiceOptions = {}): OpenAIToolChoiceParams {
  const tool_choice: ChatCompletionToolChoiceOption & OpenAIToolChoice =
    isChoiceMode(choice) ? choice : { type: "function", function: { name: choice } };
  const params: OpenAIToolChoiceParams = { tool_choice };
  if (options.parallel !== undefined) params.parallel_tool_calls = options.parallel;
  return params;
}

/** `function_call` for the legacy `functions` API, which has no "required". */
export function openAIFunctionChoice(choice: ToolChoice, options: ToolChoiceOptions = {}): OpenAIFunctionChoiceParams {
  if (options.parallel !== undefined) {
    throw new ToolExportError(
      "The legacy functions API calls one function per turn and has no parallel_tool_calls switch; leave out the parallel option.",
      { format: "openai-functions" },
    );
  }
  if (choice === "required") {
    throw new ToolExportError(
      'The legacy functions API has no "required" choice: name the function the model must call (toolChoice(registry, "<name>", "openai-functions")), or use tools with tool_choice "required".',
      { format: "openai-functions" },
    );
  }
  const function_call: ChatCompletionFunctionCallOption | "none" | "auto" = isChoiceMode(choice) ? (choice as "auto" | "none") : { name: choice };
  return { function_call };
}

// The build-time checks promised above; they compile only while the types fit.
type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameTool: MutuallyAssignable<OpenAIFunctionTool, ChatCompletionFunctionTool> = true;
const sameFunction: MutuallyAssignable<OpenAIFunctionDefinition, ChatCompletionCreateParams.Function> = true;
const fitsMessage: [OpenAIFunctionMessage] extends [ChatCompletionFunctionMessageParam] ? true : false = true;
const fitsChoice: [OpenAIToolChoice] extends [ChatCompletionToolChoiceOption] ? true : false = true;
const fitsFunctionChoice: [OpenAIFunctionChoiceParams["function_call"]] extends [ChatCompletionCreateParams["function_call"]]
  ? true
  : false = true;
void [sameTool, sameFunction, fitsMessage, fitsChoice, fitsFunctionChoice];
