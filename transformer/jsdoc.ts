/**
 * Reads the descriptions and keyword tags a user writes in JSDoc: the tool's summary and body, `@param` texts,
 * and property comments with tags such as `@minimum` or `@pattern`.
 *
 * Tag values are parsed strictly: a value that does not parse is reported, never dropped, because a silently
 * missing constraint is a schema that lies.
 */
import type * as ts from "typescript";
import type { JsonValue } from "../runtime/meta";
import type { TS } from "./compat";
import type { Keywords } from "./schema/model";

/** The JSDoc blocks attached to `node` (the last one is the one TypeScript itself shows). */
export function jsDocsOf(tsi: TS, node: ts.Node): readonly ts.JSDoc[] {
  return tsi.getJSDocCommentsAndTags(node).filter((d): d is ts.JSDoc => tsi.isJSDoc(d));
}

/** The summary and body of the last JSDoc block on `node`, trimmed; "" when there is none. */
export function descriptionOf(tsi: TS, node: ts.Node): string {
  const docs = jsDocsOf(tsi, node);
  const last = docs[docs.length - 1];
  return last ? (tsi.getTextOfJSDocComment(last.comment) ?? "").trim() : "";
}

export interface ToolDoc {
  /** Summary and body, with `@example` blocks appended (models learn from few-shot examples). */
  description: string;
  deprecated?: string | true;
  /** The `@returns` text. */
  returns?: string;
}

/** Everything the JSDoc on a tool says about the tool as a whole. */
export function toolDocOf(tsi: TS, node: ts.Node): ToolDoc {
  let description = descriptionOf(tsi, node);
  const doc: ToolDoc = { description };
  for (const jsDoc of jsDocsOf(tsi, node)) {
    for (const tag of jsDoc.tags ?? []) {
      const text = (tsi.getTextOfJSDocComment(tag.comment) ?? "").trim();
      switch (tag.tagName.text) {
        case "example":
          if (text) description += `${description ? "\n\n" : ""}Example:\n${text}`;
          break;
        case "deprecated":
          doc.deprecated = text || true;
          break;
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

/** `@param` texts of the JSDoc on `node`, by parameter name; `name - text` loses its dash. */
export function paramDescriptionsOf(tsi: TS, node: ts.Node): Map<string, string> {
  const out = new Map<string, string>();
  for (const doc of jsDocsOf(tsi, node)) {
    for (const tag of doc.tags ?? []) {
      if (!tsi.isJSDocParameterTag(tag)) continue;
      const name = tsi.isIdentifier(tag.name) ? tag.name.text : tag.name.right.text;
      const text = (tsi.getTextOfJSDocComment(tag.comment) ?? "").replace(/^\s*-\s+/, "").trim();
      if (text) out.set(name, text);
    }
  }
  return out;
}

/** The documentation comment of a property symbol (works for declarations in .d.ts files too). */
export function symbolDescription(tsi: TS, checker: ts.TypeChecker, symbol: ts.Symbol): string {
  return tsi.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
}

type TagKind = "number" | "nonNegativeInteger" | "string" | "regex" | "flag" | "explained" | "json" | "jsonList";

/** JSDoc tags that become JSON Schema keywords, with how their value is read. */
const KEYWORD_TAGS: Record<string, { keyword: string; kind: TagKind }> = {
  minimum: { keyword: "minimum", kind: "number" },
  maximum: { keyword: "maximum", kind: "number" },
  exclusiveMinimum: { keyword: "exclusiveMinimum", kind: "number" },
  exclusiveMaximum: { keyword: "exclusiveMaximum", kind: "number" },
  multipleOf: { keyword: "multipleOf", kind: "number" },
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

export interface TagProblem {
  tag: string;
  text: string;
  expected: string;
}

/** Keywords from the JSDoc tags of a property symbol, plus the tags whose values did not parse. */
export function keywordsFromTags(tags: readonly ts.JSDocTagInfo[], tsi: TS): { keywords: Keywords; problems: TagProblem[] } {
  const keywords: Keywords = {};
  const problems: TagProblem[] = [];
  for (const tag of tags) {
    const spec = KEYWORD_TAGS[tag.name];
    if (!spec) continue;
    const text = tsi.displayPartsToString(tag.text ?? []).trim();
    const parsed = parseTagValue(spec.kind, text);
    if ("error" in parsed) problems.push({ tag: tag.name, text, expected: parsed.error });
    else keywords[spec.keyword] = parsed.value;
  }
  return { keywords, problems };
}

function parseTagValue(kind: TagKind, text: string): { value: JsonValue } | { error: string } {
  switch (kind) {
    case "number": {
      const n = text === "" ? NaN : Number(text);
      return Number.isFinite(n) ? { value: n } : { error: "a number, e.g. @minimum 0" };
    }
    case "nonNegativeInteger": {
      const n = text === "" ? NaN : Number(text);
      return Number.isInteger(n) && n >= 0 ? { value: n } : { error: "a whole number of 0 or more, e.g. @maxLength 80" };
    }
    case "string":
      return text ? { value: text } : { error: "a value after the tag" };
    case "regex":
      try {
        new RegExp(text, "u");
        return text ? { value: text } : { error: "a regular expression after the tag" };
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
