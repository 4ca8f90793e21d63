/**
 * Gemini tools: function declarations in Gemini's OpenAPI 3.0 subset, or with `{ jsonSchema: true }` the full JSON
 * Schema (`parametersJsonSchema`).
 *
 * The subset has no `$ref`, `additionalProperties`, `const` or tuples, and takes enums of strings only, so the
 * JSON Schema is rewritten (`GeminiWriter`):
 * - references are inlined; a recursive type is unrolled `recursionDepth` times (default 3) along each path. Where
 *   the unrolling stops, an optional property is left out, an array must be empty and a nullable value must be
 *   null, each said in the description. A recursion that is required at every level cannot stop: that is an error.
 * - `T | null` becomes `nullable: true`; a `const` becomes a one-value enum (strings) or a sentence (other values);
 *   numeric enums, exclusive bounds, `multipleOf`, `uniqueItems` and formats Gemini does not know become sentences
 *   in the description; integer bounds (`minItems`, …) become strings, as Gemini's int64 fields are.
 * - what the subset cannot hold (a `Record`, an untyped value) is a ToolExportError with the path.
 * Dispatch still validates against the original schema, so nothing the rewrite relaxes goes unchecked.
 */
import {
  isAnySchema,
  isRecord,
  json,
  pointerSegment,
  refName,
  resolveRef,
  showPath,
} from "../../validation/json-schema";
import { typeWords } from "../../arguments/explain/type-words";
import { ToolExportError } from "../../tool/errors";
import type { JsonSchema, JsonValue } from "../../tool/meta";
import type { ToolFormatSource } from "../provider";
import { Type } from "./enums";
import type { GeminiFunctionDeclaration, GeminiSchema, GeminiTool, GeminiToolsOptions } from "./wire";
import { describeWithExamples } from "../../tool/examples";

type FunctionDeclaration = import("@google/genai", { with: { "resolution-mode": "import" }}).FunctionDeclaration;
type Tool = import("@google/genai", { with: { "resolution-mode": "import" }}).Tool;

const DEFAULT_RECURSION_DEPTH = 3;

const TYPES: Record<string, Type> = {
  string: Type.STRING,
  number: Type.NUMBER,
  integer: Type.INTEGER,
  boolean: Type.BOOLEAN,
  array: Type.ARRAY,
  object: Type.OBJECT,
  null: Type.NULL,
};

/** The formats Gemini takes, by type; others become a sentence. */
const FORMATS: Partial<Record<Type, readonly string[]>> = {
  [Type.STRING]: ["enum", "date-time"],
  [Type.NUMBER]: ["float", "double"],
  [Type.INTEGER]: ["int32", "int64"],
};

/** A parameter name Gemini accepts. */
const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

export function toGeminiFunctionDeclaration(
  tool: ToolFormatSource,
  options: GeminiToolsOptions = {},
): GeminiFunctionDeclaration {
  if (!/^[A-Za-z_]/.test(tool.name)) {
    throw new ToolExportError(
      `Tool "${tool.name}" cannot be written for Gemini: a function name must start with a letter or an underscore. Rename it with the { name } option of @tool / tool().`,
      { format: "gemini", toolName: tool.name },
    );
  }
  const declaration: FunctionDeclaration = { name: tool.name };
  const description = describeWithExamples(tool);
  if (description !== "") declaration.description = description;
  const properties = isRecord(tool.parameters.properties) ? Object.keys(tool.parameters.properties) : [];
  if (options.jsonSchema) {
    if (properties.length > 0) declaration.parametersJsonSchema = tool.parameters;
    return declaration;
  }
  for (const name of properties) {
    if (!PARAMETER_NAME.test(name)) {
      throw new ToolExportError(
        `Tool "${tool.name}" cannot be written for Gemini: the parameter name "${name}" must start with a letter or an underscore and hold only letters, digits and underscores (at most 64). Rename the parameter.`,
        { format: "gemini", toolName: tool.name, path: `/properties/${pointerSegment(name)}` },
      );
    }
  }
  if (properties.length > 0) {
    const depth = Math.max(1, Math.floor(options.recursionDepth ?? DEFAULT_RECURSION_DEPTH));
    declaration.parameters = new GeminiWriter(tool.name, tool.parameters, depth).root();
  }
  return declaration;
}

