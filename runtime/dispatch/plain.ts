/**
 * The fast lane: one common call answered with nothing of the full pipeline (pipeline.ts, loaded on first need).
 *
 * A call takes it when its arguments are strict JSON text of an object that needs no copy (no `__proto__` key, no
 * escapes to undo, no number too large, within the size and depth limits), or an object already parsed (Anthropic,
 * Gemini, LangChain) that the full reader's copy accepts, and valid as they came, for a tool that takes no
 * ToolContext, in a run with no hooks, middleware, approval decisions or deadline (the caller checks the run:
 * dispatch.ts for a whole batch, pipeline.ts per call). The steps are the full pipeline's, in the same order,
 * with nothing made that the answer does not need. What the lane cannot finish it hands on without having observed
 * anything:
 * - FULL before the tool ran (anything but the plain case): the full pipeline starts over from the call's text;
 * - a `Ran` once it ran, when the answer is more than a text result within its size (a throw, a promise, any other
 *   value, an artifact, a text that may be over `maxResultBytes`): the full pipeline finishes that answer.
 * Either way the answer is the same as the full pipeline's alone (test/dispatch/fast-lane.test.ts compares them).
 * Also here: the cheap approval check every batch needs, and the test switches of the lane.
 */
import { type ArgsObject, MAX_ARGUMENTS_BYTES, MAX_ARGUMENTS_DEPTH, type ReadResult, readArguments, reviveDates, toPositionalArgs } from "../arguments/args";
import { closedDepth } from "../arguments/closed-schema";
import type { ArgumentsValidator } from "../arguments/validate";
import type { ToolContext } from "../tool/options";
import type { NormalizedCall } from "./call";
import type { DispatchEnvironment, DispatchTool } from "./environment";
import { MAX_RESULT_BYTES } from "./limits";
import { ToolMessage } from "./messages";
import type { RegistryOptions } from "./options";

/** Said by the fast lane when a call needs the full pipeline; nothing of the call has run or been observed yet. */
export const FULL = Symbol("full");

/** How a call the fast lane ran ended, for the full pipeline to answer. */
export type Outcome = typeof SCHEMA | typeof THREW | typeof PENDING | typeof RETURNED;
/**
 * Reading parsed arguments (a getter that throws), or making or running the validator, threw: not the model's fault,
 * a tool failure, as the full pipeline answers it; the tool did not run.
 */
export const SCHEMA = 0;
/** The tool threw. */
export const THREW = 1;
/** The tool returned a promise (or any thenable). */
export const PENDING = 2;
/** The tool returned a value that is more than a plain text result. */
export const RETURNED = 3;

/** A call the fast lane ran (or whose validator failed) and handed on with what came of it. */
export class Ran {
  constructor(
    readonly tool: DispatchTool,
    readonly args: ArgsObject | undefined,
    readonly outcome: Outcome,
    readonly value: unknown,
  ) {}
}

/**
 * What the fast lane needs of one tool: the same for every call, so worked out once per tool, and one shape for all
 * tools, so reading it stays as cheap in an app of many tools as in an app of one (each tool's `meta` is an object
 * literal of its own shape).
 */
interface PlainSettings {
  /** The tool takes a ToolContext (`meta.inject`): the full pipeline answers its calls. */
  readonly inject: boolean;
  /** Dates or URLs to revive in the arguments (`meta.dates`, `meta.urls`). */
  readonly revive: boolean;
  /** Also the limits of the reader of parsed arguments (these settings are its options: `readArguments`). */
  readonly maxBytes: number;
  readonly maxDepth: number;
  readonly maxResultBytes: number;
  /** `responseFormat: "content_and_artifact"`: the result is a pair, answered by the full pipeline. */
  readonly artifact: boolean;
  /** The parameters by position (`meta.params`), or undefined for a flattened tool (arguments/args.ts maps those). */
  readonly params: readonly string[] | undefined;
  /** `tool.invoker`, read once. */
  readonly fn: (...args: unknown[]) => unknown;
  /**
   * Whether parsed arguments need `plainJson`'s walk: not when the tool's own compiled validator refuses everything
   * the walk would (closed-schema.ts), since a refused call goes to the full pipeline either way.
   */
  readonly walk: boolean;
  /**
   * The tool's "valid or not" check once its validator is made: the compiled one itself, without the two calls in
   * between (`tool.validator().valid`). Undefined until the first call makes it (making it may throw).
   */
  check: ((args: unknown) => boolean) | undefined;
}

