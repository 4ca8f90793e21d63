/**
 * The lenient JSON reader behind repair-json.ts: JSON plus `//` and `/* *\/` comments, single-quoted strings, unquoted
 * (identifier) keys and trailing commas, read in one pass with an explicit stack (no recursion, linear in the text).
 *
 * It reads the text repair-json.ts's lexer has admitted (JSON tokens, those slips, words only as keys or literals), and
 * explains what is structurally wrong with it (a missing comma or colon, a value where a key belongs, text cut
 * short) by the character where reading stopped, with its line and column; the words are those repair-json.ts has
 * always sent for these problems. Values come out as `JSON.parse` makes them: plain objects whose `__proto__` key
 * is an own property like any other, later duplicate keys winning.
 */

/** The literals a value can start with, by first letter (`Infinity` and `NaN` are read only to be refused after). */
const LITERALS: Readonly<Record<string, readonly [string, unknown]>> = {
  n: ["null", null],
  t: ["true", true],
  f: ["false", false],
  I: ["Infinity", Infinity],
  N: ["NaN", NaN],
};

const ESCAPES: Readonly<Record<string, string>> = { b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v", 0: "\0" };

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const KEY = /[A-Za-z_$][A-Za-z0-9_$]*/y;
const SPACE = /[ \t\n\r\v\f\u00a0\ufeff\u2028\u2029]/;

/** Where the reader stands: a value is due (top level, after a colon), an array item or `]`, a key or `}`, a colon, or what follows a value. */
enum At {
  Value,
  Item,
  Key,
  Colon,
  After,
}

type Container = unknown[] | Record<string, unknown>;

/** The value `text` holds; throws a SyntaxError naming the character (line and column) where reading stopped. */
export function parseLenient(text: string): unknown {
  const stack: Container[] = [];
  let root: unknown;
  let key = "";
  let at: At = At.Value;
  let i = 0;
  for (;;) {
    i = skipSpace(text, i);
    const c = text[i];
    const top = stack[stack.length - 1];
    if (at === At.After) {
      if (top === undefined) {
        if (c === undefined) return root;
        throw unexpected(text, i);
      }
      const close = Array.isArray(top) ? "]" : "}";
      if (c === ",") at = Array.isArray(top) ? At.Item : At.Key;
      else if (c === close) stack.pop();
      else throw unexpected(text, i);
      i++;
      continue;
    }
    if (c === undefined) throw unexpected(text, i);
    if (at === At.Colon) {
      if (c !== ":") throw unexpected(text, i);
      at = At.Value;
      i++;
      continue;
    }
    if (at === At.Key) {
      if (c === "}") {
        stack.pop();
        at = At.After;
        i++;
      } else if (c === '"' || c === "'") {
        [key, i] = readString(text, i);
        at = At.Colon;
      } else {
        KEY.lastIndex = i;
        const word = KEY.exec(text);
        if (!word) throw unexpected(text, i);
        key = word[0];
        i += key.length;
        at = At.Colon;
      }
      continue;
    }
    if (at === At.Item && c === "]") {
      stack.pop();
      at = At.After;
      i++;
      continue;
    }
    // A value is due.
    let value: unknown;
    let opened: Container | undefined;
    if (c === "{" || c === "[") {
      value = opened = c === "{" ? {} : [];
      i++;
    } else if (c === '"' || c === "'") {
      [value, i] = readString(text, i);
    } else if (c === "-" || (c >= "0" && c <= "9")) {
      NUMBER.lastIndex = i;
      const number = NUMBER.exec(text);
      if (!number) throw unexpected(text, i + 1);
      value = Number(number[0]);
      i += number[0].length;
    } else {
      const literal = LITERALS[c];
      if (!literal) throw unexpected(text, i);
      const [word, meaning] = literal;
      for (let k = 1; k < word.length; k++) if (text[i + k] !== word[k]) throw unexpected(text, i + k);
      value = meaning;
      i += word.length;
    }
    if (top === undefined) root = value;
    else if (Array.isArray(top)) top.push(value);
    // `__proto__` as an own property (as JSON.parse makes it), never the prototype.
    else if (key === "__proto__")
      Object.defineProperty(top, key, { value, writable: true, enumerable: true, configurable: true });
    else top[key] = value;
    if (opened) {
      stack.push(opened);
      at = Array.isArray(opened) ? At.Item : At.Key;
    } else {
      at = At.After;
    }
  }
}

/** The offset after the white space and comments at `i`. */
function skipSpace(text: string, i: number): number {
  for (;;) {
    const c = text[i];
    if (c === undefined) return i;
    if (c === "/") {
      const next = text[i + 1];
      if (next === "*") {
        const end = text.indexOf("*/", i + 2);
        if (end === -1) throw unexpected(text, text.length);
        i = end + 2;
      } else if (next === "/") {
        // A line comment ends with its line (the line break is read with it).
        i += 2;
        while (i < text.length && !"\n\r\u2028\u2029".includes(text[i]!)) i++;
        i++;
      } else {
        throw unexpected(text, i + 1);
      }
    } else if (SPACE.test(c)) {
      i++;
    } else {
      return i;
    }
  }
}

/** The string whose opening quote is at `start`, and the offset after its closing quote. */
function readString(text: string, start: number): [string, number] {
  const quote = text[start]!;
  let out = "";
  let from = start + 1;
  let i = from;
  for (;;) {
    const c = text[i];
    if (c === undefined || c === "\n" || c === "\r") throw unexpected(text, i);
    if (c === quote) return [out + text.slice(from, i), i + 1];
    if (c !== "\\") {
      i++;
      continue;
    }
    out += text.slice(from, i);
    const escaped = text[i + 1];
    if (escaped === undefined) throw unexpected(text, i + 1);
    if (escaped === "u") {
      let digits = 0;
      while (digits < 4 && /[0-9a-fA-F]/.test(text[i + 2 + digits] ?? "")) digits++;
      if (digits < 4) throw unexpected(text, i + 2 + digits);
      out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
      i += 6;
    } else {
      out += ESCAPES[escaped] ?? escaped;
      i += 2;
    }
    from = i;
  }
}

/**
 * The error for the character at `offset` (or the end of the text), placed as editors count: lines split at `\n`,
 * columns in UTF-16 units from 1, the position just after that character (a line break ends its line: column 0 of
 * the next).
 */
function unexpected(text: string, offset: number): SyntaxError {
  const end = offset >= text.length;
  const c = end ? "" : String.fromCodePoint(text.codePointAt(offset)!);
  const after = end ? text.length + 1 : offset + c.length;
  const before = text.slice(0, Math.min(after, text.length));
  const line = before.split("\n").length;
  const column = after - (before.lastIndexOf("\n") + 1);
  const place = `at line ${line} column ${column}`;
  return new SyntaxError(
    end
      ? `Unexpected end of the arguments (the JSON is incomplete) ${place}`
      : `Unexpected character '${shown(c)}' ${place}`,
  );
}

const SHOWN: Readonly<Record<string, string>> = {
  "'": "\\'",
  '"': '\\"',
  "\\": "\\\\",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\v": "\\v",
  "\0": "\\0",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

/** A character as the message quotes it: escaped where it would not show. */
function shown(c: string): string {
  return SHOWN[c] ?? (c < " " ? `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}` : c);
}
