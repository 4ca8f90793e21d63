/**
 * Derives a tool's CompiledToolMeta from its function and JSDoc:
 * - the name and description (with `@example`, `@deprecated`, `@returns`), checked (TT1002, TT1003); `@example`s
 *   that are JSON arguments, checked against the parameter schema (TT1026);
 * - one schema property per parameter (type, `@param` text, required-ness, default), or the properties of a single
 *   destructured parameter (flattened); `this` skipped, `ToolContext` injected, other shapes reported (TT1004, TT1013);
 * - `@param` texts matched to parameters and properties (TT1010 for the rest);
 * - the JSON pointers of the Dates and URLs dispatch revives, from the finished schema (TT1012 where none can be
 * written);
 * - the return schema;
 * - a free-form tool (`@freeform`, a literal `freeform: true`): one required string (TT1027) whose pattern, if any,
 *   Rust's `regex` syntax can hold, for OpenAI's grammars (TT1028).
 *
 * Problems are returned, not thrown, so one build reports all of them; a tool with an error still gets metadata
 * (the build fails anyway), which keeps emit going and the messages complete.
 */
import type * as ts from "typescript";
import type { TypeReader } from "./readers/reader";
import { type CompiledToolMeta, type JsonValue, META_VERSION } from "../runtime/tool/meta";
import type { TS } from "./compat";
import { Code, tagSpan } from "./diagnostics";
import { exampleProblems } from "./examples";
import { freeformInput } from "../runtime/tool/freeform";
import { toRustRegex } from "../runtime/validation/patterns/rust-regex";
import { strictForms } from "../runtime/strict/forms";
import type { ApiResolver } from "./find";
import { type ParamDoc, paramDocsOf, toolDocOf } from "./jsdoc";
import { datePointers } from "./schema/dates";
import { SchemaReader, withKeywords } from "./schema/read/reader";
import type { Keywords, Problem, PropertyNode, SchemaNode } from "./schema/model";
import { definitionsJson, parametersSchema, toJsonSchema } from "./schema/to-json";

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export interface ToolSite {
  /** The function whose parameters become the schema. */
  fn: ts.SignatureDeclaration;
  /** The node whose JSDoc describes the tool. */
  docHost: ts.Node;
  /** Another node whose `@param` tags count for parameters `docHost`'s do not describe. */
  paramDocHost?: ts.Node;
  /** The derived name, and the node to point at when it is wrong or the tool is undocumented. */
  name: string;
  nameNode: ts.Node;
  /** `name` / `description` given as string literals in the options argument, which win over JSDoc. */
  explicitName?: string;
  explicitNameNode?: ts.Node;
  explicitDescription?: string;
  hasExplicitDescription: boolean;
  /** `freeform: true` or `false` written as a literal in the options argument, which wins over JSDoc `@freeform`. */
  freeform?: boolean;
  freeformNode?: ts.Node;
}

