/**
 * The dispatch pipeline: every call of every provider, once the provider has read it into a NormalizedCall, is
 * answered by `answerCall`, one ToolMessage per call. Its stages, in order:
 *
 *   find the tool, check the call id → read the arguments → validate → revive dates and URLs → call → the answer
 *
 * A stage a call does not use costs it nothing. What most calls never need is pipeline.ts's, the pipeline's later
 * stages, loaded on first need (full.ts): the full reader of arguments text (measured, trimmed, repaired, copied),
 * the failure path (coercion, the texts of errors), hooks, middleware, approval decisions, deadlines and time limits,
 * a ToolContext, promises, rich results. A call that needs one of them leaves here as a `Handed`: the stage it
 * reached with what it has (the tool, the arguments as read, what the tool returned), and pipeline.ts `finishCall`
 * goes on from that stage. Nothing of a call is read, validated or run twice.
 *
 * A call is answered here from start to end when its arguments are strict JSON text of an object that needs no copy
 * (no `__proto__` key, no number too large, within the size and depth limits) or an object already parsed (Anthropic,
 * Gemini, LangChain) that the reader's copy accepts, valid as they came, for a tool that takes no ToolContext, in a
 * run with no hooks, middleware, approval decisions or deadline (`CallRun.plain`), and its tool returns text within
 * its size. Also here: the cheap approval check every batch needs.
 */
import { type ArgsObject, MAX_ARGUMENTS_BYTES, MAX_ARGUMENTS_DEPTH, type ReadResult, readArguments, reviveDates, toPositionalArgs } from "../arguments/args";
import { closedDepth } from "../arguments/closed-schema";
import type { ArgumentsValidator } from "../arguments/validate";
import type { ToolContext } from "../tool/options";
import type { NormalizedCall } from "./call";
import type { CallRun, DispatchEnvironment, DispatchTool, ToolCache, ToolSettings } from "./environment";
import { MAX_RESULT_BYTES } from "./limits";
import { ToolMessage } from "./messages";
import type { RegistryOptions } from "./options";

/** The stage at which a call left `answerCall`, for the later stages (pipeline.ts `finishCall`) to go on from. */
export type Stage =
  | typeof ABORTED
  | typeof UNFOUND
  | typeof UNREAD
  | typeof REFUSED
  | typeof BROKEN
  | typeof VALID
  | typeof THREW
  | typeof PENDING
  | typeof RETURNED;
/** The run was aborted before the call began. */
export const ABORTED = 0;
/** No tool of that name, or a call id over the limit; nothing was read. */
export const UNFOUND = 1;
/** The tool was found; the arguments need the full reader (text to measure, trim, repair or copy; a call the provider marked invalid). */
export const UNREAD = 2;
/** Read, but not as the tool takes them: `value` is the ReadResult (a problem, or arguments that failed validation). */
export const REFUSED = 3;
/** Reading the arguments (a getter that throws), or making or running the validator, threw `value`: a tool failure. */
export const BROKEN = 4;
/** Valid, dates revived: the run (hooks, middleware, approval decisions, a deadline) or the tool (a ToolContext) needs the later stages to call it. */
export const VALID = 5;
/** The tool threw `value`. */
export const THREW = 6;
/** The tool returned a promise (or any thenable), `value`. */
export const PENDING = 7;
/** The tool returned `value`, more than a text result within its size (or the tool answers content and artifact). */
export const RETURNED = 8;

/** A call that left `answerCall` at `stage`, with what it had by then. */
export class Handed {
  constructor(
    readonly stage: Stage,
    readonly tool: DispatchTool | undefined,
    readonly args: ArgsObject | undefined,
    readonly value: unknown,
  ) {}
}

/** A tool's limits on its arguments: its own, else the registry's, else the defaults. */
export function argumentLimits(tool: DispatchTool | undefined, registry: Readonly<RegistryOptions>): { maxBytes: number; maxDepth: number } {
  const own = tool?.options;
  return {
    maxBytes: own?.maxArgumentsBytes ?? registry.maxArgumentsBytes ?? MAX_ARGUMENTS_BYTES,
    maxDepth: own?.maxArgumentsDepth ?? registry.maxArgumentsDepth ?? MAX_ARGUMENTS_DEPTH,
  };
}

function settingsOf(tool: DispatchTool, registry: Readonly<RegistryOptions>, tools: ToolCache): ToolSettings {
  const own = tool.options;
  const meta = tool.meta;
  const { maxBytes, maxDepth } = argumentLimits(tool, registry);
  const depth = meta.validator === undefined ? undefined : closedDepth(meta.parameters);
  const settings: ToolSettings = {
    tool,
    inject: Boolean(meta.inject),
    revive: meta.dates !== undefined || meta.urls !== undefined,
    maxBytes,
    maxDepth,
    maxResultBytes: own.maxResultBytes ?? registry.maxResultBytes ?? MAX_RESULT_BYTES,
    handsResult: own.responseFormat === "content_and_artifact" || checksResults(tool, registry),
    params: meta.flatten ? undefined : meta.params,
    fn: tool.invoker,
    walk: walkAlways || depth === undefined || depth > maxDepth,
    check: undefined,
  };
  tools.set(tool.name, settings);
  return settings;
}

/**
 * Whether the results of `tool` are checked against its declared return type: its `checkResults` option, else the
 * registry's, else on where `NODE_ENV` is `"test"` (Jest and Vitest set it); never for a tool without a return schema.
 */
