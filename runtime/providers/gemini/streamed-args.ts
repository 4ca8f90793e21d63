/**
 * One Gemini call's arguments assembled from streamed pieces (Gemini 3's streamed function-call arguments): each
 * `partialArgs` entry names a place by JSON Path (`$.items[0].name`) and gives a value there; a string's pieces are
 * appended while `willContinue` says more of that place follows. Arrays and objects are made as the paths need them.
 *
 * The arguments text is written as the pieces come (so `PartialToolCall.args` parses as it does for the other APIs,
 * and each piece adds text at the end): valid JSON once closed, as long as the pieces come in the order of the
 * document, as Gemini sends them. A piece that goes back to a place already written leaves the text where it was
 * until the call completes; the value is right either way.
 */
import type { GeminiPartialArg } from "./wire";

type Segment = string | number;

/** A container open in the text: how many members it has, and the keys (or the next index) written so far. */
interface Open {
  readonly segment: Segment | undefined;
  readonly array: boolean;
  count: number;
  readonly keys: Set<string>;
}

const NAME_START = /[A-Za-z_\u0080-\uffff]/;
const NAME_PART = /[A-Za-z0-9_\u0080-\uffff]/;
const ESCAPES: Record<string, string> = {
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  "/": "/",
  "\\": "\\",
  "'": "'",
  '"': '"',
};

export class StreamedArguments {
  /** The arguments so far. */
  readonly value: Record<string, unknown> = {};
  /** Their JSON text so far (open containers and an open string not yet closed). */
  text = "";
  readonly #open: Open[] = [];
  /** The place whose string is open at the end of the text. */
  #openString: string | undefined;
  /** Places whose string has more pieces to come. */
  readonly #continuing = new Set<string>();
  #inOrder = true;

  /** Seeds the value with arguments the call gave whole (a part may carry `args` beside its pieces). */
  merge(args: unknown): string {
    if (typeof args !== "object" || args === null || Array.isArray(args)) return "";
    let added = "";
    for (const [key, item] of Object.entries(args)) added += this.#set([key], item, false);
    return added;
  }

  /** Applies one piece; returns the text it added at the end. */
  apply(piece: GeminiPartialArg): string {
    const path = parsePath(piece.jsonPath);
    let value: unknown;
    if (typeof piece.stringValue === "string") value = piece.stringValue;
    else if (typeof piece.numberValue === "number") value = piece.numberValue;
    else if (typeof piece.boolValue === "boolean") value = piece.boolValue;
    else if (piece.nullValue !== undefined) value = null;
    else if (piece.willContinue === true) return "";
    else value = undefined;
    return this.#set(path, value, piece.willContinue === true);
  }

  /** Whether `finish` has closed the text. */
  finished = false;

