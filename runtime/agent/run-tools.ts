/**
 * `runTools(client, params, registry, options)`: the agent loop, on any model API a provider drives (OpenAI Chat
 * Completions, the Responses API, Anthropic Messages, Gemini), with that API's official SDK client.
 */
import type { ApprovalDecision } from "../dispatch/approval";
import type { NormalizedCall } from "../dispatch/call";
import type { ToolMessage } from "../dispatch/messages";
import type {
  AnthropicLoopTypes,
  AnthropicMessagesClient,
  AnthropicRunParams,
  ChatCompletionsClient,
  ChatLoopTypes,
  GeminiContent,
  GeminiLoopTypes,
  GeminiModelsClient,
  GeminiRunParams,
  ResponsesClient,
  ResponsesLoopTypes,
  ResponsesRunParams,
  RunToolsParams,
} from "../providers/catalog";
import { loopFor } from "../providers/at-hand";
import {
  type LoopTypes,
  type ProviderLoop,
  type ToolChoice,
  type ToolFormatSource,
  isAsyncIterable,
  isDeferred,
} from "../providers/provider";
import { checkChoice } from "../registry/choice";
import { type BaseToolRegistry as ToolRegistry, loopAccess } from "../registry/core";
import { type RunStep, type ToolAttempt, MaxStepsError, ModelRefusalError, ToolRetryError } from "./errors";
import { type CallOutcome, CallExecutor, type ReplyCall } from "./execute";
import { PATCH_TOOL_NAME, patchToolDefinition } from "./json-patch";
import { LocalToolSearch, SEARCH_TOOL_NAME } from "./tool-search";
import { RetryTracker, positiveInteger } from "./retries";
import { ProgressEvents } from "./progress-events";
import { ToolRunStream } from "./run-stream";
import { startStepSpan } from "./step-span";
import type {
  LoopTypesFor,
  MessageOf,
  RunToolsApprovalState,
  RunToolsEvent,
  RunToolsOptions,
  RunToolsResult,
  StepSettings,
  StopCondition,
} from "./run-types";

