/**
 * `tooltype/langchain`: a registry's tools as LangChain.js tools (`StructuredTool`s), accepted wherever LangChain's
 * own are. Needs `@langchain/core` installed (an optional peer).
 *
 * @module tooltype/langchain
 */
import type { CallbackManagerForToolRun } from "@langchain/core/callbacks/manager";
import { ToolMessage as LangChainToolMessage } from "@langchain/core/messages";
import { StructuredTool, type ToolRunnableConfig } from "@langchain/core/tools";
import type { JsonSchema, ToolRegistry } from "./runtime";
import { type AdaptedTool, type AdapterOptions, ToolCallFailedError, adaptTools } from "./common";

export { ToolCallFailedError } from "./common";
export type { AdapterOptions } from "./common";

/** LangChain checks arguments against this while tooltype's pipeline is the one that reads them. */
const OPEN_SCHEMA: JsonSchema = { type: "object" };

/** A registered tool as a LangChain `StructuredTool`. */
export class TooltypeLangChainTool extends StructuredTool {
  static override lc_name(): string {
    return "TooltypeLangChainTool";
  }

  name: string;
  description: string;
  readonly #adapted: AdaptedTool;
  #checking = false;

  /** @internal Made by `toLangChainTools`. */
  constructor(adapted: AdaptedTool) {
    super(adapted.tool.options.metadata === undefined ? {} : { metadata: adapted.tool.options.metadata });
    this.name = adapted.name;
    this.description = adapted.description;
    this.returnDirect = adapted.tool.options.returnDirect === true;
    this.#adapted = adapted;
  }

  /** The schema the model sees; an open one only while `call` lets LangChain check the input. */
  get schema(): JsonSchema {
    return this.#checking ? OPEN_SCHEMA : this.#adapted.parameters;
  }

  /**
   * LangChain's `call` checks the input against `schema` synchronously, before its first `await`; for that moment
   * the schema is open, so every input reaches `_call` and tooltype's pipeline (callbacks and tracing run as usual).
   */
  override call: StructuredTool["call"] = (arg, configArg, tags) => {
    this.#checking = true;
    try {
      return super.call(arg, configArg, tags);
    } finally {
      this.#checking = false;
    }
  };

  /** LangChain calls this with the checked input: the call runs through tooltype's pipeline. */
  protected override async _call(
    arg: unknown,
    _runManager?: CallbackManagerForToolRun,
    config?: ToolRunnableConfig,
  ): Promise<unknown> {
    const callId = config?.toolCall?.id;
    const message = await this.#adapted.run(arg, callId, config?.signal);
    if (callId === undefined) {
      if (message.status === "error") throw new ToolCallFailedError(message);
      return this.#adapted.tool.options.responseFormat === "content_and_artifact"
        ? [message.content, message.artifact]
        : message.content;
    }
    // A ToolMessage returned from _call is passed through by LangChain as the call's answer.
    return new LangChainToolMessage({
      content: message.content,
      tool_call_id: message.tool_call_id,
      name: message.name,
      status: message.status,
      ...(message.artifact === undefined ? {} : { artifact: message.artifact }),
    });
  }
}

/**
 * The registry's tools as LangChain tools, for `model.bindTools(tools)`, `createAgent({ tools })` from `langchain` or
 * LangGraph's `ToolNode`.
 * - Schema: the tool's JSON Schema (or its strict rewrite with `{ strict: true }`), which LangChain sends as is.
 * - Arguments: tooltype validates them, not LangChain: LangChain's own JSON Schema check would refuse what
 *   tooltype coerces (`"3"` for an integer) and answer in its own words, so it is given an open schema for the
 *   moment it checks (see `call`), and the call goes through the registry's pipeline with the tool call's id and
 *   the run's abort signal.
 * - Result: called with a `ToolCall` (as agents and `ToolNode` do), a LangChain `ToolMessage` carrying tooltype's
 *   content, `status` ("error" for invalid arguments and failures, with tooltype's text) and `artifact` (for
 *   `content_and_artifact` tools; it never reaches the model). Called with plain arguments, the content (or
 *   `[content, artifact]`), and a failure throws `ToolCallFailedError`.
 * - `returnDirect` comes from the tool's option.
 */
export function toLangChainTools(registry: ToolRegistry, options: AdapterOptions = {}): TooltypeLangChainTool[] {
  return adaptTools(registry, options).map((adapted) => new TooltypeLangChainTool(adapted));
}
