/**
 * Objects: interfaces, type literals, mapped and conditional types, classes as data (public data members only):
 * their properties in declaration (or written) order, each with its JSDoc and keyword tags, then string, numeric
 * and template-literal index signatures. A problem in a property the user declared is reported at that
 * declaration, related back to the parameter.
 */
import type * as ts from "typescript";
import type { TS } from "../../compat";
import type { RelatedLocation } from "../../diagnostics";
import { symbolDescription } from "../../jsdoc";
import type { PatternProperty, PropertyNode, SchemaNode, Site } from "../model";
import { NUMERIC_KEY, templatePattern } from "../patterns";
import { TAG_PROPERTY } from "../tags";
import { itemSite, type Reader, withKeywords } from "./context";
import { readElement } from "./union";

/**
 * Properties, then index signatures: a string index gives `additionalProperties`; numeric and template-literal
 * keys give `patternProperties` (JSON Schema applies `additionalProperties` only to the keys those do not
 * match, which is exactly TypeScript's rule for known keys next to an index signature).
 */
export function readObject(reader: Reader, type: ts.Type, site: Site): SchemaNode {
  const f = reader.tsi.TypeFlags;
  let properties = readProperties(reader, type, site);
  const patterns: PatternProperty[] = [];
  let additionalProperties: SchemaNode | false = false;
  const infos = reader.checker.getIndexInfosOfType(type);
  if (infos.length > 0 && infos.every((i) => i.keyType.flags & f.ESSymbolLike)) {
    // `Record<symbol, T>`: every key is a symbol, and JSON has none; without this it would be an empty object.
    reader.unsupported(
      site,
      reader.checker.typeToString(type),
      "an object keyed by symbols has no JSON form, whose keys are strings; use Record<string, T>",
    );
  }
  for (const info of infos) {
    // `Record<string, never>`: no key may have a value, which is what a closed object already says.
    if (info.type.flags & f.Never) continue;
    const valueSite = itemSite(site, "*", info.declaration?.type);
    if (info.keyType.flags & f.String) {
      additionalProperties = readElement(reader, info.type, valueSite);
    } else if (info.keyType.flags & f.Number) {
      patterns.push({ pattern: NUMERIC_KEY, schema: readElement(reader, info.type, valueSite) });
    } else if (info.keyType.flags & f.TemplateLiteral) {
      patterns.push({
        pattern: templatePattern(reader.tsi, info.keyType as ts.TemplateLiteralType),
        schema: readElement(reader, info.type, valueSite),
      });
    }
    // Symbol keys never reach JSON (next to string keys they are left out; alone they are reported above).
  }
  // `b?: never` (must be absent): a closed object already refuses every key it does not list.
  if (additionalProperties === false && patterns.length === 0)
    properties = properties.filter((p) => p.schema.kind !== "never");
  return { kind: "object", properties, patterns, additionalProperties };
}

/** The data members of an object type (also used to flatten a destructured parameter). */
export function readProperties(reader: Reader, type: ts.Type, site: Site): PropertyNode[] {
  const properties: PropertyNode[] = [];
  for (const prop of propertiesInOrder(reader, type, site)) {
    const property = readProperty(reader, prop, site);
    if (property) properties.push(property);
  }
  return properties;
}

/**
 * Declaration order for interfaces, classes and type literals (TypeScript keeps it). Mapped types list their
 * keys in the order of the key union, which follows type ids, not the source; so homomorphic ones (`Partial`,
 * `Pick`, `Omit`, `Readonly`) take the order of the declarations they copy, `Record<"a" | "b", T>` and
 * `{ [K in "a" | "b"]: T }` the order their keys are written in, and keys written nowhere sort by name.
 */
function propertiesInOrder(reader: Reader, type: ts.Type, site: Site): ts.Symbol[] {
  const props = reader.checker.getPropertiesOfType(type);
  const mapped = (type as ts.ObjectType).objectFlags & reader.tsi.ObjectFlags.Mapped;
  if (!mapped && props.length > 1) {
    // An object literal with a spread (`{ ...base, c }`): TypeScript 5.9 lists its own properties before the
    // spread's, TypeScript 7 in source order; both give the source order here.
    const written = reader.order.spreadOrder(type);
    if (written) return byRank(props, written);
  }
  if (!mapped || props.length < 2) return [...props];
  if (props.every((p) => p.declarations?.length)) {
    const position = (p: ts.Symbol) => {
      const d = p.declarations![0]!;
      return { file: d.getSourceFile().fileName, pos: d.pos };
    };
    return [...props].sort((a, b) => {
      const pa = position(a);
      const pb = position(b);
      return pa.file === pb.file ? pa.pos - pb.pos : pa.file < pb.file ? -1 : 1;
    });
  }
  const names = props.map((p) => p.getName());
  // Where no order was written, sort by name rather than by type id.
  const written =
    reader.order.keyOrder(site.typeNode) ?? reader.order.namesInScopes(names, site.scopes ?? []) ?? [...names].sort();
  return byRank(props, written);
}

