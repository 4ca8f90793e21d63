/**
 * A tool call's arguments as a person is asked to approve them: every value on a line of its own under its full path,
 * long values cut one by one (never a key, never a value hidden by another's length), and a plain word where
 * anything could not be shown whole.
 */

/** About this many characters of values in all; each value gets a fair share, and what short ones leave goes to long ones. */
const VALUE_BUDGET = 2000;
/** Every value gets at least this many characters, whatever the others need. */
const MIN_VALUE_CHARS = 24;
/** Lines shown at most; past them the question says how many values it leaves out. */
const MAX_LINES = 100;
/** A path longer than this is cut too (a model can make keys of any length), and the question says so. */
const MAX_PATH_CHARS = 200;

interface Leaf {
  readonly path: string;
  readonly json: string;
}

/** The lines of the arguments and, where something could not be shown whole, the sentence that says what. */
export function showArguments(args: unknown): string {
  const leaves: Leaf[] = [];
  let total = 0;
  const walk = (value: unknown, path: string): void => {
    if (typeof value === "object" && value !== null) {
      const entries: [string, unknown][] = Array.isArray(value)
        ? value.map((item, i) => [String(i), item])
        : Object.entries(value);
      if (entries.length === 0) {
        total++;
        if (leaves.length < MAX_LINES)
          leaves.push({ path: path || "(the arguments)", json: Array.isArray(value) ? "[]" : "{}" });
        return;
      }
      for (const [key, item] of entries) {
        if (leaves.length >= MAX_LINES) {
          total += countLeaves(item);
          continue;
        }
        walk(item, Array.isArray(value) ? `${path}[${key}]` : `${path}${path ? "." : ""}${key}`);
      }
      return;
    }
    total++;
    leaves.push({ path: path || "(the arguments)", json: JSON.stringify(value) ?? String(value) });
  };
  walk(args, "");
  const shares = fairShares(leaves.map((leaf) => leaf.json.length));
  let cut = false;
  const lines = leaves.map((leaf, i) => {
    let path = leaf.path;
    if (path.length > MAX_PATH_CHARS) {
      path = `${path.slice(0, MAX_PATH_CHARS)}… (a name of ${leaf.path.length} characters, cut)`;
      cut = true;
    }
    const share = shares[i]!;
    if (leaf.json.length <= share) return `- ${path}: ${leaf.json}`;
    cut = true;
    return `- ${path}: ${leaf.json.slice(0, share)}… (${leaf.json.length} characters, cut here)`;
  });
  const notes: string[] = [];
  if (cut) notes.push("Some values are too long to show whole: each is cut where marked, and every value is listed.");
  if (total > leaves.length) notes.push(`${total - leaves.length} more values are not shown (${total} in all).`);
  return [...lines, ...notes].join("\n");
}

function countLeaves(value: unknown): number {
  if (typeof value !== "object" || value === null) return 1;
  const items = Array.isArray(value) ? value : Object.values(value);
  return items.length === 0 ? 1 : items.reduce((sum: number, item) => sum + countLeaves(item), 0);
}

/** Each length's share of the budget: short values whole, the rest split evenly among the long ones, none below the minimum. */
function fairShares(lengths: readonly number[]): number[] {
  const shares = lengths.map(() => 0);
  let left = VALUE_BUDGET;
  let open = lengths.map((_, i) => i);
  while (open.length > 0) {
    const even = Math.max(MIN_VALUE_CHARS, Math.floor(left / open.length));
    const fits = open.filter((i) => lengths[i]! <= even);
    if (fits.length === 0) {
      for (const i of open) shares[i] = even;
      break;
    }
    for (const i of fits) {
      shares[i] = lengths[i]!;
      left -= lengths[i]!;
    }
    open = open.filter((i) => lengths[i]! > even);
  }
  return shares;
}
