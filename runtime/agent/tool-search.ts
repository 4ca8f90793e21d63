/**
 * `runTools`' own tool search, for deferred tools on an API that has none (Chat Completions, Gemini), or on any API
 * with `toolSearch: { local: true }`.
 */
import { argumentsText } from "./call-text";
import type { NormalizedCall } from "../dispatch/call";
import { ToolMessage } from "../dispatch/messages";
import { type ToolFormatSource, isDeferred } from "../providers/provider";
import type { ToolAttempt } from "./errors";
import { searchTools } from "./tool-index";
import { describeArgumentsProblem, parseArguments } from "../arguments/read/parse-arguments";

/** The name of the search tool the loop offers while deferred tools wait to be found. */
export const SEARCH_TOOL_NAME = "search_tools";

/** Tools one search reveals unless `toolSearch.maxResults` says otherwise. */
const DEFAULT_RESULTS = 5;

/** A search tool's answer, and what the loop records of a call that failed. */
export interface SearchAnswer {
  readonly result: ToolMessage;
  readonly failure?: Omit<ToolAttempt, "step">;
}

/**
 * One run's search: what was found so far, and the tool the model searches with. While the step's tools include
 * deferred ones, the model is offered `search_tools` (a query in words) instead of their definitions; the loop answers
 * it from the index (tool-index.ts) with the names and descriptions of the tools it found, and offers those tools,
 * whole, from the next request on; a found tool stays offered for the rest of the run. Deferral saves tokens and
 * keeps choices few; it is not access control: a call to a deferred tool the model has not found runs like any other.
 */
export class LocalToolSearch {
  readonly #max: number;
  /** Names of the deferred tools found so far, in the order they were found. */
  readonly #found = new Set<string>();
  /** The deferred tools of the current step. */
  #deferred: readonly ToolFormatSource[] = [];

  constructor(maxResults: number = DEFAULT_RESULTS) {
    this.#max = maxResults;
  }

  /** Names of the deferred tools the model found so far. */
  get found(): ReadonlySet<string> {
    return this.#found;
  }

  /** Count tools as found without a search (a forced tool choice names one; a resumed run found them before). */
  reveal(names: Iterable<string>): void {
    for (const name of names) this.#found.add(name);
  }

  /**
   * The tools of a step as sent: the ones not deferred, and the deferred ones already found, whole (no longer
   * deferred, so that no API's own search is asked for). The step's deferred tools are what the next searches look
   * through.
   */
  offer(tools: readonly ToolFormatSource[]): ToolFormatSource[] {
    this.#deferred = tools.filter(isDeferred);
    const offered: ToolFormatSource[] = [];
    for (const tool of tools) {
      if (!isDeferred(tool)) offered.push(tool);
      else if (this.#found.has(tool.name)) offered.push(this.#loaded(tool));
    }
    return offered;
  }

  readonly #whole = new WeakMap<ToolFormatSource, ToolFormatSource>();

  #loaded(tool: ToolFormatSource): ToolFormatSource {
    let whole = this.#whole.get(tool);
    if (!whole) {
      whole = {
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters,
        options: { ...tool.options, deferred: false },
        ...(tool.meta ? { meta: tool.meta } : {}),
      };
      this.#whole.set(tool, whole);
    }
    return whole;
  }

  /** Whether the step has deferred tools the model has not found yet (then it is offered the search tool). */
  get waiting(): boolean {
    return this.#deferred.some((tool) => !this.#found.has(tool.name));
  }

  /** The search tool, written by each provider in its own format like the registry's tools. */
  definition(): ToolFormatSource {
    return {
      name: SEARCH_TOOL_NAME,
      options: {},
      description:
        `Find tools that are not loaded yet: ${this.#deferred.length} more tools are available, found by words of their names, descriptions and parameters. ` +
        `Search with a few keywords of what you need to do; the tools found can be called from your next step on.`,
      parameters: {
        type: "object",
        properties: {
          query: { type: "string", minLength: 1, description: 'Keywords of the task, e.g. "weather forecast city".' },
        },
        required: ["query"],
        additionalProperties: false,
      },
    };
  }

  /** Answer one `search_tools` call: the tools found are offered from the next request on. */
  answer(call: NormalizedCall): SearchAnswer {
    const query = queryOf(call);
    const { id } = call;
    if (typeof query !== "string") {
      const content = `Error: invalid arguments for ${SEARCH_TOOL_NAME}: ${query.problem}. Call ${SEARCH_TOOL_NAME} again with {"query": "keywords of what you need"}.`;
      const result = new ToolMessage({ tool_call_id: id, name: SEARCH_TOOL_NAME, content, status: "error" });
      const failure: Omit<ToolAttempt, "step"> = {
        toolName: SEARCH_TOOL_NAME,
        toolCallId: id,
        arguments: argumentsText(call),
        reason: "invalid_arguments",
        issues: [query.problem],
        errors: [],
        message: content,
      };
      return { result, failure };
    }
    const matches = searchTools(this.#deferred, query, this.#max);
    for (const tool of matches) this.#found.add(tool.name);
    const content =
      matches.length === 0
        ? `No tool matches ${JSON.stringify(quoted(query))}. Search again with other words (tools are found by words of their names, descriptions and parameters).`
        : `Found ${matches.length} tool${matches.length === 1 ? "" : "s"}, which you can call from your next step on:\n${matches.map((tool) => `- ${tool.name}${tool.description ? `: ${firstLine(tool.description)}` : ""}`).join("\n")}`;
    return { result: new ToolMessage({ tool_call_id: id, name: SEARCH_TOOL_NAME, content }) };
  }
}

/** The query of a search call, or what is wrong with its arguments (read within the arguments' default limits). */
function queryOf(call: NormalizedCall): string | { problem: string } {
  let args: unknown;
  if (call.kind === "invalid") return { problem: call.error ?? "the call could not be read" };
  if (call.kind === "input") {
    // Raw text where the arguments belong (a custom tool call): the query itself.
    args = { query: call.input };
  } else if (call.kind === "text") {
    const read = parseArguments(call.text === "" ? "{}" : call.text);
    if (!read.ok) return { problem: describeArgumentsProblem(SEARCH_TOOL_NAME, read).split("\n", 1)[0]! };
    args = read.args;
  } else {
    args = call.args;
  }
  let query: unknown;
  try {
    query = (args as { query?: unknown } | null)?.query;
  } catch {
    // Parsed arguments that throw when read (a getter, a revoked Proxy): the call is answered, not thrown through.
    return { problem: "the arguments could not be read" };
  }
  if (typeof query !== "string" || query.trim() === "") return { problem: "query must be a non-empty string" };
  return query;
}

/** A query as an answer quotes it back: its start, never the whole of a long one. */
function quoted(query: string): string {
  return query.length <= 100 ? query : `${query.slice(0, 100)}…`;
}

/** The first line of a description: a search answer lists many tools. */
function firstLine(text: string): string {
  const line = text.split("\n", 1)[0]!.trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