export function deriveToolMeta(
  tsi: TS,
  checker: TypeReader,
  api: ApiResolver,
  site: ToolSite,
): { meta: CompiledToolMeta; problems: Problem[] } {
  const problems: Problem[] = [];
  const name = site.explicitName ?? site.name;
  const reader = new SchemaReader(tsi, checker, name);
  const doc = toolDocOf(tsi, checker, site.docHost);
  const paramDocs = paramDocsOf(tsi, checker, site.docHost);
  if (site.paramDocHost)
    paramDocs.push(
      ...paramDocsOf(tsi, checker, site.paramDocHost).filter((p) => !paramDocs.some((own) => own.name === p.name)),
    );

  if (!TOOL_NAME.test(name)) {
    const suggestion = name.replace(/[^a-zA-Z0-9_-]+/g, "_").slice(0, 64) || "my_tool";
    problems.push({
      code: Code.InvalidToolName,
      node: site.explicitNameNode ?? site.nameNode,
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

  const read = readParameters(tsi, checker, api, reader, site.fn, problems);
  const finished = reader.finish(read.properties.map((p) => p.schema));
  problems.push(...reader.problems);
  const properties = read.properties.map((p, i) => ({ ...p, schema: finished.roots[i]! }));
  applyParamDocs(name, properties, read, paramDocs, problems);

  const meta: CompiledToolMeta = {
    v: META_VERSION,
    name,
    description: doc.description,
    parameters: parametersSchema(properties, finished.definitions),
    params: read.params,
  };
  if (read.flatten) meta.flatten = true;
  if (read.inject.length > 0) meta.inject = read.inject;
  const returned = returnTypes(tsi, checker, site.fn);
  if (returned.streams) meta.streams = true;
  const returns = returned.returns && typeSchema(tsi, checker, site.fn, returned.returns, doc.returns, name, "return");
  if (returns) meta.returns = returns;
  const yields = returned.yields && typeSchema(tsi, checker, site.fn, returned.yields, undefined, name, "yield");
  if (yields) meta.yields = yields;
  for (const kind of ["date", "url"] as const) {
    const found = datePointers(properties, finished.definitions, kind);
    const [name, format] = kind === "date" ? ["Date", "date-time"] : ["URL", "uri"];
    for (const problem of found.problems) {
      const property = properties[problem.root]!;
      const param = read.flatten ? read.flattenedParam! : property.declaration!;
      problems.push({
        code: Code.UnrevivableDate,
        node: param,
        message:
          problem.kind === "recursive"
            ? `Parameter "${property.name}" holds a ${name} inside the recursive type ${problem.where}, and dispatch can only revive ${name}s at paths it can list, not at every depth. Type that field string & Format<"${format}"> and convert it with new ${name}(...) in the tool.`
            : `Parameter "${property.name}" has a tuple whose rest elements are ${name}s after string elements, and dispatch cannot revive the one without the other. Type the rest elements string & Format<"${format}"> and convert them in the tool.`,
      });
    }
    if (found.pointers.length > 0) meta[kind === "date" ? "dates" : "urls"] = found.pointers;
  }
  if (doc.examples.length > 0) {
    meta.examples = doc.examples.map((example) => example.value);
    // A schema with errors already has its diagnostics; checking examples against it would only add noise.
    if (!problems.some((p) => !p.warning)) {
      doc.examples.forEach((example, i) => {
        const lines = exampleProblems(meta.parameters, example.value);
        if (!lines) return;
        problems.push({
          code: Code.InvalidExample,
          node: tagSpan(example.tag),
          message: `The @example ${doc.examples.length > 1 ? `#${i + 1} ` : ""}of tool "${name}" is JSON arguments that its parameters do not accept:\n${lines.map((line) => `- ${line}`).join("\n")}\nCorrect the example (a model copies it), or write it as a code sample rather than a bare JSON object if it is not the tool's arguments.`,
        });
      });
    }
  }
  if (doc.deprecated !== undefined) meta.deprecated = doc.deprecated;
  if (doc.title !== undefined) meta.title = doc.title;
  if (doc.annotations !== undefined) meta.annotations = doc.annotations;
  if (doc.icons !== undefined) meta.icons = doc.icons;
  if (doc.deferred) meta.deferred = true;
  const freeform = site.freeform ?? doc.freeform === true;
  if (freeform) {
    // Only the JSDoc tag is written into the metadata; a literal option reaches the runtime as the option itself.
    if (site.freeform === undefined) meta.freeform = true;
    freeformProblems(
      name,
      meta,
      site.freeformNode ?? (doc.freeformTag ? tagSpan(doc.freeformTag) : site.nameNode),
      problems,
    );
  }
  if (site.freeform !== false) {
    // Any tool of one required string may be made free-form by options the build cannot see: its grammar is written
    // for every such tool, so that exporting it as a custom tool translates nothing at run time.
    const input = freeformInput(meta.parameters);
    if (typeof input !== "string" && input.pattern !== undefined) {
      const rust = toRustRegex(input.pattern);
      meta.grammar = rust.ok ? rust.definition : { refused: rust.reason };
    }
  }
  for (const { tag, message } of doc.invalid) problems.push({ code: Code.InvalidTagValue, node: tag, message });
  // Written here so that exporting in strict mode rewrites nothing at run time (runtime/strict/schema-of.ts).
  meta.strict = strictForms(meta.parameters, name);
  return { meta, problems };
}

/**
 * A free-form tool takes one required string (TT1027), and its pattern, if any, must read the same in Rust's `regex`
 * syntax, OpenAI's `regex` grammars' (TT1028). Reported at the tag or option that made it free-form.
 */
function freeformProblems(name: string, meta: CompiledToolMeta, node: Problem["node"], problems: Problem[]): void {
  const input = freeformInput(meta.parameters);
  if (typeof input === "string") {
    problems.push({
      code: Code.FreeformParameters,
      node,
      message: `Tool "${name}" is free-form, so the model sends its one parameter as raw text, but ${input}. Give it exactly one required string parameter (a ToolContext may follow), or remove @freeform / freeform: true.`,
    });
    return;
  }
  if (input.pattern === undefined) return;
  const rust = toRustRegex(input.pattern);
  if (rust.ok) return;
  problems.push({
    code: Code.FreeformPattern,
    node,
    message: `The pattern of free-form tool "${name}" (${JSON.stringify(input.pattern)}) cannot be OpenAI's regex grammar, which uses Rust's regex syntax: ${rust.reason} (at offset ${rust.at}). Rewrite the pattern without it, or remove @freeform / freeform: true to send the tool as a function tool.`,
  });
}

interface ReadParameters {
  properties: PropertyNode[];
  /** Every parameter's name in positional order (injected ones included), or the flattened object's properties. */
  params: string[];
  inject: number[];
  flatten: boolean;
  flattenedParam?: ts.ParameterDeclaration;
  /** Names of injected parameters: `@param` tags may document them without a warning. */
  injectedNames: string[];
}

/**
 * One schema property per parameter. `this` parameters are skipped, `ToolContext` ones injected, and a single
 * destructured object parameter is flattened: its properties are the tool's arguments.
 */
function readParameters(
  tsi: TS,
  checker: TypeReader,
  api: ApiResolver,
  reader: SchemaReader,
  fn: ts.SignatureDeclaration,
  problems: Problem[],
): ReadParameters {
  const out: ReadParameters = { properties: [], params: [], inject: [], flatten: false, injectedNames: [] };
  const data: { param: ts.ParameterDeclaration; index: number; type: ts.Type }[] = [];
  const positional: string[] = [];
  let position = 0;
  for (const param of fn.parameters) {
    if (tsi.isIdentifier(param.name) && param.name.text === "this") continue;
    const index = position++;
    const type = parameterType(tsi, checker, param);
    const name = tsi.isIdentifier(param.name) ? param.name.text : `#${index}`;
    positional.push(name);
    // Only a union can drop null or undefined (`ctx?: ToolContext`); asking the checker for the others costs time.
    if (api.isToolContext(type.isUnion() ? checker.getNonNullableType(type) : type)) {
      out.inject.push(index);
      out.injectedNames.push(name);
      continue;
    }
    data.push({ param, index, type });
  }

  const destructured = data.filter((d) => !tsi.isIdentifier(d.param.name));
  if (
    destructured.length === 1 &&
    data.length === 1 &&
    tsi.isObjectBindingPattern(data[0]!.param.name) &&
    !data[0]!.param.dotDotDotToken
  ) {
    const { param, type, index } = data[0]!;
    if (out.inject.some((i) => i < index)) {
      problems.push({
        code: Code.UnsupportedParameter,
        node: param,
        message: `The destructured parameter must come first (a ToolContext may follow it), because dispatch passes the arguments object in its place. Move it before the ToolContext parameter.`,
      });
    }
    out.flatten = true;
    out.flattenedParam = param;
    out.properties = flattenedProperties(tsi, checker, reader, param, checker.getNonNullableType(type));
    out.params = out.properties.map((p) => p.name);
    return out;
  }

  out.params = positional;
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
        code: Code.UnsupportedParameter,
        node: param,
        message: tsi.isObjectBindingPattern(param.name)
          ? `Destructured parameter ${param.name.getText()} has no name to give the model. Only a tool's single parameter may be destructured (its properties become the arguments); otherwise name it (args: Args) and destructure inside the function.`
          : `Array-destructured parameter ${param.name.getText()} has no name to give the model: name it (items: T[]) and destructure inside the function.`,
      });
      continue;
    }
    const paramName = param.name.text;
    const optional = !!param.questionToken || !!param.initializer || reader.includesUndefined(type);
    const schema = reader.read(type, {
      node: param,
      path: [paramName],
      param,
      typeNode: param.type,
      scopes: param.type ? [param.type] : [],
    });
    const keywords: Keywords = {};
    const defaultValue = param.initializer ? defaultJson(tsi, checker, param.initializer) : undefined;
    if (defaultValue !== undefined) keywords.default = defaultValue;
    out.properties.push({
      name: paramName,
      schema: withKeywords(schema, keywords),
      required: !optional,
      declaration: param,
    });
  }
  return out;
}

