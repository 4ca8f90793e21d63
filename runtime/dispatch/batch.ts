/**
 * Answering the calls of one assistant message that is not a plain run (dispatch.ts answers a plain batch itself,
 * and hands the rest of it here when a call goes on to a stage's continuation): each call goes through the same
 * composition (pipeline.ts, then continue-call.ts), exactly one ToolMessage per call, in call order.
 *
 * - Calls run concurrently, at most `maxConcurrency` at a time (dispatch's, else the registry's; default all).
 * - `timeoutMs` of the dispatch is one deadline for all its calls; each tool's own `timeoutMs` applies within it.
 * - The caller's `signal` aborts every running call and rejects with its reason; calls still waiting never start.
 * - A handler that rethrows (`handleToolError: false`, …) rejects dispatch with that error and aborts the rest.
 * - Only the first `maxCallsPerMessage` calls run (default 64); each later one is answered with the limit.
 * - A call that needs a human's approval (approval.ts) stops the batch before anything runs: ApprovalRequiredError,
 *   unless the batch is being resumed with its decisions (`rejections`).
 */
import type { ToolValidationError } from "../tool/errors";
import { ApprovalRequiredError } from "./approval-error";
import { findPending } from "./approval";
import type { NormalizedCall } from "./call";
import { CallState } from "./call-state";
import { answerInRun, continueCall } from "./continue-call";
import { type DispatchRun, createRun, isPlainRun } from "./dispatch-run";
import type { DispatchEnvironment } from "./environment";
import { validationText } from "./error-text";
import { mayNeedApproval } from "./find";
import { callHooks } from "./hooks";
import type { Later } from "./later";
import type { ToolMessage } from "./messages";
import type { DispatchOptions } from "./options";
import { callIdCap, callsCap, concurrencyCap } from "./settings";
import { tooManyCallsError } from "./limit-errors";

/** dispatch.ts `dispatchCalls` for a batch that is not a plain run: the whole batch here. */
export function answerBatch(
  env: DispatchEnvironment,
  calls: NormalizedCall[],
  options: DispatchOptions,
  rejections?: readonly (string | undefined)[],
  edits?: readonly (Record<string, unknown> | undefined)[],
): Promise<ToolMessage[]> {
  if (rejections === undefined && mayNeedApproval(env, calls)) return afterApproval(env, calls, options);
  let limit: number;
  let cap: number;
  try {
    options.signal?.throwIfAborted();
    limit = concurrencyCap(env, options);
    cap = callsCap(env, options);
  } catch (error) {
    return Promise.reject(error);
  }
  const run = createRun(options);
  if (rejections !== undefined && rejections.length > 0) run.rejections = rejections;
  if (edits !== undefined) run.edits = edits;
  let answers: ToolMessage[] | Promise<ToolMessage[]>;
  try {
    const refused = calls.length > cap ? refuseBeyond(env, calls, run, cap) : undefined;
    const running = refused ? calls.slice(0, cap) : calls;
    if (running.length > 0) run.idLimit = callIdCap(env, options);
    run.plain = isPlainRun(env, run);
    answers = limit >= running.length ? answerAll(env, running, run) : answerWithLimit(env, running, run, limit);
    if (refused) answers = withRefused(answers, refused);
  } catch (error) {
    return Promise.reject(giveUp(run, error));
  }
  return whenAnswered(run, answers);
}

/**
 * The rest of a plain batch dispatch.ts began: the calls before `from` are answered (`answers`), call `from` goes on
 * from the stage it reached (`first`). The batch passed every check of the whole batch already (approval, limits, no
 * hooks or middleware, no deadline), so it goes on as answerBatch would, as a plain run with the same `idLimit`.
 */
export function continueBatch(
  env: DispatchEnvironment,
  calls: NormalizedCall[],
  options: DispatchOptions,
  idLimit: number,
  from: number,
  answers: ToolMessage[],
  first: Later,
): Promise<ToolMessage[]> {
  const run = createRun(options);
  run.plain = true;
  run.idLimit = idLimit;
  let done: ToolMessage[] | Promise<ToolMessage[]>;
  try {
    done = answerAll(env, calls, run, from, answers, first);
  } catch (error) {
    return Promise.reject(giveUp(run, error));
  }
  return whenAnswered(run, done);
}

function whenAnswered(run: DispatchRun, answers: ToolMessage[] | Promise<ToolMessage[]>): Promise<ToolMessage[]> {
  if (!(answers instanceof Promise)) {
    run.close();
    return Promise.resolve(answers);
  }
  return closeWhenDone(run, answers);
}

// The continuations of answerBatch live apart from it: a closure there would make every dispatch allocate the
// variables it captures, although most dispatches answer at once and need none of them.

