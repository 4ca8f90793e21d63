/**
 * Anthropic strict tool use (`tools[].strict: true`): the input is constrained by a grammar built from the schema,
 * which must fit Anthropic's documented subset (platform.claude.com/docs/en/build-with-claude/structured-outputs,
 * "JSON Schema limitations"). `toAnthropicStrictSchema` rewrites a parameter schema into it:
 * - kept: types, `enum` and `const` of plain values, `anyOf` (also from `oneOf`), `allOf` without references,
 *   local `$ref` / `$defs`, `required`, `items`, `minItems` of 0 or 1, `default`, `title`, the formats it lists,
 *   `pattern` when its regex stays within the supported features;
 * - every object closed (`additionalProperties: false`); optional properties stay optional (Anthropic takes them,
 *   so OpenAI's null-for-optional round trip does not apply);
 * - numeric and length bounds, other `minItems`, `maxItems`, other formats, patterns it cannot compile: sentences
 *   of the description, still enforced by dispatch, which validates against the original schema;
 * - what it cannot express (recursion, Records, tuples, untyped values, `not` / conditionals, objects in enums) is a
 *   ToolExportError naming the tool and the path.
 * `checkAnthropicStrictLimits` checks the request-wide limits (strict tools, optional and union-typed parameters).
 */
import { ToolExportError } from "../../tool/errors";
import type { JsonSchema, JsonValue } from "../../tool/meta";
import { isAnySchema, isObjectSchema, isRecord, json, pointerSegment, showPath } from "../../validation/json-schema";
import { note, withNotes } from "../schema-notes";

/** Anthropic's limits of one request's strict tools (its structured outputs page, "Schema complexity limits"). */
export const ANTHROPIC_STRICT_LIMITS = {
  /** Tools with `strict: true` in one request. */
  tools: 20,
  /** Optional properties, across every strict schema of the request. */
  optional: 24,
  /** Properties whose schema is a union (`anyOf` or a list of types), across every strict schema of the request. */
  unions: 16,
} as const;

/** The `format` values strict tool use accepts; others go into the description. */
const FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"]);

/** Keywords kept as they are. */
const KEPT = new Set(["type", "title", "default"]);

/** Keywords that change what is valid in ways the grammar cannot express or describe: an error, never a silent drop. */
const UNSUPPORTED = new Set([
  "not",
  "if",
  "then",
  "else",
  "dependentRequired",
  "dependentSchemas",
  "patternProperties",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
  "contains",
  "$dynamicRef",
  "$recursiveRef",
]);

/** Bookkeeping keywords with no meaning for the model. */
const DROPPED = new Set(["$schema", "$id", "$comment", "$anchor", "$dynamicAnchor"]);

