/**
 * Intersections: type tags (`Int & Min<0>`) add keywords to the tagged type; a primitive, array or tuple
 * intersected with object types is branded (`string & { __brand: "UserId" }`), which is its value on the wire;
 * anything else is one object with all the members' properties.
 */
import type * as ts from "typescript";
import { Code } from "../../diagnostics";
import type { SchemaNode, Site } from "../model";
import type { Reader } from "./context";
import { readObject } from "./object";
import { memberTypeNode } from "./spelling";

export function readIntersection(reader: Reader, type: ts.IntersectionType, site: Site): SchemaNode {
  const f = reader.tsi.TypeFlags;
  const tags = type.types.filter((t) => reader.tags.isTag(t));
  const base = type.types.filter((t) => !reader.tags.isTag(t));
  // The value itself: a primitive, or an array or tuple (`number[] & { __brand?: "ids" }`): the other members
  // are brands, types only, which a JSON array carries no more than a JSON string does.
  const primitives = base.filter(
    (t) =>
      t.flags & (f.StringLike | f.NumberLike | f.BooleanLike) ||
      reader.checker.isArrayType(t) ||
      reader.checker.isTupleType(t),
  );
  if (tags.length === 0 && primitives.length === 0)
    return reader.track(type, site, () => readObject(reader, type, site));
  let node: SchemaNode;
  if (primitives.length === 1) {
    node = reader.read(primitives[0]!, {
      ...site,
      typeNode: memberTypeNode(reader, primitives[0]!, site.typeNode) ?? site.typeNode,
    });
    for (const member of base) if (member !== primitives[0]) reportData(reader, member, primitives[0]!, site);
  } else if (base.length === 1) node = reader.read(base[0]!, site);
  else if (base.length === 0) node = { kind: "any" };
  else node = reader.track(type, site, () => readObject(reader, type, site));
  // A brand on a primitive or array may carry a tag itself (an interface extending UniqueItems): its keywords
  // count as the tags' do, whatever else it declares.
  const carriers =
    primitives.length === 1 ? type.types.filter((t) => t !== primitives[0] && reader.tags.carriesTag(t)) : tags;
  return carriers.length === 0 ? node : reader.tags.applyTypeTags(type, node, site, carriers);
}

/**
 * A brand holds no data: its properties are optional (typia's `{ "typia.tag"?: {...} }`), keyed by a symbol
 * (`{ [brand]: B }`), literal-typed (`{ __brand: "UserId" }`) or methods, whatever their names and types. A member
 * with a property that may hold data (`{ count: number }`) is left out of the schema as a brand is, since JSON
 * gives a string or an array no properties; that is said (TT1001, a warning) rather than done in silence.
 */
function reportData(reader: Reader, member: ts.Type, value: ts.Type, site: Site): void {
  const t = reader.tsi;
  const f = t.TypeFlags;
  const data = reader.checker.getPropertiesOfType(member).filter((p) => {
    if (p.flags & (t.SymbolFlags.Optional | t.SymbolFlags.Method) || p.getName().startsWith("__@")) return false;
    const type = reader.checker.getTypeOfSymbol(p);
    if (type.flags & (f.Literal | f.UniqueESSymbol | f.Never | f.Undefined)) return false;
    if (type.isUnion() && type.types.every((m) => m.flags & (f.Literal | f.Undefined | f.Null))) return false;
    const behaviour = p.declarations?.some(
      (d) =>
        t.isMethodSignature(d) || (t.isPropertySignature(d) && d.type !== undefined && t.isFunctionTypeNode(d.type)),
    );
    return !behaviour;
  });
  if (data.length === 0) return;
  const names = data.map((p) => `"${p.getName()}"`).join(", ");
  reader.problem(
    Code.UnsupportedType,
    site,
    `${reader.describe(site)} is ${reader.checker.typeToString(value)} intersected with ${reader.checker.typeToString(member)}, whose ${data.length === 1 ? "property" : "properties"} ${names} JSON cannot carry on ${reader.checker.typeToString(value)}: the schema leaves ${data.length === 1 ? "it" : "them"} out. If it is a brand, make its properties optional (readonly __brand?: "x"); if it is data, make the value an object.`,
    true,
  );
}
