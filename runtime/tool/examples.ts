/**
 * A tool's example arguments, for the formats that have no field of their own for them: appended to its description.
 */
import type { CompiledToolMeta, JsonValue } from "./meta";

/** The example arguments of a tool, as its metadata lists them (none: an empty list). */
export function examplesOf(tool: {
  readonly meta?: Pick<CompiledToolMeta, "examples">;
}): readonly { [key: string]: JsonValue }[] {
  return tool.meta?.examples ?? [];
}

/**
 * The description with the example arguments appended, one JSON object per line after a line that says what they
 * are; the description exactly as it is without any.
 */
export function describeWithExamples(tool: {
  readonly description: string;
  readonly meta?: Pick<CompiledToolMeta, "examples">;
}): string {
  const examples = examplesOf(tool);
  if (examples.length === 0) return tool.description;
  const lines = examples.map((example) => JSON.stringify(example)).join("\n");
  return `${tool.description}${tool.description ? "\n\n" : ""}Example arguments:\n${lines}`;
}
