/**
 * Derives a tool's CompiledToolMeta from its function and JSDoc: the name, the description, one schema property
 * per parameter (type, `@param` text, required-ness, literal default), and which parameters dispatch injects.
 *
 * Problems are returned, not thrown, so one build reports all of them; a tool with an error still gets metadata
 * (the build fails anyway), which keeps emit going and the messages complete.
 */
import type * as ts from "typescript";
import { type CompiledToolMeta, type JsonValue, META_VERSION } from "../runtime/meta";
import type { TS } from "./compat";
import { Code } from "./diagnostics";
import type { ApiResolver } from "./find";
import { paramDescriptionsOf, toolDocOf } from "./jsdoc";
import { type Problem, TypeReader, withKeywords } from "./schema/from-type";
import type { Keywords, PropertyNode } from "./schema/model";
import { definitionsJson, parametersSchema, toJsonSchema } from "./schema/to-json";

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export interface ToolSite {
  /** The function whose parameters become the schema. */
  fn: ts.SignatureDeclaration;
  /** The node whose JSDoc describes the tool. */
  docHost: ts.Node;
  /** The derived name, and the node to point at when it is wrong. */
  name: string;
  nameNode: ts.Node;
  /** `name` / `description` given as string literals in the options argument, which win over JSDoc. */
  explicitName?: string;
  explicitDescription?: string;
  hasExplicitDescription: boolean;
}

export function deriveToolMeta(
  tsi: TS,
  checker: ts.TypeChecker,
  api: ApiResolver,
  site: ToolSite,
): { meta: CompiledToolMeta; problems: Problem[] } {
  const problems: Problem[] = [];
  const reader = new TypeReader(tsi, checker);
  const name = site.explicitName ?? site.name;
  const doc = toolDocOf(tsi, site.docHost);
  const paramDocs = paramDescriptionsOf(tsi, site.docHost);

  if (!TOOL_NAME.test(name)) {
    const suggestion = name.replace(/[^a-zA-Z0-9_-]+/g, "_").slice(0, 64) || "my_tool";
    problems.push({
      code: Code.InvalidToolName,
      node: site.nameNode,
      message: `Tool name "${name}" is not accepted by OpenAI, which requires 1 to 64 letters, digits, "_" or "-". Rename it or pass { name: "${suggestion}" } to tool().`,
    });
  }
  if (!doc.description && !site.hasExplicitDescription) {
    problems.push({
      code: Code.MissingDescription,
      node: site.nameNode,
      message: `Tool "${name}" has no description, and the model chooses tools by their descriptions. Write a JSDoc comment above it (/** What it does. */) or pass { description: "..." }.`,
    });
  }

  const { properties, params, inject, flatten } = readParameters(tsi, checker, api, reader, site.fn, paramDocs, problems);
  for (const documented of paramDocs.keys()) {
    if (!params.includes(documented)) {
      problems.push({
        code: Code.UnknownParamTag,
        node: site.nameNode,
        message: `The JSDoc of tool "${name}" has @param ${documented}, but the tool has no parameter of that name; its text is not used. Fix the name in the comment.`,
        warning: true,
      });
    }
  }
  const finished = reader.finish(properties.map((p) => p.schema));
  problems.push(...reader.problems);

  const meta: CompiledToolMeta = {
    v: META_VERSION,
    name,
    description: doc.description,
    parameters: parametersSchema(
      properties.map((p, i) => ({ ...p, schema: finished.roots[i]! })),
      finished.definitions,
    ),
    params,
  };
  if (flatten) meta.flatten = true;
  if (inject.length > 0) meta.inject = inject;
  const returns = returnSchema(tsi, checker, site.fn, doc.returns);
  if (returns) meta.returns = returns;
  if (reader.dates.length > 0) meta.dates = reader.dates;
  if (doc.deprecated !== undefined) meta.deprecated = doc.deprecated;
  return { meta, problems };
}

interface ReadParameters {
  properties: PropertyNode[];
  params: string[];
  inject: number[];
  flatten: boolean;
}

/**
 * One schema property per parameter. `this` parameters are skipped, `ToolContext` ones injected, and a single
 * destructured object parameter is flattened: its properties are the tool's arguments.
 */
