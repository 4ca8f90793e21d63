/** The options a tool accepts (`@tool({...})`, `tool(fn, {...})`) and the context dispatch injects. */
import type { ToolCall } from "./call";
import type { ToolAnnotations, ToolIcon } from "./meta";

/** What a tool returns to the model: its content alone, or `[content, artifact]` with the artifact kept in process. */
export type ResponseFormat = "content" | "content_and_artifact";

/**
 * How a failure becomes the ToolMessage content: `true` uses the default text, `false` rethrows to the caller of
 * dispatch, a string is sent as is, and a function receives the error and the call and returns the text.
 */
export type ErrorHandler = boolean | string | ((error: unknown, call: ToolCall) => string);

/**
 * How the text of an unexpected error (anything a tool throws but a `ToolError`) is cleaned before the model reads
 * it: `true` (default) applies the built-in patterns (`redactSecrets`: bearer tokens, API keys, URL passwords,
 * secret-named values, absolute paths), `false` sends the message as is, a function replaces the built-in patterns
 * (compose them with `redactSecrets` to keep both).
 */
export type Redact = boolean | ((text: string) => string);

/**
 * Options of `@tool({...})` and `tool(fn, {...})`; explicit options win over what the transformer derived. `Args` is
 * the type of the validated arguments object that `needsApproval` is given: inferred from the predicate's own
 * parameter type when it declares one (`(args: { amount: number }) => …`), else `Record<string, unknown>`. (A
 * function's parameter names are not part of its TypeScript type, so the arguments object cannot be inferred from
 * the tool's function.)
 */
export interface ToolOptions<Args extends object = Record<string, unknown>> {
  /** The name the model sees; must match `^[a-zA-Z0-9_-]{1,64}$`. */
  name?: string;
  /** Replaces the description taken from JSDoc. */
  description?: string;
  /** A human-readable name shown by MCP clients (`title`); replaces JSDoc `@title`. */
  title?: string;
  /** MCP tool annotations, laid over the JSDoc tags `@readOnlyHint`, `@destructiveHint`, `@idempotentHint`, `@openWorldHint`. */
  annotations?: ToolAnnotations;
  /** Icons MCP clients may show (SEP-973); replace JSDoc `@icon` tags. Model API exports leave them out. */
  icons?: ToolIcon[];
  responseFormat?: ResponseFormat;
  /**
   * Leave this tool's definition out of requests until a tool search finds it (OpenAI Responses `defer_loading`,
   * Anthropic's tool search, or `runTools`' own search elsewhere); replaces JSDoc `@deferred`. See
   * docs/large-toolsets.md.
   */
  deferred?: boolean;
  /**
   * A group of tools the OpenAI Responses API's tool search shows by its name and description alone until the model
   * loads its functions (`namespace` tools, written when exporting with `toolSearch`); tools of one group share one
   * object, or at least its name and description. Other APIs list the tools one by one.
   */
  namespace?: ToolNamespace;
  /**
   * The tool's one string parameter is the model's raw text, without JSON around it: exported to OpenAI (Chat
   * Completions and Responses) as a custom tool, with its pattern, if any, as a `regex` grammar; other APIs get an
   * ordinary function tool. Replaces JSDoc `@freeform`. See docs/marking-tools.md.
   */
  freeform?: boolean;
  /** The agent loop ends after this tool runs; its content is the result. */
  returnDirect?: boolean;
  /**
   * Strict mode for this tool: its schema is rewritten into OpenAI's strict subset when exported for Chat Completions
   * or the Responses API (Structured Outputs), into Anthropic's when exported for Messages (strict tool use). Wins
   * over the export's own `strict`; `false` also opts out of the Responses API's strict default.
   */
  strict?: boolean;
  /**
   * Anthropic `eager_input_streaming` for this tool: its input streams as the model writes it, unbuffered and
   * unvalidated. Wins over the export's (and `runTools`') own `eagerInputStreaming`.
   */
  eagerInputStreaming?: boolean;
  handleToolError?: ErrorHandler;
  handleValidationError?: ErrorHandler;
  /** Give up on one call after this many milliseconds (default 60,000; `false` or `Infinity`: no limit). */
  timeoutMs?: number | false;
  /** Passed to the hooks with each of this tool's calls. */
  tags?: string[];
  /** Passed to the hooks and, overlaid with `DispatchOptions.metadata`, to `ToolContext.metadata`. */
  metadata?: Record<string, unknown>;
  /** Read the unambiguous JSON slips in arguments text (trailing commas, single quotes, …). Default `true`. */
  repair?: boolean;
  /** Convert arguments to the schema's types where a coercion rule applies (`"42"` → `42`, …). Default `true`. */
  coerce?: boolean;
  /** Refuse arguments text longer than this many UTF-8 bytes. Default 1 MiB (1,048,576). */
  maxArgumentsBytes?: number;
  /** Refuse arguments nested deeper than this many levels of objects and arrays. Default 64. */
  maxArgumentsDepth?: number;
  /**
   * Answer with an error instead of a result that sends the model more than this many bytes: its text in UTF-8 plus
   * each image or file part's base64 data (or URL); an artifact is not counted. Default 1 MiB.
   */
  maxResultBytes?: number;
  /**
   * Check each result against the tool's declared return type before the model (or an MCP client) sees it: a value
   * the type does not allow is answered as a tool error naming where it differs. Default: the registry's
   * `checkResults`, else on where `NODE_ENV` is `"test"`.
   */
  checkResults?: boolean;
  /** How the text of an unexpected error is redacted; see {@link Redact}. Default `true`. */
  redact?: Redact;
  /**
   * Ask a human before this tool runs: `true` for every call, or a function of the validated arguments (and the
   * context) that says whether this call needs approval. Such calls run only through
   * `registry.dispatchWithApproval` / `resume` (or `runTools`, which pauses); a plain `dispatch` refuses them.
   */
  needsApproval?: NeedsApproval<Args>;
  /**
   * OAuth scopes a caller must hold to call this tool over MCP's HTTP handlers (e.g. `["files:read"]`): a call
   * without every one of them is refused before the tool runs (403 `insufficient_scope`). The caller's scopes are
   * read from what `authenticate` returned (`scope`, `scp` or `scopes`). Dispatch itself does not check them.
   */
  scopes?: readonly string[];
}

