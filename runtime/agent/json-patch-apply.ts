/**
 * RFC 6902 applied to a tool call's arguments, written for untrusted patches: a model's operations touch only the
 * arguments document, and what a patch may cost is bounded by the arguments' limits.
 */
import type { JsonValue } from "../tool/meta";

/** One RFC 6902 operation. */
export type JsonPatchOperation =
  | { op: "add" | "replace" | "test"; path: string; value: JsonValue }
  | { op: "remove"; path: string }
  | { op: "move" | "copy"; from: string; path: string };

/** The limits a patched document must keep: those of the tool's arguments. */
export interface PatchLimits {
  /** Largest document, as an estimate of its JSON's size in bytes. */
  readonly maxBytes: number;
  /** Deepest nesting of arrays and objects (the arguments object itself is level 1). */
  readonly maxDepth: number;
}

/** The work budget: values walked, in estimated bytes, as a multiple of the byte limit. */
const WORK_PER_BYTE_LIMIT = 2;
/** What walking or making one array or object costs the work budget, in bytes: far more than its two brackets. */
const CONTAINER_WORK = 64;

type Container = Record<string, unknown> | unknown[];

/** Why a patch stops; `operation` is its index, absent for the document itself. */
class PatchFailure {
  constructor(
    readonly message: string,
    readonly operation?: number,
  ) {}
}

/** Counts what a patch costs: the document's size and the values walked, each against its limit. */
class Budget {
  size = 0;
  work = 0;
  /** While a value to be placed is copied: the bytes the document has room for; the copy stops the moment it passes. */
  room = Infinity;
  readonly workLimit: number;
  constructor(readonly limits: PatchLimits) {
    this.workLimit = limits.maxBytes * WORK_PER_BYTE_LIMIT;
  }

  /** `bytes` of a value copied or walked; `work` what walking it costs (a container costs more than its two brackets). */
  charge(bytes: number, work = bytes): void {
    this.work += work;
    this.room -= bytes;
    if (this.room < 0) {
      throw new PatchFailure(`the patched arguments would be larger than the limit of ${this.limits.maxBytes} bytes`);
    }
    if (this.work > this.workLimit) {
      throw new PatchFailure(
        `the patch walks more than ${this.workLimit} bytes of values (${WORK_PER_BYTE_LIMIT} times the arguments' limit of ${this.limits.maxBytes}); send fewer or smaller operations, or call the tool again with whole arguments`,
      );
    }
  }

  grow(bytes: number): void {
    this.size += bytes;
    if (this.size > this.limits.maxBytes) {
      throw new PatchFailure(`the patched arguments would be larger than the limit of ${this.limits.maxBytes} bytes`);
    }
  }
}

/** A value copied as plain JSON, with its estimated size and depth (the value itself is level 1). */
interface Measured {
  readonly value: unknown;
  readonly size: number;
  readonly depth: number;
}

/**
 * A plain-JSON copy of `value`, placed at `level` (1: the arguments object), charged to `budget`; a PatchFailure
 * when it holds anything but JSON or would nest deeper than the limit.
 */
