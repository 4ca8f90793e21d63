/**
 * `standardSchema(tool)`: a compiled tool's arguments as a Standard Schema (`~standard.validate`) and a Standard JSON
 * Schema (`~standard.jsonSchema`), so that libraries that take any Standard Schema (the AI SDK's `tool({ inputSchema
 * })`, the MCP SDK v2's `registerTool`, form and router libraries) take a tooltype type with no adapter.
 *
 * `validate` goes the way dispatch reads a call's arguments: text is read leniently (repair-json.ts) unless the tool
 * turns
 * `repair` off, a value is copied within the size and depth limits, the build-time validator checks it, and only
 * when that fails the coercion rules apply (conform.ts) before the issues are told, each with its path. The value it
 * gives back has Dates and URLs revived, as the tool receives them. Nothing here is on dispatch's path: a program that
 * never calls `standardSchema` bundles none of it.
 */
import { type ArgsObject, type ReadOptions, type ReadResult, readArguments } from "./read/read-arguments";
import { instantiateValidator } from "../validation/compiled-validator";
import { conform } from "./repair/conform";
import { toDraft07 } from "../validation/standard/draft-07";
import type { Located } from "./explain/invalid";
import { describeArgumentsProblem, parseArguments } from "./read/parse-arguments";
import type {
  StandardIssue,
  StandardJsonSchemaOptions,
  StandardResult,
  ToolSchemaSource,
  ToolStandardSchema,
} from "../validation/standard/types";
import { ArgumentsValidator } from "../validation/validate";
import { getToolDeclaration, type AnyFunction } from "../tool/tool";
import { notCompiledHint } from "../tool/errors";
import type { CompiledToolMeta, CompiledValidatorFactory, JsonSchema } from "../tool/meta";
import type { ToolOptions } from "../tool/options";

/** What a Standard Schema is made of: a name for messages, the schema, how to read and conform. */
export interface StandardSource {
  readonly name: string;
  readonly schema: JsonSchema;
  readonly meta: {
    readonly validator?: CompiledValidatorFactory;
    readonly dates?: readonly string[];
    readonly urls?: readonly string[];
  };
  readonly read: ReadOptions;
  readonly coerce: boolean;
}

const made = new WeakMap<object, ToolStandardSchema<never>>();

/**
 * The arguments of `tool` (a `tool()` value, an `@tool` method, or a registered tool from `registry.get(name)`) as a
 * Standard Schema and Standard JSON Schema: `tool({ inputSchema: standardSchema(getWeather), … })` in the AI SDK,
 * `server.registerTool(name, { inputSchema: standardSchema(getWeather) }, …)` in the MCP SDK v2. Name the arguments'
 * type to have them typed: `standardSchema<{ city: string }>(getWeather)`. Throws a TypeError for a function that
 * is no compiled tool.
 * @typeParam Args The arguments object's type (default: any object).
 */
export function standardSchema<Args = Record<string, unknown>>(
  tool: AnyFunction | ToolSchemaSource,
): ToolStandardSchema<Args> {
  let schema = made.get(tool);
  if (!schema) {
    schema = standardSchemaOf(sourceOf(tool));
    made.set(tool, schema);
  }
  return schema as ToolStandardSchema<Args>;
}

function sourceOf(tool: AnyFunction | ToolSchemaSource): StandardSource {
  if (typeof tool === "function") {
    const declaration = getToolDeclaration(tool);
    if (!declaration) {
      throw new TypeError(
        `standardSchema(${tool.name || "fn"}): the function is not a tool. Pass a tool(fn) value, an @tool method, or registry.get(name).`,
      );
    }
    if (!declaration.meta)
      throw new TypeError(
        `standardSchema(${declaration.key}): the tool has no compiled metadata; ${notCompiledHint()}`,
      );
    return toolSource(
      declaration.options.name ?? declaration.meta.name,
      declaration.meta.parameters,
      declaration.meta,
      declaration.options,
    );
  }
  return toolSource(tool.name, tool.parameters, tool.meta, tool.options);
}

