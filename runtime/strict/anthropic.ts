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
 */
import type { JsonSchema, JsonValue } from "../tool/meta";
import { isRecord, json, pointerSegment } from "../validation/json-schema";
import { note } from "./notes";
import { type StrictDialect, StrictWalk } from "./walk";

/** The `format` values strict tool use accepts; others go into the description. */
const FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"]);

/** Keywords kept as they are. */
const KEPT = new Set(["type", "title", "default"]);

/** Refused beyond what neither subset takes (walk.ts): nothing more. */
const UNSUPPORTED: ReadonlySet<string> = new Set();

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
  const strict = new StrictWalk(ANTHROPIC_STRICT, toolName, schema).root();
  cache.set(schema, strict);
  return strict;
}

/** Anthropic's subset: optional properties stay optional, every object closed, a few keywords checked. */
const ANTHROPIC_STRICT: StrictDialect = {
  feature: "Anthropic strict tool use",
  term: "strict tool use",
  otherwise: "Or export this tool without strict (@tool({ strict: false }) / tool(fn, { strict: false })).",
  format: "anthropic-strict",
  kept: KEPT,
  unsupported: UNSUPPORTED,
  formats: FORMATS,
  checkRoot(walk, schema) {
    if (schema.type !== "object" || Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) {
      walk.fail("", "is not one object", "a tool's input must be an object with named properties");
    }
    refuseRecursion(walk);
  },
  keyword(walk, node, keyword, child, path, out, notes) {
    switch (keyword) {
      case "enum":
      case "const": {
        const values = keyword === "enum" && Array.isArray(child) ? child : [child];
        if (values.some((item) => typeof item === "object" && item !== null)) {
          walk.fail(path, `has objects or arrays in "${keyword}"`, "strict tool use takes plain values there only");
        }
        out[keyword] = child;
        return true;
      }
      case "$ref":
        if (typeof child !== "string" || !child.startsWith("#")) {
          walk.fail(path, `refers outside the schema (${json(child)})`, "strict tool use takes local references only");
        }
        out.$ref = child;
        return true;
      case "pattern":
        if (typeof child === "string" && !UNSUPPORTED_REGEX.test(child)) out.pattern = child;
        else notes.push(note(keyword, child));
        return true;
      case "minItems":
        if (child === 0 || child === 1) out.minItems = child;
        else notes.push(note(keyword, child));
        return true;
      case "allOf":
        out.allOf = (Array.isArray(child) ? child : []).map((branch, i) => {
          if (isRecord(branch) && "$ref" in branch) {
            walk.fail(`${path}/allOf/${i}`, "is a reference inside allOf", "strict tool use does not support it");
          }
          return walk.node(branch, `${path}/allOf/${i}`);
        });
        return true;
      case "properties":
        out.properties = walk.properties(node, path);
        return true;
      case "required":
        out.required = child;
        return true;
      default:
        return false;
    }
  },
  closeObject(out) {
    if (!("properties" in out)) out.properties = {};
    out.additionalProperties = false;
  },
};

/** A definition that reaches itself through references: strict tool use takes no recursive schemas. */
function refuseRecursion(walk: StrictWalk): void {
  const defs = (key: string): JsonSchema => {
    const found = walk.original[key];
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
      walk.fail(ref.slice(1), "is recursive (it contains itself)", "strict tool use takes no recursive schemas");
    }
    state.set(ref, "open");
    for (const next of edges.get(ref) ?? []) if (edges.has(next)) visit(next);
    state.set(ref, "done");
  };
  for (const ref of edges.keys()) visit(ref);
}
