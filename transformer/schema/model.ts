/**
 * The transformer's own model of a parameter type, between `ts.Type` and JSON Schema.
 *
 * The type reader is the only code that looks at the checker; everything that writes schema
 * (JSON Schema now, strict variants and provider dialects later) or checks it (keywords, date pointers) reads this
 * model instead. Properties keep the declaration they came from so diagnostics can point at it.
 */
import type * as ts from "typescript";
import type { JsonValue } from "../../runtime/tool/meta";
import type { Code, Location, RelatedLocation } from "../diagnostics";

/** Keywords that annotate or constrain any node: description, default, tags from JSDoc and type tags. */
export type Keywords = { [keyword: string]: JsonValue };

/** A value a literal type or enum member can have. */
export type LiteralValue = string | number | boolean;

export type SchemaNode = (
  | { kind: "primitive"; type: "string" | "number" | "integer" | "boolean" | "null" }
  /** `unknown` / `any`: every JSON value. */
  | { kind: "any" }
  /** A `Date`: an ISO date-time string on the wire, revived to a `Date` before the call. */
  | { kind: "date" }
  /** A `URL`: a `uri` string on the wire, revived to a `URL` before the call (like `date`). */
  | { kind: "url" }
  /** `b?: never`: the property must be absent (the XOR idiom). Written as `{ not: {} }`, or left out of closed objects. */
  | { kind: "never" }
  | { kind: "literal"; value: LiteralValue }
  /** `names`: the member names of a numeric TypeScript enum, in the order of `values` (told to the model). */
  | { kind: "enum"; values: LiteralValue[]; names?: string[] }
  | { kind: "array"; items: SchemaNode }
  /** Positional items, how many are required, and the type of the items after them (a rest element). */
  | { kind: "tuple"; prefix: SchemaNode[]; minItems: number; rest?: SchemaNode }
  | {
      kind: "object";
      properties: PropertyNode[];
      /** Keys matching a pattern (numeric and template-literal index signatures). */
      patterns: PatternProperty[];
      /** Other keys: their schema (string index signature), `false` (closed), or `true` (the `object` type). */
      additionalProperties: SchemaNode | boolean;
    }
  | { kind: "union"; members: SchemaNode[] }
  | { kind: "ref"; name: string }
) & { keywords?: Keywords };

export interface PropertyNode {
  name: string;
  schema: SchemaNode;
  required: boolean;
  /** Where the property was declared, for diagnostics. */
  declaration?: ts.Node;
}

export interface PatternProperty {
  /** An ECMA-262 regular expression, anchored. */
  pattern: string;
  schema: SchemaNode;
}

/** Named schemas shared by reference (`$defs`), keyed by their stable name. */
export type Definitions = Map<string, SchemaNode>;

/** Where a type is being read. */
export interface Site {
  /** What diagnostics point at: the parameter, or the declaration of the property being read. */
  node: ts.Node;
  /** JSON path from the tool's arguments (`["job", "onDone"]`; `*` is every item or value). */
  path: string[];
  /** The tool parameter being read; diagnostics placed elsewhere relate back to it. */
  param: ts.Node;
  /** The type node that spells this type, when known: gives the written order of unions. */
  typeNode?: ts.TypeNode;
  /** The type nodes read through so far (the parameter's, then each property's): unions spelled in them. */
  scopes?: readonly ts.TypeNode[];
}

export interface Problem {
  code: Code;
  message: string;
  node: Location;
  warning?: boolean;
  related?: RelatedLocation[];
}