  /** Closes the text; returns what it added (`undefined` when the text was rewritten whole, pieces having come out of order). */
  finish(): string | undefined {
    this.finished = true;
    if (!this.#inOrder) {
      this.text = JSON.stringify(this.value);
      return undefined;
    }
    let added = this.#closeString();
    if (this.#open.length === 0) added += "{";
    else while (this.#open.length > 1) added += this.#close();
    added += "}";
    this.#open.length = 0;
    this.text += added;
    return added;
  }

  #set(path: readonly Segment[], value: unknown, more: boolean): string {
    const key = JSON.stringify(path);
    const appending = typeof value === "string" && this.#continuing.has(key);
    if (typeof value === "string" && more) this.#continuing.add(key);
    else this.#continuing.delete(key);
    // An end of a string without text ("willContinue" false, no value) only closes it.
    if (value === undefined) {
      if (this.#openString === key && this.#inOrder) {
        const added = this.#closeString();
        this.text += added;
        return added;
      }
      return "";
    }
    this.#place(path, value, appending);
    if (!this.#inOrder) return "";
    const added = this.#write(path, key, value, appending, more);
    this.text += added;
    return added;
  }

  /** Puts `value` at `path` in the value (a string appended to the one there when it continues). */
  #place(path: readonly Segment[], value: unknown, appending: boolean): void {
    let node: Record<string, unknown> | unknown[] = this.value;
    for (let i = 0; i < path.length; i++) {
      const segment = path[i]!;
      const last = i === path.length - 1;
      const current = Array.isArray(node)
        ? node[segment as number]
        : Object.hasOwn(node, segment)
          ? node[segment as string]
          : undefined;
      let next: unknown;
      if (last) next = appending && typeof current === "string" ? current + (value as string) : value;
      else {
        const wantArray = typeof path[i + 1] === "number";
        next = wantArray
          ? Array.isArray(current)
            ? current
            : []
          : typeof current === "object" && current !== null && !Array.isArray(current)
            ? current
            : {};
      }
      if (Array.isArray(node)) {
        const index = segment as number;
        if (index > node.length) {
          throw new TypeError(
            `accumulateToolCalls(gemini): the partialArgs jsonPath ${showPath(path)} skips items of an array that never came (it has ${node.length}).`,
          );
        }
        node[index] = next;
      } else {
        // defineProperty: "__proto__" is a key like any other here.
        Object.defineProperty(node, segment as string, {
          value: next,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      if (!last) node = next as Record<string, unknown> | unknown[];
    }
  }

  /** The text `value` at `path` adds, when the pieces keep the document's order (else marks them out of order). */
  #write(path: readonly Segment[], key: string, value: unknown, appending: boolean, more: boolean): string {
    if (appending) {
      if (this.#openString === key) return escapeFragment(value as string) + (more ? "" : this.#closeString());
      this.#inOrder = false;
      return "";
    }
    let out = this.#closeString();
    if (this.#open.length === 0) {
      this.#open.push({ segment: undefined, array: false, count: 0, keys: new Set() });
      out += "{";
    }
    // Keep the open containers the path shares, close the rest.
    let shared = 1;
    while (
      shared < this.#open.length &&
      shared - 1 < path.length - 1 &&
      this.#open[shared]!.segment === path[shared - 1]
    )
      shared++;
    const closing: string[] = [];
    while (this.#open.length > shared) closing.push(this.#close());
    out += closing.join("");
    for (let i = shared - 1; i < path.length; i++) {
      const parent = this.#open[this.#open.length - 1]!;
      const segment = path[i]!;
      const member = String(segment);
      if (parent.array ? segment !== parent.count : parent.keys.has(member) || typeof segment !== "string") {
        this.#inOrder = false;
        return "";
      }
      parent.keys.add(member);
      out += (parent.count > 0 ? "," : "") + (parent.array ? "" : `${JSON.stringify(member)}:`);
      parent.count++;
      if (i < path.length - 1) {
        const array = typeof path[i + 1] === "number";
        this.#open.push({ segment, array, count: 0, keys: new Set() });
        out += array ? "[" : "{";
      } else if (typeof value === "string") {
        out += `"${escapeFragment(value)}`;
        if (more) this.#openString = key;
        else out += '"';
      } else {
        out += JSON.stringify(value);
      }
    }
    return out;
  }

  #closeString(): string {
    if (this.#openString === undefined) return "";
    this.#openString = undefined;
    return '"';
  }

  #close(): string {
    return this.#open.pop()!.array ? "]" : "}";
  }
}

/** A string's text inside JSON quotes. */
function escapeFragment(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

function showPath(path: readonly Segment[]): string {
  return `$${path.map((s) => (typeof s === "number" ? `[${s}]` : `[${JSON.stringify(s)}]`)).join("")}`;
}

/** `$.a.b[0]['c d']` → ["a", "b", 0, "c d"] (RFC 9535 names and indices; the root itself is refused). */
export function parsePath(path: unknown): Segment[] {
  const fail = (): never => {
    throw new TypeError(
      `accumulateToolCalls(gemini): a partialArgs jsonPath must be a JSON Path of names and indices below the arguments, such as "$.items[0].name"; got ${JSON.stringify(path) ?? String(path)}.`,
    );
  };
  if (typeof path !== "string" || path[0] !== "$") return fail();
  const out: Segment[] = [];
  let i = 1;
  while (i < path.length) {
    const c = path[i]!;
    if (c === "." && NAME_START.test(path[i + 1] ?? "")) {
      let j = i + 2;
      while (j < path.length && NAME_PART.test(path[j]!)) j++;
      out.push(path.slice(i + 1, j));
      i = j;
    } else if (c === "[" && /[0-9]/.test(path[i + 1] ?? "")) {
      const match = /^\[(0|[1-9][0-9]{0,8})\]/.exec(path.slice(i, i + 12));
      if (!match) return fail();
      out.push(Number(match[1]));
      i += match[0].length;
    } else if (c === "[" && (path[i + 1] === "'" || path[i + 1] === '"')) {
      const quote = path[i + 1]!;
      let j = i + 2;
      let name = "";
      while (j < path.length && path[j] !== quote) {
        if (path[j] === "\\") {
          const e = path[j + 1] ?? "";
          if (e === "u" && /^[0-9a-fA-F]{4}$/.test(path.slice(j + 2, j + 6))) {
            name += String.fromCharCode(parseInt(path.slice(j + 2, j + 6), 16));
            j += 6;
            continue;
          }
          if (!(e in ESCAPES)) return fail();
          name += ESCAPES[e];
          j += 2;
          continue;
        }
        name += path[j];
        j++;
      }
      if (path[j] !== quote || path[j + 1] !== "]") return fail();
      out.push(name);
      i = j + 2;
    } else return fail();
  }
  if (out.length === 0 || typeof out[0] !== "string") return fail();
  return out;
}
