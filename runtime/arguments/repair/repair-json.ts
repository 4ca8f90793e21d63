/**
 * Lenient reading of arguments text that `JSON.parse` refused, for the slips whose intent is unambiguous:
 * - a markdown code fence around the JSON (```json … ```);
 * - trailing commas, single-quoted strings, unquoted (identifier) keys, `//` and `/* *\/` comments;
 * - Python's constants `True`, `False` and `None` where a value stands (outside strings), read as JSON's.
 * Nothing else: text cut short, other unquoted values, missing commas or colons, concatenated
 * documents, hex numbers, NaN and the like stay errors, because reading them means guessing what the model meant.
 *
 * A small lexer runs first and admits only the listed slips: JSON tokens, comments, single-quoted strings with JSON
 * escapes, and identifiers where a key stands; any other character refuses the text. It also bounds the nesting
 * depth before anything builds a deep value, and notes which slips were present. The admitted text is then read by
 * lenient-json.ts, which says what is structurally wrong (a missing comma, text cut short) where it is.
 */
import { readJson } from "../read/bounded-json";
import { parseLenient } from "./lenient-json";

/** One kind of slip that was repaired. */
export type RepairKind =
  | "code_fence"
  | "trailing_comma"
  | "single_quotes"
  | "unquoted_key"
  | "comment"
  | "python_literal";

export type RepairResult =
  /** `value` is the parsed JSON; `repairs` lists the slips that were repaired. */
  | { ok: true; value: unknown; repairs: RepairKind[] }
  /** Not repairable: `detail` says what is wrong and where, for the model. */
  | { ok: false; problem: "json"; detail: string }
  | { ok: false; problem: "too_deep" };

/** Python's constants (a model writing a Python dict), by their JSON spelling: the same length each. */
const PYTHON_CONSTANTS: Readonly<Record<string, string>> = { True: "true", False: "false", None: "null" };

/**
 * Read `text` leniently. Call it only after `JSON.parse(text)` failed; `parseError` is that failure's message, used
 * as the explanation when the text holds none of the accepted slips (it is then exactly what is wrong). `parse`
 * reads the admitted text (lenient-json.ts; the differential test passes json5 there to compare the two).
 */
export function repairJson(
  text: string,
  parseError: string,
  maxDepth: number,
  parse: (body: string) => unknown = parseLenient,
): RepairResult {
  const repairs: RepairKind[] = [];
  let body = text;
  const fenced = unfence(text);
  if (fenced !== undefined) {
    body = fenced;
    repairs.push("code_fence");
    // The body is part of text the reader has measured; its nesting is counted again against the same limit.
    const read = readJson(body, { maxBytes: Infinity, maxDepth });
    if (read.ok) return { ok: true, value: read.value, repairs };
    if (read.problem === "too_deep") return { ok: false, problem: "too_deep" };
    if (read.problem === "json") parseError = read.detail;
  }

  const lexed = lex(body, maxDepth);
  if (!lexed.ok) {
    if (lexed.tooDeep) return { ok: false, problem: "too_deep" };
    classify(lexed.tokens, lexed.kinds);
    return refuse(lexed.detail, parseError, lexed.kinds.size > 0);
  }
  const python: Token[] = [];
  const stray = classify(lexed.tokens, lexed.kinds, python);
  const hasSlips = lexed.kinds.size > 0;
  if (stray)
    return refuse(
      `Unexpected unquoted text ${stray.value} at position ${stray.at} (text values must be in double quotes)`,
      parseError,
      hasSlips,
    );
  // Each Python constant has the length of its JSON spelling, so the other tokens' offsets stay right. Written
  // in one pass: splicing the text once per constant would cost its length each time.
  if (python.length > 0) {
    const parts: string[] = [];
    let from = 0;
    for (const token of python) {
      parts.push(body.slice(from, token.at), PYTHON_CONSTANTS[token.value]!);
      from = token.at + token.value.length;
    }
    parts.push(body.slice(from));
    body = parts.join("");
  }

  let value: unknown;
  try {
    value = parse(body);
  } catch (error) {
    return refuse(messageOf(error), parseError, hasSlips);
  }
  for (const kind of lexed.kinds) repairs.push(kind);
  return { ok: true, value, repairs };
}

