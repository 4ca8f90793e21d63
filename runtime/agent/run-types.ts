/**
 * The types of `runTools`: its settings, how it ends well and what a streamed run reports; apart from the loop
 * (run-tools.ts) so that the stream (run-stream.ts) can name them without importing the loop that creates it.
 */
import type { ApprovalDecision, ApprovalStateData, PendingApproval } from "../dispatch/approval";
import type { DispatchOptions, ToolProgress } from "../dispatch/options";
import type { ToolMessage } from "../dispatch/messages";
import type { ChatLoopTypes, ChatMessageParam, LoopProviderName, PartialToolCall } from "../providers/catalog";
import type { LoopTypes, ToolChoice } from "../providers/provider";
import type { HoldsFunctionToolsOnly } from "../registry/tool-types";
import type { RunStep } from "./errors";
import type { StructuredOutput } from "./structured";

/** What `stopWhen` and `prepareStep` see of the run so far. */
export interface LoopState<L extends LoopTypes = ChatLoopTypes> {
  /** The steps so far, oldest first. */
  readonly steps: readonly RunStep<L>[];
}

/**
 * Ends the loop after a step with tool calls when it returns true (see `toolCalled`, `stepCountIs`); several
 * conditions in a list stop the loop when any one holds.
 */
export type StopCondition<L extends LoopTypes = ChatLoopTypes> = (
  state: LoopState<L>,
) => boolean | PromiseLike<boolean>;

/** What `prepareStep` may change for one request; what it leaves out stays as the options say. */
export interface StepSettings {
  /** Offer only these registered tools in this step (a call to another is answered as unavailable). */
  activeTools?: readonly string[];
  /** The tool choice of this step: `"auto"`, `"none"`, `"required"` or an active tool's name. */
  toolChoice?: ToolChoice;
}

/** What `prepareStep` is given: the step about to run (1 for the first request), the steps so far, the conversation. */
export interface PrepareStepContext<L extends LoopTypes = ChatLoopTypes, M = unknown> extends LoopState<L> {
  readonly stepNumber: number;
  readonly messages: readonly (M | L["item"])[];
}

