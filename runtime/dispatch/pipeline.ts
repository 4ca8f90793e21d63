/**
 * The later stages of the dispatch pipeline (answer.ts has its first ones, which every call goes through; full.ts
 * gathers these with the rest of what calls need beyond them). A call comes here as answer.ts `answerCall` handed it on, at the stage it
 * reached (`finishCall`), and goes on from there:
 *
 *   the full reader (size measured, text trimmed, `__proto__` dropped, lenient repair) → if invalid, coerce to the
 *   schema and validate again → hooks → approval decisions → call (`this` bound, a ToolContext, middleware, awaited
 *   within its time limits and signals) → content (and artifact) → ToolMessage
 *
 * Each failure becomes a `status: "error"` message written for the model to correct itself (error-text.ts writes the
 * default text by kind of error, redacted; the message carries that kind as `errorKind`); `handleToolError` /
 * `handleValidationError` (tool first, then registry) choose the text or rethrow. Hooks observe each call. The
 * default bounds (limits.ts) apply here: a per-call timeout, the call id's length, the result's size. A thrown value
 * is only ever inspected inside a try, so even a revoked Proxy gets its answer.
 * Only the caller's abort (or a handler that rethrows) rejects. This file knows one call; batch.ts schedules the
 * calls a provider read out of a message. `invokeTool` runs the same steps for a direct call, returning the tool's own
 * value and throwing instead.
 */
import {
  type ArgsObject,
  type ReadOptions,
  type ReadResult,
  modelParams,
  readArguments,
  reviveDates,
  toPositionalArgs,
} from "../arguments/args";
import { parseText } from "../arguments/read-text";
import type { NormalizedCall } from "./call";
import type { Coercion } from "../arguments/coerce";
import { ToolResultError, ToolTimeoutError, ToolValidationError, toolErrorKind } from "../tool/errors";
import { type ToolEvent, type ToolHooks, callHooks, hasHooks } from "./hooks";
import type { ToolCall } from "../tool/call";
import { ToolMessage } from "./messages";
import type { ErrorHandler, Redact, ToolContext } from "../tool/options";
import type { DispatchOptions, RegistryOptions, ToolCallRequest, ToolInput, ToolMiddleware } from "./options";
import type { RepairKind } from "../arguments/repair";
import type { ConformSettings } from "../arguments/conform";
import type { Settled } from "../arguments/settle";
import { withSettle } from "#lazy/settle";
import { resultJson } from "./result-json";
import { failureText, validationText } from "./error-text";
import { DEFAULT_TOOL_TIMEOUT_MS, MAX_CALL_ID_LENGTH, MAX_RESULT_BYTES } from "./limits";
import { callIdTooLongError, checkResultSize } from "./limit-errors";
import type { CallRun, DispatchEnvironment, DispatchTool } from "./environment";
import { ABORTED, BROKEN, Handed, PENDING, REFUSED, RETURNED, THREW, UNFOUND, UNREAD, VALID, answerCall, argumentLimits, checksResults, isThenable, noContext } from "./answer";
import { middlewareOf, runChain } from "./middleware";
import { contentParts, partsText } from "../tool/content";
import { driveToolStream, isToolStream, progressOf } from "../tool/stream";

export type { DispatchEnvironment, DispatchTool } from "./environment";

/** What the calls of one dispatch share: its options, one abort signal, its deadline. */
export interface DispatchRun extends CallRun {
  /** Set by batch.ts once the run's limits are read: see `CallRun`. */
  plain: boolean;
  idLimit: number;
  readonly options: DispatchOptions;
  /** Aborted when the caller's signal aborts, or when the dispatch gives up (a handler rethrew). */
  readonly signal: AbortSignal;
  /** Whether the run was aborted, and why: read without creating the signal. */
  readonly aborted: boolean;
  readonly reason: unknown;
  /** `performance.now()` by which every call must be answered, and the limit it came from. */
  readonly deadline: { readonly at: number; readonly timeoutMs: number } | undefined;
  /** The deadline has passed (or its timer fired: timers may fire a fraction of a millisecond early). */
  readonly expired: boolean;
  /** Note that the deadline's timer fired. */
  expire(): void;
  /** Call `listener` once when `signal` aborts; returns the function that unsubscribes it. */
  onAbort(listener: () => void): () => void;
  /** Abort every call of the run that is still going. */
  abort(reason: unknown): void;
  /** Detach from the caller's signal; call once the run is over. */
  close(): void;
  /** By call index: the answer for a call a human rejected (approval.ts); such a call is not run. */
  rejections?: readonly (string | undefined)[];
  /** By call index: the arguments a human edited when approving the call (approval.ts); its answer says so. */
  edits?: readonly (Record<string, unknown> | undefined)[];
}

/** Longest delay `setTimeout` honours; longer ones fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * The run of one dispatch. Its AbortController is made only when something needs it (a caller's signal, a tool
 * that takes a ToolContext, a call still running): creating one costs more than answering a simple call.
 */