function copyValue(value: unknown, level: number, budget: Budget, where: string): Measured {
  if (level > budget.limits.maxDepth) {
    throw new PatchFailure(
      `${where} would nest arrays and objects deeper than the limit of ${budget.limits.maxDepth} levels`,
    );
  }
  switch (typeof value) {
    case "string":
      budget.charge(value.length + 2);
      return { value, size: value.length + 2, depth: 0 };
    case "number": {
      if (!Number.isFinite(value)) throw new PatchFailure(`${where} holds a number JSON cannot write (${value})`);
      const size = String(value).length;
      budget.charge(size);
      return { value, size, depth: 0 };
    }
    case "boolean":
      budget.charge(value ? 4 : 5);
      return { value, size: value ? 4 : 5, depth: 0 };
    case "object": {
      if (value === null) {
        budget.charge(4);
        return { value, size: 4, depth: 0 };
      }
      if (Array.isArray(value)) {
        const copy: unknown[] = [];
        let size = 2;
        let depth = 1;
        budget.charge(2, CONTAINER_WORK);
        for (let i = 0; i < value.length; i++) {
          const item = copyValue(value[i], level + 1, budget, where);
          copy.push(item.value);
          size += item.size + 1;
          depth = Math.max(depth, item.depth + 1);
        }
        return { value: copy, size, depth };
      }
      if (!isPlainRecord(value)) break;
      const copy: Record<string, unknown> = {};
      let size = 2;
      let depth = 1;
      budget.charge(2, CONTAINER_WORK);
      for (const key of Object.keys(value)) {
        budget.charge(key.length + 4);
        const item = copyValue(value[key], level + 1, budget, where);
        define(copy, key, item.value);
        size += entrySize(key, item.size);
        depth = Math.max(depth, item.depth + 1);
      }
      return { value: copy, size, depth };
    }
  }
  throw new PatchFailure(`${where} holds a value JSON cannot write (${typeof value})`);
}

/** An object made by JSON or by this module: its prototype is Object's or none. */
function isPlainRecord(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** The estimated bytes a key and its value add to an object (quotes, colon, comma). */
function entrySize(key: string, valueSize: number): number {
  return key.length + 4 + valueSize;
}

/** An own, enumerable data property, whatever the key (`__proto__` included). */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/** The reference tokens of a JSON Pointer (RFC 6901), or a PatchFailure for a malformed one. */
function tokensOf(pointer: string): string[] {
  if (pointer === "") return [];
  if (!pointer.startsWith("/"))
    throw new PatchFailure(`${JSON.stringify(pointer)} is not a JSON Pointer (it must start with "/")`);
  return pointer
    .slice(1)
    .split("/")
    .map((token) => {
      if (/~(?![01])/.test(token))
        throw new PatchFailure(`${JSON.stringify(pointer)} has a "~" that is not "~0" or "~1"`);
      return token.replace(/~1/g, "/").replace(/~0/g, "~");
    });
}

/** An array index token: "0" or digits without a leading zero. */
const INDEX = /^(0|[1-9][0-9]*)$/;

/** The container a token is read from or written into, when `value` is one (a plain object or an array). */
function asContainer(value: unknown): Container | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  if (Array.isArray(value)) return value;
  return isPlainRecord(value) ? value : undefined;
}

/** The value at `token` of `container`, own properties and existing indexes only; `NOTHING` where there is none. */
function child(container: Container, token: string): unknown {
  if (Array.isArray(container)) {
    if (!INDEX.test(token)) return NOTHING;
    const index = Number(token);
    return index < container.length ? container[index] : NOTHING;
  }
  return Object.hasOwn(container, token) ? container[token] : NOTHING;
}

const NOTHING: unique symbol = Symbol("nothing");

/** Where a pointer leads: the container holding its last token, and that token. */
interface Location {
  readonly parent: Container;
  readonly token: string;
  /** The nesting level of the parent (1: the arguments object). */
  readonly level: number;
}

/** The location of `pointer` (its parent must exist); a PatchFailure naming the first step with nothing there. */
function locate(document: Container, pointer: string, budget: Budget): Location {
  const tokens = tokensOf(pointer);
  if (tokens.length === 0)
    throw new PatchFailure(`"${pointer}" is the whole arguments object: call the tool again instead`);
  let parent: Container = document;
  for (let i = 0; i < tokens.length - 1; i++) {
    budget.charge(tokens[i]!.length + 1);
    const next = asContainer(child(parent, tokens[i]!));
    if (!next)
      throw new PatchFailure(
        `nothing at ${stepsOf(tokens, i + 1)} in the arguments (an object or array must be there)`,
      );
    parent = next;
  }
  return { parent, token: tokens[tokens.length - 1]!, level: tokens.length };
}

/** The pointer of the first `count` tokens. */
function stepsOf(tokens: readonly string[], count: number): string {
  return `/${tokens
    .slice(0, count)
    .map((token) => token.replace(/~/g, "~0").replace(/\//g, "~1"))
    .join("/")}`;
}

