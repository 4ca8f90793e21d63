/**
 * A JSON Schema `pattern` (ECMAScript syntax, `u` flag) written in the syntax of Rust's `regex` crate, the dialect of
 * OpenAI's `regex` grammars (a free-form tool's `format`), so that the grammar the model is held to and the pattern
 * dispatch checks are one language; or why it cannot be. The facts relied on (docs/providers.md cites them):
 * - Rust's `regex` has no look-around and no backreferences (its crate docs; rust-lang/regex#618);
 * - its `\d`, `\s`, `\w` and `\b` are Unicode-aware, JavaScript's `\d`, `\w` and `\b` are ASCII and its `\s` is its
 *   own list, so the classes are written out as JavaScript means them; `\b` and `\B` (assertions, which a grammar of
 *   text cannot hold as JavaScript means them) are refused;
 * - its `.` stops only at `\n`, JavaScript's also at `\r`, U+2028 and U+2029: written out too;
 * - inside a class, `[`, `&&`, `--` and `~~` are Rust's nesting and set operations, literals in JavaScript: escaped;
 * - a grammar holds the model to the whole text, so a lazy quantifier means what the greedy one does: written greedy.
 * Unicode property classes (`\p{…}`) are refused: their names and the Unicode version behind them differ by engine.
 */

/** The Rust form of a pattern, or why there is none (`at`: the offset in the pattern where the reason applies). */
export type RustRegex = { ok: true; definition: string } | { ok: false; reason: string; at: number };

/** JavaScript's `\s` as members of a Rust class. */
const WHITE_SPACE =
  "\\x{9}-\\x{D}\\x{20}\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}";
const DIGIT = "0-9";
const WORD = "0-9A-Za-z_";
/** JavaScript's `.` without the `s` flag. */
const ANY_BUT_LINE_END = "[^\\x{A}\\x{D}\\x{2028}\\x{2029}]";
/** What Rust reads as syntax outside a class (`#`, `&`, `-` and `~` are literals there without the `x` flag). */
const META = new Set("\\.+*?()|[]{}^$");
/** What Rust reads as syntax inside a class. */
const CLASS_META = new Set("\\[]^-&~");

const cache = new Map<string, RustRegex>();

/** `pattern` in Rust's `regex` syntax, meaning what it means in JavaScript; remembered per pattern. */
export function toRustRegex(pattern: string): RustRegex {
  let found = cache.get(pattern);
  if (found === undefined) {
    found = translate(pattern);
    if (cache.size < 256) cache.set(pattern, found);
  }
  return found;
}

class Refusal {
  constructor(
    readonly reason: string,
    readonly at: number,
  ) {}
}

function translate(pattern: string): RustRegex {
  try {
    new RegExp(pattern, "u");
  } catch (error) {
    return { ok: false, reason: `it is not a valid pattern (${(error as Error).message})`, at: 0 };
  }
  try {
    const parser = new Parser(pattern);
    const definition = parser.disjunction();
    if (parser.at < pattern.length) throw new Refusal("it is not a valid pattern", parser.at);
    return { ok: true, definition };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, reason: error.reason, at: error.at };
    throw error;
  }
}

class Parser {
  at = 0;
  constructor(private readonly source: string) {}

  disjunction(): string {
    let out = this.alternative();
    while (this.peek() === "|") {
      this.at++;
      out += `|${this.alternative()}`;
    }
    return out;
  }

  private alternative(): string {
    let out = "";
    while (this.at < this.source.length && this.peek() !== "|" && this.peek() !== ")") out += this.term();
    return out;
  }

  private term(): string {
    const start = this.at;
    const c = this.peek();
    if (c === "^" || c === "$") {
      this.at++;
      return c;
    }
    let atom: string;
    if (c === "(") atom = this.group();
    else if (c === "[") atom = this.cls();
    else if (c === ".") {
      this.at++;
      atom = ANY_BUT_LINE_END;
    } else if (c === "\\") atom = this.atomEscape(start);
    else atom = literal(this.codePoint());
    return atom + this.quantifier();
  }

