/**
 * The options a tool accepts (`@tool({...})`, `tool(fn, {...})`) and the context dispatch injects.
 * Explicit options win over what the transformer derived from the signature and JSDoc.
 */
import type { ToolCall } from "./messages";

/** What a tool returns to the model: its content alone, or `[content, artifact]` with the artifact kept in process. */
export type ResponseFormat = "content" | "content_and_artifact";

/**
 * How a failure becomes the ToolMessage content: `true` uses the default text, `false` rethrows to the caller of
 * dispatch, a string is sent as is, and a function receives the error and the call and returns the text.
 */
export type ErrorHandler = boolean | string | ((error: unknown, call: ToolCall) => string);

export interface ToolOptions {
  /** The name the model sees; must match `^[a-zA-Z0-9_-]{1,64}$`. */
  name?: string;
  /** Replaces the description taken from JSDoc. */
  description?: string;
  responseFormat?: ResponseFormat;
  /** The agent loop ends after this tool runs; its content is the result. */
  returnDirect?: boolean;
  /**
   * OpenAI strict mode (Structured Outputs) for this tool: its schema is rewritten into OpenAI's strict subset when
   * exported for Chat Completions or the Responses API. Wins over the export's own `strict`; `false` also opts out
   * of the Responses API's strict default.
   */
  strict?: boolean;
  handleToolError?: ErrorHandler;
  handleValidationError?: ErrorHandler;
  /** Give up on one call after this many milliseconds. */
  timeoutMs?: number;
  tags?: string[];
  metadata?: Record<string, unknown>;
}

/**
 * A parameter of this type is not part of the schema: dispatch passes the call being answered, an abort signal and
 * the tool's metadata.
 */
export interface ToolContext {
  toolCall: ToolCall;
  /** Aborted when the call times out (`timeoutMs`) or the caller aborts `DispatchOptions.signal`. */
  signal: AbortSignal;
  /** The tool's `metadata` option, overlaid with `DispatchOptions.metadata` (per-request values such as a user id). */
  metadata: Record<string, unknown>;
}

/** Defaults for every tool of a registry; a tool's own options win. */
export interface RegistryOptions {
  /** How a tool's failure (a throw, a timeout, an unsendable result) is answered. Default `true`. */
  handleToolError?: ErrorHandler;
  /**
   * How a call the model got wrong is answered: unknown tool, unreadable or invalid arguments. Default `true`.
   * An unknown tool has no options of its own, so only this registry-level setting applies to it.
   */
  handleValidationError?: ErrorHandler;
  /** Give up on a call after this many milliseconds unless the tool sets its own `timeoutMs`. */
  timeoutMs?: number;
}

/** Per-call settings of `dispatch` and `invoke`. */
export interface DispatchOptions {
  /** Aborting it aborts every running tool's `ToolContext.signal` and rejects dispatch with the signal's reason. */
  signal?: AbortSignal;
  /** Values for `ToolContext.metadata`, laid over each tool's own `metadata`. */
  metadata?: Record<string, unknown>;
}