/** The value at a location; a PatchFailure when there is none. */
function valueAt(at: Location, pointer: string): unknown {
  const value = child(at.parent, at.token);
  if (value === NOTHING)
    throw new PatchFailure(
      `nothing at ${pointer} in the arguments (the parent must exist; an array index must be less than its length)`,
    );
  return value;
}

/** The estimated size of an existing value, walked (and charged). */
function sizeOf(value: unknown, level: number, budget: Budget, where: string): number {
  return copyValue(value, level, budget, where).size;
}

/** Put `measured` at a location, as RFC 6902's "add" does (an array index inserts; "-" appends; a key replaces). */
function insert(at: Location, measured: Measured, pointer: string, budget: Budget): void {
  if (at.level + measured.depth > budget.limits.maxDepth) {
    throw new PatchFailure(
      `the value at ${pointer} would nest arrays and objects deeper than the limit of ${budget.limits.maxDepth} levels`,
    );
  }
  if (Array.isArray(at.parent)) {
    const index = at.token === "-" ? at.parent.length : INDEX.test(at.token) ? Number(at.token) : -1;
    if (index < 0 || index > at.parent.length) {
      throw new PatchFailure(
        `nothing at ${pointer} in the arguments (an array index must be at most its length, or "-" to append)`,
      );
    }
    budget.grow(measured.size + 1);
    at.parent.splice(index, 0, measured.value);
    return;
  }
  const old = child(at.parent, at.token);
  budget.grow(
    entrySize(at.token, measured.size) -
      (old === NOTHING ? 0 : entrySize(at.token, sizeOf(old, at.level + 1, budget, pointer))),
  );
  define(at.parent, at.token, measured.value);
}

/** Take the value away from a location, as "remove" does, and give it back. */
function take(at: Location, pointer: string, budget: Budget): unknown {
  const value = valueAt(at, pointer);
  const size = sizeOf(value, at.level + 1, budget, pointer);
  if (Array.isArray(at.parent)) {
    at.parent.splice(Number(at.token), 1);
    budget.size -= size + 1;
  } else {
    delete at.parent[at.token];
    budget.size -= entrySize(at.token, size);
  }
  return value;
}

/** Whether two plain-JSON values are equal (RFC 6902 §4.6), charged to the budget. */
function equal(a: unknown, b: unknown, budget: Budget): boolean {
  budget.charge(1);
  if (a === b) return true;
  const left = asContainer(a);
  const right = asContainer(b);
  if (!left || !right || Array.isArray(left) !== Array.isArray(right)) return false;
  if (Array.isArray(left)) {
    const other = right as unknown[];
    return left.length === other.length && left.every((item, i) => equal(item, other[i], budget));
  }
  const keys = Object.keys(left);
  const other = right as Record<string, unknown>;
  if (keys.length !== Object.keys(other).length) return false;
  return keys.every((key) => Object.hasOwn(other, key) && equal(left[key], other[key], budget));
}