/** A group of tools for the Responses API's tool search: its name, used in calls, and what it holds, shown to the model. */
export interface ToolNamespace {
  readonly name: string;
  readonly description: string;
}

/**
 * `true`, `false`, or a predicate on the validated arguments of one call (a throw counts as `true`). Dispatch calls it
 * only with arguments the tool's schema accepted, so `Args` may be the arguments object as the tool's parameters type
 * it.
 */
export type NeedsApproval<Args extends object = Record<string, unknown>> =
  | boolean
  | ((args: Args, context: ToolContext) => boolean | Promise<boolean>);

/**
 * A parameter of this type is not part of the schema: dispatch passes the call being answered, an abort signal, the
 * tool's metadata, who called (`auth`) and a way to report progress. `Auth` types `auth` for the tool that reads it.
 */
export interface ToolContext<Auth = unknown> {
  toolCall: ToolCall;
  /** Aborted when the call times out (`timeoutMs`) or the caller aborts `DispatchOptions.signal`. */
  signal: AbortSignal;
  /** The tool's `metadata` option, overlaid with `DispatchOptions.metadata` (per-request values such as a user id). */
  metadata: Record<string, unknown>;
  /**
   * Who called: what `DispatchOptions.auth` carries, e.g. the result of the MCP HTTP server's `authenticate` hook.
   * `undefined` when the caller authenticated nobody.
   */
  auth: Auth | undefined;
  /**
   * Report progress (`progress` rising, of `total` when known, with an optional `message`). Over MCP it becomes a
   * `notifications/progress` when the client asked for progress; elsewhere it reaches `DispatchOptions.onProgress`,
   * or nowhere.
   */
  progress(progress: number, total?: number, message?: string): void;
}
