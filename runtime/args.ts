/**
 * Arguments, from the model's text to the function's parameter list:
 * - read: JSON text or an already-parsed object → a fresh, plain arguments object (or a description of why not);
 * - revive: ISO strings at the `meta.dates` pointers → `Date`;
 * - map: the arguments object → positional arguments, honouring `meta.flatten` and `meta.inject`.
 *
 * Model output is untrusted, so reading bounds its size and depth and drops `__proto__` keys; everything after that
 * works on the copy, never on the caller's message. Lenient JSON repair and schema-guided coercion belong here too.
 * No module state: tests import this file directly.
 */
import type { CompiledToolMeta } from "./meta";
import type { ToolContext } from "./options";

/** Longest arguments text read (characters); longer text is refused before parsing. */
export const MAX_ARGUMENTS_LENGTH = 1_000_000;
/** Deepest nesting of arrays and objects accepted in arguments. */
export const MAX_ARGUMENTS_DEPTH = 64;

export type ArgsObject = Record<string, unknown>;

/** Why arguments could not be read; `detail` is the parser message or the kind of value that arrived. */
export type ArgumentsProblem =
  | { problem: "json"; detail: string; text: string }
  | { problem: "not_object"; detail: string; text: string }
  | { problem: "too_long"; length: number }
  | { problem: "too_deep" };

export type ReadResult = { ok: true; args: ArgsObject } | ({ ok: false } & ArgumentsProblem);

/** Parse arguments text. Empty or blank text means "no arguments" (models send `""` for parameterless tools). */
export function parseArguments(text: string): ReadResult {
  if (text.length > MAX_ARGUMENTS_LENGTH) return { ok: false, problem: "too_long", length: text.length };
  if (text.trim() === "") return { ok: true, args: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: "json", detail: error instanceof Error ? error.message : String(error), text };
  }
  return readArguments(value, text);
}

/** Check and copy an already-parsed arguments value (LangChain `args`, `invoke(name, {...})`). */
export function readArguments(value: unknown, text?: string): ReadResult {
  if (value === undefined) return { ok: true, args: {} };
  if (!isPlainObject(value)) {
    return { ok: false, problem: "not_object", detail: kindOf(value), text: text ?? shortJson(value, 200) };
  }
  const copy = copyJson(value, 1);
  if (copy === TOO_DEEP) return { ok: false, problem: "too_deep" };
  return { ok: true, args: copy as ArgsObject };
}

/** The model-facing sentence(s) for an unreadable arguments value, ending with what to do. */
export function describeArgumentsProblem(toolName: string, failure: ArgumentsProblem): string {
  const again = `Call ${toolName} again with the arguments as one JSON object.`;
  switch (failure.problem) {
    case "json":
      return `invalid JSON in the arguments for ${toolName}: ${failure.detail}\nArguments received: ${truncate(failure.text, 200)}\n${again}`;
    case "not_object":
      return `the arguments for ${toolName} must be a JSON object, got ${failure.detail}: ${truncate(failure.text, 200)}\n${again}`;
    case "too_long":
      return `the arguments for ${toolName} are too long (${failure.length} characters; at most ${MAX_ARGUMENTS_LENGTH} are read).`;
    case "too_deep":
      return `the arguments for ${toolName} are nested too deeply (more than ${MAX_ARGUMENTS_DEPTH} levels).`;
  }
}

/**
 * Replace ISO date strings by `Date`s at each pointer. Pointers are relative to the arguments object; a `*` segment
 * means every item of an array or every value of an object. Missing paths and non-strings are left alone: optional
 * and nullable dates simply have nothing to revive.
 */
export function reviveDates(args: ArgsObject, pointers: readonly string[] | undefined): void {
  if (!pointers) return;
  for (const pointer of pointers) {
    const segments = pointer === "" ? [] : pointer.split("/").slice(1).map(unescapeSegment);
    if (segments.length > 0) reviveAt(args, segments, 0);
  }
}

