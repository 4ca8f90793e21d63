/**
 * `runTools(client, params, registry, options)`: the agent loop on an OpenAI-compatible Chat Completions client.
 *
 * Each step sends the conversation with the registry's tools, appends the model's reply, runs its tool calls and
 * appends one ToolMessage per call, until the model answers without tool calls. Owns:
 * - the request of each step: the caller's params passed through, the tools (plus `patch_tool_arguments` in JSON
 *   Patch mode while a call can be patched), tool choice, `parallel_tool_calls`, `response_format`, `stream`;
 * - ending the loop: a final answer (parsed by `responseFormat` when given), a successful `returnDirect` tool, or an
 *   error carrying the transcript (`maxSteps`, `maxAttempts`, a refusal);
 * - validation retries: each failure goes back to the model as the error ToolMessage dispatch wrote, and streaks of
 *   failures per tool are counted (retries.ts); a structured answer that does not match gets the problems as a user
 *   message and is asked for again;
 * - streaming: with `stream: true` each reply is read chunk by chunk (stream/accumulate.ts), each tool call is
 *   dispatched as soon as it is complete, and everything is reported as events (run-stream.ts).
 *
 * One generator serves both modes: `runTools` without `stream` drains it and resolves to its result.
 */
import type { OpenAIFunctionTool } from "../providers/openai-chat";
import type {
  AgentMessage,
  ChatAssistantMessage,
  ChatCompletionRequest,
  ChatCompletionResult,
  ChatCompletionStreamChunk,
  ChatCompletionsClient,
  ChatMessageParam,
  ChatToolCall,
} from "../providers/openai-chat/client";
import { accumulateToolCalls } from "../providers/openai-chat/stream";
import { chatAttachments } from "../providers/openai-chat/attachments";
import { approvalState } from "../dispatch/approval";
import { openAIChat } from "../providers/openai-chat";
import { toolChoice as toolChoiceParams } from "../registry/choice";
import type { ToolRegistry } from "../registry/registry";
import { type RunStep, type ToolAttempt, MaxStepsError, ModelRefusalError, ToolRetryError } from "./errors";
import { type CallOutcome, CallExecutor } from "./execute";
import { PATCH_TOOL_NAME, patchToolDefinition } from "./json-patch";
import { RetryTracker, positiveInteger } from "./retries";
import { ToolRunStream } from "./run-stream";
import type { MessageOf, RunToolsApprovalState, RunToolsEvent, RunToolsOptions, RunToolsParams, RunToolsResult } from "./run-types";

export type { MessageOf, RunToolsEvent, RunToolsOptions, RunToolsParams, RunToolsResult } from "./run-types";

/** Streams the loop: iterate the events, or await `finalResult()`. */
export function runTools<P extends RunToolsParams, T = undefined>(
  client: ChatCompletionsClient,
  params: P,
  registry: ToolRegistry,
  options: RunToolsOptions<T> & { stream: true },
): ToolRunStream<MessageOf<P>, T>;
/** Runs the loop to its end. */
export function runTools<P extends RunToolsParams, T = undefined>(
  client: ChatCompletionsClient,
  params: P,
  registry: ToolRegistry,
  options?: RunToolsOptions<T> & { stream?: false },
): Promise<RunToolsResult<MessageOf<P>, T>>;
export function runTools<P extends RunToolsParams, T = undefined>(
  client: ChatCompletionsClient,
  params: P,
  registry: ToolRegistry,
  options: RunToolsOptions<T> = {},
): ToolRunStream<MessageOf<P>, T> | Promise<RunToolsResult<MessageOf<P>, T>> {
  if (options.stream) return new ToolRunStream((stop) => runLoop<MessageOf<P>, T>(client, params, registry, options, stop));
  return drain(runLoop<MessageOf<P>, T>(client, params, registry, options, undefined));
}

async function drain<R>(loop: AsyncGenerator<unknown, R>): Promise<R> {
  for (;;) {
    const next = await loop.next();
    if (next.done) return next.value;
  }
}

/** Request fields the loop owns; the caller sets them through options. */
const OWNED = ["tools", "tool_choice", "parallel_tool_calls", "response_format", "stream", "functions", "function_call"];

/**
 * The loop. `stopped` (streaming) is the signal of the consumer going away: the request and the tools are aborted.
 */