class Run implements DispatchRun {
  plain = false;
  idLimit = MAX_CALL_ID_LENGTH;
  readonly options: DispatchOptions;
  rejections?: readonly (string | undefined)[];
  edits?: readonly (Record<string, unknown> | undefined)[];
  readonly deadline: { readonly at: number; readonly timeoutMs: number } | undefined;
  #controller: AbortController | undefined;
  #listeners: Set<() => void> | undefined;
  #expired = false;
  #onCallerAbort: (() => void) | undefined;

  constructor(options: DispatchOptions) {
    this.options = options;
    const timeoutMs = validTimeout(options.timeoutMs);
    this.deadline = timeoutMs === undefined ? undefined : { at: performance.now() + timeoutMs, timeoutMs };
    const caller = options.signal;
    if (caller?.aborted) this.#controllerOf().abort(caller.reason);
    else if (caller) this.#follow(caller);
  }

  /** Abort with the caller's signal; apart from the constructor so that a run without one makes no closure. */
  #follow(caller: AbortSignal): void {
    const onCallerAbort = (): void => this.#controllerOf().abort(caller.reason);
    this.#onCallerAbort = onCallerAbort;
    caller.addEventListener("abort", onCallerAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.#controllerOf().signal;
  }

  get aborted(): boolean {
    return this.#controller?.signal.aborted ?? false;
  }

  get reason(): unknown {
    return this.#controller?.signal.reason;
  }

  get expired(): boolean {
    return this.#expired || (this.deadline !== undefined && performance.now() >= this.deadline.at);
  }

  expire(): void {
    this.#expired = true;
  }

