/**
 * The types of `runTools`: what the caller sends (`RunToolsParams`), the loop's settings (`RunToolsOptions`), how it
 * ends well (`RunToolsResult`) and what a streamed run reports (`RunToolsEvent`). Apart from the loop (run-tools.ts)
 * so that the stream (run-stream.ts) can name them without importing the loop that creates it.
 */
import type { ApprovalDecision, ApprovalStateData, PendingApproval } from "../dispatch/approval";
import type { DispatchOptions } from "../dispatch/options";
import type { ToolMessage } from "../dispatch/messages";
import type { ChatAssistantMessage, AgentMessage, ChatMessageParam, ChatToolCall } from "../providers/openai-chat/client";
import type { PartialToolCall } from "../providers/openai-chat/stream";
import type { ToolChoice } from "../providers/provider";
import type { RunStep } from "./errors";
import type { StructuredOutput } from "./structured";

/** What to send besides the tools: the model, the conversation so far, and any other request fields (passed through). */
export interface RunToolsParams {
  model: string;
  messages: readonly ChatMessageParam[];
  /** Set by the loop from the registry: leave it out. */
  tools?: never;
  /** Set by the loop: use the `toolChoice` option. */
  tool_choice?: never;
  /** Set by the loop: use the `parallelToolCalls` option. */
  parallel_tool_calls?: never;
  /** Set by the loop: use the `responseFormat` option. */
  response_format?: never;
  /** Set by the loop: use the `stream` option. */
  stream?: never;
}

/** The loop's settings. `T` is the type of the structured answer when `responseFormat` is given. */
export interface RunToolsOptions<T = undefined> {
  /** At most this many model requests (default 10); a model still calling tools then is a MaxStepsError. */
  maxSteps?: number;
  /**
   * `"auto"`, `"none"`, `"required"` or a tool's name. A forced choice (`"required"` or a name) applies until the
   * model has called tools once; later requests use `"auto"`, so the loop can end.
   */
  toolChoice?: ToolChoice;
  /** `false` sends `parallel_tool_calls: false` (OpenAI advises it with strict tools). */
  parallelToolCalls?: boolean;
  /** Send the tools in OpenAI strict mode (`registry.toOpenAITools({ strict })`); a tool's own `strict` option wins. */
  strict?: boolean;
  /** Aborts the request in flight and the running tools; the loop rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Called after each step (awaited), with the reply, its calls and their answers. */
  onStep?: (step: RunStep) => void | Promise<void>;
  /** Stop after this many failed tries in a row at one tool (default 3): a ToolRetryError with every attempt. */
  maxAttempts?: number;
  /**
   * How the model repairs a call whose arguments failed validation: `"regenerate"` (default) calls the tool again
   * with new arguments; `"jsonpatch"` may instead call `patch_tool_arguments` with the failed call's id and RFC 6902
   * operations, which the loop applies to that call's arguments before validating and running them again.
   */
  repair?: "regenerate" | "jsonpatch";
  /** `structuredOutput<T>()`: sent as `response_format`; the final answer is parsed into `result.parsed`. */
  responseFormat?: StructuredOutput<T>;
  /** Options for each dispatch (time limits, concurrency, metadata, hooks, lenient reading, coercion). */
  dispatch?: Omit<DispatchOptions, "signal">;
  /** Stream each reply: `runTools` then returns a `ToolRunStream` of events instead of a promise. */
  stream?: boolean;
  /** Go on with a run that paused for approval (`result.paused.state`, after JSON.parse), with one decision per pending call. */
  resume?: { state: RunToolsApprovalState; decisions: readonly ApprovalDecision[] };
}

/** A run paused for approval: plain JSON (the conversation so far and the paused batch). */
export interface RunToolsApprovalState {
  readonly type: "tooltype.runTools";
  readonly v: 1;
  /** The step whose calls wait. */
  readonly step: number;
  readonly messages: readonly ChatMessageParam[];
  readonly approval: ApprovalStateData;
}

/** How the loop ended well. `M` is the caller's message type, `T` the structured answer's. */
export interface RunToolsResult<M = ChatMessageParam, T = undefined> {
  /** The model's last reply: its final answer, or (with `returnDirect`) the reply whose call ended the loop. */
  readonly message: ChatAssistantMessage;
  /** The final text: the reply's content, or the `returnDirect` tool's content. */
  readonly content: string | null;
  /** The answer as T, when `responseFormat` was given (`undefined` otherwise). */
  readonly parsed: T;
  /** The ToolMessage of the `returnDirect` tool that ended the loop, if one did. */
  readonly returnDirect?: ToolMessage;
  /** The whole conversation: the caller's messages, then every reply and answer the loop added. */
  readonly messages: (M | AgentMessage)[];
  /** Every step, in order. */
  readonly steps: RunStep[];
  /**
   * Set when the loop paused because calls need a human's approval (`needsApproval`): nothing of the last reply
   * ran. Store `state`, then call `runTools` with the same params and `resume: { state, decisions }`.
   */
  readonly paused?: { readonly pending: readonly PendingApproval[]; readonly state: RunToolsApprovalState };
}

/** What a streamed run reports, in order. */
export type RunToolsEvent<M = ChatMessageParam, T = undefined> =
  /** Text of the reply, as it streams. */
  | { readonly type: "text"; readonly step: number; readonly delta: string }
  /** A fragment of a tool call: the call so far (live: its `args` are the arguments parsed as far as they go). */
  | { readonly type: "tool_call_delta"; readonly step: number; readonly call: PartialToolCall; readonly argumentsDelta: string }
  /** A tool call is complete; it starts running now. */
  | { readonly type: "tool_call"; readonly step: number; readonly call: ChatToolCall }
  /** A call's answer (in call order, once the reply has streamed). */
  | { readonly type: "tool_result"; readonly step: number; readonly call: ChatToolCall; readonly result: ToolMessage }
  /** A step is over. */
  | { readonly type: "step"; readonly step: RunStep }
  /** The loop is over: its result. */
  | { readonly type: "final"; readonly result: RunToolsResult<M, T> };

/** The caller's message type. */
export type MessageOf<P extends RunToolsParams> = P["messages"][number];
