/**
 * Anthropic tools: `{ name, description, input_schema }`, `input_examples` for a tool with example arguments,
 * `strict: true` with the schema in the strict subset (the build's form; strict/anthropic.ts's rewrite for a schema
 * made at run time; strict-limits.ts the request's limits), `eager_input_streaming` where asked for, and, with
 * `toolSearch`, a tool search tool: deferred tools (docs/large-toolsets.md) then carry `defer_loading: true`,
 * and the model finds them through the search tool, which the API runs itself (its results are `tool_reference`
 * blocks that load the definitions). Without it they are written whole: a request without a search tool may not
 * defer tools.
 *
 * Neither needs a beta header any more: both began in the `advanced-tool-use-2025-11-20` beta, and are now generally
 * available on the Messages API (Anthropic's "Define tools" page, platform.claude.com/docs/en/agents-and-tools/
 * tool-use/define-tools, lists `input_examples` as an optional field of every tool with no beta mark; its "Tool
 * search tool" page, platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool, gives the feature's
 * status as stable on the Claude API; the SDK's non-beta `Tool` and `ToolUnion` types carry both). So the loop calls
 * `messages.create`, never `beta.messages.create`.
 */
import type { Tool } from "@anthropic-ai/sdk/resources/messages";
import { examplesOf } from "../../tool/examples";
import type { JsonSchema } from "../../tool/meta";
import { type ToolFormatSource, isDeferred, strictParameters } from "../provider";
import { checkAnthropicStrictLimits } from "./strict-limits";
import type {
  AnthropicRequestTool,
  AnthropicTool,
  AnthropicToolSearchMatch,
  AnthropicToolSearchTool,
  AnthropicToolsOptions,
} from "./wire";

/** How one tool is written: deferred (when the tool is), strict, eager input streaming (a tool's own options win). */
export interface AnthropicToolOptions {
  deferred?: boolean;
  strict?: boolean;
  eagerInputStreaming?: boolean;
}

/** One tool of a Messages request. */
export function toAnthropicTool(tool: ToolFormatSource, options: AnthropicToolOptions = {}): AnthropicTool {
  const strict = tool.options.strict ?? options.strict;
  const eager = tool.options.eagerInputStreaming ?? options.eagerInputStreaming;
  const schema = strict === true ? strictParameters(tool, "anthropic-strict") : tool.parameters;
  const entry: Tool = { name: tool.name, input_schema: { ...schema, type: "object" } };
  if (tool.description !== "") entry.description = tool.description;
  if (options.deferred === true && isDeferred(tool)) entry.defer_loading = true;
  if (strict === true) entry.strict = true;
  if (typeof eager === "boolean") entry.eager_input_streaming = eager;
  const examples = examplesOf(tool);
  if (examples.length > 0) entry.input_examples = examples.map((example) => ({ ...example }));
  return entry;
}

/** Anthropic's tool search tool of one kind. */
export function anthropicToolSearch(match: AnthropicToolSearchMatch): AnthropicToolSearchTool {
  if (match === "regex") return { type: "tool_search_tool_regex_20251119", name: "tool_search_tool_regex" };
  if (match === "bm25") return { type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" };
  throw new RangeError(
    `toAnthropicTools: toolSearch must be true, false, "bm25" or "regex"; got ${JSON.stringify(match)}.`,
  );
}

/**
 * The `tools` of an Anthropic Messages request with a tool search: deferred tools with `defer_loading`, and the
 * tool search tool at the end when a tool is deferred (`true` or `"bm25"`: the BM25 one; `"regex"`: the regex one).
 */
export function toAnthropicTools(
  tools: Iterable<ToolFormatSource>,
  options: AnthropicToolsOptions & { toolSearch: true | AnthropicToolSearchMatch },
): AnthropicRequestTool[];
/** The `tools` of an Anthropic Messages request (`{ name, description, input_schema }`), each whole. */
export function toAnthropicTools(
  tools: Iterable<ToolFormatSource>,
  options?: AnthropicToolsOptions & { toolSearch?: false },
): AnthropicTool[];
/** The `tools` of an Anthropic Messages request, with a tool search when `toolSearch` says so (see the overloads). */
export function toAnthropicTools(
  tools: Iterable<ToolFormatSource>,
  options?: AnthropicToolsOptions,
): AnthropicRequestTool[];
export function toAnthropicTools(
  tools: Iterable<ToolFormatSource>,
  options: AnthropicToolsOptions = {},
): AnthropicRequestTool[] {
  const search = options.toolSearch === true ? "bm25" : (options.toolSearch ?? false);
  const list = Array.from(tools);
  const each: AnthropicToolOptions = { deferred: search !== false };
  if (options.strict !== undefined) each.strict = options.strict;
  if (options.eagerInputStreaming !== undefined) each.eagerInputStreaming = options.eagerInputStreaming;
  const written: AnthropicRequestTool[] = list.map((tool) => toAnthropicTool(tool, each));
  if (options.checkLimits !== false) {
    const strict = written.filter((tool): tool is AnthropicTool => "input_schema" in tool && tool.strict === true);
    if (strict.length > 0)
      checkAnthropicStrictLimits(strict.map((tool) => ({ name: tool.name, schema: tool.input_schema as JsonSchema })));
  }
  if (search !== false && written.some((tool) => "defer_loading" in tool && tool.defer_loading === true))
    written.push(anthropicToolSearch(search));
  return written;
}