/**
 * The parameter's type. An unannotated parameter with an initializer (`limit = 10`) of a function passed to
 * `tool()` is typed by the context, which is `any`; the user meant the initializer's type.
 */
function parameterType(tsi: TS, checker: TypeReader, param: ts.ParameterDeclaration): ts.Type {
  const type = checker.getTypeAtLocation(param);
  if (!param.type && param.initializer && type.flags & tsi.TypeFlags.Any) {
    return checker.getBaseTypeOfLiteralType(checker.getWidenedType(checker.getTypeAtLocation(param.initializer)));
  }
  return type;
}

/** `({ query, limit = 10 }: Args)`: Args' properties, with the binding defaults as `default` and not required. */
function flattenedProperties(
  tsi: TS,
  checker: TypeReader,
  reader: SchemaReader,
  param: ts.ParameterDeclaration,
  type: ts.Type,
): PropertyNode[] {
  const defaults = new Map<string, ts.Expression>();
  for (const element of (param.name as ts.ObjectBindingPattern).elements) {
    const key = element.propertyName ?? element.name;
    if (element.initializer && (tsi.isIdentifier(key) || tsi.isStringLiteral(key)))
      defaults.set(key.text, element.initializer);
  }
  return reader
    .readProperties(type, {
      node: param,
      path: [],
      param,
      typeNode: param.type,
      scopes: param.type ? [param.type] : [],
    })
    .map((p) => {
      const initializer = defaults.get(p.name);
      const defaultValue = initializer ? defaultJson(tsi, checker, initializer) : undefined;
      const schema = defaultValue !== undefined ? withKeywords(p.schema, { default: defaultValue }) : p.schema;
      return { ...p, schema, required: p.required && !initializer };
    });
}

