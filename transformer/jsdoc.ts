/**
 * Reads the descriptions and keyword tags a user writes in JSDoc: the tool's summary and body, `@param` texts,
 * and property comments with tags such as `@minimum` or `@pattern`.
 *
 * Tag values are parsed strictly: a value that does not parse is reported, never dropped, because a silently
 * missing constraint is a schema that lies.
 */
import type * as ts from "typescript";
import type { TypeReader } from "./readers/reader";
import type { JsonValue, ToolAnnotations, ToolIcon } from "../runtime/tool/meta";
import type { TS } from "./compat";

/** jsDocsOf's answers: a tool's comment is asked for its description, its tags and its `@param`s in turn. */
const jsDocs = new WeakMap<ts.Node, readonly ts.JSDoc[]>();

/** The JSDoc blocks attached to `node` (the last one is the one TypeScript itself shows). */
export function jsDocsOf(tsi: TS, reader: TypeReader, node: ts.Node): readonly ts.JSDoc[] {
  let docs = jsDocs.get(node);
  if (!docs) {
    reader.parseJsDoc(node);
    docs = tsi.getJSDocCommentsAndTags(node).filter((d): d is ts.JSDoc => tsi.isJSDoc(d));
    jsDocs.set(node, docs);
  }
  return docs;
}

/** The summary and body of the last JSDoc block on `node`, trimmed; "" when there is none. */
export function descriptionOf(tsi: TS, reader: TypeReader, node: ts.Node): string {
  const docs = jsDocsOf(tsi, reader, node);
  const last = docs[docs.length - 1];
  return last ? (tsi.getTextOfJSDocComment(last.comment) ?? "").trim() : "";
}

export interface ToolDoc {
  /** Summary and body, with the `@example` blocks that are not arguments appended (models learn from examples). */
  description: string;
  /** `@example` blocks that are one JSON object: example arguments, checked against the schema by the caller. */
  examples: { value: { [key: string]: JsonValue }; tag: ts.JSDocTag }[];
  deprecated?: string | true;
  /** The `@returns` text. */
  returns?: string;
  /** `@title`: the name MCP clients show. */
  title?: string;
  /** MCP hints from `@readOnlyHint`, `@destructiveHint`, `@idempotentHint`, `@openWorldHint` (bare means `true`). */
  annotations?: ToolAnnotations;
  /** `@icon <url> [mime type] [sizes…] [light|dark]`, one tag per icon: what MCP clients may show. */
  icons?: ToolIcon[];
  /** `@deferred`: the tool is found by a tool search rather than sent with every request. */
  deferred?: true;
  /** `@freeform`: the tool's one string parameter is the model's raw text (OpenAI custom tools). */
  freeform?: true;
  /** The `@freeform` tag, to point at. */
  freeformTag?: ts.JSDocTag;
  /** Tags whose value does not parse, with what to write instead. */
  invalid: { tag: ts.JSDocTag; message: string }[];
}

const ANNOTATION_TAGS: ReadonlySet<string> = new Set([
  "readOnlyHint",
  "destructiveHint",
  "idempotentHint",
  "openWorldHint",
]);

/** Everything the JSDoc on a tool says about the tool as a whole. */
export function toolDocOf(tsi: TS, reader: TypeReader, node: ts.Node): ToolDoc {
  let description = descriptionOf(tsi, reader, node);
  const doc: ToolDoc = { description, examples: [], invalid: [] };
  for (const jsDoc of jsDocsOf(tsi, reader, node)) {
    for (const tag of jsDoc.tags ?? []) {
      const text = (tsi.getTextOfJSDocComment(tag.comment) ?? "").trim();
      const name = tag.tagName.text;
      if (ANNOTATION_TAGS.has(name)) {
        if (text === "" || text === "true" || text === "false") {
          doc.annotations = { ...doc.annotations, [name]: text !== "false" };
        } else {
          doc.invalid.push({
            tag,
            message: `@${name} takes no value, "true" or "false"; it got ${JSON.stringify(text)}. Write @${name} or @${name} false.`,
          });
        }
        continue;
      }
      switch (name) {
        case "example": {
          const args = exampleArguments(text);
          if (args) doc.examples.push({ value: args, tag });
          else if (text) description += `${description ? "\n\n" : ""}Example:\n${text}`;
          break;
        }
        case "deprecated":
          doc.deprecated = text || true;
          break;
        case "deferred":
          if (text === "" || text === "true") doc.deferred = true;
          else if (text !== "false")
            doc.invalid.push({
              tag,
              message: `@deferred takes no value, "true" or "false"; it got ${JSON.stringify(text)}. Write @deferred.`,
            });
          break;
        case "freeform":
          if (text === "" || text === "true") {
            doc.freeform = true;
            doc.freeformTag = tag;
          } else if (text !== "false")
            doc.invalid.push({
              tag,
              message: `@freeform takes no value, "true" or "false"; it got ${JSON.stringify(text)}. Write @freeform.`,
            });
          break;
        case "title":
          if (text) doc.title = text;
          else
            doc.invalid.push({
              tag,
              message: `@title needs a text, the name MCP clients show for the tool: write @title Get the weather.`,
            });
          break;
        case "icon": {
          const icon = iconOf(text);
          if (typeof icon === "string") doc.invalid.push({ tag, message: icon });
          else doc.icons = [...(doc.icons ?? []), icon];
          break;
        }
        case "returns":
        case "return":
          if (text) doc.returns = text.replace(/^\s*-\s+/, "");
          break;
      }
    }
  }
  doc.description = description;
  return doc;
}