/** `props` in the order of `written` (names written nowhere last, in the order they came). */
function byRank(props: readonly ts.Symbol[], written: readonly string[]): ts.Symbol[] {
  const rank = (p: ts.Symbol) => {
    const i = written.indexOf(p.getName());
    return i < 0 ? written.length : i;
  };
  return [...props].sort((a, b) => rank(a) - rank(b));
}

function readProperty(reader: Reader, prop: ts.Symbol, site: Site): PropertyNode | undefined {
  const name = prop.getName();
  // The tag property and symbol keys are not data a model can send.
  if (name === TAG_PROPERTY || name.startsWith("__@")) return undefined;
  const declaration = prop.valueDeclaration ?? prop.declarations?.[0];
  if (declaration && isBehaviour(reader, declaration)) return undefined;
  const propType = reader.checker.getTypeOfSymbolAtLocation(prop, site.param);
  const optional = (prop.flags & reader.tsi.SymbolFlags.Optional) !== 0 || reader.includesUndefined(propType);
  // `b?: never` (the XOR idiom `{ a: string; b?: never } | { a?: never; b: number }`): b must be absent.
  if (prop.flags & reader.tsi.SymbolFlags.Optional && isAbsent(reader, propType))
    return { name, schema: { kind: "never" }, required: false, declaration };

  // Point at the declaration when the user wrote it and it spells this type (not a generic `value: T`).
  const here = declaration && isOwnDeclaration(reader, declaration) ? declaration : undefined;
  const typeNode = declaration && hasTypeNode(reader.tsi, declaration) ? declaration.type : undefined;
  const propertySite: Site = {
    node: here ?? site.node,
    param: site.param,
    path: [...site.path, name],
    typeNode,
    scopes: typeNode ? [...(site.scopes ?? []), typeNode] : site.scopes,
  };
  const related: RelatedLocation[] = here
    ? [
        {
          node: site.param,
          message: `Used by ${reader.describe({ ...site, path: site.path.slice(0, 1) })} of tool "${reader.toolName}".`,
        },
      ]
    : declaration
      ? [{ node: declaration, message: `"${name}" is declared here.` }]
      : [];
  const before = reader.problems.length;
  let schema = reader.read(propType, propertySite);
  const keywords = reader.tags.propertyKeywords(prop, declaration, schema, propertySite);
  for (let i = before; i < reader.problems.length; i++) reader.problems[i]!.related ??= related;
  const description = symbolDescription(reader.tsi, reader.checker, prop);
  if (description) keywords.description = description;
  schema = withKeywords(schema, keywords);
  return { name, schema, required: !optional, declaration };
}

/** `never`, or `undefined` only (what `x?: never` reads as): no value may be given. */
function isAbsent(reader: Reader, type: ts.Type): boolean {
  const f = reader.tsi.TypeFlags;
  const members = type.isUnion() ? type.types : [type];
  return members.every((m) => m.flags & (f.Never | f.Undefined));
}

/** Methods, accessors and function-valued class fields are behaviour, and non-public members are not the API. */
export function isBehaviour(reader: Reader, declaration: ts.Declaration): boolean {
  const t = reader.tsi;
  if (t.isMethodDeclaration(declaration) || t.isMethodSignature(declaration) || t.isAccessor(declaration)) return true;
  if (t.isPropertyDeclaration(declaration) && declaration.initializer) {
    const init = declaration.initializer;
    if (t.isArrowFunction(init) || t.isFunctionExpression(init)) return true;
  }
  const name = (declaration as { name?: ts.Node }).name;
  if (name && t.isPrivateIdentifier(name)) return true;
  const modifiers = t.canHaveModifiers(declaration) ? t.getModifiers(declaration) : undefined;
  return (modifiers ?? []).some(
    (m) => m.kind === t.SyntaxKind.PrivateKeyword || m.kind === t.SyntaxKind.ProtectedKeyword,
  );
}

/**
 * A declaration in the user's own source whose type is what we read: not in a .d.ts or a dependency, and not
 * inside a generic declaration (whose `value: T` says nothing about the problem's cause, the type argument).
 */
function isOwnDeclaration(reader: Reader, declaration: ts.Node): boolean {
  const file = declaration.getSourceFile();
  if (file.isDeclarationFile || /[\\/]node_modules[\\/]/.test(file.fileName)) return false;
  for (let node = declaration.parent; node && !reader.tsi.isSourceFile(node); node = node.parent) {
    if (reader.tsi.isMappedTypeNode(node)) return false;
    const typeParameters = (node as { typeParameters?: ts.NodeArray<ts.TypeParameterDeclaration> }).typeParameters;
    if (typeParameters && typeParameters.length > 0) return false;
  }
  return true;
}

function hasTypeNode(tsi: TS, node: ts.Node): node is ts.Declaration & { type: ts.TypeNode } {
  return (tsi.isPropertySignature(node) || tsi.isPropertyDeclaration(node) || tsi.isParameter(node)) && !!node.type;
}
