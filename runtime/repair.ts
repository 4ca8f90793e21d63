/**
 * Lenient reading of arguments text that `JSON.parse` refused, for the slips whose intent is unambiguous:
 * - a markdown code fence around the JSON (```json … ```);
 * - trailing commas, single-quoted strings, unquoted (identifier) keys, `//` and `/* *\/` comments.
 * Nothing else: text cut short, unquoted values, Python constants, missing commas or colons, concatenated
 * documents and the like stay errors, because repairing them means guessing what the model meant.
 *
 * The repair itself is done by the `jsonrepair` library. It repairs far more than the list above, so its output is
 * accepted only when a lexical gate proves it means the same tokens as the input: both texts are split into JSON
 * tokens, the input's allowed variants are normalised (an unquoted key becomes a string, a single-quoted string
 * its value, a comma before a closing bracket is dropped, comments are skipped), and the two token lists must be
 * equal. The gate's lexer only recognises tokens; any character it does not know refuses the repair. It also
 * bounds the nesting depth before jsonrepair (which recurses) ever sees deep text.
 */
import type * as JsonRepair from "jsonrepair" with { "resolution-mode": "import" };

// jsonrepair ships a CommonJS build beside its ESM one, but its type declarations are ESM-only; the types are taken
// with resolution-mode "import" and the CommonJS build is loaded the way this CommonJS package loads everything.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { jsonrepair } = require("jsonrepair") as typeof JsonRepair;

/** One kind of slip that was repaired. */
export type RepairKind = "code_fence" | "trailing_comma" | "single_quotes" | "unquoted_key" | "comment";

export type RepairResult =
  /** `value` is the parsed JSON; `repairs` lists the slips that were repaired. */
  | { ok: true; value: unknown; repairs: RepairKind[] }
  /** Not repairable: `detail` says what is wrong and where, for the model. */
  | { ok: false; problem: "json"; detail: string }
  | { ok: false; problem: "too_deep" };

/** A whole text wrapped in one markdown code fence, with an optional language tag. */
const FENCE = /^\s*```[A-Za-z0-9_+.-]*[ \t]*(?:\r?\n)?([\s\S]*?)\r?\n?[ \t]*```\s*$/;

/**
 * Read `text` leniently. Call it only after `JSON.parse(text)` failed; `parseError` is that failure's message, used
 * as the explanation when the text holds none of the accepted slips (it is then exactly what is wrong).
 */
export function repairJson(text: string, parseError: string, maxDepth: number): RepairResult {
  const repairs: RepairKind[] = [];
  let body = text;
  const fenced = FENCE.exec(text);
  if (fenced) {
    body = fenced[1]!;
    repairs.push("code_fence");
    try {
      return { ok: true, value: JSON.parse(body), repairs };
    } catch (error) {
      parseError = messageOf(error);
    }
  }

  const input = lex(body, maxDepth, true);
  if (!input.ok) {
    if (input.tooDeep) return { ok: false, problem: "too_deep" };
    return refuse(input.detail, parseError, input.kinds.size > 0);
  }
  const expected = normalise(input.tokens, input.kinds);
  const hasSlips = input.kinds.size > 0;

  let repaired: string;
  try {
    repaired = jsonrepair(body);
  } catch (error) {
    return refuse(messageOf(error), parseError, hasSlips);
  }
  const output = lex(repaired, maxDepth, false);
  if (!output.ok) return refuse(output.detail, parseError, hasSlips);

  const difference = compare(expected, output.tokens, body.length);
  if (difference !== undefined) return refuse(difference, parseError, hasSlips);

  let value: unknown;
  try {
    value = JSON.parse(repaired);
  } catch (error) {
    return refuse(messageOf(error), parseError, hasSlips);
  }
  for (const kind of input.kinds) repairs.push(kind);
  return { ok: true, value, repairs };
}

/** The explanation for the model: the gate's own when the text has accepted slips (JSON.parse would point at one). */
function refuse(gateDetail: string, parseError: string, hasSlips: boolean): RepairResult {
  return { ok: false, problem: "json", detail: hasSlips ? gateDetail : parseError };
}

type TokenKind = "{" | "}" | "[" | "]" | ":" | "," | "string" | "number" | "literal" | "word";

interface Token {
  kind: TokenKind;
  /** The string's value, the number's text, the literal or word itself. */
  value: string;
  /** Offset in the lexed text. */
  at: number;
}

type LexResult =
  | { ok: true; tokens: Token[]; kinds: Set<RepairKind> }
  | { ok: false; tooDeep: boolean; detail: string; kinds: Set<RepairKind> };

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WORD = /[A-Za-z_$][A-Za-z0-9_$]*/y;
const HEX4 = /^[0-9a-fA-F]{4}$/;