/** Streams the loop on the Responses API: iterate the events, or await `finalResult()`. */
export function runTools<P extends ResponsesRunParams, T = undefined, R extends ToolRegistry = ToolRegistry>(
  client: ResponsesClient,
  params: P,
  registry: R,
  options: RunToolsOptions<T, ResponsesLoopTypes> & { provider: "responses"; stream: true },
): ToolRunStream<object, T, LoopTypesFor<ResponsesLoopTypes, R>>;
/** Runs the loop on the Responses API to its end. */
export function runTools<P extends ResponsesRunParams, T = undefined, R extends ToolRegistry = ToolRegistry>(
  client: ResponsesClient,
  params: P,
  registry: R,
  options: RunToolsOptions<T, ResponsesLoopTypes> & { provider: "responses"; stream?: false },
): Promise<RunToolsResult<object, T, LoopTypesFor<ResponsesLoopTypes, R>>>;
/** Streams the loop on Chat Completions: iterate the events, or await `finalResult()`. */
export function runTools<P extends RunToolsParams, T = undefined, R extends ToolRegistry = ToolRegistry>(
  client: ChatCompletionsClient,
  params: P,
  registry: R,
  options: RunToolsOptions<T> & { stream: true },
): ToolRunStream<MessageOf<P>, T, LoopTypesFor<ChatLoopTypes, R>>;
/** Runs the loop on Chat Completions to its end. */
export function runTools<P extends RunToolsParams, T = undefined, R extends ToolRegistry = ToolRegistry>(
  client: ChatCompletionsClient,
  params: P,
  registry: R,
  options?: RunToolsOptions<T> & { stream?: false },
): Promise<RunToolsResult<MessageOf<P>, T, LoopTypesFor<ChatLoopTypes, R>>>;
/** Streams the loop on Anthropic Messages. */
export function runTools<P extends AnthropicRunParams, T = undefined, R extends ToolRegistry = ToolRegistry>(
  client: AnthropicMessagesClient,
  params: P,
  registry: R,
  options: RunToolsOptions<T, AnthropicLoopTypes> & { stream: true },
): ToolRunStream<MessageOf<P>, T, LoopTypesFor<AnthropicLoopTypes, R>>;
/** Runs the loop on Anthropic Messages to its end. */
export function runTools<P extends AnthropicRunParams, T = undefined, R extends ToolRegistry = ToolRegistry>(
  client: AnthropicMessagesClient,
  params: P,
  registry: R,
  options?: RunToolsOptions<T, AnthropicLoopTypes> & { stream?: false },
): Promise<RunToolsResult<MessageOf<P>, T, LoopTypesFor<AnthropicLoopTypes, R>>>;
/** Streams the loop on Gemini. */
export function runTools<T = undefined, R extends ToolRegistry = ToolRegistry>(
  client: GeminiModelsClient,
  params: GeminiRunParams,
  registry: R,
  options: RunToolsOptions<T, GeminiLoopTypes> & { stream: true },
): ToolRunStream<GeminiContent, T, LoopTypesFor<GeminiLoopTypes, R>>;
/** Runs the loop on Gemini to its end. */
export function runTools<T = undefined, R extends ToolRegistry = ToolRegistry>(
  client: GeminiModelsClient,
  params: GeminiRunParams,
  registry: R,
  options?: RunToolsOptions<T, GeminiLoopTypes> & { stream?: false },
): Promise<RunToolsResult<GeminiContent, T, LoopTypesFor<GeminiLoopTypes, R>>>;
export function runTools(client: object, params: object, registry: ToolRegistry, given: object = {}): unknown {
  // The overloads tie each client to its params and types; from here on the loop is the same for every API.
  const options = given as RunToolsOptions<unknown, LoopTypes>;
  let start: (stopped: AbortSignal | undefined) => Loop;
  try {
    const { provider, loop } = loopFor(client, options.provider);
    start = (stopped) => runLoop(provider.name, loop, client, params, registry, options, stopped);
  } catch (error) {
    if (options.stream) throw error;
    return Promise.reject(error);
  }
  if (options.stream) return new ToolRunStream(start);
  return drain(start(undefined));
}

type Loop = AsyncGenerator<RunToolsEvent<unknown, unknown, LoopTypes>, RunToolsResult<unknown, unknown, LoopTypes>>;

async function drain<R>(loop: AsyncGenerator<unknown, R>): Promise<R> {
  for (;;) {
    const next = await loop.next();
    if (next.done) return next.value;
  }
}

/** True when a condition holds for the run so far (each is asked in order; the first true one ends the loop). */
async function stops(
  conditions: StopCondition<LoopTypes> | readonly StopCondition<LoopTypes>[] | undefined,
  steps: readonly RunStep<LoopTypes>[],
): Promise<boolean> {
  const list = conditions === undefined ? [] : typeof conditions === "function" ? [conditions] : conditions;
  for (const condition of list) {
    if (await condition({ steps })) return true;
  }
  return false;
}

