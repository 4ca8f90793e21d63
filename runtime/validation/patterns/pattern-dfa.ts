/**
 * A deterministic automaton, built lazily, for the patterns most schemas use: one table lookup per character,
 * whatever the pattern's shape. re2js (linear-pattern.ts) is linear too but slower per character (its one-pass
 * engine, which it prefers for anchored patterns, took 30 to 150 ms on 500,000 characters; its NFA more), so that
 * one string near the size limit against a `pattern` blocked the event loop for over 100 ms.
 *
 * It reads the pattern in JavaScript's own syntax (`u` flag), so it means what JavaScript says, but only a subset:
 * characters, escapes, classes, `.`, groups, `|`, quantifiers, and `^`/`$` (the whole string: schemas give no `m`
 * flag). Anything else (lookaround, backreferences, `\b`, `\p{…}`, named groups) gets no automaton, and the caller
 * keeps re2js. A state is a set of places in the pattern, made the first time a character leads to it; a
 * string that would need more than a fixed number of cells in the table is left to re2js too. So a test costs one
 * lookup per character plus at most that fixed number of states, each made in time bounded by the pattern's size:
 * linear in the string, with no backtracking.
 */

/** A set of code points: sorted, disjoint, inclusive ranges `[lo0, hi0, lo1, hi1, …]`. */
type CodeSet = number[];

type Node =
  | { t: "set"; set: CodeSet }
  | { t: "seq"; items: Node[] }
  | { t: "alt"; items: Node[] }
  | { t: "rep"; node: Node; min: number; max: number }
  | { t: "bol" }
  | { t: "eol" };

const MAX_CODE_POINT = 0x10ffff;
const DIGITS: CodeSet = [0x30, 0x39];
const WORD: CodeSet = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];
/** JavaScript's white space and line terminators (`\s`). */
const SPACE: CodeSet = [
  0x09, 0x0d, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f, 0x205f,
  0x3000, 0x3000, 0xfeff, 0xfeff,
];
/** What `.` does not match without the `s` flag. */
const LINE_ENDS: CodeSet = [0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029];

/** Places in the automaton past which a pattern is left to re2js (a `{n,m}` repeats its body's places). */
const MAX_PLACES = 2_000;
/** Kinds of characters (intervals no range of the pattern splits) past which a pattern is left to re2js. */
const MAX_CLASSES = 256;
/** Cells of the transition table (states × kinds of characters) one pattern may fill. */
const MAX_CELLS = 1 << 13;
/**
 * Work one pattern's automaton may spend making states (places visited and stored, over all its strings): a few
 * milliseconds at most, and a bound on its memory. Past it, the pattern's strings go to re2js.
 */
const MAX_WORK = 1 << 18;

class Unsupported extends Error {}

function complement(set: CodeSet): CodeSet {
  const out: CodeSet = [];
  let next = 0;
  for (let i = 0; i < set.length; i += 2) {
    if (set[i]! > next) out.push(next, set[i]! - 1);
    next = set[i + 1]! + 1;
  }
  if (next <= MAX_CODE_POINT) out.push(next, MAX_CODE_POINT);
  return out;
}

function union(sets: CodeSet[]): CodeSet {
  const ranges: [number, number][] = [];
  for (const set of sets) for (let i = 0; i < set.length; i += 2) ranges.push([set[i]!, set[i + 1]!]);
  ranges.sort((a, b) => a[0] - b[0]);
  const out: CodeSet = [];
  for (const [lo, hi] of ranges) {
    if (out.length > 0 && lo <= out[out.length - 1]! + 1) out[out.length - 1] = Math.max(out[out.length - 1]!, hi);
    else out.push(lo, hi);
  }
  return out;
}

/** Reads `source` (JavaScript syntax, `u` flag, already known valid) into a tree, or throws Unsupported. */
class Reader {
  private i = 0;
  constructor(private readonly source: string) {}

  read(): Node {
    const node = this.disjunction();
    if (this.i !== this.source.length) throw new Unsupported();
    return node;
  }

  private peek(): string | undefined {
    return this.source[this.i];
  }

  private disjunction(): Node {
    const items = [this.sequence()];
    while (this.peek() === "|") {
      this.i++;
      items.push(this.sequence());
    }
    return items.length === 1 ? items[0]! : { t: "alt", items };
  }