function toolSource(
  name: string,
  schema: JsonSchema,
  meta: CompiledToolMeta,
  options: Readonly<ToolOptions>,
): StandardSource {
  const read: ReadOptions = { repair: options.repair ?? true, unwrapString: options.coerce ?? true };
  if (options.maxArgumentsBytes !== undefined) read.maxBytes = options.maxArgumentsBytes;
  if (options.maxArgumentsDepth !== undefined) read.maxDepth = options.maxArgumentsDepth;
  return { name, schema, meta, read, coerce: options.coerce ?? true };
}

/** The Standard Schema of a source (tools here, structured outputs in agent/structured.ts). */
export function standardSchemaOf<Value>(source: StandardSource): ToolStandardSchema<Value> {
  let validator: ArgumentsValidator | undefined;
  const jsonSchema = (options: StandardJsonSchemaOptions): Record<string, unknown> => schemaFor(source, options);
  return {
    "~standard": {
      version: 1,
      vendor: "tooltype",
      validate: (value) => {
        const compiled = source.meta.validator;
        validator ??= new ArgumentsValidator(
          source.schema,
          compiled ? instantiateValidator(compiled, source.schema) : undefined,
        );
        try {
          return validateWith(source, validator, value) as StandardResult<Value>;
        } catch {
          // A getter or proxy of the value threw while it was read: the Standard Schema contract is an answer, not a
          // throw, and the error's own text (which may hold a secret) stays out of it.
          return {
            issues: [
              {
                message: `the arguments for ${source.name} could not be read: reading the value threw an error (a getter or a proxy); pass plain data`,
              },
            ],
          };
        }
      },
      jsonSchema: { input: jsonSchema, output: jsonSchema },
    },
  };
}

function validateWith(
  source: StandardSource,
  validator: ArgumentsValidator,
  value: unknown,
): StandardResult<ArgsObject> {
  const read: ReadResult =
    typeof value === "string" ? parseArguments(value, source.read) : readArguments(value, source.read);
  if (!read.ok) return { issues: [{ message: describeArgumentsProblem(source.name, read) }] };
  const args = read.args;
  const conformed = conform(args, source.schema, validator, source.meta, {
    coerce: source.coerce,
    maxDepth: source.read.maxDepth ?? 64,
  });
  if (!conformed.invalid) return { value: args };
  const located = conformed.invalid.located ?? [];
  return { issues: located.map((line) => issueOf(line, args)) };
}

/**
 * A located line as an issue: its message, and its pointer as keys (numbers where the value there is an array); a
 * missing property's path ends with its name, as forms show the problem at the field.
 */
function issueOf(line: Located, value: unknown): StandardIssue {
  if (line.pointer === "" && line.missing === undefined) return { message: line.message };
  const path: PropertyKey[] = [];
  let at = value;
  for (const raw of line.pointer.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    const index = Array.isArray(at) && /^(?:0|[1-9][0-9]*)$/.test(key) ? Number(key) : undefined;
    path.push(index ?? key);
    at = typeof at === "object" && at !== null ? (at as Record<string, unknown>)[key] : undefined;
  }
  if (line.missing !== undefined) path.push(line.missing);
  return { message: line.message, path };
}

function schemaFor(source: StandardSource, options: StandardJsonSchemaOptions): Record<string, unknown> {
  const target = options?.target ?? "draft-2020-12";
  // A fresh copy each time: consumers change what they get (the AI SDK adds additionalProperties).
  if (target === "draft-2020-12") return JSON.parse(JSON.stringify(source.schema)) as Record<string, unknown>;
  if (target === "draft-07") return toDraft07(source.schema);
  throw new Error(
    `The JSON Schema of ${source.name} can be written for the targets "draft-2020-12" and "draft-07", not ${JSON.stringify(target)}.`,
  );
}
