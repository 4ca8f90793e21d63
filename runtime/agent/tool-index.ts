/** The index `runTools`' own tool search matches queries against: each tool's words, weighted by where they stand. */
import type { ToolFormatSource } from "../providers/provider";
import type { JsonValue } from "../tool/meta";

/** Where a word stands in a tool: its name weighs most, then its parameters' names, then any text. */
const NAME = 4;
const PARAMETER = 2;
const TEXT = 1;

/** Words no query is about. */
const STOP = new Set(["a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in", "is", "it", "of", "on", "or", "the", "to", "with"]);

/**
 * Each tool's words (its name split at `_`, `-` and case changes, its description, its parameters' names and
 * descriptions at every depth), worked out on the first search that meets the tool and kept with the registered tool,
 * so a registry's tools are indexed once per process: a search costs a pass over the words of the query, never a
 * reading of schemas or text.
 */
const indexed = new WeakMap<object, ReadonlyMap<string, number>>();

/** The words of `text`, in lower case: split at anything but letters and digits, and at case changes (`getWeather`). */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z\d])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== "" && !STOP.has(word));
}

/** Each word of `tool` with its weight (the heaviest place it stands in). */
export function termsOf(tool: ToolFormatSource): ReadonlyMap<string, number> {
  const known = indexed.get(tool);
  if (known) return known;
  const terms = new Map<string, number>();
  const add = (text: string, weight: number): void => {
    for (const word of wordsOf(text)) terms.set(word, Math.max(terms.get(word) ?? 0, weight));
  };
  add(tool.name, NAME);
  add(tool.description, TEXT);
  addSchema(tool.parameters, add, 0);
  indexed.set(tool, terms);
  return terms;
}

/** Property names and descriptions of a schema, nested ones included (to a depth that no real schema needs more of). */
function addSchema(schema: JsonValue | undefined, add: (text: string, weight: number) => void, depth: number): void {
  if (typeof schema !== "object" || schema === null || depth > 8) return;
  if (Array.isArray(schema)) {
    for (const item of schema) addSchema(item, add, depth + 1);
    return;
  }
  if (typeof schema.description === "string") add(schema.description, TEXT);
  if (typeof schema.title === "string") add(schema.title, TEXT);
  const properties = schema.properties;
  if (typeof properties === "object" && properties !== null && !Array.isArray(properties)) {
    for (const [name, property] of Object.entries(properties)) {
      add(name, PARAMETER);
      addSchema(property, add, depth + 1);
    }
  }
  for (const key of ["items", "anyOf", "oneOf", "allOf", "$defs", "additionalProperties"]) {
    const inner = schema[key];
    if (key === "$defs" && typeof inner === "object" && inner !== null && !Array.isArray(inner)) {
      for (const definition of Object.values(inner)) addSchema(definition, add, depth + 1);
    } else if (inner !== undefined) {
      addSchema(inner, add, depth + 1);
    }
  }
}

/**
 * The tools that best match `query`, at most `max`, best first: each word of the query scores the weight it has in
 * a tool (a word of four letters or more also matches the start of a longer one, for half), and a query that is a
 * tool's exact name finds that tool first. Equal scores keep the tools' order.
 */
export function searchTools<T extends ToolFormatSource>(tools: readonly T[], query: string, max: number): T[] {
  const words = [...new Set(wordsOf(query))];
  const exact = query.trim();
  const scored: { tool: T; score: number; order: number }[] = [];
  tools.forEach((tool, order) => {
    const terms = termsOf(tool);
    let score = tool.name === exact ? 100 : 0;
    for (const word of words) {
      const weight = terms.get(word);
      if (weight !== undefined) {
        score += weight;
        continue;
      }
      if (word.length < 4) continue;
      let prefix = 0;
      for (const [term, termWeight] of terms) if (term.startsWith(word) || (term.length >= 4 && word.startsWith(term))) prefix = Math.max(prefix, termWeight / 2);
      score += prefix;
    }
    if (score > 0) scored.push({ tool, score, order });
  });
  scored.sort((a, b) => b.score - a.score || a.order - b.order);
  return scored.slice(0, max).map((entry) => entry.tool);
}