/** The icon an `@icon` tag describes, or what is wrong with it. */
function iconOf(text: string): ToolIcon | string {
  const [src = "", ...rest] = text.split(/\s+/).filter((word) => word !== "");
  const usage = "Write @icon https://example.com/icon.png image/png 48x48 (type, sizes and light or dark optional).";
  if (!/^(https:\/\/\S+|data:\S+)$/.test(src))
    return `@icon needs an https: or data: URL first; it got ${JSON.stringify(src)}. ${usage}`;
  const icon: ToolIcon = { src };
  for (const word of rest) {
    if (word === "light" || word === "dark") icon.theme = word;
    else if (/^(\d+x\d+|any)$/.test(word)) icon.sizes = [...(icon.sizes ?? []), word];
    else if (/^[a-z]+\/[\w.+-]+$/.test(word)) icon.mimeType = word;
    else return `@icon does not know ${JSON.stringify(word)}. ${usage}`;
  }
  return icon;
}

/**
 * The arguments an `@example` block gives, when the block is one JSON object (bare, or in a fence marked json or
 * unmarked); undefined for anything else (a code sample, a call, prose), which stays part of the description.
 */
export function exampleArguments(text: string): { [key: string]: JsonValue } | undefined {
  const fenced = /^```(?:json|jsonc)?[ \t]*\n([\s\S]*?)\n?```$/.exec(text.trim());
  const body = (fenced ? fenced[1]! : text).trim();
  if (!body.startsWith("{")) return undefined;
  try {
    const value = JSON.parse(body) as JsonValue;
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** One `@param` tag: its name as written (`query`, `filter.min`), its text, and the tag for diagnostics. */
export interface ParamDoc {
  name: string;
  text: string;
  tag: ts.JSDocParameterTag;
}

/**
 * The `@param` tags of the JSDoc on `node`, in order: `name text`, `name - text`, `{T} name text`, `[name] text`,
 * `[name=default] text`, and dotted names for properties (`filter.min`). Tags without text are kept, so that a
 * misspelt name is still reported.
 */
export function paramDocsOf(tsi: TS, reader: TypeReader, node: ts.Node): ParamDoc[] {
  const out: ParamDoc[] = [];
  for (const doc of jsDocsOf(tsi, reader, node)) {
    for (const tag of doc.tags ?? []) {
      if (!tsi.isJSDocParameterTag(tag)) continue;
      const name = entityNameText(tsi, tag.name);
      const text = (tsi.getTextOfJSDocComment(tag.comment) ?? "").replace(/^\s*-\s+/, "").trim();
      out.push({ name, text: dedent(text), tag });
    }
  }
  return out;
}

function entityNameText(tsi: TS, name: ts.EntityName): string {
  return tsi.isIdentifier(name) ? name.text : `${entityNameText(tsi, name.left)}.${name.right.text}`;
}

/** Continuation lines of a tag keep the indentation they had after the `*`; a description does not need it. */
function dedent(text: string): string {
  return text.replace(/\n[ \t]+/g, "\n");
}

/** The documentation comment of a property symbol (works for declarations in .d.ts files too). */
export function symbolDescription(tsi: TS, reader: TypeReader, symbol: ts.Symbol): string {
  return tsi.displayPartsToString(reader.documentationOf(symbol)).trim();
}

type TagKind =
  | "number"
  | "positiveNumber"
  | "nonNegativeInteger"
  | "string"
  | "regex"
  | "flag"
  | "explained"
  | "json"
  | "jsonList";

/** JSDoc tags that become JSON Schema keywords, with how their value is read. */
const KEYWORD_TAGS: Record<string, { keyword: string; kind: TagKind }> = {
  minimum: { keyword: "minimum", kind: "number" },
  maximum: { keyword: "maximum", kind: "number" },
  exclusiveMinimum: { keyword: "exclusiveMinimum", kind: "number" },
  exclusiveMaximum: { keyword: "exclusiveMaximum", kind: "number" },
  multipleOf: { keyword: "multipleOf", kind: "positiveNumber" },
  minLength: { keyword: "minLength", kind: "nonNegativeInteger" },
  maxLength: { keyword: "maxLength", kind: "nonNegativeInteger" },
  minItems: { keyword: "minItems", kind: "nonNegativeInteger" },
  maxItems: { keyword: "maxItems", kind: "nonNegativeInteger" },
  uniqueItems: { keyword: "uniqueItems", kind: "flag" },
  pattern: { keyword: "pattern", kind: "regex" },
  format: { keyword: "format", kind: "string" },
  title: { keyword: "title", kind: "string" },
  default: { keyword: "default", kind: "json" },
  examples: { keyword: "examples", kind: "jsonList" },
  deprecated: { keyword: "deprecated", kind: "explained" },
};

/** The JSON Schema keyword a JSDoc tag sets, or undefined for tags that are not keywords. */
export function keywordOfTag(tag: string): string | undefined {
  return KEYWORD_TAGS[tag]?.keyword;
}

/**
 * The keyword value of a keyword tag's text, or what was expected instead. `@examples` always gives a list: a JSON
 * array is the list itself, anything else one example (repeat the tag for more).
 */
export function parseKeywordTag(
  tag: string,
  text: string,
): { keyword: string; value: JsonValue } | { error: string } | undefined {
  const spec = KEYWORD_TAGS[tag];
  if (!spec) return undefined;
  const parsed = parseTagValue(spec.kind, text);
  return "error" in parsed ? parsed : { keyword: spec.keyword, value: parsed.value };
}

/** The keywords JSDoc tags (and so type tags) can set. */
export const TAG_KEYWORDS: readonly string[] = Object.values(KEYWORD_TAGS).map((s) => s.keyword);

/**
 * What is wrong with `value` for `keyword` when it comes from a type tag (`TypeTag<{ minimum: "ten" }>`), by the
 * same rules as the JSDoc tag's text; undefined when it is fine. Type tags carry values, not text, so a value of
 * the wrong kind would otherwise reach the schema and make it invalid.
 */
export function keywordValueProblem(keyword: string, value: JsonValue): string | undefined {
  const spec = Object.values(KEYWORD_TAGS).find((s) => s.keyword === keyword);
  if (!spec) return undefined;
  switch (spec.kind) {
    case "json":
    case "jsonList":
      return undefined;
    case "flag":
    case "explained":
      return typeof value === "boolean" ? undefined : "true or false";
    default: {
      const parsed =
        typeof value === "string" || typeof value === "number"
          ? parseTagValue(spec.kind, String(value))
          : { error: "a literal" };
      if ("error" in parsed) return parsed.error;
      return typeof parsed.value === typeof value ? undefined : `a ${typeof parsed.value}`;
    }
  }
}

function parseTagValue(kind: TagKind, text: string): { value: JsonValue } | { error: string } {
  switch (kind) {
    case "number": {
      const n = text === "" ? NaN : Number(text);
      return Number.isFinite(n) ? { value: n } : { error: "a number, e.g. @minimum 0" };
    }
    case "positiveNumber": {
      const n = text === "" ? NaN : Number(text);
      return Number.isFinite(n) && n > 0 ? { value: n } : { error: "a number greater than 0, e.g. @multipleOf 0.5" };
    }
    case "nonNegativeInteger": {
      const n = text === "" ? NaN : Number(text);
      return Number.isInteger(n) && n >= 0
        ? { value: n }
        : { error: "a whole number of 0 or more, e.g. @maxLength 80" };
    }
    case "string":
      return text ? { value: text } : { error: "a value after the tag, e.g. @format email" };
    case "regex":
      if (!text) return { error: "a regular expression after the tag, e.g. @pattern ^[a-z]+$" };
      try {
        // ajv compiles patterns with the `u` flag; check them the same way.
        new RegExp(text, "u");
        return { value: text };
      } catch (e) {
        return { error: `a valid regular expression (${(e as Error).message})` };
      }
    case "flag":
      if (text === "" || text === "true") return { value: true };
      if (text === "false") return { value: false };
      return { error: "no value, true or false" };
    case "explained":
      // @deprecated takes an explanation; the keyword itself is just the flag.
      return { value: true };
    case "json":
    case "jsonList": {
      const value = parseJsonish(text);
      if (value === undefined) return { error: 'a JSON value, e.g. @default 10 or @default "celsius"' };
      if (kind === "jsonList") return { value: Array.isArray(value) ? value : [value] };
      return { value };
    }
  }
}

/** JSON, or a bare word taken as a string (so `@default celsius` works as users expect). */
function parseJsonish(text: string): JsonValue | undefined {
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return /^[\w.:/@+-]+$/.test(text) ? text : undefined;
  }
}