  private quantifier(): string {
    const c = this.peek();
    let out = "";
    if (c === "*" || c === "+" || c === "?") {
      this.at++;
      out = c;
    } else if (c === "{") {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.at));
      if (!match) return "";
      this.at += match[0].length;
      out = match[0];
    } else return "";
    // Lazy and greedy repetition hold the whole text to the same language.
    if (this.peek() === "?") this.at++;
    return out;
  }

  private group(): string {
    const start = this.at;
    this.at++;
    let open = "(";
    if (this.source.startsWith("?", this.at)) {
      const rest = this.source.slice(this.at);
      if (rest.startsWith("?:")) {
        open = "(?:";
        this.at += 2;
      } else if (/^\?<[=!]/.test(rest) || /^\?[=!]/.test(rest)) {
        throw new Refusal(
          "it has a look-around assertion ((?=, (?!, (?<=, (?<!), which Rust's regex syntax does not have",
          start,
        );
      } else {
        const named = /^\?<([^>]+)>/.exec(rest);
        if (!named) throw new Refusal("it has a group modifier that Rust's regex syntax reads otherwise", start);
        this.at += named[0].length;
      }
    }
    const inner = this.disjunction();
    if (this.peek() !== ")") throw new Refusal("it is not a valid pattern", this.at);
    this.at++;
    return `${open}${inner})`;
  }

  private atomEscape(start: number): string {
    this.at++;
    const c = this.peek();
    if (c === "b" || c === "B")
      throw new Refusal(
        `it has the word boundary \\${c}, which is Unicode-aware in Rust's regex and ASCII in JavaScript`,
        start,
      );
    if (/[1-9]/.test(c) || c === "k")
      throw new Refusal("it has a backreference, which Rust's regex syntax does not have", start);
    const shorthand = this.shorthand(start);
    if (shorthand !== undefined) return shorthand.negated ? `[^${shorthand.members}]` : `[${shorthand.members}]`;
    return literal(this.characterEscape(start, false));
  }

  /** `\d`, `\D`, `\s`, `\S`, `\w`, `\W` as class members (after the backslash); undefined for another escape. */
  private shorthand(start: number): { members: string; negated: boolean } | undefined {
    const c = this.peek();
    if (c === "p" || c === "P")
      throw new Refusal(
        "it has a Unicode property class (\\p{…}), whose names and Unicode version differ between engines; write the characters or ranges instead",
        start,
      );
    const members =
      c === "d" || c === "D" ? DIGIT : c === "s" || c === "S" ? WHITE_SPACE : c === "w" || c === "W" ? WORD : undefined;
    if (members === undefined) return undefined;
    this.at++;
    return { members, negated: c === c.toUpperCase() };
  }

  /** The code point a character escape stands for (after the backslash). */
  private characterEscape(start: number, inClass: boolean): number {
    const c = this.peek();
    const rest = this.source.slice(this.at);
    const simple: Record<string, number> = { f: 0xc, n: 0xa, r: 0xd, t: 0x9, v: 0xb, "0": 0 };
    if (inClass && c === "b") {
      this.at++;
      return 0x8;
    }
    if (c in simple && !(c === "0" && /^0\d/.test(rest))) {
      this.at++;
      return simple[c]!;
    }
    if (c === "c" && /^c[A-Za-z]/.test(rest)) {
      this.at += 2;
      return rest.charCodeAt(1) % 32;
    }
    let match = /^x([0-9A-Fa-f]{2})/.exec(rest) ?? /^u\{([0-9A-Fa-f]+)\}/.exec(rest);
    if (match) {
      this.at += match[0].length;
      return Number.parseInt(match[1]!, 16);
    }
    match = /^u([0-9A-Fa-f]{4})(?:\\u([0-9A-Fa-f]{4}))?/.exec(rest);
    if (match) {
      const high = Number.parseInt(match[1]!, 16);
      const low = match[2] === undefined ? undefined : Number.parseInt(match[2], 16);
      if (high >= 0xd800 && high <= 0xdbff && low !== undefined && low >= 0xdc00 && low <= 0xdfff) {
        this.at += match[0].length;
        return 0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00);
      }
      this.at += 5;
      if (high >= 0xd800 && high <= 0xdfff)
        throw new Refusal("it has a lone surrogate, which no text Rust reads can hold", start);
      return high;
    }
    // An identity escape: a syntax character, `/`, or `-` in a class.
    return this.codePoint();
  }

  private cls(): string {
    const start = this.at;
    this.at++;
    let negated = false;
    if (this.peek() === "^") {
      negated = true;
      this.at++;
    }
    let members = "";
    while (this.peek() !== "]") {
      if (this.at >= this.source.length) throw new Refusal("it is not a valid pattern", start);
      const from = this.classAtom();
      if (typeof from === "string") {
        members += from;
        continue;
      }
      if (this.peek() === "-" && this.source[this.at + 1] !== "]" && this.at + 1 < this.source.length) {
        this.at++;
        const to = this.classAtom();
        if (typeof to === "string") throw new Refusal("it is not a valid pattern", start);
        members += `${classLiteral(from)}-${classLiteral(to)}`;
      } else members += classLiteral(from);
    }
    this.at++;
    if (members === "") {
      if (!negated) throw new Refusal("it has an empty class ([]), which matches nothing", start);
      return "[\\x{0}-\\x{10FFFF}]";
    }
    return `[${negated ? "^" : ""}${members}]`;
  }

  /** One member of a class: a code point, or a shorthand written as Rust class members. */
  private classAtom(): number | string {
    if (this.peek() !== "\\") return this.codePoint();
    const start = this.at;
    this.at++;
    const shorthand = this.shorthand(start);
    if (shorthand !== undefined) return shorthand.negated ? `[^${shorthand.members}]` : shorthand.members;
    return this.characterEscape(start, true);
  }

  private peek(): string {
    return this.source[this.at] ?? "";
  }

  private codePoint(): number {
    const code = this.source.codePointAt(this.at)!;
    this.at += code > 0xffff ? 2 : 1;
    return code;
  }
}

/** A literal outside a class. */
function literal(code: number): string {
  const c = String.fromCodePoint(code);
  if (META.has(c)) return `\\${c}`;
  return printable(code) ? c : hex(code);
}

/** A literal inside a class. */
function classLiteral(code: number): string {
  const c = String.fromCodePoint(code);
  if (CLASS_META.has(c)) return `\\${c}`;
  return printable(code) ? c : hex(code);
}

function printable(code: number): boolean {
  return code >= 0x20 && code !== 0x7f && !(code >= 0x80 && code <= 0xa0) && code !== 0x2028 && code !== 0x2029;
}

function hex(code: number): string {
  return `\\x{${code.toString(16).toUpperCase()}}`;
}