/** Regex features strict tool use does not compile: backreferences, lookaround, word boundaries. */
const UNSUPPORTED_REGEX = /\\[1-9]|\\k<|\(\?<?[=!]|\\[bB]/;

const cache = new WeakMap<JsonSchema, JsonSchema>();

/**
 * The strict form of a tool's parameter schema for Anthropic. Metadata is immutable, so the result is kept per
 * schema object. Throws ToolExportError for what strict tool use cannot express.
 */
export function toAnthropicStrictSchema(schema: JsonSchema, toolName: string): JsonSchema {
  const cached = cache.get(schema);
  if (cached) return cached;
  const strict = new AnthropicStrictRewriter(toolName, schema).root();
  cache.set(schema, strict);
  return strict;
}

class AnthropicStrictRewriter {
  constructor(
    private readonly tool: string,
    private readonly original: JsonSchema,
  ) {}

  root(): JsonSchema {
    const schema = this.original;
    if (schema.type !== "object" || Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) {
      this.fail("", "is not one object", "a tool's input must be an object with named properties");
    }
    this.refuseRecursion();
    return this.node(schema, "");
  }

  private node(value: JsonValue | undefined, path: string): JsonSchema {
    if (isAnySchema(value)) {
      this.fail(path, "accepts any value (unknown or any)", "strict tool use needs a type at every level");
    }
    if (!isRecord(value)) this.fail(path, "is not a schema strict tool use can express", "give it a concrete type");
    for (const keyword of Object.keys(value)) {
      if (UNSUPPORTED.has(keyword)) this.fail(path, `uses "${keyword}"`, "strict tool use does not support it");
    }
    if ("prefixItems" in value || Array.isArray(value.items)) {
      this.fail(path, "is a tuple", "strict tool use has no tuples; use an array of one item type or an object");
    }
    const additional = value.additionalProperties;
    if (additional !== undefined && additional !== false) {
      this.fail(
        path,
        "is a Record or index signature (an object with free-form keys)",
        "strict tool use needs every object to list its properties; use an interface with named properties",
      );
    }

    const out: JsonSchema = {};
    const notes: string[] = [];
    for (const [keyword, child] of Object.entries(value)) {
      if (KEPT.has(keyword)) out[keyword] = child;
      else if (keyword === "description") out.description = child;
      else if (keyword === "enum" || keyword === "const") {
        const values = keyword === "enum" && Array.isArray(child) ? child : [child];
        if (values.some((item) => typeof item === "object" && item !== null)) {
          this.fail(path, `has objects or arrays in "${keyword}"`, "strict tool use takes plain values there only");
        }
        out[keyword] = child;
      } else if (keyword === "$ref") {
        if (typeof child !== "string" || !child.startsWith("#")) {
          this.fail(path, `refers outside the schema (${json(child)})`, "strict tool use takes local references only");
        }
        out.$ref = child;
      } else if (keyword === "format") {
        if (typeof child === "string" && FORMATS.has(child)) out.format = child;
        else notes.push(note(keyword, child));
      } else if (keyword === "pattern") {
        if (typeof child === "string" && !UNSUPPORTED_REGEX.test(child)) out.pattern = child;
        else notes.push(note(keyword, child));
      } else if (keyword === "minItems") {
        if (child === 0 || child === 1) out.minItems = child;
        else notes.push(note(keyword, child));
      } else if (keyword === "items") out.items = this.node(child, `${path}/items`);
      else if (keyword === "anyOf" || keyword === "oneOf") {
        // The grammar knows anyOf only; "exactly one" is still checked by dispatch against the original schema.
        out.anyOf = (Array.isArray(child) ? child : []).map((branch, i) =>
          this.node(branch, `${path}/${keyword}/${i}`),
        );
      } else if (keyword === "allOf") {
        out.allOf = (Array.isArray(child) ? child : []).map((branch, i) => {
          if (isRecord(branch) && "$ref" in branch) {
            this.fail(`${path}/allOf/${i}`, "is a reference inside allOf", "strict tool use does not support it");
          }
          return this.node(branch, `${path}/allOf/${i}`);
        });
      } else if (keyword === "$defs" || keyword === "definitions") {
        const defs: JsonSchema = {};
        for (const [name, def] of Object.entries(isRecord(child) ? child : {})) {
          defs[name] = this.node(def, `${path}/${keyword}/${pointerSegment(name)}`);
        }
        out[keyword] = defs;
      } else if (keyword === "properties") {
        const properties: JsonSchema = {};
        for (const [name, property] of Object.entries(isRecord(child) ? child : {})) {
          properties[name] = this.node(property, `${path}/properties/${pointerSegment(name)}`);
        }
        out.properties = properties;
      } else if (keyword === "required") out.required = child;
      else if (keyword === "additionalProperties" || DROPPED.has(keyword)) continue;
      else {
        const text = note(keyword, child);
        if (text !== "") notes.push(text);
      }
    }
    if (isObjectSchema(value)) {
      if (!("properties" in out)) out.properties = {};
      out.additionalProperties = false;
    }
    if (notes.length > 0) out.description = withNotes(value.description, notes);
    return out;
  }

  /** A definition that reaches itself through references: strict tool use takes no recursive schemas. */
  private refuseRecursion(): void {
    const defs = (key: string): JsonSchema => {
      const found = this.original[key];
      return isRecord(found) ? found : {};
    };
    const targets = (node: JsonValue | undefined, into: Set<string>): Set<string> => {
      if (Array.isArray(node)) for (const item of node) targets(item, into);
      else if (isRecord(node)) {
        for (const [keyword, child] of Object.entries(node)) {
          if (keyword === "$ref" && typeof child === "string") into.add(child);
          else targets(child, into);
        }
      }
      return into;
    };
    const edges = new Map<string, Set<string>>();
    for (const key of ["$defs", "definitions"]) {
      for (const [name, def] of Object.entries(defs(key)))
        edges.set(`#/${key}/${pointerSegment(name)}`, targets(def, new Set()));
    }
    const state = new Map<string, "open" | "done">();
    const visit = (ref: string): void => {
      if (state.get(ref) === "done") return;
      if (state.get(ref) === "open") {
        this.fail(ref.slice(1), "is recursive (it contains itself)", "strict tool use takes no recursive schemas");
      }
      state.set(ref, "open");
      for (const next of edges.get(ref) ?? []) if (edges.has(next)) visit(next);
      state.set(ref, "done");
    };
    for (const ref of edges.keys()) visit(ref);
  }

  private fail(path: string, problem: string, fix: string): never {
    throw new ToolExportError(
      `Tool "${this.tool}" cannot use Anthropic strict tool use: ${showPath(path)} ${problem}; ${fix}. Or export this tool without strict (@tool({ strict: false }) / tool(fn, { strict: false })).`,
      { format: "anthropic-strict", toolName: this.tool, path },
    );
  }
}

/**
 * Anthropic's limits of one request's strict tools, given their strict schemas: how many, how many optional
 * properties, how many union-typed ones (each definition counted once). Throws ToolExportError saying which.
 */
export function checkAnthropicStrictLimits(schemas: readonly { name: string; schema: JsonSchema }[]): void {
  const fail = (limit: string, detail: string): never => {
    throw new ToolExportError(
      `Anthropic strict tool use allows ${limit} in one request; ${detail}. Export fewer tools as strict (a tool's own strict: false), or pass checkLimits: false to send them as they are.`,
      { format: "anthropic-strict" },
    );
  };
  const { tools, optional, unions } = ANTHROPIC_STRICT_LIMITS;
  if (schemas.length > tools) fail(`at most ${tools} strict tools`, `this export has ${schemas.length}`);
  let optionals = 0;
  let unionCount = 0;
  const count = (node: JsonValue | undefined): void => {
    if (!isRecord(node)) return;
    if (isRecord(node.properties)) {
      const required = new Set(Array.isArray(node.required) ? node.required : []);
      for (const [name, child] of Object.entries(node.properties)) {
        if (!required.has(name)) optionals++;
        if (isRecord(child) && (Array.isArray(child.anyOf) || Array.isArray(child.type))) unionCount++;
        count(child);
      }
    }
    count(node.items);
    for (const key of ["anyOf", "allOf"]) {
      const branches = node[key];
      if (Array.isArray(branches)) for (const branch of branches) count(branch);
    }
    for (const key of ["$defs", "definitions"]) {
      const defs = node[key];
      if (isRecord(defs)) for (const def of Object.values(defs)) count(def);
    }
  };
  for (const { schema } of schemas) count(schema);
  if (optionals > optional) {
    fail(`at most ${optional} optional properties across its strict tools`, `these have ${optionals}`);
  }
  if (unionCount > unions) {
    fail(
      `at most ${unions} properties of a union type (anyOf, a list of types) across its strict tools`,
      `these have ${unionCount}`,
    );
  }
}