/** The explanation for the model: the lenient reader's own when the text has accepted slips (JSON.parse would point at one). */
function refuse(detail: string, parseError: string, hasSlips: boolean): RepairResult {
  return { ok: false, problem: "json", detail: hasSlips ? detail : parseError };
}

type TokenKind = "{" | "}" | "[" | "]" | ":" | "," | "string" | "number" | "literal" | "word";

interface Token {
  kind: TokenKind;
  /** The number's text, the literal or word itself (`""` for strings, which the reader reads). */
  value: string;
  /** Offset in the lexed text. */
  at: number;
}

type LexResult =
  | { ok: true; tokens: Token[]; kinds: Set<RepairKind> }
  /** `tokens` are those read before the problem. */
  | { ok: false; tooDeep: boolean; detail: string; tokens: Token[]; kinds: Set<RepairKind> };

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WORD = /[A-Za-z_$][A-Za-z0-9_$]*/y;
const HEX4 = /^[0-9a-fA-F]{4}$/;
const LINE_END = /[\n\r\u2028\u2029]/g;

/**
 * The tokens of `text`, JSON's plus the accepted slips (comments, single-quoted strings, bare words), noting the
 * slips in `kinds`; trailing commas and unquoted keys are noted by `classify`. Iterative, so deep nesting cannot
 * overflow the stack.
 */
function lex(text: string, maxDepth: number): LexResult {
  const tokens: Token[] = [];
  const kinds = new Set<RepairKind>();
  let depth = 0;
  let i = 0;
  const fail = (detail: string, tooDeep = false): LexResult => ({ ok: false, tooDeep, detail, tokens, kinds });
  while (i < text.length) {
    const c = text[i]!;
    if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      i++;
      continue;
    }
    if (c === "/" && text[i + 1] === "/") {
      kinds.add("comment");
      // The comment ends at any line break the reader ends it at (a lone "\r" too), so no text hides behind one.
      LINE_END.lastIndex = i + 2;
      i = LINE_END.exec(text) ? LINE_END.lastIndex : text.length;
      continue;
    }
    if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      if (end === -1) return fail(`Unterminated comment at position ${i}`);
      kinds.add("comment");
      i = end + 2;
      continue;
    }
    if (c === "{" || c === "[") {
      if (++depth > maxDepth) return fail("", true);
      tokens.push({ kind: c, value: c, at: i++ });
      continue;
    }
    if (c === "}" || c === "]") depth--;
    if (c === "{" || c === "}" || c === "[" || c === "]" || c === ":" || c === ",") {
      tokens.push({ kind: c, value: c, at: i++ });
      continue;
    }
    if (c === '"' || c === "'") {
      const end = scanString(text, i, c);
      if (typeof end === "string") return fail(end);
      if (c === "'") kinds.add("single_quotes");
      tokens.push({ kind: "string", value: "", at: i });
      i = end;
      continue;
    }
    NUMBER.lastIndex = i;
    const number = NUMBER.exec(text);
    if (number) {
      const end = i + number[0].length;
      if (end < text.length && /[A-Za-z0-9_$.]/.test(text[end]!)) {
        return fail(`Unexpected character ${JSON.stringify(text[end])} in a number at position ${end}`);
      }
      tokens.push({ kind: "number", value: number[0], at: i });
      i = end;
      continue;
    }
    WORD.lastIndex = i;
    const word = WORD.exec(text);
    if (word) {
      const value = word[0];
      const literal = value === "true" || value === "false" || value === "null";
      tokens.push({ kind: literal ? "literal" : "word", value, at: i });
      i += value.length;
      continue;
    }
    return fail(`Unexpected character ${JSON.stringify(c)} at position ${i}`);
  }
  return { ok: true, tokens, kinds };
}

/**
 * The end (offset after the closing quote) of the double- or single-quoted string starting at `start`, or what is
 * wrong with it. JSON escapes only (plus `\'` in single quotes); raw control characters are refused as JSON.parse
 * refuses them. The value itself is the reader's to read.
 */