export function checksResults(tool: DispatchTool, registry: Readonly<RegistryOptions>): boolean {
  if (tool.meta.returns === undefined) return false;
  return tool.options.checkResults ?? registry.checkResults ?? (typeof process !== "undefined" && process.env?.NODE_ENV === "test");
}

/** On only in tests (setReadAllInFull): every call's arguments go to the full reader, as text this file does not read does. */
let readAllInFull = false;

/** Calls `answerCall` began, for tests that check which calls go through it (one module-level count, no cost to speak of). */
let answered = 0;

/**
 * The one pipeline's answer to `call`: its ToolMessage when the stages here answer it, else the `Handed` call for
 * the later stages (pipeline.ts `finishCall`). Never throws: what throws inside is handed on as a failure to answer.
 * Reading both kinds of arguments in this one function rather than in a shared tail: the call between reading and
 * the rest cost a one-call chat dispatch about 3% (bench/dispatch.ts).
 */
export function answerCall(env: DispatchEnvironment, call: NormalizedCall, run: CallRun): ToolMessage | Handed {
  answered++;
  if (run.aborted) return new Handed(ABORTED, undefined, undefined, undefined);
  const tools = env.tools;
  let settings = tools.get(call.name);
  if (settings === undefined) {
    const found = env.get(call.name);
    if (found === undefined) return new Handed(UNFOUND, undefined, undefined, undefined);
    settings = settingsOf(found, env.options, tools);
  }
  const tool = settings.tool;
  if (call.id.length > run.idLimit) return new Handed(UNFOUND, tool, undefined, undefined);
  if (readAllInFull) return new Handed(UNREAD, tool, undefined, undefined);
  let args: ArgsObject;
  let read: ReadResult | undefined;
  if (call.kind === "text") {
    const text = call.text;
    // Text the full reader would measure, trim, repair or copy goes there: "{" first, and short enough to decide by length.
    if (text.charCodeAt(0) !== 0x7b || text.length * 3 > settings.maxBytes) return new Handed(UNREAD, tool, undefined, undefined);
    try {
      args = JSON.parse(text) as ArgsObject;
    } catch {
      return new Handed(UNREAD, tool, undefined, undefined);
    }
    if (settings.walk && !plainJson(args, 1, settings.maxDepth)) return new Handed(UNREAD, tool, undefined, undefined);
  } else if (call.kind === "args") {
    const value = call.args;
    // Text where the object belongs (some gateways pass arguments on unparsed) is the full reader's.
    if (typeof value === "string") return new Handed(UNREAD, tool, undefined, undefined);
    try {
      read = readArguments(value, settings);
    } catch (error) {
      // A getter or proxy that throws while the value is copied: answered as a tool failure.
      return new Handed(BROKEN, tool, undefined, error);
    }
    if (!read.ok) return new Handed(REFUSED, tool, undefined, read);
    args = read.args;
  } else {
    return new Handed(UNREAD, tool, undefined, undefined);
  }
  let valid: boolean;
  try {
    const check = settings.check ?? (settings.check = checkOf(tool.validator()));
    valid = check(args);
  } catch (error) {
    return new Handed(BROKEN, tool, undefined, error);
  }
  if (!valid) {
    // Text whose walk was skipped because the validator refuses what it would find: what it finds is the full
    // reader's to clean (a `__proto__` key dropped, a number too large refused), not the failure path's to describe.
    if (read === undefined && !settings.walk && !plainJson(args, 1, settings.maxDepth)) return new Handed(UNREAD, tool, undefined, undefined);
    return new Handed(REFUSED, tool, undefined, read ?? { ok: true, args });
  }
  if (settings.revive) reviveDates(args, tool.meta.dates, tool.meta.urls);
  if (!run.plain || settings.inject) return new Handed(VALID, tool, args, undefined);
  let result: unknown;
  try {
    result = callTool(tool, args, settings);
    if (isThenable(result)) return new Handed(PENDING, tool, args, result);
  } catch (error) {
    return new Handed(THREW, tool, args, error);
  }
  // Text, the most common result, is its own content; within a third of the limit its UTF-8 needs no counting.
  if (typeof result !== "string" || settings.handsResult || result.length * 3 > settings.maxResultBytes) return new Handed(RETURNED, tool, args, result);
  return new ToolMessage({ tool_call_id: call.id, name: tool.name, content: result, status: "success" });
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
function callTool(tool: DispatchTool, args: ArgsObject, settings: ToolSettings): unknown {
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

/** On only in tests (setWalkAlways), to check that skipping the walk for closed schemas changes no answer. */
let walkAlways = false;

/**
 * Tests only: whether reading walks parsed arguments even for a closed schema (tools whose settings are worked out
 * afterwards). Returns the previous setting.
 */
export function setWalkAlways(always: boolean): boolean {
  const previous = walkAlways;
  walkAlways = always;
  return previous;
}

/**
 * Tests only: whether every call leaves here once its tool is found, so that the later stages read, validate and
 * call it, to check that both ways through the pipeline give the same answers. Returns the previous setting.
 */
export function setReadAllInFull(on: boolean): boolean {
  const previous = readAllInFull;
  readAllInFull = on;
  return previous;
}

/** Tests only: how many calls `answerCall` has begun so far. */
export function answerCallCount(): number {
  return answered;
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
