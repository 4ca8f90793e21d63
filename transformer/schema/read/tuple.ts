/** Tuples: positional items (named, optional and rest elements), how many are required, and the type of the rest. */
import type * as ts from "typescript";
import type { SchemaNode, Site } from "../model";
import { itemSite, type Reader } from "./context";
import { elementTypeNode, spelled, tupleElementNodes } from "./spelling";
import { readElement } from "./union";

/** `[A, B?, ...C[]]`: positional items, the required count, and the type of the rest. */
export function readTuple(reader: Reader, type: ts.TupleTypeReference, site: Site): SchemaNode {
  const E = reader.tsi.ElementFlags;
  const elements = reader.checker.getTypeArguments(type);
  const flags = type.target.elementFlags;
  const nodes = tupleElementNodes(reader.tsi, spelled(reader, site.typeNode));
  const prefix: SchemaNode[] = [];
  let rest: SchemaNode | undefined;
  let minItems = 0;
  for (let i = 0; i < elements.length; i++) {
    const element = elements[i]!;
    if (flags[i]! & E.Variable) {
      if (i !== elements.length - 1) {
        return reader.unsupported(
          site,
          reader.checker.typeToString(type),
          "JSON Schema can only describe a rest element at the end of a tuple; move it last or use an array",
        );
      }
      rest = readElement(reader, element, itemSite(site, "*", elementTypeNode(reader.tsi, nodes?.[i])));
      continue;
    }
    prefix.push(readElement(reader, element, itemSite(site, String(i), nodes?.[i])));
    if (flags[i]! & E.Required) minItems = prefix.length;
  }
  const node: SchemaNode = { kind: "tuple", prefix, minItems };
  if (rest) node.rest = rest;
  return node;
}