/** The loop's settings. `T` is the type of the structured answer when `responseFormat` is given. */
export interface RunToolsOptions<T = undefined, L extends LoopTypes = ChatLoopTypes> {
  /**
   * The model API to drive. Left out, it is the client's: an OpenAI client runs Chat Completions (name
   * `"responses"` for the Responses API), an Anthropic client Messages, a Gemini client `models`.
   */
  provider?: LoopProviderName;
  /** At most this many model requests (default 10); a model still calling tools then is a MaxStepsError. */
  maxSteps?: number;
  /**
   * `"auto"`, `"none"`, `"required"`, `"validated"` (Gemini only) or a tool's name. A forced choice (`"required"` or
   * a name) applies until the model has called tools once; later requests use `"auto"`, so the loop can end.
   */
  toolChoice?: ToolChoice;
  /** `false` asks for at most one call per turn (OpenAI `parallel_tool_calls: false`, Anthropic `disable_parallel_tool_use`). */
  parallelToolCalls?: boolean;
  /**
   * Send the tools in strict mode: OpenAI's (`registry.toOpenAITools({ strict })`), Anthropic's strict tool use
   * (`registry.toAnthropicTools({ strict })`); a tool's own `strict` option wins.
   */
  strict?: boolean;
  /**
   * Anthropic `eager_input_streaming` on the tools (`registry.toAnthropicTools({ eagerInputStreaming })`): inputs
   * stream as the model writes them, unvalidated; one that ends as invalid JSON is answered with the parse error,
   * for the model to call again. A tool's own `eagerInputStreaming` option wins.
   */
  eagerInputStreaming?: boolean;
  /**
   * Keep `tools` identical across steps (so the prompt cache keeps them) and express `prepareStep`'s active tools
   * in the tool choice instead: OpenAI `tool_choice: { type: "allowed_tools", ... }` (Chat Completions and
   * Responses), Gemini `allowedFunctionNames` (mode VALIDATED for `"auto"`, ANY for `"required"`). Anthropic has no
   * such field: an error there. Default `false`: the active tools alone are sent.
   */
  allowedTools?: boolean;
  /** Aborts the request in flight and the running tools; the loop rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Called after each step (awaited), with the reply, its calls and their answers. */
  onStep?: (step: RunStep<L>) => void | Promise<void>;
  /**
   * End the loop after a step with tool calls once one of these returns true (checked after `returnDirect`): the
   * result then holds that step's reply, `finishReason: "stopWhen"`, and no parsed answer.
   */
  stopWhen?: StopCondition<L> | readonly StopCondition<L>[];
  /** Called before each request (awaited): choose the active tools and the tool choice of that step. */
  prepareStep?: (
    context: PrepareStepContext<L>,
    // biome-ignore lint/suspicious/noConfusingVoidType: a prepareStep that returns nothing must type-check
  ) => StepSettings | undefined | void | PromiseLike<StepSettings | undefined | void>;
  /** Stop after this many failed tries in a row at one tool (default 3): a ToolRetryError with every attempt. */
  maxAttempts?: number;
  /**
   * How the model repairs a call whose arguments failed validation: `"regenerate"` (default) calls the tool again
   * with new arguments; `"jsonpatch"` may instead call `patch_tool_arguments` with the failed call's id and RFC 6902
   * operations, which the loop applies to that call's arguments before validating and running them again.
   */
  repair?: "regenerate" | "jsonpatch";
  /**
   * `structuredOutput<T>()`: the final answer's format (Chat Completions `response_format`, Responses `text.format`,
   * Anthropic `output_config.format`, Gemini `responseJsonSchema`), parsed into `result.parsed`.
   */
  responseFormat?: StructuredOutput<T>;
  /** Options for each dispatch (time limits, concurrency, metadata, hooks, lenient reading, coercion). */
  dispatch?: Omit<DispatchOptions, "signal">;
  /** How deferred tools are found (docs/large-toolsets.md); without deferred tools it changes nothing. */
  toolSearch?: ToolSearchOptions;
  /** Stream each reply: `runTools` then returns a `ToolRunStream` of events instead of a promise. */
  stream?: boolean;
  /**
   * Go on with a run that paused for approval: its `result.paused.state` (after JSON.parse) and one decision per
   * pending call. The paused batch is answered first (as `registry.resume` does), then the loop goes on.
   */
  resume?: { state: RunToolsApprovalState; decisions: readonly ApprovalDecision[] };
}

/**
 * How `runTools` lets the model find deferred tools (`deferred: true`, JSDoc `@deferred`). By default an API that
 * searches itself does (the Responses API's hosted `tool_search`, Anthropic's tool search tool); on the others the
 * loop offers its own `search_tools` and adds the tools found to the next request.
 */
export interface ToolSearchOptions {
  /** Use the loop's own search on every API, also where the API has one. Default `false`. */
  local?: boolean;
  /** How Anthropic's tool search matches: `"bm25"` (default, natural-language queries) or `"regex"`. */
  match?: "bm25" | "regex";
  /** The most tools one search of the loop's own reveals (default 5). */
  maxResults?: number;
}

/**
 * A run paused for approval, as plain JSON: the conversation so far, the reply whose calls wait, the paused batch
 * (the registry's calls of the reply; the loop answers its own on resume, with what it kept here), the loop's state.
 */
export interface RunToolsApprovalState {
  readonly type: "tooltype.runTools";
  readonly v: 1;
  /** The step whose calls wait. */
  readonly step: number;
  readonly messages: readonly unknown[];
  readonly reply: unknown;
  readonly approval: ApprovalStateData;
  /** The deferred tools the loop's own tool search had found, offered again when the run goes on. */
  readonly toolsFound?: readonly string[];
  /** In JSON Patch mode, the failed calls the model could still patch (`patch_tool_arguments`). */
  readonly patchable?: readonly {
    readonly id: string;
    readonly toolName: string;
    readonly args: Record<string, unknown>;
  }[];
  /** The tools `prepareStep` offered in the paused step (absent: all of them). */
  readonly activeTools?: readonly string[];
}