/**
 * The loop. `stopped` (streaming) is the signal of the consumer going away: the request and the tools are aborted.
 * One generator serves both modes: `runTools` without `stream` drains it and resolves to its result.
 *
 * Each step sends the conversation with the registry's tools, appends the model's reply, runs its tool calls and
 * appends their answers, until the model answers without tool calls. The loop is provider-neutral: it talks to the
 * provider's `loop` (runtime/providers/provider.ts) for the request, the client call, reading the reply (whole or
 * streamed) and the conversation entries, and never branches on the API. Owns:
 * - each step's settings: the tools (plus `patch_tool_arguments` in JSON Patch mode while a call can be patched),
 *   the tool choice (a forced one only until the model has called tools), parallel calls, the structured answer's
 *   format, `prepareStep` (active tools, tool choice);
 * - ending the loop: a final answer (parsed by `responseFormat` when given), a successful `returnDirect` tool, a
 *   `stopWhen` condition, or an error carrying the transcript (`maxSteps`, `maxAttempts`, a refusal);
 * - validation retries: each failure goes back to the model as the error answer dispatch wrote, and streaks of
 *   failures per tool are counted (retries.ts); a structured answer that does not match gets the problems as a user
 *   turn and is asked for again;
 * - streaming: with `stream: true` each reply is read event by event (the provider's accumulator), each tool call is
 *   dispatched as soon as it is complete, and everything is reported as events (run-stream.ts);
 * - deferred tools: where the API has no tool search of its own (or with `toolSearch.local`), the loop offers its
 *   own `search_tools` instead of their definitions and adds the tools found to the next request (tool-search.ts);
 * - approval: with tools that need it, a reply's calls are checked before any runs (streamed ones once the reply has
 *   ended); calls that need approval pause the run with a plain-JSON state, and `resume` answers that batch first.
 */
