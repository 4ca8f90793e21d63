/**
 * Tool search: the tokens of tool definitions a request carries per turn for a registry of 300 tools, with none
 * deferred and with all but 10 deferred.
 */
import * as path from "node:path";
import { ToolRegistry } from "tooltype";
import { LocalToolSearch } from "../runtime/agent/tool-search";
import { toAnthropicTools } from "../runtime/providers/anthropic/tools";
import { toOpenAITools } from "../runtime/providers/openai-chat/tools";
import { toResponsesTools } from "../runtime/providers/openai-responses/tools";
import type { ToolFormatSource } from "../runtime/providers/provider";
import { tspcPath } from "./cold-start";
import { toolSpecs, writeTooltypeProject } from "./generate";
import { runChild } from "./harness";

export interface ToolSearchFigure {
  name: string;
  /** Tools whose definitions the request carries whole. */
  tools: number;
  /** o200k_base tokens of the tools array as JSON. */
  tokens: number;
  bytes: number;
}

/**
 * Tool search: the tokens of tool definitions a request carries per turn for a registry of 300 tools (the generated
 * tools of the other benchmarks, compiled by tspc and the transformer), with none deferred and with all but 10
 * deferred. Tokens are counted with o200k_base (js-tiktoken) over the tools array as JSON text, as each API's
 * request carries it; what an API adds around definitions (and Anthropic's search tool, defined by the API) is not
 * counted. No timing: the figure is what every turn pays.
 *
 * - none deferred: every definition, every turn (Chat Completions' format; the others are within a few percent);
 * - the loop's own search (Chat Completions, Gemini): the 10 tools, `search_tools`, then the same after a search
 *   that found 5 tools;
 * - Anthropic with `defer_loading`: the definitions loaded up front (deferred ones load only when found);
 * - the Responses API with `defer_loading`: the 10 tools whole, and the name and description of each deferred
 *   function, which OpenAI documents the model still sees.
 */
export async function benchToolSearch(toolCount: number, upFront: number): Promise<ToolSearchFigure[]> {
  // js-tiktoken is an ES module: imported, not required, from this CommonJS build.
  const { Tiktoken } = await import("js-tiktoken/lite");
  const { default: o200k } = await import("js-tiktoken/ranks/o200k_base");
  const project = writeTooltypeProject(`tools-${toolCount}-search`, toolSpecs(toolCount));
  runChild(process.execPath, [tspcPath(), "-p", project.tsconfigPlugin], { cwd: project.dir, timeoutMs: 600_000 });
  const { tools } = require(path.resolve(project.withPlugin)) as { tools: object[] };
  const registry = new ToolRegistry(tools);
  const all = registry.list();
  // The first `upFront` tools stay loaded; the rest are deferred, as `deferred: true` would make them.
  const sources: ToolFormatSource[] = all.map((tool, i) =>
    i < upFront
      ? tool
      : {
          name: tool.name,
          description: tool.description,
          parameters: tool.parameters,
          meta: tool.meta,
          options: { ...tool.options, deferred: true },
        },
  );
  const encoder = new Tiktoken(o200k);
  const figure = (name: string, value: unknown, count: number): ToolSearchFigure => {
    const json = JSON.stringify(value);
    return { name, tools: count, tokens: encoder.encode(json).length, bytes: Buffer.byteLength(json) };
  };
  const figures: ToolSearchFigure[] = [
    figure(`${toolCount} tools, none deferred: every turn`, toOpenAITools(all, { checkLimits: false }), all.length),
  ];

  const search = new LocalToolSearch(5);
  const first = search.offer(sources);
  figures.push(
    figure(
      `${toolCount - upFront} deferred, runTools' own search: a turn before any search`,
      toOpenAITools([...first, search.definition()], { checkLimits: false }),
      first.length,
    ),
  );
  // A query made of the words of one deferred tool's description: the search finds it and others like it.
  const target = sources[upFront + 7]!;
  search.answer({ kind: "args", id: "s1", name: "search_tools", args: { query: target.description } });
  const after = search.offer(sources);
  figures.push(
    figure(
      `${toolCount - upFront} deferred, runTools' own search: after a search that found ${search.found.size}`,
      toOpenAITools([...after, search.definition()], { checkLimits: false }),
      after.length,
    ),
  );

  const anthropic = toAnthropicTools(sources, { toolSearch: true }).filter(
    (tool) => !("defer_loading" in tool && tool.defer_loading === true) && "input_schema" in tool,
  );
  figures.push(
    figure(`${toolCount - upFront} deferred, Anthropic defer_loading: loaded up front`, anthropic, anthropic.length),
  );
  const responses = toResponsesTools(sources, { toolSearch: true, strict: false, checkLimits: false }).map((tool) =>
    tool.type === "function" && tool.defer_loading === true ? { name: tool.name, description: tool.description } : tool,
  );
  figures.push(
    figure(
      `${toolCount - upFront} deferred, Responses defer_loading: up front, with the deferred names and descriptions`,
      responses,
      upFront,
    ),
  );
  return figures;
}
