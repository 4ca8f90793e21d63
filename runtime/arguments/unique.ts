/**
 * `uniqueItems` in linear time. A pairwise deep comparison is quadratic: 20,000 small objects took 20 s. Instead
 * each item gets a canonical key and the keys go into one Map; primitives are their own keys (`1` and `"1"` stay
 * apart, `0` equals `-0`), and equal composites get equal keys (object keys sorted, so `{a:1,b:2}` equals
 * `{b:2,a:1}` as JSON Schema says).
 *
 * A composite's key is a number given to its structure: the text of its own entries, each child written as its
 * number, looked up in a table of structures seen. Every value is numbered once per validation however deep it
 * sits, so `uniqueItems` nested at every level of a tree costs the tree's size, not its size times its depth (a
 * key of the full text, rebuilt at each level, took 8 s on a valid 751 KiB tree).
 */

/** The structures numbered so far; emptied between checks once it holds this many. */
const MAX_STRUCTURES = 100_000;
let structures = new Map<string, number>();
/** Each composite's number, valid while `generation` is the one it was given in. */
const numbered = new WeakMap<object, { generation: number; id: number }>();
let generation = 0;

/** The first pair of equal items, `[earlier, later]` indexes, or undefined when all items differ. */
export function firstDuplicate(items: readonly unknown[]): [number, number] | undefined {
  if (structures.size > MAX_STRUCTURES) {
    structures = new Map();
    generation++;
  }
  // Two maps: a composite's number must not meet a primitive number (SameValueZero keeps 0 and -0 together).
  const primitives = new Map<unknown, number>();
  const composites = new Map<number, number>();
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const composite = typeof item === "object" && item !== null;
    const key = composite ? structureOf(item) : item;
    const seen = composite ? composites : primitives;
    const earlier = seen.get(key as number);
    if (earlier !== undefined) return [earlier, i];
    seen.set(key as number, i);
  }
  return undefined;
}

/**
 * Composites of fewer values than this are not remembered: working them out again costs no more than looking them
 * up, and remembering every leaf of a large tree costs the garbage collector more than it saves.
 */
const REMEMBERED_FROM = 16;

/** Values counted by the latest `structureOf`: its composite and everything in it that was not remembered. */
let counted = 0;

/** The number of `value`'s structure (0 and up): equal JSON values, equal numbers. */
function structureOf(value: object): number {
  const known = numbered.get(value);
  if (known !== undefined && known.generation === generation) {
    counted = 1;
    return known.id;
  }
  let size = 1;
  let text: string;
  if (Array.isArray(value)) {
    text = "[";
    for (let i = 0; i < value.length; i++) {
      text += (i > 0 ? "," : "") + entryKey(value[i]);
      size += counted;
    }
    text += "]";
  } else {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    text = "{";
    for (let i = 0; i < keys.length; i++) {
      text += `${i > 0 ? "," : ""}${JSON.stringify(keys[i])}:${entryKey(record[keys[i]!])}`;
      size += counted;
    }
    text += "}";
  }
  let id = structures.get(text);
  if (id === undefined) {
    id = structures.size;
    structures.set(text, id);
  }
  // A composite is worked out once per validation however many levels above it check uniqueness: a large one is
  // remembered, a small one is cheap to work out again (and each is an item of only one array).
  if (size >= REMEMBERED_FROM) {
    numbered.set(value, { generation, id });
    counted = 1;
  } else counted = size;
  return id;
}

/** An entry inside a composite's text: a primitive's JSON, a composite's number after `#` (no JSON starts so). */
function entryKey(value: unknown): string {
  if (typeof value === "object" && value !== null) return `#${structureOf(value)}`;
  counted = 1;
  return JSON.stringify(value) ?? "null";
}