  private sequence(): Node {
    const items: Node[] = [];
    for (let c = this.peek(); c !== undefined && c !== "|" && c !== ")"; c = this.peek()) {
      if (c === "^" || c === "$") {
        this.i++;
        items.push({ t: c === "^" ? "bol" : "eol" });
        continue;
      }
      items.push(this.quantified(this.atom()));
    }
    return { t: "seq", items };
  }

  private atom(): Node {
    const c = this.peek()!;
    if (c === "(") {
      this.i++;
      if (this.source.startsWith("?:", this.i)) this.i += 2;
      else if (this.peek() === "?") throw new Unsupported(); // lookaround, named groups
      const inner = this.disjunction();
      if (this.peek() !== ")") throw new Unsupported();
      this.i++;
      return inner;
    }
    if (c === ".") {
      this.i++;
      return { t: "set", set: complement(LINE_ENDS) };
    }
    if (c === "[") return { t: "set", set: this.characterClass() };
    if (c === "\\") return { t: "set", set: this.escape(false) };
    return { t: "set", set: this.literal() };
  }

  private literal(): CodeSet {
    const code = this.source.codePointAt(this.i)!;
    this.i += code > 0xffff ? 2 : 1;
    return [code, code];
  }

  private quantified(node: Node): Node {
    const c = this.peek();
    let min: number;
    let max: number;
    if (c === "*" || c === "+" || c === "?") {
      this.i++;
      [min, max] = c === "*" ? [0, Infinity] : c === "+" ? [1, Infinity] : [0, 1];
    } else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.i, this.i + 24));
      if (!m) throw new Unsupported();
      this.i += m[0].length;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
    } else return node;
    // Laziness changes which match is found, never whether one is.
    if (this.peek() === "?") this.i++;
    return { t: "rep", node, min, max };
  }

  /** The set of a `[…]` class. */
  private characterClass(): CodeSet {
    this.i++;
    const negated = this.peek() === "^";
    if (negated) this.i++;
    const sets: CodeSet[] = [];
    while (this.peek() !== "]") {
      if (this.peek() === undefined) throw new Unsupported();
      const from = this.classAtom();
      if (this.peek() === "-" && this.source[this.i + 1] !== "]" && this.source[this.i + 1] !== undefined) {
        this.i++;
        const to = this.classAtom();
        // In the `u` mode a class escape cannot end a range (JavaScript refused it already).
        if (from.length !== 2 || to.length !== 2 || from[0] !== from[1] || to[0] !== to[1]) throw new Unsupported();
        sets.push([from[0]!, to[0]!]);
      } else sets.push(from);
    }
    this.i++;
    const set = union(sets);
    return negated ? complement(set) : set;
  }

  private classAtom(): CodeSet {
    return this.peek() === "\\" ? this.escape(true) : this.literal();
  }

  /** The set of an escape at `\`. */
  private escape(inClass: boolean): CodeSet {
    this.i++;
    const c = this.peek();
    if (c === undefined) throw new Unsupported();
    this.i++;
    const one = (code: number): CodeSet => [code, code];
    switch (c) {
      case "d":
        return DIGITS;
      case "D":
        return complement(DIGITS);
      case "w":
        return WORD;
      case "W":
        return complement(WORD);
      case "s":
        return SPACE;
      case "S":
        return complement(SPACE);
      case "t":
        return one(9);
      case "n":
        return one(10);
      case "v":
        return one(11);
      case "f":
        return one(12);
      case "r":
        return one(13);
      case "b":
        if (inClass) return one(8);
        throw new Unsupported();
      case "-":
        if (inClass) return one(0x2d);
        throw new Unsupported();
      case "0":
        if (/[0-9]/.test(this.peek() ?? "")) throw new Unsupported();
        return one(0);
      case "c": {
        const letter = this.peek() ?? "";
        if (!/[A-Za-z]/.test(letter)) throw new Unsupported();
        this.i++;
        return one(letter.charCodeAt(0) % 32);
      }
      case "x": {
        const hex = /^[0-9A-Fa-f]{2}/.exec(this.source.slice(this.i, this.i + 2));
        if (!hex) throw new Unsupported();
        this.i += 2;
        return one(parseInt(hex[0], 16));
      }
      case "u":
        return one(this.unicodeEscape());
      default:
        if ("^$\\.*+?()[]{}|/".includes(c)) return one(c.charCodeAt(0));
        throw new Unsupported(); // \B, back references, \k, \p, \P
    }
  }

  /** After `\u`: `{…}`, or four hex digits (a surrogate pair written as two escapes is one code point). */
  private unicodeEscape(): number {
    const braced = /^\{([0-9A-Fa-f]+)\}/.exec(this.source.slice(this.i, this.i + 10));
    if (braced) {
      this.i += braced[0].length;
      const code = parseInt(braced[1]!, 16);
      if (code > MAX_CODE_POINT) throw new Unsupported();
      return code;
    }
    const four = /^[0-9A-Fa-f]{4}/.exec(this.source.slice(this.i, this.i + 4));
    if (!four) throw new Unsupported();
    this.i += 4;
    const code = parseInt(four[0], 16);
    if (code >= 0xd800 && code <= 0xdbff) {
      const trail = /^\\u([dD][c-fC-F][0-9A-Fa-f]{2})/.exec(this.source.slice(this.i, this.i + 6));
      if (trail) {
        this.i += 6;
        return 0x10000 + ((code - 0xd800) << 10) + (parseInt(trail[1]!, 16) - 0xdc00);
      }
    }
    return code;
  }
}

