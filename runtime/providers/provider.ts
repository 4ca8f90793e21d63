/**
 * `ToolProvider`: the one interface every model API implements (one file each in this folder), so that the
 * registry, `formatAnswer`, `toolChoice` and `parseToolCalls` never branch on the provider. A provider owns, for its
 * API: recognising its own messages, reading the tool calls out of them, answering them, writing the tools of a
 * request and its tool choice. Also here: what a provider reads of a registered tool (`ToolFormatSource`, plain data,
 * never TypeScript types) and the provider-neutral tool choice.
 *
 * Providers import from dispatch and below, never from each other; the list of every provider lives in index.ts.
 */
import type { NormalizedCall } from "../dispatch/call";
import type { ToolMessage } from "../dispatch/messages";
import type { CompiledToolMeta, JsonSchema } from "../tool/meta";
import type { ToolOptions } from "../tool/options";

export interface ToolFormatSource {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments object. */
  readonly parameters: JsonSchema;
  readonly options: Readonly<ToolOptions>;
  /** The compiled metadata (for the return type's schema). */
  readonly meta?: CompiledToolMeta;
}

/** The three modes every provider knows, or the name of one registered tool the model must call. */
export type ToolChoice = "auto" | "none" | "required" | (string & {});

/** `toolChoice` options. */
export interface ToolChoiceOptions {
  /**
   * `false` asks for at most one tool call per turn where the provider has a switch for it (OpenAI
   * `parallel_tool_calls: false`, Anthropic `disable_parallel_tool_use: true`); Gemini has none, so it is an error
   * there. `true` or left out: the provider's default (parallel calls allowed).
   */
  parallel?: boolean;
}

/** True for the three modes, false for a tool name. */
export function isChoiceMode(choice: ToolChoice): choice is "auto" | "none" | "required" {
  return choice === "auto" || choice === "none" || choice === "required";
}

/**
 * One model API's side of tool calling.
 * - `Message`: the assistant message (or response) whose calls it reads; `Answer`: what answers it;
 * - `Tools` / `ToolsOptions`: the tools of a request and the options of writing them;
 * - `ChoiceParams`: the request fields that carry the tool choice.
 */
export interface ToolProvider<Message = unknown, Answer = unknown, Tools = unknown, ToolsOptions = unknown, ChoiceParams = unknown> {
  /** The name `toolChoice(registry, choice, name)` and error messages use, e.g. `"openai"`, `"anthropic"`. */
  readonly name: string;
  /**
   * Whether `message` is in this provider's format, from its shape alone. Asked in the order of the provider list
   * (index.ts), so a provider may rely on the ones before it having said no.
   */
  owns(message: object): boolean;
  /** Every call in `message`, in the order they must be answered. */
  readCalls(message: Message): NormalizedCall[];
  /** The answer to `message` made of its calls' ToolMessages (one per call, in call order). */
  answer(message: Message, results: readonly ToolMessage[]): Answer;
  /** The tools of a request. Throws ToolExportError when a tool cannot be written for this API. */
  exportTools(tools: Iterable<ToolFormatSource>, options?: ToolsOptions): Tools;
  /** The request fields for a tool choice (already checked against the registered tools). */
  toolChoice(choice: ToolChoice, options?: ToolChoiceOptions): ChoiceParams;
}

/** A call whose arguments arrived as an object (Anthropic `input`, Gemini `args`), with its id and name where they are strings. */
export function argsCall(record: Record<string, unknown>, args: unknown): NormalizedCall {
  return {
    kind: "args",
    id: typeof record.id === "string" ? record.id : "",
    name: typeof record.name === "string" ? record.name : "",
    args,
  };
}
