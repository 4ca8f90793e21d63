/**
 * What the provider formats read of a registered tool: plain data (name, description, JSON Schema, options), never
 * TypeScript types. `RegisteredTool` satisfies it; tests can pass a literal.
 */
import type { CompiledToolMeta, JsonSchema } from "../meta";
import type { ToolOptions } from "../options";

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
