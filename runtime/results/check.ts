/**
 * A tool's result checked against its declared return type (`meta.returns`, the schema the transformer derived),
 * for registries and tools with `checkResults`. What is checked is the result as the model or an MCP client receives
 * it (its JSON form: a Date as its ISO text, a Map as an object), so the check and the output schema MCP advertises
 * agree. Loaded with the failure path (settle.ts), on the first checked result.
 *
 * The transformer compiles the return schema's validator where results may be checked (`meta.resultValidator`: a
 * tool with `checkResults: true`, a build under `NODE_ENV=test` as Vitest and Jest run it), so the check loads no
 * ajv. Elsewhere (most programs never check results, and each validator would add code to every tool's metadata)
 * ajv compiles it once per tool: under Node it is always there, in a bundle it needs `import "tooltype/ajv"`.
 */
import { findInvalid } from "../arguments/explain/invalid";
import { instantiateValidator } from "../validation/compiled-validator";
import { ArgumentsValidator } from "../validation/validate";
import { ToolResultError } from "../tool/errors";
import type { CompiledValidatorFactory, JsonSchema } from "../tool/meta";

/** At most this many lines in the message: enough to find the bug, bounded for a long wrong list. */
const MAX_LINES = 10;

const validators = new WeakMap<JsonSchema, ArgumentsValidator>();

/**
 * The error for a result (in its JSON form) that its return type does not allow; undefined when it fits. `compiled`:
 * the return type's validator compiled at build time (`meta.resultValidator`), else ajv compiles `returns`.
 */
export function resultProblem(
  toolName: string,
  returns: JsonSchema,
  result: unknown,
  compiled?: CompiledValidatorFactory,
): ToolResultError | undefined {
  let validator = validators.get(returns);
  if (!validator) {
    const kit = compiled === undefined ? undefined : instantiateValidator(compiled, returns);
    validators.set(returns, (validator = new ArgumentsValidator(returns, kit)));
  }
  const invalid = findInvalid(validator, result);
  if (!invalid) return undefined;
  const lines = invalid.issues.slice(0, MAX_LINES).map((line) => `- ${line.replace(/^\(root\)/, "(result)")}`);
  if (invalid.issues.length > MAX_LINES) lines.push(`- … and ${invalid.issues.length - MAX_LINES} more`);
  return new ToolResultError(
    toolName,
    `the result of ${toolName} does not match its declared return type:\n${lines.join("\n")}\nThis is a bug in the tool, not in the call: fix what the tool returns, or its return type.`,
  );
}