/**
 * `[{ functionDeclarations }]` for Gemini's `config.tools`, in its OpenAPI schema subset (recursion unrolled to
 * `recursionDepth`), or with `{ jsonSchema: true }` the full JSON Schema. Throws ToolExportError.
 */
export function toGeminiTools(tools: Iterable<ToolFormatSource>, options: GeminiToolsOptions = {}): GeminiTool[] {
  const functionDeclarations = Array.from(tools, (tool) => toGeminiFunctionDeclaration(tool, options));
  const entry: Tool = { functionDeclarations };
  return [entry];
}

/** Where an unrolled recursion stopped: the enclosing optional property, array or nullable value decides what then. */
const CUT = Symbol("recursion cut");
type Written = GeminiSchema | typeof CUT;

class GeminiWriter {
  /** The last recursion cut, for the error when nothing can absorb it. */
  #cut: { path: string; ref: string } | undefined;

  constructor(
    private readonly tool: string,
    private readonly original: JsonSchema,
    private readonly depth: number,
  ) {}

  root(): GeminiSchema {
    const written = this.write(this.original, "", []);
    if (written === CUT) {
      const cut = this.#cut!;
      this.fail(
        cut.path,
        `holds the recursive type "${refName(cut.ref)}", which is required at every level, so no depth of unrolling ends it (Gemini schemas have no $ref)`,
        "make the recursive property optional or nullable, or put it in an array",
      );
    }
    return written;
  }

  private write(schema: JsonValue | undefined, path: string, expanding: readonly string[]): Written {
    if (isAnySchema(schema)) {
      this.fail(
        path,
        "accepts any value (unknown or any)",
        "Gemini needs a type at every level; give it a concrete type",
      );
    }
    if (!isRecord(schema)) this.fail(path, "is not a schema Gemini can express", "give it a concrete type");

    const ref = schema.$ref;
    if (typeof ref === "string") {
      if (expanding.filter((r) => r === ref).length >= this.depth) {
        this.#cut = { path, ref };
        return CUT;
      }
      const target = resolveRef(this.original, ref);
      if (target === undefined)
        this.fail(path, `refers to ${ref}, which does not resolve`, "rebuild with the tooltype transformer");
      const inner = this.write(target, path, [...expanding, ref]);
      if (inner === CUT) return CUT;
      // The description at the reference and the definition's own (with its notes) both reach the model.
      const site: JsonSchema = { ...schema };
      if (
        typeof schema.description === "string" &&
        inner.description !== undefined &&
        inner.description !== schema.description
      ) {
        site.description = joinSentences([schema.description, inner.description]);
      }
      return this.annotate({ ...inner }, site, []);
    }

    const branches = Array.isArray(schema.anyOf)
      ? schema.anyOf
      : Array.isArray(schema.oneOf)
        ? schema.oneOf
        : undefined;
    if (branches) return this.union(schema, branches, path, expanding);

    const declared =
      typeof schema.type === "string"
        ? [schema.type]
        : Array.isArray(schema.type)
          ? schema.type.filter((t) => typeof t === "string")
          : [];
    const values = Array.isArray(schema.enum) ? schema.enum : "const" in schema ? [schema.const ?? null] : undefined;
    const nullable = declared.includes("null") || (values?.includes(null) ?? false);
    let types = declared.filter((t) => t !== "null");
    if (types.length === 0 && values) types = [...new Set(values.filter((v) => v !== null).map(jsonType))];
    if (types.length === 0)
      return nullable ? { type: Type.NULL } : this.fail(path, "has no type", "give it a concrete type");
    if (types.length > 1) {
      // Several types at once (a mixed enum, `string | number`): one branch per type.
      const anyOf = types.map((type) => {
        const branch: JsonSchema = { ...schema, type };
        if (values) branch.enum = values.filter((v) => v !== null && typesMatch(jsonType(v), type));
        delete branch.const;
        return this.write(branch, path, expanding);
      });
      if (anyOf.includes(CUT)) return CUT;
      const out: GeminiSchema = { anyOf: anyOf as GeminiSchema[] };
      if (nullable) out.nullable = true;
      return this.annotate(out, schema, []);
    }
    return this.typed(
      schema,
      types[0]!,
      values?.filter((v) => v !== null),
      nullable,
      path,
      expanding,
    );
  }

