/**
 * Regular expressions for keys and strings that TypeScript constrains by syntax: template literal types
 * (`` `user-${number}` ``) and numeric index signatures (`{ [year: number]: T }`, whose JSON keys are strings).
 *
 * Patterns use the ECMA-262 syntax with the `u` flag (what ajv compiles), so only syntax characters are escaped:
 * an identity escape such as `\-` is an error in unicode mode.
 */
import type * as ts from "typescript";
import type { TS } from "../compat";

/** A number as JSON (and `${number}`) writes it. */
const NUMBER = "-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?";

/** Keys of a numeric index signature: the decimal numbers JavaScript prints as property names. */
export const NUMERIC_KEY = "^-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?$";

export function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

/** An anchored pattern for the strings a template literal type accepts. */
export function templatePattern(tsi: TS, type: ts.TemplateLiteralType): string {
  return `^${templateBody(tsi, type)}$`;
}

function templateBody(tsi: TS, type: ts.TemplateLiteralType): string {
  let out = escapeRegExp(type.texts[0] ?? "");
  type.types.forEach((hole, i) => {
    out += holePattern(tsi, hole) + escapeRegExp(type.texts[i + 1] ?? "");
  });
  return out;
}

function holePattern(tsi: TS, hole: ts.Type): string {
  const f = tsi.TypeFlags;
  if (hole.flags & f.StringLiteral) return escapeRegExp((hole as ts.StringLiteralType).value);
  if (hole.flags & f.NumberLiteral) return escapeRegExp(String((hole as ts.NumberLiteralType).value));
  if (hole.flags & f.Number) return `(?:${NUMBER})`;
  if (hole.flags & f.BigInt) return "(?:-?[0-9]+)";
  if (hole.flags & f.TemplateLiteral) return `(?:${templateBody(tsi, hole as ts.TemplateLiteralType)})`;
  if (hole.isUnion()) return `(?:${hole.types.map((m) => holePattern(tsi, m)).join("|")})`;
  // string, Uppercase<string> and other string mappings: any text (the mapping itself is not checked).
  return ".*";
}
