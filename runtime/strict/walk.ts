/**
 * The walk both strict rewrites share (OpenAI strict mode, openai.ts; Anthropic strict tool use, anthropic.ts): a
 * parameter schema taken node by node into a provider's grammar-constrained subset, what the
 * subset cannot express refused with the path, and what it only cannot enforce (bounds, other formats) moved into
 * the description, which dispatch still enforces against the original schema. Each provider gives its rules as a
 * `StrictDialect`; the walk, the refusals every subset shares and the wording of a refusal are written here once.
 */
import { ToolExportError } from "../tool/errors";
import type { JsonSchema, JsonValue } from "../tool/meta";
import { isAnySchema, isObjectSchema, isRecord, pointerSegment, showPath } from "../validation/json-schema";
import { note, withNotes } from "./notes";

/** One provider's strict subset of JSON Schema. */
export interface StrictDialect {
  /** What the refusals call the feature, as a sentence's subject: "OpenAI strict mode". */
  readonly feature: string;
  /** The same, short, inside a sentence: "strict mode". */
  readonly term: string;
  /** How a refusal ends: how to export the tool anyway. */
  readonly otherwise: string;
  /** `ToolExportError.format` of a refusal. */
  readonly format: string;
  /** Keywords taken as they are. */
  readonly kept: ReadonlySet<string>;
  /** Keywords refused besides `UNSUPPORTED_EVERYWHERE`. */
  readonly unsupported: ReadonlySet<string>;
  /** The `format` values the subset takes; others go into the description. */
  readonly formats: ReadonlySet<string>;
  /** The root checked before the walk (it must be one object, …). */
  checkRoot(walk: StrictWalk, schema: JsonSchema): void;
  /**
   * A keyword the dialect rewrites in its own way (`properties`, `required`, checked `enum` or `pattern`, …): writes
   * it into `out` or a note into `notes` and returns true, or returns false to leave it to the shared rules.
   */
  keyword(
    walk: StrictWalk,
    node: JsonSchema,
    keyword: string,
    child: JsonValue,
    path: string,
    out: JsonSchema,
    notes: string[],
  ): boolean;
  /** What an object node gets once its keywords are written (`additionalProperties: false`, …). */
  closeObject(out: JsonSchema): void;
}

/**
 * Keywords that change what is valid in ways neither subset can express or describe: an error, never a silent
 * drop. A dialect's `unsupported` adds its own (OpenAI's `allOf`).
 */
export const UNSUPPORTED_EVERYWHERE: ReadonlySet<string> = new Set([
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
const DROPPED = new Set(["$schema", "$id", "$comment", "$anchor", "$dynamicAnchor", "additionalProperties"]);

/** One rewrite of one tool's schema under a dialect. */
export class StrictWalk {
  constructor(
    readonly dialect: StrictDialect,
    readonly tool: string,
    readonly original: JsonSchema,
  ) {}

  root(): JsonSchema {
    this.dialect.checkRoot(this, this.original);
    return this.node(this.original, "");
  }

  node(value: JsonValue | undefined, path: string): JsonSchema {
    const { dialect } = this;
    const term = dialect.term;
    if (isAnySchema(value)) {
      this.fail(
        path,
        "accepts any value (unknown or any)",
        `${term} needs a type at every level; give it a concrete type`,
      );
    }
    if (!isRecord(value)) this.fail(path, `is not a schema ${term} can express`, "give it a concrete type");
    for (const keyword of Object.keys(value)) {
      if (UNSUPPORTED_EVERYWHERE.has(keyword) || dialect.unsupported.has(keyword))
        this.fail(path, `uses "${keyword}"`, `${term} does not support it`);
    }
    if ("prefixItems" in value || Array.isArray(value.items)) {
      this.fail(
        path,
        "is a tuple",
        `${term} has no tuples; use an array of one item type or an object with named properties`,
      );
    }
    const additional = value.additionalProperties;
    if (additional !== undefined && additional !== false) {
      this.fail(
        path,
        "is a Record or index signature (an object with free-form keys)",
        `${term} needs every object to list its properties; use an interface with named properties`,
      );
    }

    const out: JsonSchema = {};
    const notes: string[] = [];
    for (const [keyword, child] of Object.entries(value)) {
      if (dialect.kept.has(keyword)) out[keyword] = child;
      else if (dialect.keyword(this, value, keyword, child, path, out, notes)) continue;
      else if (keyword === "description") out.description = child;
      else if (keyword === "format") {
        if (typeof child === "string" && dialect.formats.has(child)) out.format = child;
        else notes.push(note(keyword, child));
      } else if (keyword === "items") out.items = this.node(child, `${path}/items`);
      else if (keyword === "anyOf" || keyword === "oneOf") {
        // The subsets know anyOf only; "exactly one" is still checked by dispatch against the original schema.
        out.anyOf = (Array.isArray(child) ? child : []).map((branch, i) =>
          this.node(branch, `${path}/${keyword}/${i}`),
        );
      } else if (keyword === "$defs" || keyword === "definitions") {
        const defs: JsonSchema = {};
        for (const [name, def] of Object.entries(isRecord(child) ? child : {})) {
          defs[name] = this.node(def, `${path}/${keyword}/${pointerSegment(name)}`);
        }
        out[keyword] = defs;
      } else if (DROPPED.has(keyword)) continue;
      else {
        const text = note(keyword, child);
        if (text !== "") notes.push(text);
      }
    }
    if (isObjectSchema(value)) dialect.closeObject(out);
    if (notes.length > 0) out.description = withNotes(value.description, notes);
    return out;
  }

  /** Each property of `schema` rewritten, in order. */
  properties(schema: JsonSchema, path: string): JsonSchema {
    const properties: JsonSchema = {};
    for (const [name, child] of Object.entries(isRecord(schema.properties) ? schema.properties : {})) {
      properties[name] = this.node(child, `${path}/properties/${pointerSegment(name)}`);
    }
    return properties;
  }

  fail(path: string, problem: string, fix: string): never {
    const { feature, otherwise, format } = this.dialect;
    throw new ToolExportError(
      `Tool "${this.tool}" cannot use ${feature}: ${showPath(path)} ${problem}; ${fix}. ${otherwise}`,
      { format, toolName: this.tool, path },
    );
  }
}
