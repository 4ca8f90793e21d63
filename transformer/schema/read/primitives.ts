/**
 * Primitives and literals: `any` and `unknown` (accepted, with a warning), null, string, number and boolean literals,
 * the primitives themselves, template literal types (a pattern), string mappings (`Uppercase<string>`), and the
 * `object` type (any JSON object, with a warning).
 */
import type * as ts from "typescript";
import { Code } from "../../diagnostics";
import type { SchemaNode, Site } from "../model";
import { templatePattern } from "../patterns";
import { isTrue, type Reader } from "./context";

/** `any` and `unknown`: any JSON value, which tells the model nothing; undefined for any other type. */
export function readAnyOrUnknown(reader: Reader, type: ts.Type, site: Site): SchemaNode | undefined {
  const f = reader.tsi.TypeFlags;
  const flags = type.flags;
  if (!(flags & (f.Any | f.Unknown))) return undefined;
  reader.problem(
    Code.UnknownOrAny,
    site,
    `${reader.describe(site)} is typed ${flags & f.Any ? "any" : "unknown"}, so the model is told nothing about it and any JSON value is accepted. Give it a concrete type if you can.`,
    true,
  );
  return { kind: "any" };
}

/** A primitive, a literal or the `object` type; undefined for any other type. */
export function readPrimitive(reader: Reader, type: ts.Type, site: Site): SchemaNode | undefined {
  const f = reader.tsi.TypeFlags;
  const flags = type.flags;
  if (flags & f.Null) return { kind: "primitive", type: "null" };
  if (flags & f.StringLiteral) return { kind: "literal", value: (type as ts.StringLiteralType).value };
  if (flags & f.NumberLiteral) return { kind: "literal", value: (type as ts.NumberLiteralType).value };
  if (flags & f.BooleanLiteral) return { kind: "literal", value: isTrue(type) };
  if (flags & f.String) return { kind: "primitive", type: "string" };
  if (flags & f.Number) return { kind: "primitive", type: "number" };
  if (flags & f.Boolean) return { kind: "primitive", type: "boolean" };
  if (flags & f.TemplateLiteral) {
    return {
      kind: "primitive",
      type: "string",
      keywords: { pattern: templatePattern(reader.tsi, type as ts.TemplateLiteralType) },
    };
  }
  if (flags & f.StringMapping) return { kind: "primitive", type: "string" };
  if (flags & f.NonPrimitive) {
    reader.problem(
      Code.UnknownOrAny,
      site,
      `${reader.describe(site)} is typed object, so the model is told nothing about its properties and any JSON object is accepted. Give it an interface or type literal with the properties you expect.`,
      true,
    );
    return { kind: "object", properties: [], patterns: [], additionalProperties: true };
  }
  return undefined;
}
