/**
 * OpenAI custom tools, shared by Chat Completions and the Responses API: a free-form tool (JSDoc `@freeform`, the
 * option `freeform: true`) is written as a custom tool, its text held to its pattern as a `regex` grammar (Rust's
 * `regex` syntax, runtime/validation/patterns/rust-regex.ts). The build writes the grammar into the metadata
 * (`meta.grammar`) and refuses, for a tool it knows is free-form, what cannot be written; a tool made free-form by
 * options it cannot see is checked here, at export, and a schema that arrived at run time translated here.
 */
import type { ToolFormatSource } from "./provider";
import { freeformInput, isFreeform } from "../tool/freeform";
import { ToolExportError } from "../tool/errors";
import { rustRegexOf } from "../validation/patterns/rust-translator";

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
  const rust = grammarOf(tool, input.pattern);
  if (rust === undefined)
    throw new ToolExportError(
      `The pattern of free-form tool "${tool.name}" was not written as OpenAI's regex grammar at build time (a schema written at run time, or metadata of an older tooltype build), and this bundle left the translator out: add \`import "tooltype/ajv";\` once to your app, or build the tool with the tooltype transformer.`,
      { format, toolName: tool.name, path: `/properties/${input.param}/pattern` },
    );
  if (!rust.ok)
    throw new ToolExportError(
      `The pattern of free-form tool "${tool.name}" cannot be OpenAI's regex grammar (Rust's regex syntax): ${rust.reason}. Rewrite the pattern, or drop freeform.`,
      { format, toolName: tool.name, path: `/properties/${input.param}/pattern` },
    );
  return { grammar: rust.definition };
}

/** A pattern as a grammar, or why it cannot be one. */
type Grammar = { ok: true; definition: string } | { ok: false; reason: string };

/**
 * The pattern's grammar as the build wrote it (when `parameters` is the schema it was written from), else translated
 * now; `undefined` in a bundle that left the translator out.
 */
function grammarOf(tool: ToolFormatSource, pattern: string): Grammar | undefined {
  const meta = tool.meta;
  const built = meta !== undefined && meta.parameters === tool.parameters ? meta.grammar : undefined;
  if (built === undefined) return rustRegexOf(pattern);
  return typeof built === "string" ? { ok: true, definition: built } : { ok: false, reason: built.refused };
}
