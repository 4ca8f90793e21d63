/**
 * Arrays: `T[]`, `Array<T>`, `ReadonlyArray<T>`, and interfaces or classes extending one (refused when they add
 * data of their own, which a JSON array cannot carry).
 */
import type * as ts from "typescript";
import { arrayElementType } from "../../compat";
import type { SchemaNode, Site } from "../model";
import { TAG_PROPERTY } from "../tags";
import { itemSite, type Reader } from "./context";
import { isBehaviour } from "./object";
import { elementTypeNode, spelled } from "./spelling";
import { readElement } from "./union";

/** An array (`T[]`, `Array<T>`, a readonly one, or an interface or class extending one); undefined for any other type. */
export function readArray(reader: Reader, type: ts.Type, site: Site): SchemaNode | undefined {
  const element = arrayElementType(reader.checker, type);
  if (element) {
    return {
      kind: "array",
      items: readElement(
        reader,
        element,
        itemSite(site, "*", elementTypeNode(reader.tsi, spelled(reader, site.typeNode))),
      ),
    };
  }
  const inherited = arrayBase(reader, type);
  if (inherited) {
    // `interface TagArray extends Array<Tag> {}` is an array; members of its own cannot travel in a JSON array.
    const own = reader.checker
      .getPropertiesOfType(type)
      .filter(
        (p) =>
          p.getName() !== TAG_PROPERTY &&
          !p.getName().startsWith("__@") &&
          !(p.flags & reader.tsi.SymbolFlags.Optional) &&
          !reader.checker.getPropertyOfType(inherited, p.getName()),
      );
    const data = own.filter(
      (p) =>
        !(p.valueDeclaration ?? p.declarations?.[0]) ||
        !isBehaviour(reader, (p.valueDeclaration ?? p.declarations![0])!),
    );
    if (data.length > 0) {
      return reader.unsupported(
        site,
        reader.checker.typeToString(type),
        `an array with its own properties (${data.map((p) => p.getName()).join(", ")}) has no JSON form, which holds only the items; take an object such as { items: T[]; ${data[0]!.getName()}: ... } instead`,
      );
    }
    return {
      kind: "array",
      items: readElement(reader, arrayElementType(reader.checker, inherited)!, itemSite(site, "*", undefined)),
    };
  }
  return undefined;
}

/** The array type an interface or class extends (`interface Tags extends Array<Tag>`), directly or further up. */
function arrayBase(reader: Reader, type: ts.Type, depth = 0): ts.Type | undefined {
  const objectFlags = (type as ts.ObjectType).objectFlags ?? 0;
  const target = objectFlags & reader.tsi.ObjectFlags.Reference ? (type as ts.TypeReference).target : type;
  if (depth > 8 || !(((target as ts.ObjectType).objectFlags ?? 0) & reader.tsi.ObjectFlags.ClassOrInterface))
    return undefined;
  for (const base of reader.checker.getBaseTypes(target as ts.InterfaceType)) {
    if (reader.checker.isArrayType(base)) return base;
    const further = arrayBase(reader, base, depth + 1);
    if (further) return further;
  }
  return undefined;
}