async function* runLoop<M extends ChatMessageParam, T>(
  client: ChatCompletionsClient,
  params: RunToolsParams,
  registry: ToolRegistry,
  options: RunToolsOptions<T>,
  stopped: AbortSignal | undefined,
): AsyncGenerator<RunToolsEvent<M, T>, RunToolsResult<M, T>> {
  for (const key of OWNED) {
    if (key in params) {
      throw new TypeError(`runTools: params.${key} is set by the loop; use the options (toolChoice, parallelToolCalls, responseFormat, stream) instead.`);
    }
  }
  const maxSteps = positiveInteger("maxSteps", options.maxSteps, 10);
  const maxAttempts = positiveInteger("maxAttempts", options.maxAttempts, 3);
  const jsonPatch = options.repair === "jsonpatch";
  if (options.repair !== undefined && options.repair !== "regenerate" && !jsonPatch) {
    throw new RangeError(`runTools: repair must be "regenerate" or "jsonpatch"; got ${JSON.stringify(options.repair)}.`);
  }
  if (jsonPatch && registry.has(PATCH_TOOL_NAME)) {
    throw new TypeError(`runTools: the registry has a tool named ${PATCH_TOOL_NAME}, the name JSON Patch repair uses for its own tool; rename that tool.`);
  }
  const tools: OpenAIFunctionTool[] = registry.toOpenAITools(options.strict === undefined ? {} : { strict: options.strict });
  // Validates a tool name given as the choice (a ToolExportError lists the registered tools).
  const forcedChoice = options.toolChoice === undefined ? undefined : toolChoiceParams(registry, options.toolChoice, "openai").tool_choice;
  const responseFormat = options.responseFormat;

  // One controller for the run: the caller's signal, or the consumer of a stream leaving, aborts it.
  const controller = new AbortController();
  const abort = (reason: unknown): void => controller.abort(reason);
  const detach: (() => void)[] = [];
  for (const outer of [options.signal, stopped]) {
    if (!outer) continue;
    if (outer.aborted) abort(outer.reason);
    const listener = (): void => abort(outer.reason);
    outer.addEventListener("abort", listener, { once: true });
    detach.push(() => outer.removeEventListener("abort", listener));
  }
  const signal = controller.signal;

  const executor = new CallExecutor(registry, { ...options.dispatch, signal }, jsonPatch);
  const tracker = new RetryTracker(maxAttempts);
  const resumed = options.resume;
  const messages: (M | AgentMessage)[] = [...((resumed ? resumed.state.messages : params.messages) as readonly M[])];
  // Tools that need approval: calls are checked before any runs, so a streamed reply's calls wait for its end.
  const approvals = registry.list().some((entry) => entry.options.needsApproval !== undefined && entry.options.needsApproval !== false);
  const steps: RunStep[] = [];
  const transcript = () => ({ messages: [...messages], steps: [...steps] });
  let calledTools = false;

  const request = (): ChatCompletionRequest => {
    const body: Record<string, unknown> = { ...params, messages: [...messages] };
    const offered = jsonPatch && executor.patchable.size > 0 ? [...tools, patchToolDefinition(executor.patchable)] : tools;
    // An empty `tools` list (and a tool choice without tools) is refused by OpenAI: leave them out.
    if (offered.length > 0) {
      body.tools = offered;
      // A forced choice ("required", a name) would force calls forever: after the first calls, "auto".
      const forced = forcedChoice !== undefined && forcedChoice !== "auto" && forcedChoice !== "none";
      const choice = forced && calledTools ? "auto" : forcedChoice;
      if (choice !== undefined) body.tool_choice = choice;
      if (options.parallelToolCalls !== undefined) body.parallel_tool_calls = options.parallelToolCalls;
    }
    if (responseFormat) body.response_format = responseFormat.responseFormat;
    if (options.stream) body.stream = true;
    return body as unknown as ChatCompletionRequest;
  };

  let failed = true;
  try {
    let first = 1;
    if (resumed) {
      // The paused batch, answered (the rejected calls with their reasons) before the next request.
      const done = await registry.resume(resumed.state.approval, resumed.decisions, { ...options.dispatch, signal });
      messages.push(...done.results);
      const attachments = chatAttachments(done.results);
      if (attachments) messages.push(attachments);
      first = resumed.state.step + 1;
    }
    for (let index = first; index <= maxSteps; index++) {
      signal.throwIfAborted();
      let reply: ChatAssistantMessage;
      let outcomes: Promise<CallOutcome>[] | undefined;
      if (options.stream) {
        const response = await client.chat.completions.create(request(), { signal });
        if (!isAsyncIterable(response)) throw new TypeError("runTools: with stream: true the client must return an async iterable of chunks.");
        const started: Promise<CallOutcome>[] = [];
        reply = yield* streamReply(response, index, (call) => {
          if (approvals) return;
          const running = executor.runOne(call);
          // Awaited below; until then a rejection (an abort) must not count as unhandled.
          running.catch(() => undefined);
          started.push(running);
        });
        outcomes = approvals ? undefined : started;
      } else {
        reply = replyOf(await client.chat.completions.create(request(), { signal }));
      }
      messages.push(reply);
      const calls = reply.tool_calls ?? [];

      if (calls.length === 0) {
        // A final answer: done, unless it is a structured answer that is refused or does not match its schema.
        let parsed = undefined as T;
        let failure: ToolAttempt | undefined;
        if (responseFormat) {
          if (typeof reply.refusal === "string" && reply.refusal !== "") {
            steps.push({ index, message: reply, calls: [], results: [], failures: [] });
            throw new ModelRefusalError(reply.refusal, transcript());
          }
          const read = responseFormat.safeParse(reply.content ?? "");
          if (read.success) parsed = read.data;
          else {
            failure = answerFailure(index, responseFormat.name, reply.content ?? "", read.error.issues, read.error.errors);
            messages.push({ role: "user", content: failure.message });
          }
        }
        const step: RunStep = { index, message: reply, calls: [], results: [], failures: failure ? [failure] : [] };
        steps.push(step);
        await options.onStep?.(step);
        yield { type: "step", step };
        if (failure) {
          const streak = tracker.fail(`answer:${failure.toolName}`, failure);
          if (streak) throw new ToolRetryError("answer", failure.toolName, streak, transcript());
          continue;
        }
        const result: RunToolsResult<M, T> = { message: reply, content: reply.content, parsed, messages, steps };
        failed = false;
        yield { type: "final", result };
        return result;
      }

      calledTools = true;
      if (approvals) {
        const pending = await registry.pendingApprovals(reply, { ...options.dispatch, signal });
        if (pending.length > 0) {
          const approval = approvalState(openAIChat.name, openAIChat.readCalls(reply), pending);
          const state: RunToolsApprovalState = { type: "tooltype.runTools", v: 1, step: index, messages: JSON.parse(JSON.stringify(messages)) as ChatMessageParam[], approval };
          const result: RunToolsResult<M, T> = { message: reply, content: null, parsed: undefined as T, messages, steps, paused: { pending, state } };
          failed = false;
          yield { type: "final", result };
          return result;
        }
      }
      if (!outcomes && !options.stream) {
        for (const call of calls) yield { type: "tool_call", step: index, call };
      }
      const done = outcomes ? await Promise.all(outcomes) : await executor.runAll(calls);
      executor.settle(done);
      const results = done.map((outcome) => outcome.result);
      for (const outcome of done) yield { type: "tool_result", step: index, call: outcome.call, result: outcome.result };
      messages.push(...results);
      const attachments = chatAttachments(results);
      if (attachments) messages.push(attachments);

      // Streaks in call order; a tool whose streak a later call of the same reply ended is not given up on.
      const failures: ToolAttempt[] = [];
      for (const outcome of done) {
        if (outcome.failure) {
          const attempt: ToolAttempt = { step: index, ...outcome.failure };
          failures.push(attempt);
          tracker.fail(`tool:${outcome.toolName}`, attempt);
        } else if (outcome.validated) {
          tracker.succeed(`tool:${outcome.toolName}`);
        }
      }
      const exhaustedTool = failures.map((f) => f.toolName).find((name) => tracker.exhausted(`tool:${name}`));
      const step: RunStep = { index, message: reply, calls, results, failures };
      steps.push(step);
      await options.onStep?.(step);
      yield { type: "step", step };

      const direct = done.find((outcome) => outcome.result.status === "success" && registry.get(outcome.toolName)?.options.returnDirect === true);
      if (direct) {
        const content = direct.result.content;
        const parsed = (responseFormat ? responseFormat.parse(content) : undefined) as T;
        const result: RunToolsResult<M, T> = { message: reply, content, parsed, returnDirect: direct.result, messages, steps };
        failed = false;
        yield { type: "final", result };
        return result;
      }
      if (exhaustedTool !== undefined) {
        throw new ToolRetryError("tool", exhaustedTool, tracker.exhausted(`tool:${exhaustedTool}`)!, transcript());
      }
    }
    throw new MaxStepsError(maxSteps, transcript());
  } finally {
    // Leaving early (an error, or the consumer of a stream stopping): nothing may keep running for this run.
    if (failed && !signal.aborted) abort(new Error("runTools stopped before the loop ended."));
    for (const remove of detach) remove();
  }
}