/** Apply one operation to the document, or throw a PatchFailure saying why it cannot be. */
function applyOne(document: Container, operation: JsonPatchOperation, budget: Budget): void {
  const { path } = operation;
  switch (operation.op) {
    case "add": {
      const at = locate(document, path, budget);
      insert(at, placed(operation.value, at.level + 1, budget, path), path, budget);
      return;
    }
    case "remove":
      take(locate(document, path, budget), path, budget);
      return;
    case "replace": {
      const at = locate(document, path, budget);
      valueAt(at, path);
      const measured = copyValue(operation.value, at.level + 1, budget, path);
      // (The new value comes from the patch, whose own size is bounded: the size is checked as it is placed.)
      // An object's key keeps its place (insert replaces it); an array's item is taken out and put back at its index.
      if (Array.isArray(at.parent)) take(at, path, budget);
      insert(at, measured, path, budget);
      return;
    }
    case "test": {
      const at = locate(document, path, budget);
      const actual = valueAt(at, path);
      if (!equal(actual, operation.value, budget)) throw new TestFailed(actual, operation.value);
      return;
    }
    case "move": {
      const { from } = operation;
      if (path !== from && `${path}/`.startsWith(`${from}/`))
        throw new PatchFailure(`cannot move ${from} into itself (${path})`);
      // RFC 6902 §4.4: a remove, then an add whose path is read after the remove.
      const value = take(locate(document, from, budget), from, budget);
      const target = locate(document, path, budget);
      // Copied (and so measured) again at its new level: a move may nest it deeper.
      insert(target, placed(value, target.level + 1, budget, path), path, budget);
      return;
    }
    case "copy": {
      const { from } = operation;
      const source = locate(document, from, budget);
      const value = valueAt(source, from);
      const target = locate(document, path, budget);
      insert(target, placed(value, target.level + 1, budget, path), path, budget);
      return;
    }
  }
}

/**
 * A copy of a value about to be placed in the document, stopped the moment it would not fit in the room left (a
 * `copy` that doubles the document costs at most the limit, not the copy and then the refusal).
 */
function placed(value: unknown, level: number, budget: Budget, where: string): Measured {
  budget.room = budget.limits.maxBytes - budget.size;
  try {
    return copyValue(value, level, budget, where);
  } finally {
    budget.room = Infinity;
  }
}

/** A "test" operation whose value differs from the document's. */
export class TestFailed extends PatchFailure {
  constructor(
    readonly actual: unknown,
    readonly expected: unknown,
  ) {
    super("the test failed");
  }
}

/** Where a patch stopped: the operation (absent: the document itself) and why. */
export interface PatchStop {
  readonly operation?: number;
  readonly message: string;
  /** For a failed "test": the value found and the value expected. */
  readonly test?: { readonly actual: unknown; readonly expected: unknown };
}

/**
 * The patched copy of `document`, or where and why the patch stopped (RFC 6902 §5: then nothing is applied; the
 * document given is never changed).
 * - Every step of a path goes through an own property of a plain object or an index of an array, nothing else: an
 *   inherited name (`toString`, `slice`, `hasOwnProperty`), a function or a string is "nothing there", so no patch can
 *   reach a built-in. Writes define own data properties, so even a `__proto__` key stays data.
 * - The document is a fresh copy; every value placed in it is copied from the patch or the document, so nothing is
 *   shared with the caller, the patch, or another place in the document.
 * - Size and depth are counted as each operation applies (the size as an estimate of the document's JSON, the same
 *   for every value), and the patch is refused the moment either passes the limit: a `copy` that doubles the
 *   document stops at the byte limit instead of running the process out of memory.
 * - Every value the operations walk (each value placed, measured or compared) is charged to one work budget, twice
 *   the byte limit with each array or object counted as 64 bytes (making one costs far more than its brackets), so a
 *   patch of 200 operations costs at most that budget whatever it does.
 */
export function patchDocument(
  document: Record<string, unknown>,
  patch: readonly JsonPatchOperation[],
  limits: PatchLimits,
): { ok: true; value: Record<string, unknown> } | { ok: false; stop: PatchStop } {
  const budget = new Budget(limits);
  let current = -1;
  try {
    const copied = placed(document, 1, budget, "the arguments");
    budget.grow(copied.size);
    // The document was read within the limits before; only what the operations walk is the patch's work.
    budget.work = 0;
    const copy = copied.value as Record<string, unknown>;
    for (current = 0; current < patch.length; current++) applyOne(copy, patch[current]!, budget);
    return { ok: true, value: copy };
  } catch (error) {
    if (!(error instanceof PatchFailure)) throw error;
    const stop: PatchStop =
      error instanceof TestFailed
        ? { message: error.message, test: { actual: error.actual, expected: error.expected } }
        : { message: error.message };
    return { ok: false, stop: current < 0 ? stop : { ...stop, operation: current } };
  }
}
