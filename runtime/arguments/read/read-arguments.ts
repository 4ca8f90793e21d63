/**
 * Arguments, from the model's text to the function's parameter list:
 * - read: an already-parsed object (or the value read-text.ts parsed from the model's text) → a fresh, plain
 *   arguments object (or a description of why not), bounded in size and depth, `__proto__` keys dropped, numbers
 *   finite (`1e400` parses to Infinity and is refused); a JSON string holding the whole arguments object
 *   (double-stringified) can be unwrapped;
 * - revive: ISO strings at the `meta.dates` pointers → `Date` (a leap second `23:59:60` as the second after
 *   `23:59:59`, as POSIX time and `Date` count it);
 * - map: the arguments object → positional arguments, honouring `meta.flatten` and `meta.inject`.
 *
 * Model output is untrusted, so everything after reading works on the copy, never on the caller's message, and no
 * text the model sent is ever evaluated. Schema-guided coercion is coerce.ts. The words for what cannot be read are
 * parse-arguments.ts's (and show.ts's), which only failures load. No module state: tests import this file directly.
 *
 * The fast forms of the dispatch pipeline's stages (dispatch/read.ts, validate.ts) use this module; reading text is
 * read-text.ts's, which only the read stage's continuation uses. Kept apart because a bundler that splits code
 * (esbuild) puts all the code a lazily loaded chunk uses of a
 * module that the entry imports into a chunk loaded on start: text reading here would ship with every small bundle.
 */
import { type JsonBounds, readJson } from "./bounded-json";
import type { Coercion } from "../repair/coercion";
import type { CompiledToolMeta } from "../../tool/meta";
import type { ToolContext } from "../../tool/options";
import type { RepairKind } from "../repair/repair-json";

/** Default limit on arguments text: 1 MiB of UTF-8. Longer text is refused before parsing. */
export const MAX_ARGUMENTS_BYTES = 1_048_576;
/** Default limit on the nesting of arrays and objects in arguments (the arguments object itself is level 1). */
export const MAX_ARGUMENTS_DEPTH = 64;

export type ArgsObject = Record<string, unknown>;

/** How to read arguments; every field has a default. */
export interface ReadOptions {
  /** Accept the unambiguous slips that repair-json.ts lists (default `true`). */
  repair?: boolean;
  /** Read a JSON string that holds an object as that object (double-stringified arguments; default `false`). */
  unwrapString?: boolean;
  /** Largest arguments text in UTF-8 bytes; for already-parsed arguments, their size as JSON, estimated. */
  maxBytes?: number;
  /** Deepest nesting of arrays and objects. */
  maxDepth?: number;
}

/** Why arguments could not be read; `detail` is the parser message or the kind of value that arrived. */
export type ArgumentsProblem =
  | { problem: "json"; detail: string; text: string }
  /** `value`: what arrived instead, described only when a message needs it (parse-arguments.ts); `text`: the text it was read from. */
  | { problem: "not_object"; value: unknown; text?: string }
  /** `bytes` is the text's size; absent for already-parsed arguments, whose size is only estimated. */
  | { problem: "too_long"; bytes?: number; limit: number }
  | { problem: "too_deep"; limit: number }
  /** A number JSON parsing made Infinity (`1e400`), or a caller's NaN or Infinity; `path` is its JSON pointer. */
  | { problem: "not_finite"; path: string };

export type ReadResult =
  | {
      ok: true;
      args: ArgsObject;
      /** Slips repaired in the text (present only when there were some). */
      repairs?: RepairKind[];
      /** The arguments arrived as a JSON string and were unwrapped (present only then). */
      coercions?: Coercion[];
    }
  | ({ ok: false } & ArgumentsProblem);

/** Check and copy an already-parsed arguments value (LangChain `args`, `invoke(name, {...})`). */
export function readArguments(value: unknown, options: ReadOptions = {}): ReadResult {
  return readValue(value, undefined, options, true, true);
}

/**
 * `copy`: make a cleaned copy. Values just parsed from text belong to no one else and, without a `__proto__` key,
 * need only their depth checked; values handed in by a caller are always copied, since coercion changes them.
 */
