/**
 * Unions: literal members as one enum in written order (a numeric enum's member names kept for the model),
 * `boolean` kept whole, `T | null` as one more branch, `T | undefined` as T (optional); other unions as
 * alternatives, refusing members without a JSON form and `Date | string`. Also the items of arrays and values of
 * index signatures, whose `undefined` members are dropped.
 */
import type * as ts from "typescript";
import { Code } from "../../diagnostics";
import type { SchemaNode, Site } from "../model";
import { toJsonSchema } from "../to-json";
import { isTrue, type Reader, withKeywords } from "./context";
import { checkDateOrString, noJson } from "./library";
import { typeDescription } from "./named-types";
import { memberTypeNode } from "./spelling";

/** Answers that depend on an object type alone (a type belongs to one checker), asked again by every tool. */
const impossibleObjects = new WeakMap<ts.Type, boolean>();

/** Unions: literal members as one enum, `boolean` kept whole, null as one more branch, in written order. */
export function readUnion(reader: Reader, type: ts.UnionType, site: Site): SchemaNode {
  const f = reader.tsi.TypeFlags;
  // `x?: T` is `T | undefined`: with one member left once undefined is dropped (readMembers), order says nothing.
  const ordered = type.types.filter((m) => !(m.flags & (f.Undefined | f.Void))).length > 1;
  const members = ordered ? reader.order.sort(type, type.types, site.typeNode, site.scopes) : type.types;
  const literalOnly = members.every((m) => m.flags & (f.Literal | f.Null | f.Undefined | f.Void));
  if (literalOnly) return withKeywords(readMembers(reader, members, site), typeDescription(reader, type));
  // Primitives cannot lead back to the union, so there is no recursion to track.
  const primitive = f.StringLike | f.NumberLike | f.BooleanLike | f.Null | f.Undefined | f.Void;
  if (type.types.every((m) => m.flags & primitive)) return readMembers(reader, members, site);
  return reader.track(type, site, () => readMembers(reader, members, site));
}

function readMembers(reader: Reader, all: readonly ts.Type[], site: Site): SchemaNode {
  const f = reader.tsi.TypeFlags;
  const defined = all.filter((m) => !(m.flags & (f.Undefined | f.Void)));
  // A branch no value can have (`[never]`, `{ kind: "x"; v: never }`) says nothing; an all-impossible union is never.
  const possible = defined.filter((m) => !isImpossible(reader, m));
  const members = possible.length > 0 ? possible : defined;
  const hasNull = members.some((m) => m.flags & f.Null);
  const rest = members.filter((m) => !(m.flags & f.Null));
  // TypeScript spells `boolean` as `true | false`; when both are there, keep it one boolean.
  const isBoolean = (m: ts.Type) => (m.flags & f.BooleanLiteral) !== 0;
  const wholeBoolean = rest.some((m) => isBoolean(m) && isTrue(m)) && rest.some((m) => isBoolean(m) && !isTrue(m));
  const isLiteral = (m: ts.Type) =>
    (m.flags & (f.StringLiteral | f.NumberLiteral)) !== 0 || (!wholeBoolean && isBoolean(m));
  const literals = rest.filter(isLiteral);
  // `x?: T` and `T | undefined` are T, optional: what is wrong with T is said about T, not about a union.
  if (rest.length === 1 && !hasNull) return reader.read(rest[0]!, site);

  const rejected = rest
    .filter((m) => !isLiteral(m) && !(wholeBoolean && isBoolean(m)))
    .map((m) => ({ m, no: noJson(reader, m) }))
    .filter((r) => r.no);
  if (rejected.length > 0 && rejected.length === rest.length) {
    // Nothing in the union has a JSON form (`1n | 2n`): that is one unsupported type.
    return reader.unsupported(site, rejected[0]!.no!.what, rejected[0]!.no!.advice);
  }
  if (rejected.length > 0) {
    const listed = rejected.map((r) => `${reader.checker.typeToString(r.m)} (${r.no!.what})`).join(", ");
    const advice = [...new Set(rejected.map((r) => r.no!.advice))].join("; ");
    reader.problem(
      Code.UnsupportedUnion,
      site,
      `${reader.describe(site)} is a union with ${rejected.length === 1 ? "a member" : "members"} JSON cannot carry: ${listed}. Remove ${rejected.length === 1 ? "that member" : "them"} from the union (${advice}).`,
    );
  }
  checkDateOrString(reader, rest, site);
  const parts: SchemaNode[] = [];
  let placedBoolean = false;
  let placedLiterals = false;
  for (const m of rest) {
    if (wholeBoolean && isBoolean(m)) {
      if (!placedBoolean) parts.push({ kind: "primitive", type: "boolean" });
      placedBoolean = true;
    } else if (isLiteral(m)) {
      if (placedLiterals) continue;
      placedLiterals = true;
      const values = literals.map((l) => (isBoolean(l) ? isTrue(l) : ((l as ts.LiteralType).value as string | number)));
      const names = numericEnumNames(reader, literals);
      parts.push(
        values.length === 1
          ? { kind: "literal", value: values[0]! }
          : names
            ? { kind: "enum", values, names }
            : { kind: "enum", values },
      );
    } else {
      if (rejected.some((r) => r.m === m)) continue;
      const node = reader.read(m, { ...site, typeNode: memberTypeNode(reader, m, site.typeNode) ?? site.typeNode });
      if (node.kind === "union" && !node.keywords) parts.push(...node.members);
      else parts.push(node);
    }
  }
  if (parts.length === 0) {
    if (hasNull) return { kind: "primitive", type: "null" };
    return reader.unsupported(site, "undefined", "JSON has no undefined; make it optional (x?: T) instead");
  }
  if (hasNull) parts.push({ kind: "primitive", type: "null" });
  // Branches that say the same (two brands of number, `number & A` next to number) are one: a `type` array or
  // `anyOf` listing a schema twice is invalid or redundant.
  if (parts.length === 1) return parts[0]!;
  const written = parts.map((p) => JSON.stringify(toJsonSchema(p)));
  const distinct = parts.filter((_, i) => written.indexOf(written[i]!) === i);
  return distinct.length === 1 ? distinct[0]! : { kind: "union", members: distinct };
}