  onAbort(listener: () => void): () => void {
    this.#controllerOf();
    const listeners = (this.#listeners ??= new Set());
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  abort(reason: unknown): void {
    this.#controllerOf().abort(reason);
  }

  close(): void {
    if (this.#onCallerAbort) this.options.signal?.removeEventListener("abort", this.#onCallerAbort);
  }

  #controllerOf(): AbortController {
    if (!this.#controller) {
      const controller = new AbortController();
      controller.signal.addEventListener(
        "abort",
        () => {
          const listeners = this.#listeners;
          if (!listeners) return;
          for (const listener of [...listeners]) listener();
          listeners.clear();
        },
        { once: true },
      );
      this.#controller = controller;
    }
    return this.#controller;
  }
}

/** A run for `options`: one listener on the caller's signal, fanned out to the calls. */
export function createRun(options: DispatchOptions): DispatchRun {
  return new Run(options);
}

/** The settings that apply to one call of one tool. */
interface CallSettings {
  read: Required<ReadOptions>;
  coerce: boolean;
  /** The same two, as conform() takes them (made once, not per call). */
  conform: ConformSettings;
  timeoutMs: number | undefined;
  /** The limit is DEFAULT_TOOL_TIMEOUT_MS, set by no one (its error names the option). */
  timeoutIsDefault: boolean;
  maxResultBytes: number;
  redact: Redact | undefined;
  toolHandler: ErrorHandler | undefined;
  validationHandler: ErrorHandler | undefined;
  /** Results are checked against the declared return type (answer.ts `checksResults`). */
  checkResults: boolean;
}

/** A tool's settings when the dispatch overrides none of them: the same for every call, so computed once. */
const baseSettings = new WeakMap<DispatchTool, CallSettings>();

function settingsFor(tool: DispatchTool, registry: Readonly<RegistryOptions>, dispatch: DispatchOptions): CallSettings {
  if (dispatch.coerce !== undefined || dispatch.repair !== undefined || dispatch.redact !== undefined) return computeSettings(tool, registry, dispatch);
  let settings = baseSettings.get(tool);
  if (!settings) {
    settings = computeSettings(tool, registry, {});
    baseSettings.set(tool, settings);
  }
  return settings;
}

function computeSettings(tool: DispatchTool, registry: Readonly<RegistryOptions>, dispatch: DispatchOptions): CallSettings {
  const own = tool.options;
  const coerce = own.coerce ?? dispatch.coerce ?? registry.coerce ?? true;
  const { maxBytes, maxDepth } = argumentLimits(tool, registry);
  const timeoutMs = own.timeoutMs ?? registry.timeoutMs;
  return {
    read: {
      repair: own.repair ?? dispatch.repair ?? registry.repair ?? true,
      unwrapString: coerce,
      maxBytes,
      maxDepth,
    },
    coerce,
    conform: { coerce, maxDepth },
    timeoutMs: timeoutMs === undefined ? DEFAULT_TOOL_TIMEOUT_MS : validTimeout(timeoutMs === false ? undefined : timeoutMs),
    timeoutIsDefault: timeoutMs === undefined,
    maxResultBytes: own.maxResultBytes ?? registry.maxResultBytes ?? MAX_RESULT_BYTES,
    redact: own.redact ?? dispatch.redact ?? registry.redact,
    toolHandler: own.handleToolError ?? registry.handleToolError,
    validationHandler: own.handleValidationError ?? registry.handleValidationError,
    checkResults: checksResults(tool, registry),
  };
}

/**
 * The answer to one call of `run`: the one pipeline's first stages (answer.ts), then, if the call needs them, the
 * later ones here. A ToolMessage right away when the tool returns a plain value, a promise of one when it returns a
 * promise. Throws (or rejects) only when a handler says `false` (or throws) or the run is aborted.
 */
function answer(env: DispatchEnvironment, call: NormalizedCall, run: DispatchRun, index: number): ToolMessage | Promise<ToolMessage> {
  const first = answerCall(env, call, run);
  return first instanceof Handed ? finishCall(env, call, run, index, first) : first;
}

/** Calls `finishCall` took on, for tests that check which calls needed the later stages. */
let finished = 0;

/** Tests only: how many calls the later stages have taken on so far. */
export function finishedCount(): number {
  return finished;
}

/**
 * A call handed on by answer.ts `answerCall`, answered from the stage it reached: what was read is not read again,
 * what was validated not validated again, a tool that ran not run again.
 */
export function finishCall(env: DispatchEnvironment, call: NormalizedCall, run: DispatchRun, index: number, handed: Handed): ToolMessage | Promise<ToolMessage> {
  finished++;
  const tool = handed.tool;
  switch (handed.stage) {
    case ABORTED:
      throw run.reason;
    case UNFOUND:
      return unfound(env, call, run, tool);
    case THREW:
    case PENDING:
    case RETURNED:
      return answerRan(env, call, run, handed);
  }
  const state = new CallState(call, tool, run, callHooks(env.options, run.options));
  const settings = settingsFor(tool!, env.options, run.options);
  let prepared: Prepared | Promise<Prepared>;
  try {
    switch (handed.stage) {
      case UNREAD:
        prepared = prepareArguments(tool!, call, settings);
        break;
      case REFUSED:
        prepared = settleArguments(tool!, handed.value as ReadResult, settings);
        break;
      case VALID:
        prepared = { ok: true, args: handed.args!, repairs: NONE_REPAIRED, coercions: NONE_COERCED };
        break;
      default:
        // BROKEN: reading or validating threw.
        throw handed.value;
    }
  } catch (error) {
    return unprepared(state, settings, error);
  }
  // A promise only while a bundle loads the failure path for arguments (the first call whose arguments are not right).
  if (prepared instanceof Promise) {
    return prepared.then(
      (ready) => answerPrepared(env, call, run, index, tool!, state, settings, ready),
      (error: unknown) => unprepared(state, settings, error),
    );
  }
  return answerPrepared(env, call, run, index, tool!, state, settings, prepared);
}

/** A call whose tool is unknown or whose id is over the limit: a validation failure, nothing read. */
function unfound(env: DispatchEnvironment, call: NormalizedCall, run: DispatchRun, tool: DispatchTool | undefined): ToolMessage {
  const state = new CallState(call, tool, run, callHooks(env.options, run.options));
  state.begin();
  if (call.id.length > run.idLimit) {
    const handler = tool?.options.handleValidationError ?? env.options.handleValidationError;
    return state.failure("validation", handler, callIdTooLongError(tool?.name ?? call.name, call.id.length, run.idLimit), validationText);
  }
  return state.failure("validation", env.options.handleValidationError, unknownToolError(call.name, env.names()), validationText);
}

/** Whether the calls of `run` are plain (see environment.ts `CallRun`): no approval decisions, deadline, middleware or hooks. */
export function isPlainRun(env: DispatchEnvironment, run: DispatchRun): boolean {
  const options = run.options;
  return (
    run.rejections === undefined &&
    run.deadline === undefined &&
    options.wrap === undefined &&
    (env.middleware === undefined || env.middleware.length === 0) &&
    !hasHooks(env.options) &&
    !hasHooks(options)
  );
}

/** Arguments that could not be prepared for a reason not the model's (e.g. a parameter schema ajv cannot compile): the tool failing. */
function unprepared(state: CallState, settings: CallSettings, error: unknown): ToolMessage | Promise<ToolMessage> {
  state.begin();
  return state.failure("tool", settings.toolHandler, error, (e) => failureText(e, settings.redact));
}

function answerPrepared(
  env: DispatchEnvironment,
  call: NormalizedCall,
  run: DispatchRun,
  index: number,
  tool: DispatchTool,
  state: CallState,
  settings: CallSettings,
  prepared: Prepared,
): ToolMessage | Promise<ToolMessage> {
  if (prepared.args) state.args = prepared.args;
  state.begin(prepared.repairs, prepared.coercions);
  // A call a human approved with edited arguments (approval.ts): an edit that does not fit runs nothing and says why.
  const edit = run.edits?.[index];
  if (!prepared.ok) return state.failure("validation", settings.validationHandler, prepared.error, edit === undefined ? validationText : (error) => editRefusedText(tool.name, error));
  // A call a human rejected (approval.ts) is answered with the rejection and never runs.
  const rejection = run.rejections?.[index];
  if (rejection !== undefined) return state.end(new ToolMessage({ tool_call_id: call.id, name: tool.name, content: rejection, status: "error", errorKind: "rejected" }));
  const args = prepared.args;
  const answered = runPrepared(env, run, tool, state, settings, args);
  if (edit === undefined) return answered;
  // The note shows the arguments as the tool received them (after the pause's coercion).
  const note = editNote(args);
  return answered instanceof Promise ? answered.then((message) => withEditNote(message, note)) : withEditNote(answered, note);
}

/** Valid arguments, their call run (within its limits, through the middleware) and answered. */
function runPrepared(env: DispatchEnvironment, run: DispatchRun, tool: DispatchTool, state: CallState, settings: CallSettings, args: ArgsObject): ToolMessage | Promise<ToolMessage> {
  let result: unknown;
  let pending: Pending | undefined;
  try {
    if (run.deadline && run.expired) throw new ToolTimeoutError(tool.name, run.deadline.timeoutMs, "dispatch");
    result = runTool(tool, args, state, settings, run, middlewareOf(env.middleware, run.options.wrap));
    // Inside the try: `instanceof` asks a returned Proxy for its prototype, and a trap that throws must fail this
    // call only, not the batch.
    if (result instanceof Pending) pending = result;
  } catch (error) {
    return state.caught(settings, error);
  }
  if (pending !== undefined) {
    return pending.promise.then(
      (value) => state.succeeded(tool, settings, value),
      (error: unknown) => state.caught(settings, error),
    );
  }
  return state.succeeded(tool, settings, result);
}

/** What the model reads for an edit that does not fit: what the human did, and the validation's own text. */
function editRefusedText(name: string, error: unknown): string {
  return `The user approved this call of ${name} with edited arguments, but the edit does not fit the tool's parameters, so it was not run. ${validationText(error)}`;
}

/** Longest text of edited arguments shown to the model in the note. */
const EDIT_NOTE_MAX = 2000;

/** What the model reads of a human's edit: that there was one, and the arguments the call ran with. */
function editNote(args: ArgsObject): string {
  let shown = JSON.stringify(args);
  if (shown.length > EDIT_NOTE_MAX) shown = `${shown.slice(0, EDIT_NOTE_MAX)}…`;
  return `[The user edited the arguments of this call before approving it; it ran with ${shown}.]`;
}

/** The answer of a call that ran with a human's edit, beginning with the note (a text part too, where it has parts). */
function withEditNote(message: ToolMessage, note: string): ToolMessage {
  message.content = message.content === "" ? note : `${note}\n${message.content}`;
  if (message.parts) message.parts = [{ type: "text", text: note }, ...message.parts];
  return message;
}

/** A call's state made after the fact (a plain run has no hooks, so nothing was missed). */
function stateOf(call: NormalizedCall, tool: DispatchTool, run: DispatchRun, args: ArgsObject | undefined): CallState {
  const state = new CallState(call, tool, run, undefined);
  state.args = args;
  return state;
}

/**
 * The answer to a call whose tool answer.ts ran (in a plain run: no hooks, so nothing was missed) and handed on with
 * what came of it: a throw, a promise, or a value other than text within its size.
 */
function answerRan(env: DispatchEnvironment, call: NormalizedCall, run: DispatchRun, ran: Handed): ToolMessage | Promise<ToolMessage> {
  const tool = ran.tool!;
  const settings = settingsFor(tool, env.options, run.options);
  const state = stateOf(call, tool, run, ran.args);
  switch (ran.stage) {
    case THREW:
      return state.caught(settings, ran.value);
    case PENDING:
      return settleLater(tool, ran.value as PromiseLike<unknown>, state, settings, run);
    default:
      if (isToolStream(ran.value, tool.meta.streams)) {
        const stream = driveToolStream(ran.value, (value, count) => reportYield(state, run, undefined, value, count));
        return settleLater(tool, stream.result, state, settings, run, stream.stop);
      }
      return state.succeeded(tool, settings, ran.value);
  }
}

/** A tool's promise, raced against its time limit and the run's signal as runTool does (no controller: no context). */
function settleLater(tool: DispatchTool, result: PromiseLike<unknown>, state: CallState, settings: CallSettings, run: DispatchRun, onSettled?: () => void): Promise<ToolMessage> {
  return race(tool, result, undefined, settings, run, onSettled).then(
    (value) => state.succeeded(tool, settings, value),
    (error: unknown) => state.caught(settings, error),
  );
}

/** What one call keeps while it is answered; methods rather than per-call closures keep the common path lean. */
class CallState {
  /** Set once the arguments are read. */
  args: ArgsObject | undefined;
  #toolCall: ToolCall | undefined;
  #event: ToolEvent | undefined;
  readonly #started: number;

  constructor(
    readonly call: NormalizedCall,
    readonly tool: DispatchTool | undefined,
    readonly run: DispatchRun,
    readonly hooks: Required<ToolHooks> | undefined,
  ) {
    this.#started = hooks ? performance.now() : 0;
  }

  /** The call as a LangChain ToolCall (for ToolContext, handlers and hooks), made when first needed. */
  get toolCall(): ToolCall {
    this.#toolCall ??= { name: this.call.name, args: this.args ?? {}, id: this.call.id, type: "tool_call" };
    return this.#toolCall;
  }

  begin(repairs: readonly RepairKind[] = [], coercions: readonly Coercion[] = []): void {
    if (!this.hooks) return;
    const tool = this.tool;
    this.#event = {
      call: this.toolCall,
      tool,
      tags: tool?.options.tags ?? [],
      metadata: { ...tool?.options.metadata, ...this.run.options.metadata },
      repairs,
      coercions,
    };
    this.hooks.onToolStart(this.#event);
  }

  end(message: ToolMessage): ToolMessage {
    if (this.hooks && this.#event) this.hooks.onToolEnd({ ...this.#event, durationMs: this.#elapsed(), status: message.status, message });
    return message;
  }

  /** The error message for a failed call, or the error itself rethrown when the handler is `false`. */
  failure(kind: "validation" | "tool", handler: ErrorHandler | undefined, error: unknown, text: (error: unknown) => string): ToolMessage {
    if (this.hooks && this.#event) this.hooks.onToolError({ ...this.#event, durationMs: this.#elapsed(), kind, error });
    let content: string;
    if (handler === undefined || handler === true) content = text(error);
    else if (handler === false) throw error;
    else if (typeof handler === "string") content = handler;
    else content = String(handler(error, this.toolCall));
    const errorKind = kind === "validation" ? "validation" : toolErrorKind(error);
    return this.end(new ToolMessage({ tool_call_id: this.call.id, name: this.tool?.name ?? this.call.name, content, status: "error", errorKind }));
  }

  succeeded(tool: DispatchTool, settings: CallSettings, value: unknown): ToolMessage | Promise<ToolMessage> {
    let message: ToolMessage;
    try {
      message = successMessage(tool, this.call.id, value);
      checkResultSize(tool.name, message.content, message.parts, settings.maxResultBytes);
    } catch (error) {
      return this.caught(settings, error);
    }
    // Content parts and `[content, artifact]` pairs are tooltype's shapes, not the value the return type describes.
    if (!settings.checkResults || message.parts !== undefined || value === undefined || tool.options.responseFormat === "content_and_artifact") return this.end(message);
    const returns = tool.meta.returns!;
    const sent = typeof value === "string" ? value : (JSON.parse(message.content) as unknown);
    let checked: ToolResultError | undefined | Promise<ToolResultError | undefined>;
    try {
      checked = withSettle((settle) => settle.resultProblem(tool.name, returns, sent));
    } catch (error) {
      // No validator for the return type (a bundle without ajv): said in the answer, as for any tool failure.
      return this.caught(settings, error);
    }
    const answer = (problem: ToolResultError | undefined): ToolMessage => (problem ? this.caught(settings, problem) : this.end(message));
    return checked instanceof Promise ? checked.then(answer, (error: unknown) => this.caught(settings, error)) : answer(checked);
  }

  /** A failure after the arguments were accepted: the caller's abort is passed on, anything else answered. */
  caught(settings: CallSettings, error: unknown): ToolMessage {
    if (isCallerAbort(error)) {
      if (this.hooks && this.#event) this.hooks.onToolError({ ...this.#event, durationMs: this.#elapsed(), kind: "aborted", error: error.reason });
      throw error.reason;
    }
    return this.failure("tool", settings.toolHandler, error, (e) => failureText(e, settings.redact));
  }

  #elapsed(): number {
    return performance.now() - this.#started;
  }
}

function ignore(): void {}

/**
 * Answer calls on `run` concurrently: synchronously where every tool returned a plain value. dispatch.ts may have
 * answered the calls before `from` already (`answers`) and handed on call `from` at the stage it reached (`first`).
 */
export function answerAll(
  env: DispatchEnvironment,
  calls: readonly NormalizedCall[],
  run: DispatchRun,
  from = 0,
  answers: (ToolMessage | Promise<ToolMessage>)[] = new Array(calls.length),
  first?: Handed,
): ToolMessage[] | Promise<ToolMessage[]> {
  let pending = false;
  for (let i = from; i < calls.length; i++) {
    let one: ToolMessage | Promise<ToolMessage>;
    try {
      one = i !== from || first === undefined ? answer(env, calls[i]!, run, i) : finishCall(env, calls[i]!, run, i, first);
    } catch (error) {
      // Dispatch rejects with this error; the calls already running will be aborted and reject in turn, with no
      // one left to read them, so their rejections are handled here rather than left to crash the process.
      for (let j = from; j < i; j++) if (answers[j] instanceof Promise) (answers[j] as Promise<ToolMessage>).catch(ignore);
      throw error;
    }
    if (one instanceof Promise) pending = true;
    answers[i] = one;
  }
  return pending ? Promise.all(answers) : (answers as ToolMessage[]);
}

/** One call of a batch, through the whole pipeline, for batch.ts's runs with a concurrency limit. */
export function answerOne(env: DispatchEnvironment, call: NormalizedCall, run: DispatchRun, index: number): ToolMessage | Promise<ToolMessage> {
  return answer(env, call, run, index);
}

/**
 * The answer to a call refused before it is even looked at (a limit of the whole reply, e.g. maxCallsPerMessage):
 * a validation failure, seen by the hooks and the handlers like any other. Throws when the handler rethrows.
 */
export function answerRefused(env: DispatchEnvironment, call: NormalizedCall, run: DispatchRun, error: ToolValidationError): ToolMessage {
  const tool = env.get(call.name);
  const state = new CallState(call, tool, run, callHooks(env.options, run.options));
  state.begin();
  return state.failure("validation", tool?.options.handleValidationError ?? env.options.handleValidationError, error, validationText);
}

/** `invoke(name, input)`: the tool's own return value; unknown tools and bad arguments throw ToolValidationError. */
export async function invokeRaw(
  env: DispatchEnvironment,
  name: string,
  input: ToolInput | undefined,
  options: DispatchOptions = {},
): Promise<unknown> {
  const tool = env.get(name);
  if (!tool) throw unknownToolError(name, env.names());
  return invokeTool(tool, input, env.options, options);
}

/** `invoke` on one tool, without the registry lookup. Arguments are validated strictly unless `options.coerce`. */
export async function invokeTool(
  tool: DispatchTool,
  input: ToolInput | undefined,
  registryOptions: Readonly<RegistryOptions>,
  options: DispatchOptions = {},
): Promise<unknown> {
  // The input is the caller's own, not the model's: coerced only when this call asks for it.
  const coerce = options.coerce ?? false;
  const base = settingsFor(tool, registryOptions, options);
  const settings: CallSettings = { ...base, coerce, read: { ...base.read, unwrapString: coerce }, conform: { ...base.conform, coerce } };
  const read = typeof input === "string" ? bareStringArguments(tool, input, settings.read) : readArguments(input, settings.read);
  const checked = checkArguments(tool, read, settings);
  const prepared = checked instanceof Promise ? await checked : checked;
  if (!prepared.ok) throw prepared.error;
  const run = createRun(options);
  const state = new CallState({ kind: "args", id: "", name: tool.name, args: prepared.args }, tool, run, undefined);
  state.args = prepared.args;
  try {
    const result = runTool(tool, prepared.args, state, settings, run);
    return await (result instanceof Pending ? result.promise : result);
  } catch (error) {
    throw isCallerAbort(error) ? error.reason : error;
  } finally {
    run.close();
  }
}

/** The validated arguments of `call` as the tool would receive them, or `undefined` when they are not usable. */
export function validArguments(
  env: DispatchEnvironment,
  tool: DispatchTool,
  call: NormalizedCall,
  options: DispatchOptions,
): ArgsObject | undefined | Promise<ArgsObject | undefined> {
  const usable = (prepared: Prepared): ArgsObject | undefined => (prepared.ok ? prepared.args : undefined);
  try {
    const prepared = prepareArguments(tool, call, settingsFor(tool, env.options, options));
    return prepared instanceof Promise ? prepared.then(usable, () => undefined) : usable(prepared);
  } catch {
    return undefined;
  }
}

const NONE_REPAIRED: RepairKind[] = Object.freeze([]) as unknown as RepairKind[];
const NONE_COERCED: Coercion[] = Object.freeze([]) as unknown as Coercion[];

/** Arguments ready for the call, or the error to report; either way what was repaired and coerced on the way. */
type Prepared = Settled;

/** A promise only when the failure path (arguments/settle.ts) is still to be loaded. */
function prepareArguments(tool: DispatchTool, call: NormalizedCall, settings: CallSettings): Prepared | Promise<Prepared> {
  switch (call.kind) {
    case "args":
      // A string where the arguments object belongs is arguments text (some gateways pass it on unparsed).
      return typeof call.args === "string" ? checkText(tool, call.args, settings) : checkArguments(tool, readArguments(call.args, settings.read), settings);
    case "text":
      return checkText(tool, call.text, settings);
    case "invalid": {
      // The provider rejected the call, so it is not run. Prefer the strict parser's words when the text is the
      // problem; otherwise pass on why the call was rejected.
      const read = call.text === undefined ? undefined : parseText(call.text, { ...settings.read, repair: false });
      if (read && !read.ok) return checkArguments(tool, read, settings);
      const reason = call.error ?? "the provider marked it as invalid";
      return {
        ok: false,
        repairs: [],
        coercions: [],
        error: new ToolValidationError(
          `the call to ${tool.name} could not be used: ${reason}\nCall ${tool.name} again with the arguments as one JSON object.`,
          { reason: "malformed_arguments", toolName: tool.name },
        ),
      };
    }
  }
}

/** Arguments the first stages read and found wanting (a problem, or invalid): to the failure path, not checked again. */
function settleArguments(tool: DispatchTool, read: ReadResult, settings: CallSettings): Prepared | Promise<Prepared> {
  return withSettle((settle) => settle.settleArguments(tool, read, settings.read, settings.conform));
}

/** Arguments text: strict JSON here; text `JSON.parse` refuses is read leniently on the failure path. */
function checkText(tool: DispatchTool, text: string, settings: CallSettings): Prepared | Promise<Prepared> {
  return checkArguments(tool, parseText(text, settings.read) ?? text, settings);
}

/**
 * Read result → validated arguments with dates revived, or the error to report. Valid arguments (the common case)
 * are validated once here and never walked by coercion. Everything else (text to read leniently, unreadable
 * arguments, arguments to coerce and describe) goes to arguments/settle.ts, loaded on first need, which gives the
 * same answer dispatch always gave.
 */
function checkArguments(tool: DispatchTool, read: ReadResult | string, settings: CallSettings): Prepared | Promise<Prepared> {
  if (typeof read !== "string" && read.ok && tool.validator().valid(read.args)) {
    reviveDates(read.args, tool.meta.dates, tool.meta.urls);
    return { ok: true, args: read.args, repairs: read.repairs ?? NONE_REPAIRED, coercions: read.coercions ? [...read.coercions] : NONE_COERCED };
  }
  return withSettle((settle) => settle.settleArguments(tool, read, settings.read, settings.conform));
}

function bareStringArguments(tool: DispatchTool, input: string, read: ReadOptions): ReadResult {
  const params = modelParams(tool.meta);
  if (params.length === 1) return readArguments({ [params[0]!]: input }, read);
  const takes = params.length === 0 ? "takes no arguments" : `takes ${params.length} arguments (${params.join(", ")})`;
  throw new ToolValidationError(
    `${tool.name} ${takes}, so it cannot be invoked with a bare string; pass the arguments as an object.`,
    { reason: "malformed_arguments", toolName: tool.name },
  );
}

/** The run was aborted (by the caller, or because dispatch gave up): reject with its reason, do not answer. */
class CallerAbort {
  constructor(readonly reason: unknown) {}
}

/**
 * Whether a thrown value is the run's own abort. Anything a tool throws is inspected only like this, inside a try:
 * `instanceof` on a revoked Proxy (or a Proxy whose traps throw) throws, and would lose the batch's other answers.
 */
function isCallerAbort(error: unknown): error is CallerAbort {
  try {
    return error instanceof CallerAbort;
  } catch {
    return false;
  }
}

/** A tool's result still to come: what runTool returns when the tool returned a promise (or any thenable). */
class Pending {
  constructor(readonly promise: Promise<unknown>) {}
}

/**
 * Call the tool with its positional arguments. A plain value comes back as it is (no promise, no timer: nothing can
 * interrupt a synchronous call anyway). A promise is raced, within the earlier of the tool's own time limit and the
 * run's deadline, against the run's signal: whatever settles first wins, and a late result or error is dropped.
 * A synchronous throw propagates.
 */
function runTool(
  tool: DispatchTool,
  args: ArgsObject,
  state: CallState,
  settings: CallSettings,
  run: DispatchRun,
  chain: readonly ToolMiddleware[] = [],
): unknown {
  if (run.aborted) throw new CallerAbort(run.reason);
  // Only a tool that takes a ToolContext, or middleware, can observe the signal; the others need no controller.
  const controller = tool.meta.inject || chain.length > 0 ? new AbortController() : undefined;
  const context = controller ? () => contextFor(tool, state, controller, run) : noContext;
  // A streaming tool's generator is driven here, so that middleware sees its result, not the generator.
  let stream: ReturnType<typeof driveToolStream> | undefined;
  const call = (callArgs: ArgsObject): unknown => {
    const result = tool.call(toPositionalArgs(callArgs, tool.meta, context));
    if (!isToolStream(result, tool.meta.streams)) return result;
    stream = driveToolStream(result, (value, count) => reportYield(state, run, controller?.signal, value, count));
    return stream.result;
  };
  // However the call is answered (its result, an error, its time limit, an abort), its generator stops there.
  const stop = (): void => stream?.stop();
  if (chain.length === 0) {
    const result = call(args);
    return isThenable(result) ? new Pending(race(tool, result, controller, settings, run, stop)) : result;
  }
  // Once the call is answered (a result, an error, its time limit, an abort), a middleware's late `next()` starts
  // nothing: the model was already told what came of the call.
  let answered = false;
  const closed = (): boolean => answered || controller!.signal.aborted;
  const chained = runChain(chain, middlewareRequest(tool, state, args, controller!.signal, run), (changed) => recheckArguments(tool, changed, settings), call, closed);
  return new Pending(
    race(tool, chained, controller, settings, run, () => {
      answered = true;
      stop();
    }),
  );
}

/**
 * A value a streaming tool yielded, reported as `ToolContext.progress` reports are (to `onProgress`, with the value
 * itself). Dropped once the call was aborted or timed out; a listener that throws loses its report, not the call.
 */
function reportYield(state: CallState, run: DispatchRun, signal: AbortSignal | undefined, value: unknown, count: number): void {
  const onProgress = run.options.onProgress;
  if (!onProgress || signal?.aborted || run.aborted) return;
  try {
    onProgress(progressOf(value, count), state.toolCall, { value });
  } catch {
    // Progress is advisory.
  }
}

function middlewareRequest(tool: DispatchTool, state: CallState, args: ArgsObject, signal: AbortSignal, run: DispatchRun): ToolCallRequest {
  return { name: tool.name, id: state.call.id, args, tool, metadata: { ...tool.options.metadata, ...run.options.metadata }, signal };
}

/**
 * Arguments a middleware passed to `next`, read and validated as the model's would be (through their JSON form, so
 * revived dates are dates again after); a mismatch is the middleware's bug and fails the call as a tool error.
 */
function recheckArguments(tool: DispatchTool, changed: Record<string, unknown>, settings: CallSettings): ArgsObject | Promise<ArgsObject> {
  const fitting = (prepared: Prepared): ArgsObject => {
    if (!prepared.ok) throw new Error(`a middleware passed arguments to ${tool.name} that do not fit its schema. ${prepared.error.message}`);
    return prepared.args;
  };
  const prepared = checkArguments(tool, readArguments(JSON.parse(JSON.stringify(changed)) as unknown, settings.read), settings);
  return prepared instanceof Promise ? prepared.then(fitting) : fitting(prepared);
}

function contextFor(tool: DispatchTool, state: CallState, controller: AbortController, run: DispatchRun): ToolContext {
  const { auth, onProgress } = run.options;
  const toolCall = state.toolCall;
  return {
    toolCall,
    signal: controller.signal,
    metadata: { ...tool.options.metadata, ...run.options.metadata },
    auth,
    progress: (progress, total, message) => {
      // A report after the call was aborted or timed out, or a malformed one, is dropped: progress is advisory.
      if (!onProgress || controller.signal.aborted || typeof progress !== "number" || !Number.isFinite(progress)) return;
      onProgress(
        {
          progress,
          ...(typeof total === "number" && Number.isFinite(total) ? { total } : {}),
          ...(typeof message === "string" ? { message } : {}),
        },
        toolCall,
      );
    },
  };
}

function race(
  tool: DispatchTool,
  pending: PromiseLike<unknown>,
  controller: AbortController | undefined,
  settings: CallSettings,
  run: DispatchRun,
  onSettled?: () => void,
): Promise<unknown> {
  let limitMs = settings.timeoutMs;
  let timeout = (): ToolTimeoutError => new ToolTimeoutError(tool.name, settings.timeoutMs!, "tool", settings.timeoutIsDefault);
  const deadline = run.deadline;
  if (deadline) {
    const left = Math.max(0, deadline.at - performance.now());
    if (limitMs === undefined || left < limitMs) {
      limitMs = left;
      timeout = () => {
        run.expire();
        return new ToolTimeoutError(tool.name, deadline.timeoutMs, "dispatch");
      };
    }
  }

  return new Promise<unknown>((resolve, reject) => {
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      unsubscribe();
      onSettled?.();
      return true;
    };
    const unsubscribe = run.onAbort(() => {
      if (!settle()) return;
      controller?.abort(run.reason);
      reject(new CallerAbort(run.reason));
    });
    if (limitMs !== undefined) {
      timer = setTimeout(() => {
        if (!settle()) return;
        const error = timeout();
        controller?.abort(error);
        reject(error);
      }, Math.min(limitMs, MAX_TIMER_MS));
    }
    Promise.resolve(pending).then(
      (value) => {
        if (settle()) resolve(value);
      },
      (error: unknown) => {
        if (settle()) reject(error);
      },
    );
  });
}

/** A usable time limit: finite and not negative (Infinity means none); anything else is no limit. */
function validTimeout(ms: number | undefined): number | undefined {
  return typeof ms === "number" && Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

function successMessage(tool: DispatchTool, id: string, result: unknown): ToolMessage {
  if (tool.options.responseFormat === "content_and_artifact") {
    if (!Array.isArray(result) || result.length !== 2) {
      throw new ToolResultError(
        tool.name,
        `${tool.name} has responseFormat "content_and_artifact", so it must return a two-element array [content, artifact]; it returned ${describeValue(result)}.`,
      );
    }
    const message = new ToolMessage({ tool_call_id: id, name: tool.name, content: "", artifact: result[1], status: "success" });
    return withContent(message, result[0]);
  }
  // Text, the most common result, is its own content.
  if (typeof result === "string") return new ToolMessage({ tool_call_id: id, name: tool.name, content: result, status: "success" });
  return withContent(new ToolMessage({ tool_call_id: id, name: tool.name, content: "", status: "success" }), result);
}

/** The content of `message`: the parts (and their text) when the value is content parts, else the value's text. */
function withContent(message: ToolMessage, value: unknown): ToolMessage {
  const parts = contentParts(value);
  if (parts) {
    message.parts = parts;
    message.content = partsText(parts);
  } else {
    message.content = toContent(message.name, value);
  }
  return message;
}

/** The text the model reads for a result: strings as they are, nothing as "", anything else as JSON (result-json.ts). */
function toContent(toolName: string, value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  return resultJson(toolName, value);
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? "" : "s"}`;
  if (value === null || value === undefined) return String(value);
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

function unknownToolError(name: string, valid: string[]): ToolValidationError {
  const what = name === "" ? "The call names no tool." : `${JSON.stringify(truncateName(name))} is not a valid tool.`;
  const list = valid.length > 0 ? `Valid tools: ${valid.join(", ")}.` : "No tools are registered.";
  return new ToolValidationError(`${what} ${list}`, { reason: "unknown_tool", toolName: name });
}

function truncateName(name: string): string {
  return name.length <= 100 ? name : `${name.slice(0, 100)}…`;
}