/**
 * JSON tokens of `text`. `lenient` also takes the accepted slips (comments, single quotes, words as keys) and notes
 * them in `kinds`; trailing commas are noted by `normalise`. Iterative, so deep nesting cannot overflow the stack.
 */
function lex(text: string, maxDepth: number, lenient: boolean): LexResult {
  const tokens: Token[] = [];
  const kinds = new Set<RepairKind>();
  let depth = 0;
  let i = 0;
  const fail = (detail: string, tooDeep = false): LexResult => ({ ok: false, tooDeep, detail, kinds });
  while (i < text.length) {
    const c = text[i]!;
    if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      i++;
      continue;
    }
    if (lenient && c === "/" && text[i + 1] === "/") {
      kinds.add("comment");
      const end = text.indexOf("\n", i + 2);
      i = end === -1 ? text.length : end + 1;
      continue;
    }
    if (lenient && c === "/" && text[i + 1] === "*") {
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
    if (c === '"' || (lenient && c === "'")) {
      const string = readString(text, i, c);
      if (typeof string === "string") return fail(string);
      if (c === "'") kinds.add("single_quotes");
      tokens.push({ kind: "string", value: string.value, at: i });
      i = string.end;
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
      if (!literal && !lenient) return fail(`Unexpected word ${value} at position ${i}`);
      tokens.push({ kind: literal ? "literal" : "word", value, at: i });
      i += value.length;
      continue;
    }
    return fail(`Unexpected character ${JSON.stringify(c)} at position ${i}`);
  }
  return { ok: true, tokens, kinds };
}

/**
 * A double- or single-quoted string starting at `start`: its value and the offset after it, or what is wrong.
 * JSON escapes only (plus `\'` in single quotes); raw control characters are refused as JSON.parse refuses them.
 */
function readString(text: string, start: number, quote: string): { value: string; end: number } | string {
  let json = '"';
  let i = start + 1;
  for (;;) {
    if (i >= text.length) return `Unterminated string starting at position ${start}`;
    const c = text[i]!;
    if (c === quote) break;
    if (c < " ") return `Bad control character in string literal at position ${i}`;
    if (c === "\\") {
      const next = text[i + 1];
      if (next === "'" && quote === "'") {
        json += "'";
        i += 2;
        continue;
      }
      if (next === "u") {
        if (!HEX4.test(text.slice(i + 2, i + 6))) return `Bad Unicode escape at position ${i}`;
        json += text.slice(i, i + 6);
        i += 6;
        continue;
      }
      if (next === undefined || !'"\\/bfnrt'.includes(next)) return `Bad escaped character at position ${i}`;
      json += c + next;
      i += 2;
      continue;
    }
    json += c === '"' ? '\\"' : c;
    i++;
  }
  return { value: JSON.parse(`${json}"`) as string, end: i + 1 };
}

/** The input's tokens as strict JSON would have them: unquoted keys as strings, trailing commas gone. */
function normalise(tokens: Token[], kinds: Set<RepairKind>): Token[] {
  const out: Token[] = [];
  for (let k = 0; k < tokens.length; k++) {
    const token = tokens[k]!;
    const next = tokens[k + 1];
    if (token.kind === "," && (next?.kind === "}" || next?.kind === "]")) {
      kinds.add("trailing_comma");
      continue;
    }
    if (token.kind === "word" && next?.kind === ":") {
      kinds.add("unquoted_key");
      out.push({ kind: "string", value: token.value, at: token.at });
      continue;
    }
    out.push(token);
  }
  return out;
}

/** `undefined` when equal, else what differs, in the input's terms. */
function compare(expected: Token[], actual: Token[], inputLength: number): string | undefined {
  const n = Math.max(expected.length, actual.length);
  for (let k = 0; k < n; k++) {
    const want = expected[k];
    const got = actual[k];
    if (want && got && want.kind === got.kind && want.value === got.value) continue;
    if (!want) return `Unexpected end of the arguments at position ${inputLength}: the JSON is incomplete`;
    return `Unexpected ${describe(want)} at position ${want.at}`;
  }
  return undefined;
}

function describe(token: Token): string {
  switch (token.kind) {
    case "word":
      return `unquoted text ${token.value} (text values must be in double quotes)`;
    case "string":
      return `string ${JSON.stringify(token.value.length > 40 ? `${token.value.slice(0, 40)}…` : token.value)}`;
    case "number":
      return `number ${token.value}`;
    case "literal":
      return token.value;
    default:
      return `"${token.kind}"`;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