/**
 * `@param` texts onto the properties: `name` for a parameter (or, flattened, a property of the arguments
 * object), `param.prop` (or `param.prop.inner`, any depth) for a property of an inline object parameter. A property's
 * own JSDoc wins over
 * `@param`, as the more specific text. A tag that matches nothing is a warning at its name.
 */
function applyParamDocs(
  toolName: string,
  properties: PropertyNode[],
  read: ReadParameters,
  docs: ParamDoc[],
  problems: Problem[],
): void {
  const byName = new Map(properties.map((p, i) => [p.name, i]));
  const describe = (i: number, text: string, override: boolean) => {
    const p = properties[i]!;
    if (!override && p.schema.keywords?.description !== undefined) return;
    properties[i] = { ...p, schema: withKeywords(p.schema, { description: text }) };
  };
  for (const doc of docs) {
    const path = doc.name.split(".");
    let matched = false;
    if (read.flatten) {
      // `@param query` or `@param args.query` (any name for the object itself).
      const index = byName.get(path[path.length - 1]!);
      if (path.length <= 2 && index !== undefined) {
        if (doc.text) describe(index, doc.text, false);
        matched = true;
      } else if (path.length === 1) {
        // The destructured object's own name, as used by other tags (`@param args` next to `@param args.query`).
        matched = docs.some((d) => d.name.startsWith(`${path[0]}.`)) || read.injectedNames.includes(path[0]!);
      } else {
        // `@param filters.lang` or `@param args.filters.lang`: a property further down.
        for (const from of [0, 1]) {
          const at = byName.get(path[from]!);
          const found =
            at === undefined || path.length - from < 2
              ? undefined
              : describeNested(properties[at]!.schema, path.slice(from + 1), doc.text);
          if (found) {
            properties[at!] = { ...properties[at!]!, schema: found };
            matched = true;
            break;
          }
        }
      }
    } else if (path.length === 1) {
      const index = byName.get(path[0]!);
      if (index !== undefined) {
        if (doc.text) describe(index, doc.text, true);
        matched = true;
      } else {
        matched = read.injectedNames.includes(path[0]!);
      }
    } else {
      const index = byName.get(path[0]!);
      const found =
        index === undefined ? undefined : describeNested(properties[index]!.schema, path.slice(1), doc.text);
      if (found) {
        matched = true;
        properties[index!] = { ...properties[index!]!, schema: found };
      }
    }
    if (!matched) {
      problems.push({
        code: Code.UnknownParamTag,
        node: doc.tag.name,
        warning: true,
        message: `The JSDoc of tool "${toolName}" has @param ${doc.name}, but ${path.length > 1 ? "no inline object parameter has that property" : "the tool has no parameter of that name"}, so its text is not used. Fix the name in the comment${path.length > 1 ? ", or describe the property in its own declaration" : ""}.`,
      });
    }
  }
}

