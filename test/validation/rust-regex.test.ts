/**
 * The dialect checker of free-form tools' patterns (runtime/validation/patterns/rust-regex.ts): which ECMAScript
 * patterns OpenAI's `regex` grammar (Rust's `regex` syntax) can hold, and how each is written there. The written
 * form is then run by RE2 (re2js, whose syntax Rust's `regex` shares for everything the checker writes) against
 * JavaScript's own engine on sample texts: both must accept the same ones.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { RE2JS } from "re2js";
import { toRustRegex } from "../../runtime/validation/patterns/rust-regex";

/** Accepted: the pattern, its Rust form, and texts to compare the two engines on. */
const ACCEPTED: [string, string, string[]][] = [
  ["^[a-z]+$", "^[a-z]+$", ["abc", "", "aB", "a\n"]],
  ["^\\d{3}-\\d{4}$", "^[0-9]{3}-[0-9]{4}$", ["555-1234", "٥٥٥-1234", "55-1234"]],
  ["^a.b$", "^a[^\\x{A}\\x{D}\\x{2028}\\x{2029}]b$", ["axb", "a\rb", "a\u2028b", "a\u0085b"]],
  ["^\\w+$", "^[0-9A-Za-z_]+$", ["snake_case", "café", "x1"]],
  [
    "^\\s$",
    `^[${"\\x{9}-\\x{D}\\x{20}\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}"}]$`,
    [" ", "\ufeff", "\u0085", "x"],
  ],
  ["^[\\w-]+$", "^[0-9A-Za-z_\\-]+$", ["a-b", "a b"]],
  ["^a*?b$", "^a*b$", ["aab", "b", "ba"]],
  ["^(?<year>\\d{4})$", "^([0-9]{4})$", ["2026", "20266"]],
  ["^[a&&b]$", "^[a\\&\\&b]$", ["a", "&", "c"]],
  ["^[\\]\\[^-]$", "^[\\]\\[\\^\\-]$", ["]", "[", "^", "-", "a"]],
  ["^\\u{1F600}|x$", "^😀|x$", ["😀", "x"]],
  ["^\\uD83D\\uDE00$", "^😀$", ["😀"]],
  ["^a{2,}|#&~$", "^a{2,}|#&~$", ["aa", "a", "#&~"]],
  ["^\\/\\$\\.$", "^/\\$\\.$", ["/$.", "/$x"]],
  ["^\\cJ\\0\\x41[\\b]$", "^\\x{A}\\x{0}A[\\x{8}]$", ["\n\0A\b"]],
  ["^[^]$", "^[\\x{0}-\\x{10FFFF}]$", ["\n", "x", ""]],
  [
    "^[^\\d\\s]$",
    `^[^0-9${"\\x{9}-\\x{D}\\x{20}\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}"}]$`,
    ["x", "1", " "],
  ],
  ["select .+ from \\w+", "select [^\\x{A}\\x{D}\\x{2028}\\x{2029}]+ from [0-9A-Za-z_]+", ["select a from b"]],
];

/** Refused: the pattern, and what the reason names. */
const REFUSED: [string, RegExp][] = [
  ["^foo(?=bar)", /look-around/],
  ["^foo(?!bar)", /look-around/],
  ["(?<=a)b", /look-around/],
  ["(?<!a)b", /look-around/],
  ["^(a)\\1$", /backreference/],
  ["^(?<x>a)\\k<x>$", /backreference/],
  ["\\bword\\b", /word boundary \\b/],
  ["\\Bx", /word boundary \\B/],
  ["^\\p{L}+$", /Unicode property class/],
  ["^[\\P{Lu}]$", /Unicode property class/],
  ["^[]$", /empty class/],
  ["^\\uD800$", /lone surrogate/],
  ["(", /not a valid pattern/],
];

test("the accepted patterns are written in Rust's syntax as the table says", () => {
  for (const [pattern, rust] of ACCEPTED) assert.equal(toRustRegex(pattern), { ok: true, definition: rust }, pattern);
});

test("what the Rust form accepts is what JavaScript's pattern accepts, text for text", () => {
  for (const [pattern, rust, texts] of ACCEPTED) {
    // The nested classes Rust reads (`[^[…]]`) are not RE2's: those rows are checked by the table alone.
    if (/\[[^\]]*\[/.test(rust.replace(/\\./g, ""))) continue;
    const re2 = RE2JS.compile(rust);
    const js = new RegExp(pattern, "u");
    for (const text of texts)
      assert.is(re2.matcher(text).find(), js.test(text), `${pattern} on ${JSON.stringify(text)}`);
  }
});

test("patterns the grammar cannot hold are refused with the reason and where it is", () => {
  for (const [pattern, reason] of REFUSED) {
    const found = toRustRegex(pattern);
    assert.is(found.ok, false, pattern);
    if (!found.ok) {
      assert.match(found.reason, reason, pattern);
      assert.ok(found.at >= 0 && found.at <= pattern.length, pattern);
    }
  }
  const ahead = toRustRegex("^foo(?=bar)");
  assert.is(!ahead.ok && ahead.at, 4);
});

test.run();