/** How the loop ended well. `M` is the caller's message type, `T` the structured answer's. */
export interface RunToolsResult<M = ChatMessageParam, T = undefined, L extends LoopTypes = ChatLoopTypes> {
  /** The model's last reply: its final answer, or the reply whose calls ended the loop (`returnDirect`, `stopWhen`). */
  readonly message: L["reply"];
  /** The final text: the reply's text, or the `returnDirect` tool's content. */
  readonly content: string | null;
  /** The answer as T, when `responseFormat` was given and the model answered (`undefined` otherwise). */
  readonly parsed: T;
  /** The ToolMessage of the `returnDirect` tool that ended the loop, if one did. */
  readonly returnDirect?: ToolMessage;
  /**
   * Why the loop ended: a final answer, a `returnDirect` tool, a `stopWhen` condition, or calls that need a human's
   * approval (`"paused"`, see `paused`).
   */
  readonly finishReason: "answer" | "returnDirect" | "stopWhen" | "paused";
  /** The whole conversation: the caller's messages, then every reply and answer the loop added. */
  readonly messages: (M | L["item"])[];
  /** Every step, in order. */
  readonly steps: RunStep<L>[];
  /**
   * Set when the loop paused because calls of the last reply need a human's approval (`needsApproval`): none of
   * them ran. Store `state` (plain JSON), then call `runTools` with the same client, params and options plus
   * `resume: { state, decisions }`.
   */
  readonly paused?: { readonly pending: readonly PendingApproval[]; readonly state: RunToolsApprovalState };
}

/** What a streamed run reports, in order. */
export type RunToolsEvent<M = ChatMessageParam, T = undefined, L extends LoopTypes = ChatLoopTypes> =
  /** Text of the reply, as it streams. */
  | { readonly type: "text"; readonly step: number; readonly delta: string }
  /** A fragment of a tool call: the call so far (live: its `args` are the arguments parsed as far as they go). */
  | {
      readonly type: "tool_call_delta";
      readonly step: number;
      readonly call: PartialToolCall;
      readonly argumentsDelta: string;
    }
  /** A tool call is complete; it starts running now. */
  | { readonly type: "tool_call"; readonly step: number; readonly call: L["call"] }
  /**
   * A running call reported progress: a value its tool yielded (a streaming tool, `async function*`: `value` is the
   * value, `progress` its report) or a `ToolContext.progress` report (no `value`). Before that call's `tool_result`.
   */
  | {
      readonly type: "tool_progress";
      readonly step: number;
      readonly call: L["call"];
      readonly progress: ToolProgress;
      readonly value?: unknown;
    }
  /** A call's answer (in call order, once the reply has streamed). */
  | { readonly type: "tool_result"; readonly step: number; readonly call: L["call"]; readonly result: ToolMessage }
  /** A step is over. */
  | { readonly type: "step"; readonly step: RunStep<L> }
  /** The loop is over: its result. */
  | { readonly type: "final"; readonly result: RunToolsResult<M, T, L> };

/** The caller's message type. */
export type MessageOf<P extends { messages: readonly unknown[] }> = P["messages"][number];

/** A free-form (OpenAI custom) tool's call, as each API sends it: not a function call. */
export type FreeFormCall = { readonly type: "custom" } | { readonly type: "custom_tool_call" };

/**
 * A loop's types as the run of registry `R` has them: where `R`'s type says it holds function tools alone (a record
 * form's registry, see `HoldsFunctionToolsOnly`), a call is a function call, never a free-form (custom) one, since
 * the model can call only the tools it was sent; elsewhere, every call the API may send.
 */
export type LoopTypesFor<L extends LoopTypes, R> =
  HoldsFunctionToolsOnly<R> extends true ? L & { readonly call: Exclude<L["call"], FreeFormCall> } : L;
