/**
 * The strict rewrites by subset: what the build runs on every compiled tool's schema (forms.ts), and what exporting
 * runs on a schema that arrives at run time (`tool.fromSchema`, `fromMCP`), under Node on first need
 * (`#lazy/strict`), in a bundle once `tooltype/ajv` or the MCP client has brought it in (schema-of.ts).
 */
import type { JsonSchema } from "../tool/meta";
import { toAnthropicStrictSchema } from "./anthropic";
import { toStrictSchema } from "./openai";

/**
 * A model API's strict subset of JSON Schema (OpenAI strict mode, Anthropic strict tool use), by the name its
 * refusals give as `ToolExportError.format`.
 */
export type StrictSubset = "openai-strict" | "anthropic-strict";

/** A schema rewritten into one subset; throws ToolExportError, naming the tool, for what the subset cannot express. */
export type StrictRewrite = (schema: JsonSchema, toolName: string) => JsonSchema;

export const STRICT_REWRITES: Readonly<Record<StrictSubset, StrictRewrite>> = {
  "openai-strict": toStrictSchema,
  "anthropic-strict": toAnthropicStrictSchema,
};
