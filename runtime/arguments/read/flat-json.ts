/**
 * The flat JSON objects most tool calls carry (`{"city":"Paris","days":3}`), read without `JSON.parse`: each key is
 * matched against the tool's own property names, so no key string is made or interned, and each value is a string
 * without escapes, an integer of at most 15 digits, `true`, `false` or `null`. For any other text the answer is
 * `undefined` and the caller parses it with `JSON.parse`, as before. An object it returns is what `JSON.parse`
 * returns for the same text: the same own keys in the same order, the same values (test/security/hostile-input.test.ts
 * holds it to that on generated and mutated text). `JSON.parse` spent most of a one-call dispatch (docs/performance.md).
 * Which keys: flat-keys.ts. Dispatch reaches it through `#lazy/flat-json` (dispatch/read-flat.ts; in a bundle a chunk).
 */
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const CLOSE = 0x7d;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const DOT = 0x2e;

/** Past 15 digits an integer may not be a double exactly: `JSON.parse` rounds it, so it is left to `JSON.parse`. */
const MAX_DIGITS = 15;

/**
 * `JSON.parse(text)` for text that starts with `{` (the caller checked) and is a flat object of `keys` (see above),
 * else undefined. Linear in the text: each character is looked at once, each key against at most 16 names.
 */
export function readFlatObject(text: string, keys: readonly string[]): Record<string, unknown> | undefined {
  const end = text.length;
  const out: Record<string, unknown> = {};
  let seen = 0;
  // Each token is looked for where it would be without whitespace first: most model output has none.
  let i = past(text, 1, QUOTE);
  for (;;) {
    if (i < 0) return undefined;
    const index = keyAt(text, i, keys);
    if (index < 0 || (seen & (1 << index)) !== 0) return undefined;
    seen |= 1 << index;
    const key = keys[index]!;
    i = past(text, i + key.length + 1, COLON);
    if (i < 0) return undefined;
    let first = text.charCodeAt(i);
    if (first <= 0x20) {
      i = skipSpace(text, i);
      first = text.charCodeAt(i);
    }
    let value: unknown;
    if (first === QUOTE) {
      const close = stringEnd(text, i + 1, end);
      if (close < 0) return undefined;
      value = text.slice(i + 1, close);
      i = close + 1;
    } else if (first === 0x74 /* t */ && text.startsWith("true", i)) {
      value = true;
      i += 4;
    } else if (first === 0x66 /* f */ && text.startsWith("false", i)) {
      value = false;
      i += 5;
    } else if (first === 0x6e /* n */ && text.startsWith("null", i)) {
      value = null;
      i += 4;
    } else {
      const after = integerEnd(text, i);
      if (after < 0) return undefined;
      value = integerValue(text, i, after);
      i = after;
    }
    // An own data property, as JSON.parse defines: no key is a name Object.prototype has (flat-keys.ts), and a
    // property polluting it later is a writable one, which an assignment shadows. (Code in the process that defines
    // an accessor or a read-only property there could as well replace JSON.parse.)
    out[key] = value;
    let next = text.charCodeAt(i);
    if (next <= 0x20) {
      i = skipSpace(text, i);
      next = text.charCodeAt(i);
    }
    if (next !== COMMA) return next === CLOSE && skipSpace(text, i + 1) === end ? out : undefined;
    i = past(text, i + 1, QUOTE);
  }
}

/** The index just past the character `code` at `i`, JSON whitespace before it allowed; -1 when it is not there. */
function past(text: string, i: number, code: number): number {
  if (text.charCodeAt(i) === code) return i + 1;
  const at = skipSpace(text, i);
  return text.charCodeAt(at) === code ? at + 1 : -1;
}

/** The index in `keys` of the key whose text starts at `from` and ends at a quote (not read past), else -1. */
function keyAt(text: string, from: number, keys: readonly string[]): number {
  const first = text.charCodeAt(from);
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k]!;
    // An empty name matches only an empty key: its first character is then the closing quote.
    if ((key.length === 0 ? QUOTE : key.charCodeAt(0)) !== first) continue;
    if (text.charCodeAt(from + key.length) === QUOTE && text.startsWith(key, from)) return k;
  }
  return -1;
}

/** The index of the quote that closes a string begun before `from`; -1 at an escape, a control character or the end. */
function stringEnd(text: string, from: number, end: number): number {
  for (let j = from; j < end; j++) {
    const c = text.charCodeAt(j);
    if (c === QUOTE) return j;
    if (c === BACKSLASH || c < 0x20) return -1;
  }
  return -1;
}

/**
 * The index just past a JSON integer at `from` (`0`, or an optional minus and 1 to 15 digits without a leading zero),
 * else -1: `-0`, a fraction or an exponent, more digits, or no number at all are `JSON.parse`'s.
 */
function integerEnd(text: string, from: number): number {
  let j = text.charCodeAt(from) === MINUS ? from + 1 : from;
  const start = j;
  let c = text.charCodeAt(j);
  if (c === ZERO) {
    if (j !== from) return -1;
    j++;
  } else {
    while (c >= ZERO && c <= NINE) c = text.charCodeAt(++j);
    if (j === start || j - start > MAX_DIGITS) return -1;
  }
  c = text.charCodeAt(j);
  return c === DOT || c === 0x65 /* e */ || c === 0x45 /* E */ || (c >= ZERO && c <= NINE) ? -1 : j;
}

function integerValue(text: string, from: number, to: number): number {
  const negative = text.charCodeAt(from) === MINUS;
  let value = 0;
  for (let j = negative ? from + 1 : from; j < to; j++) value = value * 10 + (text.charCodeAt(j) - ZERO);
  return negative ? -value : value;
}

/** The index of the first character at or after `from` that is not JSON whitespace (space, tab, line feed, return). */
function skipSpace(text: string, from: number): number {
  let i = from;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
    i++;
  }
}