export function readValue(
  value: unknown,
  text: string | undefined,
  options: ReadOptions,
  estimateSize: boolean,
  copy: boolean,
): ReadResult {
  if (value === undefined) return { ok: true, args: {} };
  const maxDepth = options.maxDepth ?? MAX_ARGUMENTS_DEPTH;
  const maxBytes = options.maxBytes ?? MAX_ARGUMENTS_BYTES;
  let coercions: Coercion[] | undefined;
  if (typeof value === "string" && options.unwrapString) {
    const inner = parseJsonObject(value, { maxBytes, maxDepth });
    if (inner !== undefined) {
      coercions = [{ path: "", rule: "json", from: value }];
      value = inner;
    }
  }
  // JSON.parse makes only plain objects, so for freshly parsed text "not an array" is enough.
  const isObject = copy ? isPlainObject(value) : typeof value === "object" && value !== null && !Array.isArray(value);
  if (!isObject) {
    return text === undefined
      ? { ok: false, problem: "not_object", value }
      : { ok: false, problem: "not_object", value, text };
  }
  let args: unknown = value;
  if (copy || coercions) {
    args = copyJson(value, 1, maxDepth, estimateSize ? { left: maxBytes } : undefined);
    if (args === TOO_DEEP) return { ok: false, problem: "too_deep", limit: maxDepth };
    if (args === TOO_LARGE) return { ok: false, problem: "too_long", limit: maxBytes };
    if (args === NOT_FINITE) return { ok: false, problem: "not_finite", path: nonFinitePath(value, "", 0) ?? "" };
  } else if (text !== undefined && text.length > maxDepth && deeperThan(value, 1, maxDepth)) {
    // (Nesting deeper than maxDepth takes more than maxDepth brackets, so shorter text cannot.)
    return { ok: false, problem: "too_deep", limit: maxDepth };
  }
  const read: ReadResult = { ok: true, args: args as ArgsObject };
  if (coercions) read.coercions = coercions;
  return read;
}

/** The plain object a JSON string holds, or `undefined` (strict JSON only: this is a coercion, not a repair). */
function parseJsonObject(text: string, bounds: JsonBounds): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{")) return undefined;
  const read = readJson(trimmed, bounds);
  return read.ok && isPlainObject(read.value) ? read.value : undefined;
}

/**
 * Replace ISO date strings by `Date`s at each pointer (and URL strings by `URL`s at each of `urls`). Pointers are
 * relative to the arguments object; a `*` segment means every item of an array or every value of an object.
 * Missing paths and non-strings are left alone: optional and nullable dates simply have nothing to revive.
 */
export function reviveDates(args: ArgsObject, pointers: readonly string[] | undefined, urls?: readonly string[]): void {
  for (const [list, make] of [
    [pointers, toDate],
    [urls, toUrl],
  ] as const) {
    for (const pointer of list ?? []) {
      const segments = pointer === "" ? [] : pointer.split("/").slice(1).map(unescapeSegment);
      if (segments.length > 0) reviveAt(args, segments, 0, make);
    }
  }
}

/** The revived value, or undefined when the string does not parse (validation has checked the format already). */
function toDate(text: string): Date | undefined {
  const date = new Date(text);
  if (!Number.isNaN(date.getTime())) return date;
  // `Date` has no leap seconds, so it refuses `…:60`; validation (RFC 3339) accepts it. Read it as 59 plus one second.
  const leap = LEAP_SECOND.exec(text);
  if (!leap) return undefined;
  const before = new Date(`${leap[1]}59${leap[2] ?? ""}${leap[3]}`);
  return Number.isNaN(before.getTime()) ? undefined : new Date(before.getTime() + 1000);
}

/** A date-time whose seconds are 60: what precedes them, and what follows (fraction and offset). */
const LEAP_SECOND = /^(\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:)60(\.\d+)?([Zz]|[+-]\d\d:\d\d)$/;

function toUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