/** Kinds of place: one that takes a character of a set, an assertion, a fork, a jump, the end of a match. */
const SET = 0;
const BOL = 1;
const EOL = 2;
const FORK = 3;
const MATCH = 4;

/** The places of a pattern (a Thompson automaton with sets on its edges). */
class Places {
  kinds: number[] = [];
  outs: number[] = [];
  alts: number[] = [];
  sets: (CodeSet | undefined)[] = [];
  /** Calls of `build` left: a pattern nests repetitions of empty groups (`(?:(?:){999}){999}`) builds nothing. */
  private work = 4 * MAX_PLACES;

  add(kind: number, set?: CodeSet): number {
    if (this.kinds.length >= MAX_PLACES) throw new Unsupported();
    this.kinds.push(kind);
    this.outs.push(-1);
    this.alts.push(-1);
    this.sets.push(set);
    return this.kinds.length - 1;
  }

  /** Places for `node`, entered at the place returned, leaving to `next`. Built back to front. */
  build(node: Node, next: number): number {
    if (--this.work < 0) throw new Unsupported();
    switch (node.t) {
      case "set": {
        const p = this.add(SET, node.set);
        this.outs[p] = next;
        return p;
      }
      case "bol":
      case "eol": {
        const p = this.add(node.t === "bol" ? BOL : EOL);
        this.outs[p] = next;
        return p;
      }
      case "seq": {
        let entry = next;
        for (let i = node.items.length - 1; i >= 0; i--) entry = this.build(node.items[i]!, entry);
        return entry;
      }
      case "alt": {
        const entries = node.items.map((item) => this.build(item, next));
        // A chain of forks, each to one alternative and the next fork.
        let entry = entries[entries.length - 1]!;
        for (let i = entries.length - 2; i >= 0; i--) {
          const f = this.add(FORK);
          this.outs[f] = entries[i]!;
          this.alts[f] = entry;
          entry = f;
        }
        return entry;
      }
      case "rep": {
        let entry = next;
        if (node.max === Infinity) {
          const loop = this.add(FORK);
          this.outs[loop] = this.build(node.node, loop);
          this.alts[loop] = next;
          entry = loop;
        } else {
          for (let k = node.min; k < node.max; k++) {
            const optional = this.add(FORK);
            this.outs[optional] = this.build(node.node, entry);
            this.alts[optional] = next;
            entry = optional;
          }
        }
        for (let k = 0; k < node.min; k++) entry = this.build(node.node, entry);
        return entry;
      }
    }
  }
}

/** A lazily built automaton that answers whether the pattern matches anywhere in a string. */
export interface PatternDfa {
  /** `undefined` when the string needed more states than the table holds: the caller asks re2js instead. */
  test(text: string): boolean | undefined;
  /** States made so far (for tests: bounded whatever the strings). */
  readonly states: number;
  /**
   * Makes every state the pattern can reach, within the same bounds as strings do; true when they all fit, and
   * from then on `test` answers every string (it never needs a state it does not have). What lets a bundle match
   * a pattern with no re2js: the build asks it of every pattern of a compiled validator, the run time again.
   */
  complete(): boolean;
}

