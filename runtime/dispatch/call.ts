/**
 * `NormalizedCall`: one call to answer, as a provider read it out of a model's message and before its arguments are
 * read. Providers write it (runtime/providers/), dispatch reads it: the one shape between them.
 */

/** One call to answer, before its arguments are read. */
export type NormalizedCall =
  /** Arguments arrived as an object (LangChain `ToolCall`, Anthropic `tool_use`, Gemini `functionCall`). */
  | { kind: "args"; id: string; name: string; args: unknown }
  /** Arguments arrived as JSON text (OpenAI). */
  | { kind: "text"; id: string; name: string; text: string }
  /**
   * A free-form tool's raw text (OpenAI custom tool calls): the value of the tool's one string parameter, never
   * parsed as JSON.
   */
  | { kind: "input"; id: string; name: string; input: string }
  /** The caller or the provider already marked the call as unusable; `error` says why when known. */
  | { kind: "invalid"; id: string; name: string; text?: string; error?: string };
