/**
 * A tool's result checked against its declared return type (`meta.returns`, the schema the transformer derived),
 * for registries and tools with `checkResults`. What is checked is the result as the model or an MCP client receives
 * it (its JSON form: a Date as its ISO text, a Map as an object), so the check and the output schema MCP advertises
 * agree. Loaded with the failure path (settle.ts), on the first checked result.
 *
 * The return schema has no validator compiled at build time (most programs never check results, and each would
 * add code to every tool's metadata), so ajv compiles it once per tool: under Node it is always there, in a bundle
 * it needs `import "tooltype/ajv"`.
 */
import { findInvalid } from "../arguments/explain/invalid";
import { ArgumentsValidator } from "../validation/validate";
import { ToolResultError } from "../tool/errors";
import type { JsonSchema } from "../tool/meta";

/** At most this many lines in the message: enough to find the bug, bounded for a long wrong list. */
const MAX_LINES = 10;

const validators = new WeakMap<JsonSchema, ArgumentsValidator>();

/** The error for a result (in its JSON form) that its return type does not allow; undefined when it fits. */
export function resultProblem(toolName: string, returns: JsonSchema, result: unknown): ToolResultError | undefined {
  let validator = validators.get(returns);
  if (!validator) validators.set(returns, (validator = new ArgumentsValidator(returns)));
  const invalid = findInvalid(validator, result);
  if (!invalid) return undefined;
  const lines = invalid.issues.slice(0, MAX_LINES).map((line) => `- ${line.replace(/^\(root\)/, "(result)")}`);
  if (invalid.issues.length > MAX_LINES) lines.push(`- … and ${invalid.issues.length - MAX_LINES} more`);
  return new ToolResultError(
    toolName,
    `the result of ${toolName} does not match its declared return type:\n${lines.join("\n")}\nThis is a bug in the tool, not in the call: fix what the tool returns, or its return type.`,
  );
}