function readParameters(
  tsi: TS,
  checker: ts.TypeChecker,
  api: ApiResolver,
  reader: TypeReader,
  fn: ts.SignatureDeclaration,
  paramDocs: Map<string, string>,
  problems: Problem[],
): ReadParameters {
  const out: ReadParameters = { properties: [], params: [], inject: [], flatten: false };
  const data: { param: ts.ParameterDeclaration; index: number; type: ts.Type }[] = [];
  let position = 0;
  for (const param of fn.parameters) {
    if (tsi.isIdentifier(param.name) && param.name.text === "this") continue;
    const index = position++;
    const type = checker.getTypeAtLocation(param);
    if (api.isToolContext(checker.getNonNullableType(type))) {
      out.inject.push(index);
      out.params.push(tsi.isIdentifier(param.name) ? param.name.text : `#${index}`);
      continue;
    }
    data.push({ param, index, type });
  }

  const destructured = data.filter((d) => !tsi.isIdentifier(d.param.name));
  if (destructured.length === 1 && data.length === 1 && tsi.isObjectBindingPattern(data[0]!.param.name)) {
    const { param, type } = data[0]!;
    if (data[0]!.index !== 0) {
      problems.push({ code: Code.UnsupportedType, node: param, message: `The destructured parameter must come first (a ToolContext may follow it), because dispatch passes the arguments object in its place.` });
    }
    out.flatten = true;
    out.properties = flattenedProperties(tsi, checker, reader, param, checker.getNonNullableType(type), paramDocs);
    out.params.unshift(...out.properties.map((p) => p.name));
    return out;
  }

  for (const { param, type } of data) {
    if (param.dotDotDotToken) {
      problems.push({
        code: Code.RestParameter,
        node: param,
        message: `Rest parameter "${param.name.getText()}" cannot be described to a model, which sends named arguments. Take an array instead: ${param.name.getText().replace(/^\.\.\./, "")}: T[].`,
      });
      continue;
    }
    if (!tsi.isIdentifier(param.name)) {
      problems.push({
        code: Code.UnsupportedType,
        node: param,
        message: `Destructured parameter ${param.name.getText()} has no name to give the model. Only a tool's single parameter may be destructured (its properties become the arguments); otherwise name it (args: Args) and destructure inside the function.`,
      });
      continue;
    }
    const paramName = param.name.text;
    out.params.push(paramName);
    const optional = !!param.questionToken || !!param.initializer || reader.includesUndefined(type);
    const schema = reader.read(type, { node: param, path: [paramName] });
    const keywords: Keywords = {};
    const text = paramDocs.get(paramName);
    if (text) keywords.description = text;
    const defaultValue = param.initializer ? literalJson(tsi, param.initializer) : undefined;
    if (defaultValue !== undefined) keywords.default = defaultValue;
    out.properties.push({ name: paramName, schema: withKeywords(schema, keywords), required: !optional, declaration: param });
  }
  return out;
}

/** `({ query, limit = 10 }: Args)`: Args' properties, with the binding defaults as `default` and not required. */
function flattenedProperties(
  tsi: TS,
  checker: ts.TypeChecker,
  reader: TypeReader,
  param: ts.ParameterDeclaration,
  type: ts.Type,
  paramDocs: Map<string, string>,
): PropertyNode[] {
  const defaults = new Map<string, ts.Expression>();
  for (const element of (param.name as ts.ObjectBindingPattern).elements) {
    const key = element.propertyName ?? element.name;
    if (element.initializer && (tsi.isIdentifier(key) || tsi.isStringLiteral(key))) defaults.set(key.text, element.initializer);
  }
  return reader.readProperties(type, { node: param, path: [] }).map((p) => {
    const initializer = defaults.get(p.name);
    const keywords: Keywords = {};
    const text = paramDocs.get(p.name);
    if (text && !p.schema.keywords?.description) keywords.description = text;
    const defaultValue = initializer ? literalJson(tsi, initializer) : undefined;
    if (defaultValue !== undefined) keywords.default = defaultValue;
    return { ...p, schema: withKeywords(p.schema, keywords), required: p.required && !initializer };
  });
}

/** The schema of the awaited return type, with the `@returns` text; undefined when it has no JSON form. */
function returnSchema(tsi: TS, checker: ts.TypeChecker, fn: ts.SignatureDeclaration, text: string | undefined): CompiledToolMeta["returns"] {
  const signature = checker.getSignatureFromDeclaration(fn);
  if (!signature) return undefined;
  const declared = checker.getReturnTypeOfSignature(signature);
  const type = checker.getAwaitedType(declared) ?? declared;
  const f = tsi.TypeFlags;
  if (type.flags & (f.Void | f.Undefined | f.Never | f.Any | f.Unknown)) return undefined;
  const reader = new TypeReader(tsi, checker);
  const node = reader.read(type, { node: fn, path: ["return"] });
  if (reader.problems.some((p) => !p.warning)) return undefined;
  const finished = reader.finish([node]);
  const schema = toJsonSchema(text ? withKeywords(finished.roots[0]!, { description: text }) : finished.roots[0]!);
  if (finished.definitions.size > 0) schema.$defs = definitionsJson(finished.definitions);
  return schema;
}

/** The JSON value of a literal default (`10`, `-1`, `"celsius"`, `true`, `null`, arrays and objects of those). */
export function literalJson(tsi: TS, node: ts.Expression): JsonValue | undefined {
  if (tsi.isParenthesizedExpression(node) || tsi.isAsExpression(node) || tsi.isSatisfiesExpression(node)) {
    return literalJson(tsi, node.expression);
  }
  if (tsi.isStringLiteral(node) || tsi.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (tsi.isNumericLiteral(node)) return Number(node.text);
  if (tsi.isPrefixUnaryExpression(node) && node.operator === tsi.SyntaxKind.MinusToken && tsi.isNumericLiteral(node.operand)) {
    return -Number(node.operand.text);
  }
  if (node.kind === tsi.SyntaxKind.TrueKeyword) return true;
  if (node.kind === tsi.SyntaxKind.FalseKeyword) return false;
  if (node.kind === tsi.SyntaxKind.NullKeyword) return null;
  if (tsi.isArrayLiteralExpression(node)) {
    const items = node.elements.map((e) => literalJson(tsi, e));
    return items.every((i) => i !== undefined) ? (items as JsonValue[]) : undefined;
  }
  if (tsi.isObjectLiteralExpression(node)) {
    const out: { [key: string]: JsonValue } = {};
    for (const p of node.properties) {
      if (!tsi.isPropertyAssignment(p) || !(tsi.isIdentifier(p.name) || tsi.isStringLiteral(p.name))) return undefined;
      const value = literalJson(tsi, p.initializer);
      if (value === undefined) return undefined;
      out[p.name.text] = value;
    }
    return out;
  }
  return undefined;
}
