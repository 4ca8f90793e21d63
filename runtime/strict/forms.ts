/**
 * What the build writes into a compiled tool's metadata (`meta.strict`): its schema in each strict subset, by the
 * same rewrites an export would run, so that the export reads the result instead of rewriting.
 */
import { ToolExportError } from "../tool/errors";
import type { JsonSchema, StrictForms } from "../tool/meta";
import { STRICT_REWRITES, type StrictSubset } from "./rewrites";

/**
 * `schema` rewritten into each of `subsets` (both by default) for the tool named `toolName`: a form only where it
 * differs from `schema`, a refusal (its reason without the tool's name, which may change at run time) where the
 * subset cannot express it.
 */
export function strictForms(
  schema: JsonSchema,
  toolName: string,
  subsets: readonly StrictSubset[] = ["openai-strict", "anthropic-strict"],
): StrictForms {
  const forms: StrictForms = {};
  for (const subset of subsets) {
    try {
      const form = STRICT_REWRITES[subset](schema, toolName);
      if (JSON.stringify(form) !== JSON.stringify(schema)) forms[subset] = form;
    } catch (error) {
      const prefix = `Tool "${toolName}" `;
      if (!(error instanceof ToolExportError) || !error.message.startsWith(prefix)) throw error;
      forms.refused ??= {};
      forms.refused[subset] = {
        reason: error.message.slice(prefix.length),
        ...(error.path === undefined ? {} : { path: error.path }),
      };
    }
  }
  return forms;
}
