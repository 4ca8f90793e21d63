/**
 * Registered tools in the shape OpenAI Chat Completions takes in `tools`.
 *
 * The public type is tooltype's own copy of the SDK's `ChatCompletionFunctionTool`, and this file checks at build
 * time that the two stay mutually assignable: a change on OpenAI's side breaks tooltype's build, not a request.
 * The copy keeps `openai` an optional peer in earnest: our .d.ts files never import it, so a project that talks to
 * another provider type-checks without the SDK installed (and without `skipLibCheck`).
 */
import type { ChatCompletionFunctionTool } from "openai/resources/chat/completions";
import type { JsonSchema } from "../meta";
import type { ToolOptions } from "../options";

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

/** What this format reads of a registered tool. */
export interface OpenAIToolSource {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
  readonly options: Readonly<ToolOptions>;
}

/** `{ type: "function", function: { name, description, parameters } }`, plus `strict` only when the tool sets it. */
export function toOpenAITool(tool: OpenAIToolSource): OpenAIFunctionTool {
  const fn: ChatCompletionFunctionTool["function"] = { name: tool.name };
  // An empty description is left out rather than sent as "" (the model reads nothing either way).
  if (tool.description !== "") fn.description = tool.description;
  fn.parameters = tool.parameters;
  if (typeof tool.options.strict === "boolean") fn.strict = tool.options.strict;
  const entry: ChatCompletionFunctionTool = { type: "function", function: fn };
  return entry;
}

export function toOpenAITools(tools: Iterable<OpenAIToolSource>): OpenAIFunctionTool[] {
  return Array.from(tools, toOpenAITool);
}

// The build-time check promised above; it compiles only while both types accept each other.
type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameAsSdk: MutuallyAssignable<OpenAIFunctionTool, ChatCompletionFunctionTool> = true;
void sameAsSdk;