/**
 * `node` with `text` as the description of the property at `path` (`["filters", "lang"]`) inside inline objects,
 * unless that property has its own; undefined when there is no such property.
 */
function describeNested(node: SchemaNode, path: string[], text: string): SchemaNode | undefined {
  if (node.kind !== "object" || path.length === 0) return undefined;
  const at = node.properties.findIndex((p) => p.name === path[0]);
  if (at < 0) return undefined;
  const child = node.properties[at]!;
  let schema: SchemaNode | undefined;
  if (path.length === 1)
    schema =
      text && child.schema.keywords?.description === undefined
        ? withKeywords(child.schema, { description: text })
        : child.schema;
  else schema = describeNested(child.schema, path.slice(1), text);
  if (!schema) return undefined;
  return { ...node, properties: node.properties.map((p, k) => (k === at ? { ...p, schema } : p)) };
}

/**
 * The type of what the tool gives back: the awaited return type; for an `async function*` (a streaming tool), the
 * generator's TReturn as the result and its TYield as its progress (`yields`). A generator typed without a TReturn
 * (`AsyncIterable<T>`) returns `any`, which has no schema.
 */
function returnTypes(
  tsi: TS,
  checker: TypeReader,
  fn: ts.SignatureDeclaration,
): { streams?: true; returns?: ts.Type; yields?: ts.Type } {
  const signature = checker.getSignatureFromDeclaration(fn);
  if (!signature) return {};
  const declared = checker.getReturnTypeOfSignature(signature);
  const generator = (fn as { asteriskToken?: unknown }).asteriskToken !== undefined;
  const modifiers = (fn as { modifiers?: readonly ts.Node[] }).modifiers ?? [];
  const async = modifiers.some((modifier) => modifier.kind === tsi.SyntaxKind.AsyncKeyword);
  if (!generator || !async) return { returns: checker.getAwaitedType(declared) ?? declared };
  const args = declared.flags & tsi.TypeFlags.Object ? checker.getTypeArguments(declared as ts.TypeReference) : [];
  return { streams: true, ...(args[0] ? { yields: args[0] } : {}), ...(args[1] ? { returns: args[1] } : {}) };
}