function settingsOf(tool: DispatchTool, registry: Readonly<RegistryOptions>): PlainSettings {
  const own = tool.options;
  const meta = tool.meta;
  const maxDepth = own.maxArgumentsDepth ?? registry.maxArgumentsDepth ?? MAX_ARGUMENTS_DEPTH;
  const maxBytes = own.maxArgumentsBytes ?? registry.maxArgumentsBytes ?? MAX_ARGUMENTS_BYTES;
  const depth = meta.validator === undefined ? undefined : closedDepth(meta.parameters);
  const settings: PlainSettings = {
    inject: Boolean(meta.inject),
    revive: meta.dates !== undefined || meta.urls !== undefined,
    maxBytes,
    maxDepth,
    maxResultBytes: own.maxResultBytes ?? registry.maxResultBytes ?? MAX_RESULT_BYTES,
    artifact: own.responseFormat === "content_and_artifact",
    params: meta.flatten ? undefined : meta.params,
    fn: tool.invoker,
    walk: walkAlways || depth === undefined || depth > maxDepth,
    check: undefined,
  };
  tool.fastLane = settings;
  return settings;
}

/**
 * Calls a tool that takes no ToolContext with each parameter's argument by name, as arguments/args.ts
 * `toPositionalArgs` maps them (which flattened tools take), without looking up its plan. Up to three parameters
 * it passes them one by one, with no array in between; the function sees the same arguments either way (as many
 * as it has parameters, a missing one undefined). Each argument is an own property or undefined (see `own`),
 * tested in line: a call of `own` per argument cost about a tenth of a ten-call message (bench/dispatch.ts). A
 * fourth arm would take this function past the bytecode size V8 inlines (460 bytes in TurboFan), and every call
 * would then pay for a call of it.
 */
function callTool(tool: DispatchTool, args: ArgsObject, settings: PlainSettings): unknown {
  const params = settings.params;
  if (params === undefined) return tool.call(toPositionalArgs(args, tool.meta, noContext));
  const fn = settings.fn;
  switch (params.length) {
    case 0:
      return fn();
    case 1:
      return fn(hasOwn.call(args, params[0]!) ? args[params[0]!] : undefined);
    case 2:
      return fn(hasOwn.call(args, params[0]!) ? args[params[0]!] : undefined, hasOwn.call(args, params[1]!) ? args[params[1]!] : undefined);
    case 3:
      return fn(
        hasOwn.call(args, params[0]!) ? args[params[0]!] : undefined,
        hasOwn.call(args, params[1]!) ? args[params[1]!] : undefined,
        hasOwn.call(args, params[2]!) ? args[params[2]!] : undefined,
      );
  }
  const values: unknown[] = new Array(params.length);
  for (let i = 0; i < params.length; i++) values[i] = own(args, params[i]!);
  return tool.call(values);
}

/** The compiled validator, called as it is; ajv's (hand-written schemas) through `valid`, which resets its budget. */
function checkOf(validator: ArgumentsValidator): (args: unknown) => boolean {
  return validator.kit ?? ((args) => validator.valid(args));
}

const hasOwn = Object.prototype.hasOwnProperty;

/** An argument only if the model sent it: never a value every object inherits (a polluted `Object.prototype`). */
function own(args: ArgsObject, name: string): unknown {
  return hasOwn.call(args, name) ? args[name] : undefined;
}

/** Off only in tests (setFastLane), to run the same calls through the full pipeline and compare the answers. */
let fastLane = true;

/** On only in tests (setPlainWalk), to check that skipping the walk for closed schemas changes no answer. */
let walkAlways = false;

/** Calls the fast lane answered (or ran and handed on), for tests that check it was taken. */
let fastAnswers = 0;

/** Tests only: whether dispatch may take the fast lane. Returns the previous setting. */
export function setFastLane(on: boolean): boolean {
  const previous = fastLane;
  fastLane = on;
  return previous;
}

/**
 * Tests only: whether the fast lane walks parsed arguments even for a closed schema (tools whose settings are worked
 * out afterwards). Returns the previous setting.
 */
export function setPlainWalk(always: boolean): boolean {
  const previous = walkAlways;
  walkAlways = always;
  return previous;
}

/** Tests only: how many calls the fast lane has taken so far. */
export function fastLaneCount(): number {
  return fastAnswers;
}

/** Whether the fast lane is on (tests switch it off). */
export function fastLaneOn(): boolean {
  return fastLane;
}

/**
 * The fast lane for one call of a run that allows it, with `idLimit` the run's `maxCallIdLength`: its ToolMessage,
 * a `Ran` for the full pipeline to finish, or FULL.
 */
export function answerPlain(env: DispatchEnvironment, call: NormalizedCall, idLimit: number): ToolMessage | Ran | typeof FULL {
  switch (call.kind) {
    case "text":
      return answerCall(env, call.id, call.name, call.text, undefined, idLimit);
    case "args":
      return answerCall(env, call.id, call.name, undefined, call.args, idLimit);
    default:
      return FULL;
  }
}

