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
import { descriptionOf, paramDescriptionsOf } from "./jsdoc";
import { type Problem, TypeReader } from "./schema/from-type";
import type { PropertyNode } from "./schema/model";
import { parametersSchema } from "./schema/to-json";

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
  const description = descriptionOf(tsi, site.docHost);
  const paramDocs = paramDescriptionsOf(tsi, site.docHost);

  if (!TOOL_NAME.test(name)) {
    const suggestion = name.replace(/[^a-zA-Z0-9_-]+/g, "_").slice(0, 64) || "my_tool";
    problems.push({
      code: Code.InvalidToolName,
      node: site.nameNode,
      message: `Tool name "${name}" is not accepted by OpenAI, which requires 1 to 64 letters, digits, "_" or "-". Rename it or pass { name: "${suggestion}" } to tool().`,
    });
  }
  if (!description && !site.hasExplicitDescription) {
    problems.push({
      code: Code.MissingDescription,
      node: site.nameNode,
      message: `Tool "${name}" has no description, and the model chooses tools by their descriptions. Write a JSDoc comment above it (/** What it does. */) or pass { description: "..." }.`,
    });
  }

  const properties: PropertyNode[] = [];
  const params: string[] = [];
  const inject: number[] = [];
  let position = 0;
  for (const param of site.fn.parameters) {
    if (tsi.isIdentifier(param.name) && param.name.text === "this") continue;
    const index = position++;
    const type = checker.getTypeAtLocation(param);
    if (api.isToolContext(checker.getNonNullableType(type))) {
      inject.push(index);
      params.push(tsi.isIdentifier(param.name) ? param.name.text : `#${index}`);
      continue;
    }
    if (param.dotDotDotToken) {
      problems.push({
        code: Code.RestParameter,
        node: param,
        message: `Rest parameter "${param.name.getText()}" cannot be described to a model, which sends named arguments. Take an array instead: ${param.name.getText()}: T[].`,
      });
      continue;
    }
    if (!tsi.isIdentifier(param.name)) {
      problems.push({
        code: Code.UnsupportedType,
        node: param,
        message: `Destructured parameter ${param.name.getText()} has no name to give the model. Name it (args: Args) and destructure inside the function.`,
      });
      continue;
    }
    const paramName = param.name.text;
    params.push(paramName);
    const optional = !!param.questionToken || !!param.initializer || reader.includesUndefined(type);
    let schema = reader.read(type, { node: param, path: [paramName] });
    const keywords: { [k: string]: JsonValue } = {};
    const text = paramDocs.get(paramName);
    if (text) keywords.description = text;
    const defaultValue = param.initializer ? literalJson(tsi, param.initializer) : undefined;
    if (defaultValue !== undefined) keywords.default = defaultValue;
    if (Object.keys(keywords).length > 0) schema = { ...schema, keywords: { ...schema.keywords, ...keywords } };
    properties.push({ name: paramName, schema, required: !optional, declaration: param });
  }
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
  problems.push(...reader.problems);

  const meta: CompiledToolMeta = {
    v: META_VERSION,
    name,
    description,
    parameters: parametersSchema(properties, reader.definitions),
    params,
  };
  if (inject.length > 0) meta.inject = inject;
  if (reader.dates.length > 0) meta.dates = reader.dates;
  return { meta, problems };
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