/** Array items: `undefined` members make no sense in JSON arrays and are dropped. */
export function readElement(reader: Reader, type: ts.Type, site: Site): SchemaNode {
  const f = reader.tsi.TypeFlags;
  if (type.isUnion() && type.types.some((m) => m.flags & (f.Undefined | f.Void))) {
    const rest = type.types.filter((m) => !(m.flags & (f.Undefined | f.Void)));
    return readMembers(reader, reader.order.sort(type, rest, site.typeNode, site.scopes), site);
  }
  return reader.read(type, site);
}

/**
 * A type no JSON value can have: a tuple with a required `never` element, an object with a required `never`
 * property. Inside a union such a branch is dropped; alone it is reported as never.
 */
function isImpossible(reader: Reader, type: ts.Type): boolean {
  const f = reader.tsi.TypeFlags;
  if (type.flags & f.Never) return true;
  if (!(type.flags & f.Object)) return false;
  if (reader.checker.isTupleType(type)) {
    const flags = (type as ts.TupleTypeReference).target.elementFlags;
    return reader.checker
      .getTypeArguments(type as ts.TypeReference)
      .some((t, i) => flags[i]! & reader.tsi.ElementFlags.Required && t.flags & f.Never);
  }
  if (reader.checker.isArrayType(type)) return false;
  let answer = impossibleObjects.get(type);
  if (answer === undefined) {
    answer = reader.checker
      .getPropertiesOfType(type)
      .some((p) => !(p.flags & reader.tsi.SymbolFlags.Optional) && reader.checker.getTypeOfSymbol(p).flags & f.Never);
    impossibleObjects.set(type, answer);
  }
  return answer;
}

/**
 * The member names of a numeric enum (`enum Level { Low = 1, High = 2 }`), for the model, which otherwise sees
 * only `[1, 2]`; undefined unless every literal is a member of one enum and some value is a number.
 */
function numericEnumNames(reader: Reader, literals: readonly ts.Type[]): string[] | undefined {
  const names: string[] = [];
  let parent: ts.Node | undefined;
  for (const l of literals) {
    const symbol = l.getSymbol();
    if (!symbol || !(symbol.flags & reader.tsi.SymbolFlags.EnumMember)) return undefined;
    const owner = symbol.valueDeclaration?.parent;
    if (!owner || (parent && owner !== parent)) return undefined;
    parent = owner;
    names.push(symbol.getName());
  }
  return literals.some((l) => l.flags & reader.tsi.TypeFlags.NumberLiteral) ? names : undefined;
}
