/**
 * `uniqueItems` in linear time. A pairwise deep comparison is quadratic: 20,000 small objects took 20 s. Instead
 * each item gets a number, equal JSON values equal numbers, and the numbers go into one Map; `1` and `"1"` stay
 * apart, `0` equals `-0`, and the order of an object's keys does not count, so `{a:1,b:2}` equals `{b:2,a:1}` as
 * JSON Schema says.
 *
 * The numbers are hash-consed bottom up: a primitive's comes from a Map of strings or of numbers; a composite's is
 * a walk from its kind's root through a table of steps, (number so far, entry) → number, where an entry is an
 * array's item (its number) or an object's property (its key's and its value's numbers, taken in the order of the
 * keys' numbers). Equal entries in equal order walk the same path, so they end on the same number. No text is
 * built and nothing is allocated per value: writing each composite's entries as text (the first version) made a
 * 21,000-node tree cost 55 ms once warm and over 200 ms cold, most of it the garbage collector's.
 *
 * Every value is numbered once per validation however deep it sits (large composites are remembered, small ones
 * cost no more to number again than to look up), so `uniqueItems` nested at every level of a tree costs the
 * tree's size, not its size times its depth (a key of the full text, rebuilt at each level, took 8 s on a valid
 * 751 KiB tree).
 */

const ARRAY_ROOT = 1;
const OBJECT_ROOT = 2;
const NULL_ID = 3;
const TRUE_ID = 4;
const FALSE_ID = 5;
const FIRST_FREE_ID = 6;
/** The key of an array's entries in the table of steps (an object's keys are numbered from FIRST_FREE_ID). */
const NO_KEY = 0;

/** Numbers handed out so far; the tables are emptied between checks once this many were given (or memory held). */
const MAX_IDS = 1 << 18;
/** Characters of strings held by the table of strings past which it is emptied between checks. */
const MAX_HELD_CHARS = 1 << 22;

/**
 * The table of steps: open addressing over typed arrays, keyed by (number so far, key, value), kept under three
 * quarters full. A seed drawn per process is mixed into the slots, so that crafted input cannot aim at one slot.
 * It is made at its first use with room for about 100,000 steps (2 MB): placing every step again when it grows
 * runs before the code is optimised on the first large check, and cost a 21,000-node tree tens of milliseconds.
 */
/** Drawn at the first check, not at import (Workers refuse randomness in a module's top level). */
let seed = 0;
const INITIAL_CAPACITY = 1 << 17;
/** Slots of the table kept when it is emptied (four Int32Arrays: 4 MB). */
const KEPT_CAPACITY = 1 << 18;
let capacity = 0;
let fromIds = new Int32Array(0);
let keyIds = new Int32Array(0);
let entryIds = new Int32Array(0);
/** The number a step leads to; 0: an empty slot. */
let stepIds = new Int32Array(0);
let steps = 0;

let nextId = FIRST_FREE_ID;
let strings = new Map<string, number>();
let heldChars = 0;
let numbers = new Map<number, number>();
/** Values of other types (not JSON: `undefined` counts as null, as JSON writes it in an array). */
let others = new Map<unknown, number>();
/** Numbers of large composites, which levels above them would otherwise walk again. */
let numbered = new WeakMap<object, number>();

/** The first pair of equal items, `[earlier, later]` indexes, or undefined when all items differ. */
export function firstDuplicate(items: readonly unknown[]): [number, number] | undefined {
  if (items.length < 2) return undefined;
  if (capacity === 0) {
    seed = (Math.random() * 0x7fffffff) | 1;
    allocate(INITIAL_CAPACITY);
  } else if (nextId > MAX_IDS || heldChars > MAX_HELD_CHARS) forget();
  // Not re-entered: a check that threw (a stack overflow) may have left entries on the stack of pairs.
  top = 0;
  const seen = new Map<number, number>();
  for (let i = 0; i < items.length; i++) {
    const id = idOf(items[i]);
    const earlier = seen.get(id);
    if (earlier !== undefined) return [earlier, i];
    seen.set(id, i);
  }
  return undefined;
}

/** Empties every table: numbers given before mean nothing afterwards. */
function forget(): void {
  // The table keeps its size up to a few MB, so that steady traffic does not grow it again after every reset.
  if (capacity > KEPT_CAPACITY) allocate(KEPT_CAPACITY);
  else stepIds.fill(0);
  steps = 0;
  nextId = FIRST_FREE_ID;
  strings = new Map();
  heldChars = 0;
  numbers = new Map();
  others = new Map();
  numbered = new WeakMap();
}

/**
 * Composites of fewer values than this are not remembered: numbering them again costs no more than looking them
 * up, and remembering every leaf of a large tree costs the garbage collector more than it saves.
 */
const REMEMBERED_FROM = 16;

/** Values counted by the latest `idOf`: its value and everything in it that was not remembered. */
let counted = 0;

/** The number of `value`: equal JSON values, equal numbers. */
function idOf(value: unknown): number {
  counted = 1;
  switch (typeof value) {
    case "string": {
      let id = strings.get(value);
      if (id === undefined) {
        id = nextId++;
        strings.set(value, id);
        heldChars += value.length;
      }
      return id;
    }
    case "number": {
      // SameValueZero: 0 and -0 are one key, as they are one JSON value.
      let id = numbers.get(value);
      if (id === undefined) {
        id = nextId++;
        numbers.set(value, id);
      }
      return id;
    }
    case "boolean":
      return value ? TRUE_ID : FALSE_ID;
    case "object":
      return value === null ? NULL_ID : compositeId(value);
    case "undefined":
      return NULL_ID;
    default: {
      let id = others.get(value);
      if (id === undefined) {
        id = nextId++;
        others.set(value, id);
      }
      return id;
    }
  }
}

