/**
 * A schema's strict form when a tool is exported in strict mode: the one the build wrote (`meta.strict`), else the
 * rewrite run now, for a schema that arrived at run time (`tool.fromSchema`, `fromMCP`) or metadata of an older
 * build. Nothing here imports the rewrites, so an app whose tools are all compiled bundles none of them: under Node
 * they are required on first need (`#lazy/strict`); in a bundle `tooltype/ajv` and the MCP client install them, as
 * they install ajv, which such a schema needs anyway.
 */
import { strictRewritesNow } from "#lazy/strict";
import { ToolExportError } from "../tool/errors";
import type { JsonSchema, StrictForms } from "../tool/meta";
import type { StrictRewrite, StrictSubset } from "./rewrites";

/** What a strict form is taken from: the exported name, the schema, and the build's forms of that very schema. */
export interface StrictSource {
  readonly name: string;
  readonly parameters: JsonSchema;
  readonly forms?: StrictForms | undefined;
}

let installed: Readonly<Record<StrictSubset, StrictRewrite>> | undefined;

/** Called by `tooltype/ajv` (entries/ajv.ts) and the MCP client: the rewrites at hand in a bundle. */
export function installStrictRewrites(rewrites: Readonly<Record<StrictSubset, StrictRewrite>>): void {
  installed = rewrites;
}

/** `source.parameters` in `subset`. Throws ToolExportError, naming the tool, for what the subset cannot express. */
export function strictSchemaOf(source: StrictSource, subset: StrictSubset): JsonSchema {
  const { name, parameters, forms } = source;
  if (forms !== undefined) {
    const refused = forms.refused?.[subset];
    if (refused !== undefined) {
      throw new ToolExportError(`Tool "${name}" ${refused.reason}`, {
        format: subset,
        toolName: name,
        ...(refused.path === undefined ? {} : { path: refused.path }),
      });
    }
    return forms[subset] ?? parameters;
  }
  installed ??= strictRewritesNow();
  if (installed === undefined) {
    throw new ToolExportError(
      `Tool "${name}" cannot be exported in strict mode: its schema was not rewritten at build time (a schema written at run time, or metadata of an older tooltype build), and this bundle left the run-time rewrite out: add \`import "tooltype/ajv";\` once to your app (it bundles what schemas written at run time need), or build the tool with the tooltype transformer.`,
      { format: subset, toolName: name },
    );
  }
  return installed[subset](parameters, name);
}
