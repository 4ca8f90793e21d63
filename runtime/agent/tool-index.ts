/** The index `runTools`' own tool search matches queries against: each tool's words, weighted by where they stand. */
import type { ToolFormatSource } from "../providers/provider";
import type { JsonValue } from "../tool/meta";

/** Where a word stands in a tool: its name weighs most, then its parameters' names, then any text. */
const NAME = 4;
const PARAMETER = 2;
const TEXT = 1;

/** Words no query is about. */
const STOP = new Set([
  "a",
  "an",
  "and",
  "are",
  "as",
  "at",
  "be",
  "by",
  "for",
  "from",
  "in",
  "is",
  "it",
  "of",
  "on",
  "or",
  "the",
  "to",
  "with",
]);

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

/** Of a query, only this many characters are read for words, and only this many distinct words are used. */
export const MAX_QUERY_CHARACTERS = 2000;
export const MAX_QUERY_WORDS = 32;
/** At most this many indexed words answer one query word's prefix (a prefix as short as four letters can be common). */
const MAX_PREFIX_TERMS = 512;

/** One tool's place in the index and a word's weight in it. */
interface Posting {
  readonly order: number;
  readonly weight: number;
}

/**
 * The words of a set of tools, inverted: each word with the tools it stands in, and every word sorted, so that a
 * query word costs a lookup and a binary search, whatever the number of tools and words.
 */
class TermIndex<T extends ToolFormatSource> {
  readonly #postings = new Map<string, Posting[]>();
  readonly #sorted: string[];
  readonly #byName = new Map<string, number>();

  constructor(readonly tools: readonly T[]) {
    tools.forEach((tool, order) => {
      if (!this.#byName.has(tool.name)) this.#byName.set(tool.name, order);
      for (const [term, weight] of termsOf(tool)) {
        let list = this.#postings.get(term);
        if (!list) this.#postings.set(term, (list = []));
        list.push({ order, weight });
      }
    });
    this.#sorted = [...this.#postings.keys()].sort();
  }

  /** Each tool's score for one query word: the word's own weight, else half the best weight of a word it prefixes or that prefixes it. */
  score(word: string, scores: Map<number, number>): void {
    const own = new Map<number, number>();
    for (const { order, weight } of this.#postings.get(word) ?? []) own.set(order, weight);
    const prefixed = new Map<number, number>();
    if (word.length >= 4) {
      const half = (postings: readonly Posting[] | undefined): void => {
        for (const { order, weight } of postings ?? [])
          prefixed.set(order, Math.max(prefixed.get(order) ?? 0, weight / 2));
      };
      // Indexed words that start with the query word: a contiguous run of the sorted words.
      for (
        let i = lowerBound(this.#sorted, word), seen = 0;
        i < this.#sorted.length && seen < MAX_PREFIX_TERMS && this.#sorted[i]!.startsWith(word);
        i++, seen++
      ) {
        if (this.#sorted[i] !== word) half(this.#postings.get(this.#sorted[i]!));
      }
      // Indexed words of four letters or more that the query word starts with.
      for (let length = 4; length < word.length; length++) half(this.#postings.get(word.slice(0, length)));
    }
    for (const [order, weight] of prefixed) if (!own.has(order)) own.set(order, weight);
    for (const [order, weight] of own) scores.set(order, (scores.get(order) ?? 0) + weight);
  }

  /** The tool named exactly `name`, by its place. */
  named(name: string): number | undefined {
    return this.#byName.get(name);
  }
}

/** The first index of `sorted` whose word is not before `word`. */
function lowerBound(sorted: readonly string[], word: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < word) low = middle + 1;
    else high = middle;
  }
  return low;
}

const indexes = new WeakMap<readonly ToolFormatSource[], TermIndex<ToolFormatSource>>();

/** The words of a query a search uses: of its first `MAX_QUERY_CHARACTERS` characters, the first `MAX_QUERY_WORDS` distinct ones. */
export function queryWords(query: string): string[] {
  return [...new Set(wordsOf(query.slice(0, MAX_QUERY_CHARACTERS)))].slice(0, MAX_QUERY_WORDS);
}

/**
 * The tools that best match `query`, at most `max`, best first: each word of the query scores the weight it has in
 * a tool (a word of four letters or more also matches the start of a longer one, for half), and a query that is a
 * tool's exact name finds that tool first. Equal scores keep the tools' order. The index of a list of tools is made
 * on its first search and kept with the list.
 */
export function searchTools<T extends ToolFormatSource>(tools: readonly T[], query: string, max: number): T[] {
  let index = indexes.get(tools) as TermIndex<T> | undefined;
  if (!index) {
    index = new TermIndex(tools);
    indexes.set(tools, index as unknown as TermIndex<ToolFormatSource>);
  }
  const scores = new Map<number, number>();
  const exact = query.length <= MAX_QUERY_CHARACTERS ? index.named(query.trim()) : undefined;
  if (exact !== undefined) scores.set(exact, 100);
  for (const word of queryWords(query)) index.score(word, scores);
  return [...scores]
    .filter(([, score]) => score > 0)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, max)
    .map(([order]) => tools[order]!);
}