function scanString(text: string, start: number, quote: string): number | string {
  let i = start + 1;
  for (;;) {
    if (i >= text.length) return `Unterminated string starting at position ${start}`;
    const c = text[i]!;
    if (c === quote) return i + 1;
    if (c < " ") return `Bad control character in string literal at position ${i}`;
    if (c === "\\") {
      const next = text[i + 1];
      if (next === "u") {
        if (!HEX4.test(text.slice(i + 2, i + 6))) return `Bad Unicode escape at position ${i}`;
        i += 6;
        continue;
      }
      const allowed = quote === "'" ? "\"\\/bfnrt'" : '"\\/bfnrt';
      if (next === undefined || !allowed.includes(next)) return `Bad escaped character at position ${i}`;
      i += 2;
      continue;
    }
    i++;
  }
}

/**
 * Note trailing commas, unquoted keys and Python constants in `kinds` (the constants' tokens into `python`); return
 * the first other bare word that is not a key (an unquoted value such as `Oslo` or `NaN`), which no reading of the
 * text may accept.
 */
function classify(tokens: Token[], kinds: Set<RepairKind>, python: Token[] = []): Token | undefined {
  for (let k = 0; k < tokens.length; k++) {
    const token = tokens[k]!;
    const next = tokens[k + 1];
    const previous = tokens[k - 1];
    // A trailing comma follows a value: `{,}` and `[1,,]` are not trailing commas (and the reader refuses them).
    if (
      token.kind === "," &&
      (next?.kind === "}" || next?.kind === "]") &&
      previous !== undefined &&
      !"{[,:".includes(previous.kind)
    ) {
      kinds.add("trailing_comma");
    }
    // Before a colon, a bare word is a key, even one spelled true, false or null.
    if ((token.kind === "word" || token.kind === "literal") && next?.kind === ":") {
      kinds.add("unquoted_key");
      continue;
    }
    if (token.kind === "word" && Object.hasOwn(PYTHON_CONSTANTS, token.value)) {
      kinds.add("python_literal");
      python.push(token);
      continue;
    }
    if (token.kind === "word") return token;
  }
  return undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The body of a text wrapped whole in one markdown code fence (an optional language tag after the opening one),
 * or `undefined`. A scan from both ends, linear in the text: the regular expression it replaces backtracked over
 * white space after an opening fence, quadratically (156 KiB of spaces took 70 s).
 */
export function unfence(text: string): string | undefined {
  let start = 0;
  while (start < text.length && isWhiteSpace(text[start]!)) start++;
  if (!text.startsWith("```", start)) return undefined;
  let from = start + 3;
  while (from < text.length && isTagCharacter(text.charCodeAt(from))) from++;
  while (text[from] === " " || text[from] === "\t") from++;
  if (text[from] === "\r" && text[from + 1] === "\n") from += 2;
  else if (text[from] === "\n") from++;
  let end = text.length;
  while (end > 0 && isWhiteSpace(text[end - 1]!)) end--;
  const closing = end - 3;
  if (closing < from || !text.startsWith("```", closing)) return undefined;
  // The white space before the closing fence belongs to the fence: spaces and tabs, then one line end.
  let to = closing;
  while (to > from && (text[to - 1] === " " || text[to - 1] === "\t")) to--;
  if (to > from && text[to - 1] === "\n") to--;
  if (to > from && text[to - 1] === "\r") to--;
  return text.slice(from, to);
}

/** A language tag's characters: letters, digits, `_ + . -`. */
function isTagCharacter(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 95 ||
    code === 43 ||
    code === 46 ||
    code === 45
  );
}

/** JavaScript's white space and line terminators (what `\s` matches), one character at a time. */
function isWhiteSpace(character: string): boolean {
  return WHITE_SPACE.has(character);
}

const WHITE_SPACE = new Set([
  "\t",
  "\n",
  "\v",
  "\f",
  "\r",
  " ",
  "\u00a0",
  "\u1680",
  "\u2000",
  "\u2001",
  "\u2002",
  "\u2003",
  "\u2004",
  "\u2005",
  "\u2006",
  "\u2007",
  "\u2008",
  "\u2009",
  "\u200a",
  "\u2028",
  "\u2029",
  "\u202f",
  "\u205f",
  "\u3000",
  "\ufeff",
]);