/**
 * Reads one streamed reply, reporting text, fragments and complete calls as events, and calling `start` for each
 * call as soon as it is complete (before its event, so a reader that stops there still aborts it). Returns the reply.
 */
async function* streamReply<M, T>(
  response: AsyncIterable<ChatCompletionStreamChunk>,
  step: number,
  start: (call: ChatToolCall) => void,
): AsyncGenerator<RunToolsEvent<M, T>, ChatAssistantMessage> {
  const accumulator = accumulateToolCalls();
  for await (const chunk of response) {
    // One tool call fragment at a time, so that the events keep the order of the stream: a call completed by the
    // start of the next one is reported before that one's first fragment.
    for (const part of oneFragmentEach(chunk)) {
      const update = accumulator.push(part);
      if (update.text) yield { type: "text", step, delta: update.text };
      const fragment = update.deltas[0];
      // The fragment's own call can only be completed by this chunk's finish_reason, and comes last then.
      const ownEnd = fragment?.call.complete ? 1 : 0;
      const completed = update.completed;
      for (const call of completed.slice(0, completed.length - ownEnd)) {
        start(call);
        yield { type: "tool_call", step, call };
      }
      if (fragment) yield { type: "tool_call_delta", step, call: fragment.call, argumentsDelta: fragment.argumentsDelta };
      for (const call of completed.slice(completed.length - ownEnd)) {
        start(call);
        yield { type: "tool_call", step, call };
      }
    }
  }
  // A stream that ended without a finish_reason: its last call is complete now.
  const before = accumulator.calls.length;
  const reply = accumulator.done();
  for (const call of (reply.tool_calls ?? []).slice(before)) {
    start(call);
    yield { type: "tool_call", step, call };
  }
  return reply;
}

