/**
 * A JSON Schema `pattern` (ECMAScript syntax, `u` flag) matched in time linear in the string: RE2's automata
 * (the re2js port: plain JavaScript, no code generated at run time) in place of JavaScript's backtracking engine.
 * No analysis of a pattern's shape can be trusted to find every one that backtracks (`^(a?a?)+$` passed two), so
 * strings that models and clients send meet a pattern only through a matcher that cannot backtrack.
 *
 * The two dialects differ in a few places, written here so that a pattern means what JavaScript says:
 * - `\s` and `\S`: JavaScript's white space includes Unicode spaces and the byte order mark, RE2's does not;
 * - `.`: JavaScript's stops at `\r`, U+2028 and U+2029 as well as `\n`;
 * - `[]` matches nothing and `[^]` anything in JavaScript, while RE2 reads a `]` first in a class as a literal.
 * A pattern RE2 cannot express (lookaround, backreferences, `\S` inside a class) gets no linear matcher: the caller
 * tests it under a budget instead.
 */
import { RE2JS } from "re2js";
import { patternDfa } from "./pattern-dfa";

/** JavaScript's `\s`, as the members of an RE2 class. */
const WHITE_SPACE =
  "\\t\\n\\v\\f\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}";
/** JavaScript's `.` without the `s` flag. */
const ANY_BUT_LINE_END = "[^\\n\\r\\x{2028}\\x{2029}]";

export interface LinearMatcher {
  /** Whether the pattern matches anywhere in `text` (as `RegExp.prototype.test`). */
  test(text: string): boolean;
}

/** A linear-time matcher of `source`, or `undefined` when RE2 cannot express it (or it is no valid pattern). */
export function linearMatcher(source: string): LinearMatcher | undefined {
  try {
    // A pattern JavaScript refuses is not translated: its validity is for the caller to judge.
    new RegExp(source, "u");
    const translated = toRe2(RE2JS.translateRegExp(source));
    if (translated === undefined) return undefined;
    const compiled = RE2JS.compile(translated);
    // The automaton answers where it can (one lookup a character); re2js where it cannot: a pattern it does not
    // read, or a string that needs more states than its table holds.
    const dfa = patternDfa(source);
    if (dfa === undefined) return { test: (text) => compiled.test(text) };
    return { test: (text) => dfa.test(text) ?? compiled.test(text) };
  } catch {
    return undefined;
  }
}

/**
 * The RE2 pattern that matches what the (already translated) JavaScript pattern matches, or `undefined` where the
 * dialects cannot be reconciled. One pass over the pattern, outside and inside character classes.
 */
function toRe2(pattern: string): string | undefined {
  let out = "";
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "\\") {
      const next = pattern[i + 1];
      if (next === undefined) return undefined;
      if (next === "s") out += inClass ? WHITE_SPACE : `[${WHITE_SPACE}]`;
      else if (next === "S") {
        if (inClass) return undefined;
        out += `[^${WHITE_SPACE}]`;
      } else if (inClass && next === "b") return undefined;
      else out += c + next;
      i++;
    } else if (inClass) {
      if (c === "]") inClass = false;
      // `[[:alpha:]]` is a class of five characters and a `]` in JavaScript, a POSIX class in RE2.
      else if (c === "[") return undefined;
      out += c;
    } else if (c === "[") {
      const negated = pattern[i + 1] === "^";
      const first = pattern[i + (negated ? 2 : 1)];
      if (first === "]") {
        // JavaScript's empty class: `[]` matches no character, `[^]` any.
        out += negated ? "[\\x{0}-\\x{10FFFF}]" : "[^\\x{0}-\\x{10FFFF}]";
        i += negated ? 2 : 1;
        continue;
      }
      inClass = true;
      out += c;
      if (negated) {
        out += "^";
        i++;
      }
    } else if (c === ".") out += ANY_BUT_LINE_END;
    else out += c;
  }
  return inClass ? undefined : out;
}