/** The schema of a returned (or yielded) type, with the `@returns` text; undefined when it has no JSON form. */
function typeSchema(
  tsi: TS,
  checker: TypeReader,
  fn: ts.SignatureDeclaration,
  type: ts.Type,
  text: string | undefined,
  toolName: string,
  path: "return" | "yield",
): CompiledToolMeta["returns"] {
  const f = tsi.TypeFlags;
  if (type.flags & (f.Void | f.Undefined | f.Never)) return undefined;
  // Nothing is known about the value; the text still says what it is.
  if (type.flags & (f.Any | f.Unknown)) return text ? { description: text } : undefined;
  // Most tools return text: what the reader would find for a plain primitive, without a reader.
  // The written return type is the type itself only for a plain function.
  const written = path === "return" && !(fn as { asteriskToken?: unknown }).asteriskToken ? fn.type : undefined;
  const primitive = plainPrimitive(tsi, type, written);
  if (primitive) return toJsonSchema(text ? withKeywords(primitive, { description: text }) : primitive);
  const reader = new SchemaReader(tsi, checker, toolName);
  const node = reader.read(type, {
    node: fn,
    path: [path],
    param: fn,
    typeNode: written,
    scopes: fn.type ? [fn.type] : [],
  });
  if (reader.problems.some((p) => !p.warning)) return undefined;
  const finished = reader.finish([node]);
  const schema = toJsonSchema(text ? withKeywords(finished.roots[0]!, { description: text }) : finished.roots[0]!);
  if (finished.definitions.size > 0) schema.$defs = definitionsJson(finished.definitions);
  return schema;
}

/**
 * `string`, `number` or `boolean`, written as the keyword or inferred (no alias, whose JSDoc could add keywords):
 * the reader's primitive node for it; undefined for anything else.
 */
function plainPrimitive(tsi: TS, type: ts.Type, written: ts.TypeNode | undefined): SchemaNode | undefined {
  const k = tsi.SyntaxKind;
  if (
    type.aliasSymbol ||
    (written &&
      written.kind !== k.StringKeyword &&
      written.kind !== k.NumberKeyword &&
      written.kind !== k.BooleanKeyword)
  )
    return undefined;
  const f = tsi.TypeFlags;
  if (type.flags & f.String) return { kind: "primitive", type: "string" };
  if (type.flags & f.Number) return { kind: "primitive", type: "number" };
  if (type.flags & f.Boolean) return { kind: "primitive", type: "boolean" };
  return undefined;
}

/** A default's JSON value: a literal (see literalJson), else a constant or enum member whose type is one literal. */
function defaultJson(tsi: TS, checker: TypeReader, node: ts.Expression): JsonValue | undefined {
  const literal = literalJson(tsi, node);
  if (literal !== undefined) return literal;
  const type = checker.getTypeAtLocation(node);
  const f = tsi.TypeFlags;
  if (type.flags & f.StringLiteral) return (type as ts.StringLiteralType).value;
  if (type.flags & f.NumberLiteral) return (type as ts.NumberLiteralType).value;
  if (type.flags & f.BooleanLiteral) return (type as { intrinsicName?: string }).intrinsicName === "true";
  return undefined;
}

/** The JSON value of a literal default (`10`, `-1`, `"celsius"`, `true`, `null`, arrays and objects of those). */
export function literalJson(tsi: TS, node: ts.Expression): JsonValue | undefined {
  if (tsi.isParenthesizedExpression(node) || tsi.isAsExpression(node) || tsi.isSatisfiesExpression(node)) {
    return literalJson(tsi, node.expression);
  }
  if (tsi.isStringLiteral(node) || tsi.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (tsi.isNumericLiteral(node)) return Number(node.text);
  if (
    tsi.isPrefixUnaryExpression(node) &&
    node.operator === tsi.SyntaxKind.MinusToken &&
    tsi.isNumericLiteral(node.operand)
  ) {
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