/** A structured answer that does not match its schema, and the feedback that asks the model for another. */
function answerFailure(step: number, name: string, text: string, issues: readonly string[], errors: ToolAttempt["errors"]): ToolAttempt {
  const message = `Your answer is not a valid ${name} answer:\n${issues.map((line) => `- ${line}`).join("\n")}\nAnswer again with only the JSON object, matching the schema.`;
  return { step, toolName: name, toolCallId: "", arguments: text, reason: "invalid_answer", issues, errors, message };
}

/** A chunk split so that each part carries at most one tool call fragment; the text goes first, the finish last. */
function oneFragmentEach(chunk: ChatCompletionStreamChunk): ChatCompletionStreamChunk[] {
  const choice = chunk.choices?.find((c) => c.index === 0);
  const fragments = choice?.delta?.tool_calls ?? [];
  if (!choice || fragments.length <= 1) return [chunk];
  const { tool_calls: _, ...rest } = choice.delta;
  return fragments.map((fragment, i) => ({
    choices: [{ index: 0, delta: i === 0 ? { ...rest, tool_calls: [fragment] } : { tool_calls: [fragment] }, finish_reason: i === fragments.length - 1 ? choice.finish_reason : null }],
  }));
}

/** The assistant message of a non-streamed completion. */
function replyOf(response: ChatCompletionResult | AsyncIterable<ChatCompletionStreamChunk>): ChatAssistantMessage {
  if (isAsyncIterable(response)) throw new TypeError("runTools: the client returned a stream for a request without stream: true.");
  const message = response?.choices?.[0]?.message;
  if (typeof message !== "object" || message === null) {
    throw new TypeError("runTools: the completion has no choices[0].message; is the client an OpenAI-compatible Chat Completions client?");
  }
  // Some gateways send `tool_calls: []` with a final answer; OpenAI refuses an empty list when it is sent back.
  if (Array.isArray(message.tool_calls) && message.tool_calls.length === 0) {
    const { tool_calls: _, ...rest } = message;
    return rest;
  }
  return message;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<ChatCompletionStreamChunk> {
  return typeof value === "object" && value !== null && typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === "function";
}