/** The automaton of `source`, or `undefined` when the pattern uses what it does not read. */
export function patternDfa(source: string): PatternDfa | undefined {
  try {
    const tree = new Reader(source).read();
    const places = new Places();
    const match = places.add(MATCH);
    const start = places.build(tree, match);
    return new Dfa(
      places,
      start,
      [...required(tree)].slice(0, 3).map((code) => String.fromCodePoint(code)),
    );
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

/**
 * Characters every match contains: a string without one of them cannot match, which `includes` (far faster than
 * any automaton) finds out first. re2js does the same with its literals; `^\d*\d*\d*x$` on 500,000 digits is
 * answered without running the automaton.
 */
function required(node: Node): Set<number> {
  switch (node.t) {
    case "set":
      return node.set.length === 2 && node.set[0] === node.set[1] ? new Set([node.set[0]!]) : new Set();
    case "seq": {
      const all = new Set<number>();
      for (const item of node.items) for (const code of required(item)) all.add(code);
      return all;
    }
    case "alt": {
      let common = required(node.items[0]!);
      for (const item of node.items.slice(1)) {
        const mine = required(item);
        common = new Set([...common].filter((code) => mine.has(code)));
      }
      return common;
    }
    case "rep":
      return node.min > 0 ? required(node.node) : new Set();
    default:
      return new Set();
  }
}

const UNKNOWN = -1;
const TOO_MANY = -2;

class Dfa implements PatternDfa {
  /** Bounds of the kinds of characters: kind k holds the code points from bounds[k] to bounds[k + 1] - 1. */
  private readonly bounds: number[];
  /** The kind of each code point below 256. */
  private readonly latin1 = new Uint16Array(256);
  /** For each place that takes a set: whether it takes each kind of character. */
  private readonly takes: Uint8Array[] = [];
  private readonly classes: number;
  /** Each state's next state by kind of character; UNKNOWN until first needed. */
  private table: Int32Array;
  /** Each state's places: SET, EOL and MATCH places its closure reached. */
  private readonly stateSets: Int32Array[] = [];
  private readonly accepting: boolean[] = [];
  /** Whether the state matches at the end of the string (its `$`s pass), worked out when first needed. */
  private readonly acceptsAtEnd: (boolean | undefined)[] = [];
  private readonly index = new Map<string, number>();
  /** The places where a match may start after the first character (not past a `^`). */
  private readonly restart: number[];
  private readonly startState: number;
  /** Places seen in a closure (a mark per closure, never cleared). */
  private readonly seen: Int32Array;
  private mark = 0;
  /** Work spent making states so far (see MAX_WORK). */
  private work = 0;

  constructor(
    private readonly places: Places,
    private readonly start: number,
    /** Characters every match contains (see `required`). */
    private readonly needed: readonly string[],
  ) {
    const cuts = new Set<number>([0]);
    for (const set of places.sets) {
      if (!set) continue;
      for (let i = 0; i < set.length; i += 2) {
        cuts.add(set[i]!);
        if (set[i + 1]! < MAX_CODE_POINT) cuts.add(set[i + 1]! + 1);
      }
    }
    this.bounds = [...cuts].sort((a, b) => a - b);
    this.classes = this.bounds.length;
    // Which kinds each set takes is worked out once for all: a large pattern of many kinds is left to re2js.
    if (this.classes > MAX_CLASSES || this.classes * places.sets.length > MAX_WORK) throw new Unsupported();
    for (let c = 0; c < 256; c++) this.latin1[c] = this.kindOf(c);
    for (const set of places.sets) {
      const row = new Uint8Array(set ? this.classes : 0);
      if (set) {
        for (let k = 0; k < this.classes; k++) row[k] = contains(set, this.bounds[k]!) ? 1 : 0;
      }
      this.takes.push(row);
    }
    this.seen = new Int32Array(places.kinds.length);
    this.table = new Int32Array(this.classes * 16).fill(UNKNOWN);
    const restart: number[] = [];
    this.close([start], false, false, restart);
    this.restart = restart;
    const first: number[] = [];
    this.close([start], true, false, first);
    this.startState = this.stateOf(first);
    if (this.startState === TOO_MANY) throw new Unsupported();
  }

  get states(): number {
    return this.stateSets.length;
  }

  complete(): boolean {
    // States are numbered as they are made, so this walks every state reached, the ones it makes included.
    for (let state = 0; state < this.stateSets.length; state++) {
      for (let kind = 0; kind < this.classes; kind++) {
        if (this.table[state * this.classes + kind] === UNKNOWN && this.next(state, kind) === TOO_MANY) return false;
      }
    }
    return true;
  }

  /** The kind of a code point (binary search over the bounds). */
  private kindOf(code: number): number {
    let lo = 0;
    let hi = this.bounds.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.bounds[mid]! <= code) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /**
   * Adds to `out` the places reachable from `from` without taking a character: forks and jumps are followed, `^`
   * passes only at the start, `$` only at the end (elsewhere it stays in the set, for the end to decide).
   */
  private close(from: readonly number[], atStart: boolean, atEnd: boolean, out: number[]): void {
    const mark = ++this.mark;
    const { kinds, outs, alts } = this.places;
    const stack = [...from];
    while (stack.length > 0) {
      const p = stack.pop()!;
      this.work++;
      if (this.seen[p] === mark) continue;
      this.seen[p] = mark;
      switch (kinds[p]) {
        case FORK:
          stack.push(alts[p]!, outs[p]!);
          break;
        case BOL:
          if (atStart) stack.push(outs[p]!);
          break;
        case EOL:
          if (atEnd) stack.push(outs[p]!);
          else out.push(p);
          break;
        default:
          out.push(p);
      }
    }
  }

  /** The state of a set of places (SET, EOL, MATCH), made if new; TOO_MANY when the table is full. */
  private stateOf(places: number[]): number {
    this.work += places.length;
    places.sort((a, b) => a - b);
    const key = places.join(",");
    const known = this.index.get(key);
    if (known !== undefined) return known;
    const state = this.stateSets.length;
    if ((state + 1) * this.classes > MAX_CELLS || this.work > MAX_WORK) return TOO_MANY;
    if ((state + 1) * this.classes > this.table.length) {
      const larger = new Int32Array(this.table.length * 2).fill(UNKNOWN);
      larger.set(this.table);
      this.table = larger;
    }
    this.index.set(key, state);
    this.stateSets.push(Int32Array.from(places));
    this.accepting.push(places.some((p) => this.places.kinds[p] === MATCH));
    this.acceptsAtEnd.push(undefined);
    return state;
  }

  /** The state after `state` takes a character of kind `kind` (anywhere but at the start). */
  private next(state: number, kind: number): number {
    if (this.work > MAX_WORK) return TOO_MANY;
    const moved: number[] = [];
    const { kinds, outs } = this.places;
    for (const p of this.stateSets[state]!) if (kinds[p] === SET && this.takes[p]![kind] === 1) moved.push(outs[p]!);
    const out: number[] = [];
    // A match may also start at the next character: the places where one starts are added to every state.
    this.close([...moved, ...this.restart], false, false, out);
    const next = this.stateOf(out);
    if (next !== TOO_MANY) this.table[state * this.classes + kind] = next;
    return next;
  }

  private matchesAtEnd(state: number, atStart: boolean): boolean {
    const known = atStart ? undefined : this.acceptsAtEnd[state];
    if (known !== undefined) return known;
    const out: number[] = [];
    this.close(Array.from(this.stateSets[state]!), atStart, true, out);
    const accepts = out.some((p) => this.places.kinds[p] === MATCH);
    if (!atStart) this.acceptsAtEnd[state] = accepts;
    return accepts;
  }

  test(text: string): boolean | undefined {
    if (text.length === 0) {
      const out: number[] = [];
      this.close([this.start], true, true, out);
      return out.some((p) => this.places.kinds[p] === MATCH);
    }
    for (const char of this.needed) if (!text.includes(char)) return false;
    const { latin1, classes } = this;
    const deadEnd = this.restart.length === 0;
    let state = this.startState;
    let table = this.table;
    for (let i = 0; i < text.length; i++) {
      if (this.accepting[state]) return true;
      if (deadEnd && this.stateSets[state]!.length === 0) return false;
      let code = text.charCodeAt(i);
      if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
        const trail = text.charCodeAt(i + 1);
        if (trail >= 0xdc00 && trail <= 0xdfff) {
          code = 0x10000 + ((code - 0xd800) << 10) + (trail - 0xdc00);
          i++;
        }
      }
      const kind = code < 256 ? latin1[code]! : this.kindOf(code);
      let next = table[state * classes + kind]!;
      if (next === UNKNOWN) {
        next = this.next(state, kind);
        if (next === TOO_MANY) return undefined;
        table = this.table;
      }
      state = next;
    }
    return this.accepting[state]! || this.matchesAtEnd(state, false);
  }
}

function contains(set: CodeSet, code: number): boolean {
  for (let i = 0; i < set.length; i += 2) if (code >= set[i]! && code <= set[i + 1]!) return true;
  return false;
}