  /** `anyOf` / `oneOf`: a `{type: "null"}` branch becomes `nullable`; branches cut by recursion are left out. */
  private union(schema: JsonSchema, branches: JsonValue[], path: string, expanding: readonly string[]): Written {
    const isNull = (b: JsonValue): boolean =>
      isRecord(b) && b.type === "null" && Object.keys(b).every((k) => k === "type" || k === "description");
    const nullable = branches.some(isNull);
    const notes: string[] = [];
    const written: GeminiSchema[] = [];
    branches.forEach((branch, i) => {
      if (isNull(branch)) return;
      const out = this.write(branch, `${path}/anyOf/${i}`, expanding);
      if (out !== CUT) written.push(out);
    });
    if (written.length === 0) {
      if (!nullable) return CUT;
      return this.annotate({ type: Type.NULL }, schema, ["Always null here: the nesting limit is reached."]);
    }
    if (written.length < branches.filter((b) => !isNull(b)).length)
      notes.push("Some alternatives are left out here: the nesting limit is reached.");
    const out: GeminiSchema = written.length === 1 ? { ...written[0]! } : { anyOf: written };
    if (nullable) out.nullable = true;
    return this.annotate(out, schema, notes);
  }

  private typed(
    schema: JsonSchema,
    type: string,
    values: JsonValue[] | undefined,
    nullable: boolean,
    path: string,
    expanding: readonly string[],
  ): Written {
    const geminiType = TYPES[type];
    if (!geminiType) this.fail(path, `has the type ${json(type)}`, "use a JSON Schema type");
    const out: GeminiSchema = { type: geminiType };
    const notes: string[] = [];
    if (nullable) out.nullable = true;

    if (values && values.length > 0) {
      if (geminiType === Type.STRING) out.enum = values.map(String);
      else notes.push(values.length === 1 ? `Must be ${json(values[0])}.` : `One of: ${values.map(json).join(", ")}.`);
    }
    if (typeof schema.format === "string") {
      if (FORMATS[geminiType]?.includes(schema.format)) out.format = schema.format;
      else notes.push(`Format: ${schema.format}.`);
    }
    if (typeof schema.pattern === "string") out.pattern = schema.pattern;
    if (typeof schema.minimum === "number") out.minimum = schema.minimum;
    if (typeof schema.maximum === "number") out.maximum = schema.maximum;
    if (typeof schema.exclusiveMinimum === "number") notes.push(`Greater than ${schema.exclusiveMinimum}.`);
    if (typeof schema.exclusiveMaximum === "number") notes.push(`Less than ${schema.exclusiveMaximum}.`);
    if (typeof schema.multipleOf === "number") notes.push(`A multiple of ${schema.multipleOf}.`);
    for (const keyword of [
      "minLength",
      "maxLength",
      "minItems",
      "maxItems",
      "minProperties",
      "maxProperties",
    ] as const) {
      const bound = schema[keyword];
      if (typeof bound === "number") out[keyword] = String(bound);
    }
    if (schema.uniqueItems === true) notes.push("Items must be unique.");

    if (geminiType === Type.ARRAY) {
      const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : undefined;
      if (tuple) {
        // No tuples in the subset: items of any listed type, the count fixed, the order said in words.
        const members = tuple.map((item, i) => this.write(item, `${path}/prefixItems/${i}`, expanding));
        if (members.includes(CUT)) return CUT;
        const unique = dedupe(members as GeminiSchema[]);
        out.items = unique.length === 1 ? unique[0]! : { anyOf: unique };
        notes.push(`A list of exactly these ${tuple.length} items in order: ${tuple.map(describeItem).join("; ")}.`);
      } else if (schema.items !== undefined) {
        const items = this.write(schema.items, `${path}/items`, expanding);
        if (items === CUT) {
          // Stop the recursion with an empty list; the placeholder item type is never used.
          out.items = { type: Type.STRING };
          out.maxItems = "0";
          notes.push("Always empty here: the nesting limit is reached.");
        } else {
          out.items = items;
        }
      } else {
        this.fail(path, "is an array without an item type", "give its items a type");
      }
    }

    if (geminiType === Type.OBJECT) {
      const source = isRecord(schema.properties) ? schema.properties : {};
      const required = new Set(Array.isArray(schema.required) ? schema.required : []);
      const properties: Record<string, GeminiSchema> = {};
      const left: string[] = [];
      for (const [name, child] of Object.entries(source)) {
        const written = this.write(child, `${path}/properties/${pointerSegment(name)}`, expanding);
        if (written !== CUT) properties[name] = written;
        else if (required.has(name)) return CUT;
        else left.push(name);
      }
      const additional = schema.additionalProperties;
      if (additional !== undefined && additional !== false) {
        this.fail(
          path,
          "is a Record or index signature (an object with free-form keys)",
          "Gemini's schema subset needs an object's properties listed; use an interface with named properties",
        );
      }
      const names = Object.keys(properties);
      if (names.length === 0) {
        this.fail(
          path,
          "is an object without properties",
          "Gemini rejects an OBJECT without properties; give it named properties",
        );
      }
      out.properties = properties;
      const kept = names.filter((name) => required.has(name));
      if (kept.length > 0) out.required = kept;
      out.propertyOrdering = names;
      if (left.length > 0)
        notes.push(`${left.map((n) => `"${n}"`).join(", ")} cannot be given here: the nesting limit is reached.`);
    }
    return this.annotate(out, schema, notes);
  }