/** The batch once no call of it needs approval (else ApprovalRequiredError). */
function afterApproval(
  env: DispatchEnvironment,
  calls: NormalizedCall[],
  options: DispatchOptions,
): Promise<ToolMessage[]> {
  return findPending(env, calls, options).then((pending) => {
    if (pending.length > 0) throw new ApprovalRequiredError(pending);
    return answerBatch(env, calls, options, []);
  });
}

function withRefused(
  answers: ToolMessage[] | Promise<ToolMessage[]>,
  refused: ToolMessage[],
): ToolMessage[] | Promise<ToolMessage[]> {
  return answers instanceof Promise ? answers.then((done) => done.concat(refused)) : answers.concat(refused);
}

function closeWhenDone(run: DispatchRun, answers: Promise<ToolMessage[]>): Promise<ToolMessage[]> {
  return answers.then(
    (done) => {
      run.close();
      return done;
    },
    (error: unknown) => {
      throw giveUp(run, error);
    },
  );
}

/**
 * The answers to the calls past the first `cap` of a reply, made before any call runs: a handler that rethrows on
 * them rejects dispatch with nothing started.
 */
function refuseBeyond(env: DispatchEnvironment, calls: NormalizedCall[], run: DispatchRun, cap: number): ToolMessage[] {
  return refuseEach(env, calls.slice(cap), run, calls.length, cap);
}

function refuseEach(
  env: DispatchEnvironment,
  calls: NormalizedCall[],
  run: DispatchRun,
  total: number,
  cap: number,
): ToolMessage[] {
  return calls.map((call) => answerRefused(env, call, run, tooManyCallsError(call.name, total, cap)));
}

/**
 * For a reply whose calls were run one by one as they streamed in: answer `calls`, the ones past the cap, with the
 * same limit text dispatch gives a whole reply of `total` calls. Nothing runs; a handler that rethrows rejects.
 */
export function refuseBeyondCap(
  env: DispatchEnvironment,
  calls: NormalizedCall[],
  options: DispatchOptions,
  total: number,
): Promise<ToolMessage[]> {
  const run = createRun(options);
  try {
    return Promise.resolve(refuseEach(env, calls, run, total, callsCap(env, options)));
  } catch (error) {
    return Promise.reject(error);
  } finally {
    run.close();
  }
}

/** Dispatch gives up: no one will read the other answers, so stop the calls still running. */
function giveUp(run: DispatchRun, error: unknown): unknown {
  run.abort(error);
  run.close();
  return error;
}

/** At most `limit` calls running at once; each worker takes the next call when its last one is answered. */
async function answerWithLimit(
  env: DispatchEnvironment,
  calls: NormalizedCall[],
  run: DispatchRun,
  limit: number,
): Promise<ToolMessage[]> {
  const answers: ToolMessage[] = new Array(calls.length);
  let next = 0;
  let stopped = false;
  const worker = async (): Promise<void> => {
    while (!stopped && next < calls.length) {
      const index = next++;
      try {
        answers[index] = await answerInRun(env, calls[index]!, run, index);
      } catch (error) {
        stopped = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return answers;
}

function ignore(): void {}

/**
 * Answer calls on `run` concurrently: synchronously where every tool returned a plain value. dispatch.ts may have
 * answered the calls before `from` already (`answers`) and handed on call `from` at the stage it reached (`first`).
 */
function answerAll(
  env: DispatchEnvironment,
  calls: readonly NormalizedCall[],
  run: DispatchRun,
  from = 0,
  answers: (ToolMessage | Promise<ToolMessage>)[] = new Array(calls.length),
  first?: Later,
): ToolMessage[] | Promise<ToolMessage[]> {
  let pending = false;
  for (let i = from; i < calls.length; i++) {
    let one: ToolMessage | Promise<ToolMessage>;
    try {
      one =
        i !== from || first === undefined
          ? answerInRun(env, calls[i]!, run, i)
          : continueCall(env, calls[i]!, run, i, first);
    } catch (error) {
      // Dispatch rejects with this error; the calls already running will be aborted and reject in turn, with no
      // one left to read them, so their rejections are handled here rather than left to crash the process.
      for (let j = from; j < i; j++)
        if (answers[j] instanceof Promise) (answers[j] as Promise<ToolMessage>).catch(ignore);
      throw error;
    }
    if (one instanceof Promise) pending = true;
    answers[i] = one;
  }
  return pending ? Promise.all(answers) : (answers as ToolMessage[]);
}

/**
 * The answer to a call refused before it is even looked at (a limit of the whole reply, e.g. maxCallsPerMessage):
 * a validation failure, seen by the hooks and the handlers like any other. Throws when the handler rethrows.
 */
function answerRefused(
  env: DispatchEnvironment,
  call: NormalizedCall,
  run: DispatchRun,
  error: ToolValidationError,
): ToolMessage {
  const tool = env.get(call.name);
  const state = new CallState(call, tool, run, callHooks(env.options, run.options));
  state.begin();
  return state.failure(
    "validation",
    tool?.options.handleValidationError ?? env.options.handleValidationError,
    error,
    validationText,
  );
}
