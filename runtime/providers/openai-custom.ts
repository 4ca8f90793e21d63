/**
 * OpenAI custom tools, shared by Chat Completions and the Responses API: a free-form tool (JSDoc `@freeform`, the
 * option `freeform: true`) is written as a custom tool, its text held to its pattern as a `regex` grammar (Rust's
 * `regex` syntax, runtime/validation/patterns/rust-regex.ts). The transformer refuses what cannot be written at build
 * time; a tool made free-form by options it cannot see is checked here, at export.
 */
import type { ToolFormatSource } from "./provider";
import { freeformInput, isFreeform } from "../tool/freeform";
import { ToolExportError } from "../tool/errors";
import { toRustRegex } from "../validation/patterns/rust-regex";

/** What a custom tool says of its input: the `regex` grammar of its pattern, or nothing (free text). */
export interface CustomToolFormat {
  readonly grammar?: string;
}

/** Whether `tool` is exported as a custom tool. */
export function isCustomTool(tool: ToolFormatSource): boolean {
  return isFreeform(tool.options, tool.meta);
}

/** The input format of a free-form tool. Throws ToolExportError when it takes no one string or its pattern cannot be a grammar. */
export function customToolFormat(tool: ToolFormatSource, format: string): CustomToolFormat {
  const input = freeformInput(tool.parameters);
  if (typeof input === "string")
    throw new ToolExportError(
      `Tool "${tool.name}" is free-form (a custom tool takes one raw text), but ${input}. Give it exactly one required string parameter, or drop freeform.`,
      { format, toolName: tool.name },
    );
  if (input.pattern === undefined) return {};
  const rust = toRustRegex(input.pattern);
  if (!rust.ok)
    throw new ToolExportError(
      `The pattern of free-form tool "${tool.name}" cannot be OpenAI's regex grammar (Rust's regex syntax): ${rust.reason}. Rewrite the pattern, or drop freeform.`,
      { format, toolName: tool.name, path: `/properties/${input.param}/pattern` },
    );
  return { grammar: rust.definition };
}