  /** Description (with the notes), title, default and example; `deprecated` becomes a sentence. */
  private annotate(out: GeminiSchema, schema: JsonSchema, notes: string[]): GeminiSchema {
    if (typeof schema.title === "string") out.title = schema.title;
    if (schema.deprecated !== undefined && schema.deprecated !== false) {
      notes.push(
        typeof schema.deprecated === "string" && schema.deprecated !== ""
          ? `Deprecated: ${schema.deprecated}`
          : "Deprecated.",
      );
    }
    const base = typeof schema.description === "string" ? schema.description : out.description;
    const text = [base, ...notes].filter((t): t is string => typeof t === "string" && t !== "");
    if (text.length > 0) out.description = joinSentences(text);
    if (schema.default !== undefined) out.default = schema.default;
    if (Array.isArray(schema.examples) && schema.examples.length > 0) out.example = schema.examples[0];
    return out;
  }

  private fail(path: string, problem: string, fix: string): never {
    throw new ToolExportError(
      `Tool "${this.tool}" cannot be written for Gemini: ${showPath(path)} ${problem}; ${fix}. Or send the full JSON Schema with toGeminiTools({ jsonSchema: true }).`,
      { format: "gemini", toolName: this.tool, path },
    );
  }
}

function jsonType(value: JsonValue): string {
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  if (typeof value === "boolean") return "boolean";
  if (typeof value === "string") return "string";
  return value === null ? "null" : Array.isArray(value) ? "array" : "object";
}

function typesMatch(valueType: string, schemaType: string): boolean {
  return valueType === schemaType || (valueType === "integer" && schemaType === "number");
}

/** One tuple item in words: `a string`, `a number or null`, a named type's name (items are separated by `;`). */
function describeItem(schema: JsonValue): string {
  if (!isRecord(schema)) return "a value";
  if (typeof schema.$ref === "string") return refName(schema.$ref);
  return schema.type === undefined ? "a value" : typeWords(schema.type);
}

function dedupe(schemas: GeminiSchema[]): GeminiSchema[] {
  const seen = new Set<string>();
  return schemas.filter((schema) => {
    const key = JSON.stringify(schema);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function joinSentences(parts: string[]): string {
  return parts.reduce(
    (text, part) =>
      text === "" ? part : /[.!?:)]$/.test(text.trimEnd()) ? `${text.trimEnd()} ${part}` : `${text.trimEnd()}. ${part}`,
    "",
  );
}
