/**
 * The transformer's own model of a parameter type, between `ts.Type` and JSON Schema.
 *
 * The type reader (from-type.ts) is the only code that looks at the checker; everything that writes schema
 * (to-json.ts now, strict variants and provider dialects later) reads this model instead. Nodes keep the
 * declaration they came from so diagnostics can point at it.
 */
import type * as ts from "typescript";
import type { JsonValue } from "../../runtime/meta";

/** Keywords that annotate or constrain any node: description, default, tags from JSDoc and type tags. */
export type Keywords = { [keyword: string]: JsonValue };

export type SchemaNode = (
  | { kind: "primitive"; type: "string" | "number" | "integer" | "boolean" | "null" }
  | { kind: "any" }
  | { kind: "literal"; value: string | number | boolean }
  | { kind: "enum"; values: (string | number)[] }
  | { kind: "array"; items: SchemaNode }
  | { kind: "tuple"; prefix: SchemaNode[]; minItems: number; rest?: SchemaNode }
  | { kind: "object"; properties: PropertyNode[]; additionalProperties: SchemaNode | false }
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

/** Named schemas shared by reference (`$defs`), keyed by their stable name. */
export type Definitions = Map<string, SchemaNode>;