function reviveAt(
  container: unknown,
  segments: string[],
  index: number,
  make: (text: string) => object | undefined,
): void {
  if (typeof container !== "object" || container === null) return;
  const segment = segments[index]!;
  const last = index === segments.length - 1;
  const keys =
    segment === "*"
      ? Array.isArray(container)
        ? container.map((_, i) => String(i))
        : Object.keys(container)
      : Object.hasOwn(container, segment)
        ? [segment]
        : [];
  const record = container as Record<string, unknown>;
  for (const key of keys) {
    const value = record[key];
    if (!last) {
      reviveAt(value, segments, index + 1, make);
    } else if (typeof value === "string") {
      // An unparsable string stays a string rather than an Invalid Date.
      const revived = make(value);
      if (revived) record[key] = revived;
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
  const plan = planOf(meta);
  const positional: unknown[] = new Array(plan.count);
  let shared: ToolContext | undefined;
  for (let i = 0; i < plan.count; i++) {
    const slot = plan.slots[i];
    if (slot === INJECT) positional[i] = shared ??= context();
    else if (slot === WHOLE) positional[i] = args;
    else if (slot !== undefined && Object.hasOwn(args, slot)) positional[i] = args[slot];
  }
  return positional;
}

const INJECT = Symbol("inject");
const WHOLE = Symbol("whole");

/** What fills each position: an argument by name, the whole object (flattened), a ToolContext, or nothing. */
interface Plan {
  count: number;
  slots: (string | typeof INJECT | typeof WHOLE | undefined)[];
}

/** Metadata never changes, so each tool's plan is worked out once. */
const plans = new WeakMap<CompiledToolMeta, Plan>();

function planOf(meta: CompiledToolMeta): Plan {
  let plan = plans.get(meta);
  if (plan) return plan;
  const inject = new Set(meta.inject ?? []);
  const firstFree = firstNonInjected(inject);
  let count = meta.flatten ? firstFree + 1 : meta.params.length;
  for (const position of inject) count = Math.max(count, position + 1);
  const slots: Plan["slots"] = new Array(count);
  for (let i = 0; i < count; i++) {
    if (inject.has(i)) slots[i] = INJECT;
    else if (meta.flatten) slots[i] = i === firstFree ? WHOLE : undefined;
    else slots[i] = meta.params[i];
  }
  plan = { count, slots };
  plans.set(meta, plan);
  return plan;
}

/** Names of the arguments the model fills, in order: the non-injected parameters, or a flattened object's properties. */
export function modelParams(meta: CompiledToolMeta): string[] {
  if (meta.flatten) {
    const properties = meta.parameters.properties;
    return typeof properties === "object" && properties !== null && !Array.isArray(properties)
      ? Object.keys(properties)
      : [];
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
const TOO_LARGE = Symbol("too large");
const NOT_FINITE = Symbol("not finite");

/**
 * A fresh copy of JSON data for coercion (which parses JSON strings it finds in arguments): `undefined` when it
 * nests deeper than `maxDepth`, counting from `depth`, the level the copy takes in the arguments.
 */
export function copyJsonValue(value: unknown, depth: number, maxDepth: number): unknown {
  const copy = copyJson(value, depth, maxDepth, undefined);
  return copy === TOO_DEEP || copy === TOO_LARGE || copy === NOT_FINITE ? undefined : copy;
}

/**
 * A fresh copy of plain JSON data: arrays and plain objects are copied, `__proto__` keys dropped (so no later
 * assignment can reach a prototype), other values kept as they are. `budget`, when given, is the JSON size left,
 * estimated as the copy goes (already-parsed arguments have no text to measure).
 */
function copyJson(value: unknown, depth: number, maxDepth: number, budget: { left: number } | undefined): unknown {
  if (typeof value !== "object" || value === null) {
    if (typeof value === "number" && !Number.isFinite(value)) return NOT_FINITE;
    if (budget) budget.left -= typeof value === "string" ? value.length + 2 : 5;
    return budget && budget.left < 0 ? TOO_LARGE : value;
  }
  if (Array.isArray(value)) {
    if (depth > maxDepth) return TOO_DEEP;
    if (budget && (budget.left -= 2 + value.length) < 0) return TOO_LARGE;
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const item = copyJson(value[i], depth + 1, maxDepth, budget);
      if (item === TOO_DEEP || item === TOO_LARGE || item === NOT_FINITE) return item;
      out[i] = item;
    }
    return out;
  }
  if (!isPlainObject(value)) return value;
  if (depth > maxDepth) return TOO_DEEP;
  if (budget) budget.left -= 2;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key === "__proto__") continue;
    if (budget && (budget.left -= key.length + 4) < 0) return TOO_LARGE;
    const item = copyJson(value[key], depth + 1, maxDepth, budget);
    if (item === TOO_DEEP || item === TOO_LARGE || item === NOT_FINITE) return item;
    out[key] = item;
  }
  return out;
}

/** The JSON pointer of the first number in `value` that is not finite, or `undefined` (depth-bounded like the copy). */
export function nonFinitePath(value: unknown, path: string, depth: number): string | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? undefined : path;
  if (typeof value !== "object" || value === null || depth > MAX_WALK_DEPTH) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nonFinitePath(value[i], `${path}/${i}`, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    const found = nonFinitePath(
      (value as Record<string, unknown>)[key],
      `${path}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`,
      depth + 1,
    );
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Deeper than any depth limit a reader allows; the walk above only runs on values read within those limits. */
const MAX_WALK_DEPTH = 10_000;

/** Whether JSON data nests deeper than `maxDepth`, counting `value` as level `depth`; allocates nothing. */
function deeperThan(value: unknown, depth: number, maxDepth: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (depth > maxDepth) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (deeperThan(value[i], depth + 1, maxDepth)) return true;
    return false;
  }
  for (const key in value) {
    if (deeperThan((value as Record<string, unknown>)[key], depth + 1, maxDepth)) return true;
  }
  return false;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
