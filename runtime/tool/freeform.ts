/**
 * Free-form tools (JSDoc `@freeform`, the option `freeform: true`): a tool whose one parameter is a string takes the
 * model's raw text as that string, without JSON around it (OpenAI's custom tools). What the transformer checks at
 * build time, the exporters at export and dispatch when a free-form call arrives is read here, from the parameter
 * schema alone, so that the three agree.
 */
import type { CompiledToolMeta, JsonSchema } from "./meta";
import type { ToolOptions } from "./options";

/** The one string parameter of a free-form tool: its name and the pattern its text must match, if any. */
export interface FreeformInput {
  readonly param: string;
  readonly pattern?: string;
}

/** Whether a tool is free-form: its `freeform` option, else JSDoc `@freeform` in its compiled metadata. */
export function isFreeform(options: Readonly<ToolOptions>, meta: CompiledToolMeta | undefined): boolean {
  return options.freeform ?? meta?.freeform === true;
}

/**
 * The one string parameter `parameters` (an arguments object's schema) describes, or why it is not one: a free-form
 * input is one required property whose schema is a string (`$ref` followed once into `$defs`).
 */
export function freeformInput(parameters: JsonSchema): FreeformInput | string {
  const properties = parameters.properties;
  const names = typeof properties === "object" && properties !== null ? Object.keys(properties) : [];
  if (names.length !== 1)
    return names.length === 0 ? "it has no parameter" : `it has ${names.length} parameters (${names.join(", ")})`;
  const param = names[0]!;
  const required = Array.isArray(parameters.required) && parameters.required.includes(param);
  let schema = (properties as Record<string, unknown>)[param] as JsonSchema;
  const ref = schema.$ref;
  if (typeof ref === "string" && ref.startsWith("#/$defs/")) {
    const defs = parameters.$defs as Record<string, JsonSchema> | undefined;
    schema = defs?.[ref.slice("#/$defs/".length)] ?? schema;
  }
  if (schema.type !== "string") return `its parameter "${param}" is not a string`;
  if (!required) return `its parameter "${param}" is optional`;
  return typeof schema.pattern === "string" ? { param, pattern: schema.pattern } : { param };
}

/**
 * The arguments object of a free-form call: `input` as the value of the tool's one string parameter; or, for a tool
 * that takes no one string, what to tell the model.
 */
export function freeformArguments(
  name: string,
  parameters: JsonSchema,
  input: string,
): { [param: string]: string } | string {
  const found = freeformInput(parameters);
  if (typeof found !== "string") return { [found.param]: input };
  return `${name} takes its arguments as one JSON object, not as free-form text (${found}); call it as a function tool.`;
}