async function* runLoop(
  providerName: string,
  loop: ProviderLoop,
  client: unknown,
  params: object,
  registry: ToolRegistry,
  options: RunToolsOptions<unknown, LoopTypes>,
  stopped: AbortSignal | undefined,
): Loop {
  const record = params as Record<string, unknown>;
  for (const { field, use } of loop.owned) {
    if (field in record) throw new TypeError(`runTools: params.${field} is set by the loop; use ${use} instead.`);
  }
  const maxSteps = positiveInteger("maxSteps", options.maxSteps, 10);
  const maxAttempts = positiveInteger("maxAttempts", options.maxAttempts, 3);
  const jsonPatch = options.repair === "jsonpatch";
  if (options.repair !== undefined && options.repair !== "regenerate" && !jsonPatch) {
    throw new RangeError(
      `runTools: repair must be "regenerate" or "jsonpatch"; got ${JSON.stringify(options.repair)}.`,
    );
  }
  if (jsonPatch && registry.has(PATCH_TOOL_NAME)) {
    throw new TypeError(
      `runTools: the registry has a tool named ${PATCH_TOOL_NAME}, the name JSON Patch repair uses for its own tool; rename that tool.`,
    );
  }
  if (options.allowedTools === true && loop.narrowsTools !== true) {
    throw new TypeError(
      `runTools: allowedTools needs an API that narrows the callable tools with the tool list unchanged (Chat Completions, Responses, Gemini); ${providerName} has none. Leave it out: prepareStep's activeTools then narrow the list itself.`,
    );
  }
  const toolSearch = options.toolSearch ?? {};
  if (toolSearch.match !== undefined && toolSearch.match !== "bm25" && toolSearch.match !== "regex") {
    throw new RangeError(
      `runTools: toolSearch.match must be "bm25" or "regex"; got ${JSON.stringify(toolSearch.match)}.`,
    );
  }
  const maxResults = positiveInteger("toolSearch.maxResults", toolSearch.maxResults, 5);
  // The loop searches itself where the API does not (or when told to), and only for a registry with deferred tools.
  const search =
    (toolSearch.local === true || loop.searchesTools !== true) && registry.list().some(isDeferred)
      ? new LocalToolSearch(maxResults)
      : undefined;
  if (search && registry.has(SEARCH_TOOL_NAME)) {
    throw new TypeError(
      `runTools: the registry has a tool named ${SEARCH_TOOL_NAME}, the name the loop's tool search uses for its own tool; rename that tool.`,
    );
  }
  // Validates a tool name given as the choice (a ToolExportError lists the registered tools).
  if (options.toolChoice !== undefined) checkChoice(registry, options.toolChoice, providerName);
  const responseFormat = options.responseFormat;
  const stream = options.stream === true;

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
  executor.search = search;
  // Streamed, the calls' progress is reported as events of the step they belong to.
  const progress = stream ? new ProgressEvents() : undefined;
  let stepIndex = 0;
  if (progress) {
    executor.onProgress = (call, update, yielded) =>
      progress.push({
        type: "tool_progress",
        step: stepIndex,
        call,
        progress: update,
        ...(yielded ? { value: yielded.value } : {}),
      });
  }
  const tracker = new RetryTracker(maxAttempts);
  const resumed = options.resume;
  const messages: unknown[] = resumed ? [...resumed.state.messages] : loop.conversation(params);
  // Tools that need approval: a reply's calls are checked before any runs, so streamed calls wait for the reply's end.
  const approvals = registry
    .list()
    .some((entry) => entry.options.needsApproval !== undefined && entry.options.needsApproval !== false);
  const steps: RunStep<LoopTypes>[] = [];
  const transcript = () => ({ messages: [...messages], steps: [...steps] });
  let calledTools = false;

  /** The tools and choice of step `index`: the options, then what `prepareStep` says. */
  const settle = async (index: number): Promise<{ tools: ToolFormatSource[]; choice: ToolChoice | undefined }> => {
    const forced = options.toolChoice !== undefined && !isModeOnly(options.toolChoice);
    // A forced choice ("required", a name) would force calls forever: after the first calls, "auto".
    let choice = forced && calledTools ? "auto" : options.toolChoice;
    let tools = registry.list();
    executor.setActive(undefined);
    // biome-ignore lint/suspicious/noConfusingVoidType: prepareStep may be a function that returns nothing
    const prepared: StepSettings | undefined | void = await options.prepareStep?.({
      stepNumber: index,
      steps: [...steps],
      messages: [...messages],
    });
    if (prepared?.activeTools !== undefined) {
      const active = new Set(prepared.activeTools);
      const unknown = [...active].filter((name) => !registry.has(name));
      if (unknown.length > 0) {
        throw new TypeError(
          `runTools: prepareStep named ${unknown.map((name) => JSON.stringify(name)).join(", ")} as active, but the registry has no such tool. Registered tools: ${registry
            .list()
            .map((tool) => tool.name)
            .join(", ")}.`,
        );
      }
      tools = tools.filter((tool) => active.has(tool.name));
      executor.setActive(active);
    }
    if (prepared?.toolChoice !== undefined) {
      choice = prepared.toolChoice;
      checkChoice(registry, choice, providerName);
      if (executor.active && !isModeOnly(choice) && choice !== "required" && !executor.active.has(choice)) {
        throw new TypeError(
          `runTools: prepareStep chose ${JSON.stringify(choice)}, which is not one of the step's active tools (${[...executor.active].join(", ")}).`,
        );
      }
    }
    return { tools, choice };
  };

  let failed = true;
  try {
    let first = 1;
    if (resumed) {
      // The paused batch, answered before the next request: the registry's calls as the human decided (the rejected
      // ones with their reasons), the loop's own as the paused step would have, with what it had then.
      const { state } = resumed;
      executor.restore(state);
      if (search) {
        if (state.toolsFound) search.reveal(state.toolsFound);
        const active = executor.active;
        search.offer(active ? registry.list().filter((entry) => active.has(entry.name)) : registry.list());
      }
      const calls = loop.read(state.reply).calls;
      checkResumedBatch(executor.forRegistry(calls), state.approval);
      stepIndex = state.step;
      const access = loopAccess(registry, "resume");
      const resuming = executor.resumeAll(
        calls,
        editedCalls(state.approval, resumed.decisions),
        (_batch, dispatchOptions) => access.resume(state.approval, resumed.decisions, dispatchOptions),
      );
      const done = progress ? yield* progress.untilDone(resuming) : await resuming;
      executor.settle(done);
      messages.push(
        ...loop.answer(
          state.reply,
          done.map((outcome) => outcome.result),
        ),
      );
      first = state.step + 1;
      calledTools = true;
    }
    for (let index = first; index <= maxSteps; index++) {
      signal.throwIfAborted();
      stepIndex = index;
      const { tools, choice } = await settle(index);
      // A forced choice of a deferred tool needs its definition in the request.
      if (search && choice !== undefined && !isModeOnly(choice) && choice !== "required") search.reveal([choice]);
      // With allowedTools, every tool goes out each step (the list, and so the prompt cache, stays the same) and the
      // step's active ones are named in the tool choice. Offered first, so that the search keeps the step's own.
      const everyTool =
        options.allowedTools === true && executor.active
          ? search
            ? search.offer(registry.list())
            : registry.list()
          : undefined;
      const offered = search ? search.offer(tools) : tools;
      const loopTools = jsonPatch && executor.patchable.size > 0 ? [patchToolDefinition(executor.patchable)] : [];
      if (search?.waiting) loopTools.push(search.definition());
      const allowed = everyTool ? [...offered, ...loopTools].map((tool) => tool.name) : undefined;
      const request = loop.request(params, {
        items: messages,
        tools: everyTool ?? offered,
        loopTools,
        strict: options.strict,
        ...(options.eagerInputStreaming === undefined ? {} : { eagerInputStreaming: options.eagerInputStreaming }),
        ...(allowed ? { allowed } : {}),
        toolChoice: choice,
        parallelToolCalls: options.parallelToolCalls,
        output: responseFormat,
        stream,
        ...(toolSearch.match ? { toolSearchMatch: toolSearch.match } : {}),
      });
      let reply: unknown;
      let outcomes: Promise<CallOutcome>[] | undefined;
      // Traced: the request's span, and this step's tool calls under it.
      const span = startStepSpan(providerName, record, index);
      executor.traceUnder(span?.context);
      try {
        const response = await loop.send(client, request, signal, stream);
        if (stream) {
          if (!isAsyncIterable(response))
            throw new TypeError("runTools: with stream: true the client must return an async iterable of events.");
          const started: Promise<CallOutcome>[] = [];
          const streamed = executor.streamed();
          try {
            reply = yield* streamReply(loop, response, index, progress, (call) => {
              if (approvals) return;
              const running = streamed.run(call);
              // Awaited below; until then a rejection (an abort) must not count as unhandled.
              running.catch(() => undefined);
              started.push(running);
            });
          } finally {
            // The reply's calls are all known (or the stream failed): the ones past the cap can be answered.
            streamed.end();
          }
          outcomes = approvals ? undefined : started;
        } else {
          reply = loop.reply(response);
        }
      } catch (error) {
        span?.fail(error);
        throw error;
      } finally {
        span?.end();
      }
      const read = loop.read(reply);
      messages.push(...read.items);
      const calls = read.calls;

      if (calls.length === 0 && read.unfinished) {
        // A turn the API paused (its server tools at work): asked again, the model goes on with it.
        const step: RunStep<LoopTypes> = { index, message: read.message, calls: [], results: [], failures: [] };
        steps.push(step);
        await options.onStep?.(step);
        yield { type: "step", step };
        continue;
      }
      if (calls.length === 0) {
        // A final answer: done, unless it is a structured answer that is refused or does not match its schema.
        let parsed: unknown;
        let failure: ToolAttempt | undefined;
        if (responseFormat) {
          if (read.refusal !== null) {
            steps.push({ index, message: read.message, calls: [], results: [], failures: [] });
            throw new ModelRefusalError(read.refusal, transcript());
          }
          const answer = responseFormat.safeParse(read.text ?? "");
          if (answer.success) parsed = answer.data;
          else {
            failure = answerFailure(
              index,
              responseFormat.name,
              read.text ?? "",
              answer.error.issues,
              answer.error.errors,
            );
            messages.push(loop.userTurn(failure.message));
          }
        }
        const step: RunStep<LoopTypes> = {
          index,
          message: read.message,
          calls: [],
          results: [],
          failures: failure ? [failure] : [],
        };
        steps.push(step);
        await options.onStep?.(step);
        yield { type: "step", step };
        if (failure) {
          const streak = tracker.fail(`answer:${failure.toolName}`, failure);
          if (streak) throw new ToolRetryError("answer", failure.toolName, streak, transcript());
          continue;
        }
        const result: RunToolsResult<unknown, unknown, LoopTypes> = {
          message: read.message,
          content: read.text,
          parsed,
          finishReason: "answer",
          messages,
          steps,
        };
        failed = false;
        yield { type: "final", result };
        return result;
      }

      calledTools = true;
      if (approvals) {
        // The registry's calls only: the loop answers its own (search, patch refusals, tools not offered) on resume.
        const batch = executor.forRegistry(calls);
        const pending =
          batch.length > 0
            ? await loopAccess(registry, "runTools").pending(batch, { ...options.dispatch, signal })
            : [];
        if (pending.length > 0) {
          const state: RunToolsApprovalState = {
            type: "tooltype.runTools",
            v: 1,
            step: index,
            messages: JSON.parse(JSON.stringify(messages)) as unknown[],
            reply: JSON.parse(JSON.stringify(reply)) as unknown,
            approval: await loopAccess(registry, "runTools").pause(providerName, batch, pending, {
              ...options.dispatch,
              signal,
            }),
            ...(search && search.found.size > 0 ? { toolsFound: [...search.found] } : {}),
            ...executor.saved(),
          };
          const result: RunToolsResult<unknown, unknown, LoopTypes> = {
            message: read.message,
            content: read.text,
            parsed: undefined,
            finishReason: "paused",
            messages,
            steps,
            paused: { pending, state },
          };
          failed = false;
          yield { type: "final", result };
          return result;
        }
      }
      if (!outcomes && !stream) {
        for (const { call } of calls) yield { type: "tool_call", step: index, call };
      }
      const running = outcomes ? Promise.all(outcomes) : executor.runAll(calls);
      const done = progress ? yield* progress.untilDone(running) : await running;
      executor.settle(done);
      const results: ToolMessage[] = done.map((outcome) => outcome.result);
      for (const outcome of done)
        yield { type: "tool_result", step: index, call: outcome.call, result: outcome.result };
      messages.push(...loop.answer(reply, results));

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
      const step: RunStep<LoopTypes> = {
        index,
        message: read.message,
        calls: calls.map(({ call }) => call),
        results,
        failures,
      };
      steps.push(step);
      await options.onStep?.(step);
      yield { type: "step", step };

      const direct = done.find(
        (outcome) =>
          outcome.result.status === "success" && registry.get(outcome.toolName)?.options.returnDirect === true,
      );
      if (direct) {
        const content = direct.result.content;
        const parsed = responseFormat ? responseFormat.parse(content) : undefined;
        const result: RunToolsResult<unknown, unknown, LoopTypes> = {
          message: read.message,
          content,
          parsed,
          returnDirect: direct.result,
          finishReason: "returnDirect",
          messages,
          steps,
        };
        failed = false;
        yield { type: "final", result };
        return result;
      }
      if (exhaustedTool !== undefined) {
        throw new ToolRetryError("tool", exhaustedTool, tracker.exhausted(`tool:${exhaustedTool}`)!, transcript());
      }
      if (await stops(options.stopWhen, steps)) {
        const result: RunToolsResult<unknown, unknown, LoopTypes> = {
          message: read.message,
          content: read.text,
          parsed: undefined,
          finishReason: "stopWhen",
          messages,
          steps,
        };
        failed = false;
        yield { type: "final", result };
        return result;
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
 * Refuses (TypeError, before anything runs) a paused run whose reply no longer gives the batch its approval state
 * holds: the registry would answer other calls than the loop sends answers for. The state's reply is not sealed, its
 * approval is: this ties the two together.
 */
function checkResumedBatch(batch: readonly NormalizedCall[], approval: unknown): void {
  const paused = (approval as { calls?: unknown } | null)?.calls;
  // A malformed approval state is the registry's to refuse, with its own words.
  if (!Array.isArray(paused)) return;
  const differs =
    paused.length !== batch.length
      ? -1
      : batch.findIndex((call, i) => JSON.stringify(JSON.parse(JSON.stringify(call))) !== JSON.stringify(paused[i]));
  if (paused.length === batch.length && differs === -1) return;
  const where =
    differs === -1
      ? `the reply gives ${batch.length} calls for the registry, the batch holds ${paused.length}`
      : `call ${differs + 1} (${batch[differs]!.name}) differs`;
  throw new TypeError(
    `resume: refused, the paused reply's calls do not match the batch paused for approval (${where}); nothing was run. Pass the state runTools returned, unchanged, after JSON.parse.`,
  );
}

/** The places in the paused batch of the calls approved with arguments a human gave. */
function editedCalls(approval: unknown, decisions: readonly ApprovalDecision[]): Set<number> {
  const pending = (approval as { pending?: unknown } | null)?.pending;
  if (!Array.isArray(pending) || !Array.isArray(decisions)) return new Set();
  const ids = new Set(
    decisions
      .filter((decision) => decision?.approved === true && decision.args !== undefined)
      .map((decision) => decision.id),
  );
  return new Set(
    (pending as { id?: unknown; index?: unknown }[])
      .filter((entry) => ids.has(entry?.id as string) && typeof entry.index === "number")
      .map((entry) => entry.index as number),
  );
}

/**
 * Reads one streamed reply, reporting text, fragments and complete calls as events, and calling `start` for each
 * call as soon as it is complete (before its event, so a reader that stops there still aborts it). Returns the reply.
 */
async function* streamReply(
  loop: ProviderLoop,
  response: AsyncIterable<unknown>,
  step: number,
  progress: ProgressEvents | undefined,
  start: (call: ReplyCall) => void,
): AsyncGenerator<RunToolsEvent<unknown, unknown, LoopTypes>, unknown> {
  const accumulator = loop.accumulate();
  const begin = (call: unknown): void => start({ call, read: loop.readCall(call) });
  for await (const event of response) {
    // Progress of the calls already running, reported while the reply streams.
    if (progress) yield* progress.take();
    // One tool call fragment at a time, so that the events keep the order of the stream: a call completed by the
    // start of the next one is reported before that one's first fragment.
    for (const part of loop.split ? loop.split(event) : [event]) {
      const update = accumulator.push(part);
      if (update.text) yield { type: "text", step, delta: update.text };
      const fragment = update.deltas[0];
      // The fragment's own call can only be completed by this event's finish, and comes last then.
      const ownEnd = fragment?.call.complete ? 1 : 0;
      const completed = update.completed;
      for (const call of completed.slice(0, completed.length - ownEnd)) {
        begin(call);
        yield { type: "tool_call", step, call };
      }
      if (fragment)
        yield { type: "tool_call_delta", step, call: fragment.call, argumentsDelta: fragment.argumentsDelta };
      for (const call of completed.slice(completed.length - ownEnd)) {
        begin(call);
        yield { type: "tool_call", step, call };
      }
    }
  }
  // A stream that ended without a finish: its last calls are complete now.
  const before = accumulator.calls.length;
  const reply = accumulator.done();
  const all = loop.read(reply).calls;
  for (const { call } of all.slice(before)) {
    begin(call);
    yield { type: "tool_call", step, call };
  }
  return reply;
}

/** A structured answer that does not match its schema, and the feedback that asks the model for another. */
function answerFailure(
  step: number,
  name: string,
  text: string,
  issues: readonly string[],
  errors: ToolAttempt["errors"],
): ToolAttempt {
  const message = `Your answer is not a valid ${name} answer:\n${issues.map((line) => `- ${line}`).join("\n")}\nAnswer again with only the JSON object, matching the schema.`;
  return { step, toolName: name, toolCallId: "", arguments: text, reason: "invalid_answer", issues, errors, message };
}

/** A choice that forces no call: `"auto"`, `"none"`, or Gemini's `"validated"` (a call or text). */
function isModeOnly(choice: ToolChoice): boolean {
  return choice === "auto" || choice === "none" || choice === "validated";
}