/**
 * `answerPlain` for a call given its id and tool name, with its arguments as JSON text (`text`) or, when `text` is
 * undefined, as a value that came parsed (`value`: an Anthropic `input`, Gemini `args`, a LangChain ToolCall's
 * `args`); also what a provider that reads its own calls without making NormalizedCalls (providers/openai-chat/
 * lane.ts) calls.
 *
 * A parsed value is read as the full pipeline reads it, by `readArguments`: a copy without `__proto__` keys, within
 * the depth and estimated size limits, with no number that is not finite. What that reader refuses goes to the full
 * pipeline, which reads the value again to say why: for data, which providers hand over, that changes nothing (an
 * object with getters would have them run twice). One function for both kinds of arguments rather than a shared
 * tail: the call between reading and the rest cost a one-call chat dispatch about 3% (bench/dispatch.ts).
 */
export function answerCall(env: DispatchEnvironment, id: string, name: string, text: string | undefined, value: unknown, idLimit: number): ToolMessage | Ran | typeof FULL {
  const tool = env.get(name);
  if (tool === undefined || id.length > idLimit) return FULL;
  const settings = (tool.fastLane as PlainSettings | undefined) ?? settingsOf(tool, env.options);
  if (settings.inject) return FULL;
  let args: ArgsObject;
  if (text !== undefined) {
    // Text the full reader would measure, trim, repair or copy goes there: "{" first, and short enough to decide by length.
    if (text.charCodeAt(0) !== 0x7b || text.length * 3 > settings.maxBytes) return FULL;
    try {
      args = JSON.parse(text) as ArgsObject;
      if (settings.walk && !plainJson(args, 1, settings.maxDepth)) return FULL;
    } catch {
      return FULL;
    }
  } else {
    // Text where the object belongs (some gateways pass arguments on unparsed) is the full pipeline's to read or repair.
    if (typeof value === "string") return FULL;
    let read: ReadResult;
    try {
      read = readArguments(value, settings);
    } catch (error) {
      // A getter or proxy that throws while the value is copied: the full pipeline answers that as a tool failure.
      fastAnswers++;
      return new Ran(tool, undefined, SCHEMA, error);
    }
    if (!read.ok) return FULL;
    args = read.args;
  }
  let valid: boolean;
  try {
    const check = settings.check ?? (settings.check = checkOf(tool.validator()));
    valid = check(args);
  } catch (error) {
    fastAnswers++;
    return new Ran(tool, undefined, SCHEMA, error);
  }
  if (!valid) return FULL;
  // From here on the lane answers the call or hands on what came of running it.
  fastAnswers++;
  if (settings.revive) reviveDates(args, tool.meta.dates, tool.meta.urls);
  let result: unknown;
  try {
    result = callTool(tool, args, settings);
    if (isThenable(result)) return new Ran(tool, args, PENDING, result);
  } catch (error) {
    return new Ran(tool, args, THREW, error);
  }
  // Text, the most common result, is its own content; within a third of the limit its UTF-8 needs no counting.
  if (typeof result !== "string" || settings.artifact || result.length * 3 > settings.maxResultBytes) return new Ran(tool, args, RETURNED, result);
  return new ToolMessage({ tool_call_id: id, name: tool.name, content: result, status: "success" });
}

/**
 * Whether parsed JSON is as the full reader would leave it: no `__proto__` key (the reader copies the value without
 * it), no number too large for a double (refused), nothing nested deeper than `maxDepth` (refused). One walk that
 * allocates nothing, in place of the reader's text searches.
 */
function plainJson(value: unknown, depth: number, maxDepth: number): boolean {
  if (typeof value !== "object" || value === null) return typeof value !== "number" || Number.isFinite(value);
  if (depth > maxDepth) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!plainJson(value[i], depth + 1, maxDepth)) return false;
    return true;
  }
  for (const key in value) {
    if (key === "__proto__" || !plainJson((value as Record<string, unknown>)[key], depth + 1, maxDepth)) return false;
  }
  return true;
}

export function noContext(): ToolContext {
  throw new Error("tooltype: a ToolContext was asked for by a tool whose metadata injects none.");
}

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === "object" || typeof value === "function") && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/** Whether any call names a tool that may need approval (cheap: no arguments are read). */
export function mayNeedApproval(env: DispatchEnvironment, calls: readonly NormalizedCall[]): boolean {
  if (env.approvals === false) return false;
  for (let i = 0; i < calls.length; i++) {
    const flag = env.get(calls[i]!.name)?.options.needsApproval;
    if (flag !== undefined && flag !== false) return true;
  }
  return false;
}