function compositeId(value: object): number {
  const known = numbered.get(value);
  if (known !== undefined) return known;
  let size = 1;
  let id: number;
  if (Array.isArray(value)) {
    id = ARRAY_ROOT;
    for (let i = 0; i < value.length; i++) {
      const item = idOf(value[i]);
      size += counted;
      id = step(id, NO_KEY, item);
    }
  } else {
    // Its entries' (key, value) numbers go on a stack shared with the composites inside it, then are put in the
    // order of the keys' numbers: equal objects, whatever their keys' order, walk the same path, and no array of
    // keys is made or sorted (that was most of the garbage of a large tree).
    const record = value as Record<string, unknown>;
    const base = top;
    for (const key in record) {
      if (!hasOwn.call(record, key)) continue;
      const entry = idOf(record[key]);
      size += counted;
      const keyId = idOf(key);
      if (top + 2 > pairs.length) growPairs();
      pairs[top] = keyId;
      pairs[top + 1] = entry;
      top += 2;
    }
    sortPairs(base, top);
    id = OBJECT_ROOT;
    for (let i = base; i < top; i += 2) id = step(id, pairs[i]!, pairs[i + 1]!);
    top = base;
  }
  // A composite is numbered once per validation however many levels above it check uniqueness: a large one is
  // remembered, a small one is cheap to number again (and each is an item of only one array).
  if (size >= REMEMBERED_FROM) {
    numbered.set(value, id);
    counted = 1;
  } else counted = size;
  return id;
}

const hasOwn = Object.prototype.hasOwnProperty;
/** The stack of objects' (key number, value number) pairs, `top` its first free place. */
let pairs = new Int32Array(256);
let top = 0;

function growPairs(): void {
  const larger = new Int32Array(pairs.length * 2);
  larger.set(pairs);
  pairs = larger;
}

/** Sorts the pairs of `pairs` in [from, to) by their key numbers (each key appears once in an object). */
function sortPairs(from: number, to: number): void {
  if (to - from <= 64) {
    for (let i = from + 2; i < to; i += 2) {
      const key = pairs[i]!;
      const entry = pairs[i + 1]!;
      let j = i - 2;
      for (; j >= from && pairs[j]! > key; j -= 2) {
        pairs[j + 2] = pairs[j]!;
        pairs[j + 3] = pairs[j + 1]!;
      }
      pairs[j + 2] = key;
      pairs[j + 3] = entry;
    }
    return;
  }
  const order: number[] = [];
  for (let i = from; i < to; i += 2) order.push(i);
  order.sort((a, b) => pairs[a]! - pairs[b]!);
  const sorted = order.map((i) => [pairs[i]!, pairs[i + 1]!] as const);
  for (let k = 0; k < sorted.length; k++) {
    pairs[from + 2 * k] = sorted[k]![0];
    pairs[from + 2 * k + 1] = sorted[k]![1];
  }
}

/**
 * The number after `from` followed by an entry: an array's item (`key` is `NO_KEY`) or an object's property (the
 * numbers of its key and of its value). Found in the table, or given and stored.
 */
function step(from: number, key: number, entry: number): number {
  const mask = capacity - 1;
  for (let slot = hash(from, key, entry) & mask; ; slot = (slot + 1) & mask) {
    const id = stepIds[slot]!;
    if (id === 0) {
      const given = nextId++;
      fromIds[slot] = from;
      keyIds[slot] = key;
      entryIds[slot] = entry;
      stepIds[slot] = given;
      if (++steps * 4 > capacity * 3) grow();
      return given;
    }
    if (fromIds[slot] === from && entryIds[slot] === entry && keyIds[slot] === key) return id;
  }
}

/** Doubles the table of steps, placing every step again (kept under three quarters full, probes stay short). */
function grow(): void {
  const [oldFrom, oldKey, oldEntry, oldIds] = [fromIds, keyIds, entryIds, stepIds];
  allocate(capacity * 2);
  const mask = capacity - 1;
  for (let i = 0; i < oldIds.length; i++) {
    const id = oldIds[i]!;
    if (id === 0) continue;
    const from = oldFrom[i]!;
    const key = oldKey[i]!;
    const entry = oldEntry[i]!;
    let slot = hash(from, key, entry) & mask;
    while (stepIds[slot] !== 0) slot = (slot + 1) & mask;
    fromIds[slot] = from;
    keyIds[slot] = key;
    entryIds[slot] = entry;
    stepIds[slot] = id;
  }
}

function allocate(slots: number): void {
  capacity = slots;
  fromIds = new Int32Array(slots);
  keyIds = new Int32Array(slots);
  entryIds = new Int32Array(slots);
  stepIds = new Int32Array(slots);
}

function hash(from: number, key: number, entry: number): number {
  let h = Math.imul(from ^ seed, 0x9e3779b1) ^ Math.imul(entry + 0x7f4a7c15, 0x85ebca77) ^ Math.imul(key, 0xc2b2ae35);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 13);
}
