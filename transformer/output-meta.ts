/**
 * Derives the metadata of `structuredOutput<T>(name?)`: the JSON Schema of T (same mapping as tool parameters),
 * its name and description, and the Dates to revive, so a model's structured answer is typed by T alone.
 *
 * Responsibilities: T must be an object type with named properties, because OpenAI's `json_schema` response format
 * needs an object at the root; the name must be one providers accept. Problems are returned, not thrown.
 */
import type * as ts from "typescript";
import type { TypeReader } from "./readers/reader";
import { type CompiledOutputMeta, META_VERSION } from "../runtime/tool/meta";
import type { TS } from "./compat";
import { Code } from "./diagnostics";
import { symbolDescription } from "./jsdoc";
import { datePointers } from "./schema/dates";
import { SchemaReader } from "./schema/read/reader";
import type { Problem } from "./schema/model";
import { parametersSchema } from "./schema/to-json";
import { strictForms } from "../runtime/strict/forms";

const OUTPUT_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export interface OutputSite {
  call: ts.CallExpression;
  /** The `T` of `structuredOutput<T>()`. */
  typeNode: ts.TypeNode;
  /** A name given as a string literal (first argument), which wins over T's name. */
  explicitName?: string;
  explicitNameNode?: ts.Node;
}

export function deriveOutputMeta(
  tsi: TS,
  checker: TypeReader,
  site: OutputSite,
): { meta: CompiledOutputMeta; problems: Problem[] } {
  const problems: Problem[] = [];
  const type = checker.getTypeFromTypeNode(site.typeNode);
  const symbol = type.aliasSymbol ?? type.getSymbol();
  const typeName = symbol && !symbol.getName().startsWith("__") ? symbol.getName() : undefined;
  const name = site.explicitName ?? (typeName ? snakeCase(typeName) : "output");
  const reader = new SchemaReader(tsi, checker, name);

  if (!OUTPUT_NAME.test(name)) {
    problems.push({
      code: Code.OutputShape,
      node: site.explicitNameNode ?? site.typeNode,
      message: `Structured output name "${name}" is not accepted by OpenAI, which requires 1 to 64 letters, digits, "_" or "-". Pass a name: structuredOutput<${site.typeNode.getText()}>("${name.replace(/[^a-zA-Z0-9_-]+/g, "_").slice(0, 64) || "output"}").`,
    });
  }
  const isObject =
    (type.flags & tsi.TypeFlags.Object) !== 0 &&
    !checker.isArrayType(type) &&
    !checker.isTupleType(type) &&
    type.getCallSignatures().length === 0 &&
    checker.getIndexInfosOfType(type).length === 0;
  if (!isObject && !(type.isIntersection() && type.types.every((t) => t.flags & tsi.TypeFlags.Object))) {
    problems.push({
      code: Code.OutputShape,
      node: site.typeNode,
      message: `structuredOutput needs an object type with named properties, because a model's structured answer is a JSON object; ${checker.typeToString(type)} is not one. Wrap it: structuredOutput<{ result: ${site.typeNode.getText()} }>().`,
    });
  }

  const properties =
    isObject || type.isIntersection()
      ? reader.readProperties(type, {
          node: site.typeNode,
          path: [],
          param: site.typeNode,
          typeNode: site.typeNode,
          scopes: [site.typeNode],
        })
      : [];
  const finished = reader.finish(properties.map((p) => p.schema));
  problems.push(...reader.problems);
  const resolved = properties.map((p, i) => ({ ...p, schema: finished.roots[i]! }));

  const meta: CompiledOutputMeta = { v: META_VERSION, name, schema: parametersSchema(resolved, finished.definitions) };
  const description = symbol ? symbolDescription(tsi, checker, symbol) : "";
  if (description) meta.description = description;
  // A response format is sent in OpenAI's strict subset by default: written here, not rewritten when sent.
  meta.strict = strictForms(meta.schema, name, ["openai-strict"]);
  const dates = datePointers(resolved, finished.definitions);
  for (const problem of dates.problems) {
    problems.push({
      code: Code.UnrevivableDate,
      node: site.typeNode,
      message: `${checker.typeToString(type)} holds a Date that parse() cannot revive (${problem.kind === "recursive" ? `inside the recursive type ${problem.where}` : "a tuple rest element after strings"}). Type that field string & Format<"date-time"> and convert it yourself.`,
    });
  }
  if (dates.pointers.length > 0) meta.dates = dates.pointers;
  // A URL in structured output: parse() revives it like a Date (a recursive one is refused by the tool rules too).
  const urls = datePointers(resolved, finished.definitions, "url");
  if (urls.pointers.length > 0) meta.urls = urls.pointers;
  if (urls.problems.length > 0) {
    problems.push({
      code: Code.UnrevivableDate,
      node: site.typeNode,
      message: `${checker.typeToString(type)} holds a URL that parse() cannot revive (inside a recursive type, or a tuple rest element after strings). Type that field string & Format<"uri"> and convert it yourself.`,
    });
  }
  return { meta, problems };
}

/** `CalendarEvent` → `calendar_event`: the form response-format names usually take. */
function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9_-]+/g, "_")
    .toLowerCase();
}