function reviveAt(container: unknown, segments: string[], index: number): void {
  if (typeof container !== "object" || container === null) return;
  const segment = segments[index]!;
  const last = index === segments.length - 1;
  const keys =
    segment === "*"
      ? Array.isArray(container)
        ? container.map((_, i) => String(i))
        : Object.keys(container)
      : Object.prototype.hasOwnProperty.call(container, segment)
        ? [segment]
        : [];
  const record = container as Record<string, unknown>;
  for (const key of keys) {
    const value = record[key];
    if (!last) {
      reviveAt(value, segments, index + 1);
    } else if (typeof value === "string") {
      const date = new Date(value);
      // Validation has checked the format already; an unparsable string stays a string rather than an Invalid Date.
      if (!Number.isNaN(date.getTime())) record[key] = date;
    }
  }
}

function unescapeSegment(segment: string): string {
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}

/**
 * The function's positional arguments. `meta.inject` holds parameter positions; without `flatten`, `meta.params`
 * names every parameter in order (injected ones included). A flattened tool takes the whole arguments object at its
 * first non-injected position (its `params` are the object's properties, not positions). Absent arguments stay
 * `undefined` so the function's own defaults apply.
 */
export function toPositionalArgs(args: ArgsObject, meta: CompiledToolMeta, context: () => ToolContext): unknown[] {
  const inject = new Set(meta.inject ?? []);
  const firstFree = firstNonInjected(inject);
  let count = meta.flatten ? firstFree + 1 : meta.params.length;
  for (const position of inject) count = Math.max(count, position + 1);

  const positional: unknown[] = new Array(count);
  let shared: ToolContext | undefined;
  for (let i = 0; i < count; i++) {
    if (inject.has(i)) {
      positional[i] = shared ??= context();
    } else if (meta.flatten) {
      positional[i] = i === firstFree ? args : undefined;
    } else {
      const name = meta.params[i];
      positional[i] = name !== undefined && Object.prototype.hasOwnProperty.call(args, name) ? args[name] : undefined;
    }
  }
  return positional;
}

/** Names of the arguments the model fills, in order: the non-injected parameters, or a flattened object's properties. */
export function modelParams(meta: CompiledToolMeta): string[] {
  if (meta.flatten) {
    const properties = meta.parameters.properties;
    return typeof properties === "object" && properties !== null && !Array.isArray(properties) ? Object.keys(properties) : [];
  }
  const inject = new Set(meta.inject ?? []);
  return meta.params.filter((_, i) => !inject.has(i));
}

function firstNonInjected(inject: Set<number>): number {
  let i = 0;
  while (inject.has(i)) i++;
  return i;
}

const TOO_DEEP = Symbol("too deep");

/**
 * A fresh copy of plain JSON data: arrays and plain objects are copied, `__proto__` keys dropped (so no later
 * assignment can reach a prototype), other values kept as they are.
 */
function copyJson(value: unknown, depth: number): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    if (depth > MAX_ARGUMENTS_DEPTH) return TOO_DEEP;
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const item = copyJson(value[i], depth + 1);
      if (item === TOO_DEEP) return TOO_DEEP;
      out[i] = item;
    }
    return out;
  }
  if (!isPlainObject(value)) return value;
  if (depth > MAX_ARGUMENTS_DEPTH) return TOO_DEEP;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key === "__proto__") continue;
    const item = copyJson(value[key], depth + 1);
    if (item === TOO_DEEP) return TOO_DEEP;
    out[key] = item;
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "boolean":
      return "a boolean";
    default:
      return typeof value === "object" ? "an object of another kind" : `a ${typeof value}`;
  }
}

/** Text cut to `max` characters, marking the cut so the model does not take it for what it sent. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** Short JSON of a value for messages; values JSON cannot write are named instead. */
export function shortJson(value: unknown, max = 80): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  if (text === undefined) text = typeof value === "bigint" ? `${value}n` : `(${typeof value})`;
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
