/**
 * Responses API tools: flat function tools (`{ type: "function", name, description, parameters, strict }`), custom
 * tools for free-form tools (`{ type: "custom", name, description, format? }`, openai-custom.ts), and, with
 * `toolSearch`, the hosted `tool_search`.
 *
 * Strict by default: the Responses API treats a function tool as strict unless it says `strict: false`, so
 * `toResponsesTools()` writes the strict form (the strict rewrite) and `strict: true` for every tool that does not
 * opt out (`@tool({ strict: false })`, or `toResponsesTools({ strict: false })` for the whole export). It always
 * writes `strict` explicitly, so what the model is held to is visible in the request.
 *
 * With `toolSearch: true`, deferred tools (docs/large-toolsets.md) carry `defer_loading: true`: the model sees
 * their names and descriptions, and loads a definition through the tool search, which the API runs itself; tools
 * that name a `namespace` are grouped into one `namespace` tool per name, of which the model sees only the name and
 * description until it loads its functions (a call then says its namespace; the loop sends the item back as it
 * came, and dispatch finds the tool by its name). Without it every tool is written whole and on its own.
 */
import type { FunctionTool } from "openai/resources/responses/responses";
import { checkToolCount } from "../../strict/openai-limits";
import { customToolFormat, isCustomTool } from "../openai-custom";
import { type ToolFormatSource, isDeferred, strictParameters } from "../provider";
import { describeWithExamples } from "../../tool/examples";
import { ToolExportError } from "../../tool/errors";
import type {
  ResponsesCustomTool,
  ResponsesFunctionTool,
  ResponsesNamespaceTool,
  ResponsesTool,
  ResponsesToolsOptions,
} from "./wire";

/** One function tool (deferred with `toolSearch: true`, when the tool is). */
export function toResponsesTool(tool: ToolFormatSource, options: ResponsesToolsOptions = {}): ResponsesFunctionTool {
  const strict = tool.options.strict ?? options.strict ?? true;
  const entry: FunctionTool = {
    type: "function",
    name: tool.name,
    parameters: strict ? strictParameters(tool, "openai-strict") : tool.parameters,
    strict,
  };
  const description = describeWithExamples(tool);
  if (description !== "") entry.description = description;
  if (options.toolSearch === true && isDeferred(tool)) entry.defer_loading = true;
  return entry;
}

/**
 * One custom tool, for a free-form tool: its input is raw text, held to its pattern as a `regex` grammar where it has
 * one. Throws ToolExportError when the tool takes no one string or its pattern cannot be a grammar.
 */
export function toResponsesCustomTool(
  tool: ToolFormatSource,
  options: ResponsesToolsOptions = {},
): ResponsesCustomTool {
  const { grammar } = customToolFormat(tool, "responses");
  const entry: ResponsesCustomTool = { type: "custom", name: tool.name };
  const description = describeWithExamples(tool);
  if (description !== "") entry.description = description;
  if (grammar !== undefined) entry.format = { type: "grammar", syntax: "regex", definition: grammar };
  if (options.toolSearch === true && isDeferred(tool)) entry.defer_loading = true;
  return entry;
}

/**
 * The tools of an OpenAI Responses API request with a tool search: deferred tools with `defer_loading`, the tools
 * of a namespace in one `namespace` tool, and `tool_search` at the end when a tool is deferred (with `customTools`,
 * free-form tools as custom tools). Strict by default (`{ strict: false }` or a tool's own `strict: false` opts out);
 * OpenAI's limits are checked on the tools loaded up front unless `checkLimits: false`. Throws ToolExportError.
 */
export function toResponsesTools(
  tools: Iterable<ToolFormatSource>,
  options: ResponsesToolsOptions & { toolSearch: true },
): ResponsesTool[];
/**
 * The tools of an OpenAI Responses API request, each whole, free-form tools as custom tools. Strict by default, as
 * the Responses API itself is: `{ strict: false }` (or a tool's own `strict: false`) opts out. OpenAI's limits are
 * checked unless `checkLimits: false`. Throws ToolExportError.
 */
export function toResponsesTools(
  tools: Iterable<ToolFormatSource>,
  options: ResponsesToolsOptions & { toolSearch?: false; customTools: true },
): (ResponsesFunctionTool | ResponsesCustomTool)[];
/**
 * The function tools of an OpenAI Responses API request, each whole. Strict by default, as the Responses API itself
 * is: `{ strict: false }` (or a tool's own `strict: false`) opts out. OpenAI's limits are checked unless
 * `checkLimits: false`. Throws ToolExportError.
 */
export function toResponsesTools(
  tools: Iterable<ToolFormatSource>,
  options?: ResponsesToolsOptions & { toolSearch?: false; customTools?: false },
): ResponsesFunctionTool[];
/** The tools of an OpenAI Responses API request, with a tool search when `toolSearch` is true (see the overloads). */
export function toResponsesTools(tools: Iterable<ToolFormatSource>, options?: ResponsesToolsOptions): ResponsesTool[];
export function toResponsesTools(
  tools: Iterable<ToolFormatSource>,
  options: ResponsesToolsOptions = {},
): ResponsesTool[] {
  const list = Array.from(tools);
  const functions = list.map((tool) =>
    options.customTools === true && isCustomTool(tool)
      ? toResponsesCustomTool(tool, options)
      : toResponsesTool(tool, options),
  );
  const deferred = functions.filter((tool) => tool.defer_loading === true).length;
  if (options.checkLimits !== false) checkToolCount(list.length - deferred, "responses");
  const written: ResponsesTool[] = options.toolSearch === true ? grouped(list, functions) : functions;
  if (deferred > 0) written.push({ type: "tool_search" });
  return written;
}

/**
 * The functions in order, those of one namespace gathered into one `namespace` tool where its first one stood (a
 * custom tool stays on its own: a namespace holds functions).
 */
function grouped(
  list: readonly ToolFormatSource[],
  functions: readonly (ResponsesFunctionTool | ResponsesCustomTool)[],
): ResponsesTool[] {
  const written: ResponsesTool[] = [];
  const namespaces = new Map<string, ResponsesNamespaceTool>();
  functions.forEach((entry, i) => {
    const namespace = list[i]!.options.namespace;
    if (namespace === undefined || entry.type === "custom") {
      written.push(entry);
      return;
    }
    const group = namespaces.get(namespace.name);
    if (!group) {
      const created: ResponsesNamespaceTool = {
        type: "namespace",
        name: namespace.name,
        description: namespace.description,
        tools: [entry],
      };
      namespaces.set(namespace.name, created);
      written.push(created);
    } else if (group.description !== namespace.description) {
      throw new ToolExportError(
        `Tool "${entry.name}" names the namespace "${namespace.name}" with another description than an earlier tool of that namespace; give every tool of one namespace the same { name, description } object.`,
        { format: "responses", toolName: entry.name },
      );
    } else {
      group.tools.push(entry);
    }
  });
  return written;
}
