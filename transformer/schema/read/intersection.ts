/**
 * Intersections: type tags (`Int & Min<0>`) add keywords to the tagged type; a primitive, array or tuple
 * intersected with object types is branded (`string & { __brand: "UserId" }`), which is its value on the wire;
 * anything else is one object with all the members' properties.
 */
import type * as ts from "typescript";
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
  if (primitives.length === 1)
    node = reader.read(primitives[0]!, {
      ...site,
      typeNode: memberTypeNode(reader, primitives[0]!, site.typeNode) ?? site.typeNode,
    });
  else if (base.length === 1) node = reader.read(base[0]!, site);
  else if (base.length === 0) node = { kind: "any" };
  else node = reader.track(type, site, () => readObject(reader, type, site));
  // A brand on a primitive or array may carry a tag itself (an interface extending UniqueItems): its keywords
  // count as the tags' do, whatever else it declares.
  const carriers =
    primitives.length === 1 ? type.types.filter((t) => t !== primitives[0] && reader.tags.carriesTag(t)) : tags;
  return carriers.length === 0 ? node : reader.tags.applyTypeTags(type, node, site, carriers);
}
