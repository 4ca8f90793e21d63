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
  /** Made for an agent whose human-in-the-loop middleware asks for approval (`toLangChainHumanInTheLoop`). */
  readonly #approvedByAgent: boolean;
  #checking = false;

  /** @internal Made by `toLangChainTools` and `toLangChainHumanInTheLoop`. */
  constructor(adapted: AdaptedTool, approvedByAgent = false) {
    super(adapted.tool.options.metadata === undefined ? {} : { metadata: adapted.tool.options.metadata });
    this.name = adapted.name;
    this.description = adapted.description;
    this.returnDirect = adapted.tool.options.returnDirect === true;
    this.#adapted = adapted;
    this.#approvedByAgent = approvedByAgent;
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
    // With the middleware, a call reaches the tool only once the middleware let it through: it runs as approved.
    const message = await this.#adapted.run(arg, callId, config?.signal, undefined, this.#approvedByAgent);
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
 * - Approval: a LangChain tool has no approval setting of its own (the approval step is the agent's middleware), so
 *   a call that needs approval is refused here as a plain dispatch refuses it (ApprovalRequiredError, or the
 *   agent's tool error): for tools with `needsApproval`, use `toLangChainHumanInTheLoop`.
 */
export function toLangChainTools(registry: ToolRegistry, options: AdapterOptions = {}): TooltypeLangChainTool[] {
  return adaptTools(registry, options).map((adapted) => new TooltypeLangChainTool(adapted));
}

/** A human's choices on a call in LangChain's human-in-the-loop middleware. */
export type LangChainDecision = "approve" | "edit" | "reject";

/**
 * One entry of the `interruptOn` of `humanInTheLoopMiddleware` (from `langchain`): the choices, the arguments'
 * schema for an edit, and, for a tool whose `needsApproval` is a predicate, `when` (interrupt only such calls).
 */
export interface LangChainInterruptOn {
  /** What a human may decide on the call. */
  allowedDecisions: LangChainDecision[];
  /** The tool's parameter schema, for a human's edit of the arguments. */
  argsSchema: JsonSchema;
  /** For a tool whose `needsApproval` is a predicate: whether this call asks (as `dispatchWithApproval` decides). */
  when?: (request: { toolCall: { name: string; args: Record<string, unknown>; id?: string } }) => Promise<boolean>;
}

/** Options of `toLangChainHumanInTheLoop`: the adapter's, and the choices a human has on each call. */
export interface LangChainHumanInTheLoopOptions extends AdapterOptions {
  /** What a human may decide on a call that needs approval (default: approve, edit or reject). */
  decisions?: LangChainDecision[];
}

/** The tools and the middleware's settings that ask for their approval, from `toLangChainHumanInTheLoop`. */
export interface LangChainHumanInTheLoop {
  /** The registry's tools, whose calls run as approved: give them to the agent together with the middleware. */
  tools: TooltypeLangChainTool[];
  /** For `humanInTheLoopMiddleware({ interruptOn })`: an entry for each tool with `needsApproval`. */
  interruptOn: Record<string, LangChainInterruptOn>;
}

/**
 * The registry's tools for `createAgent` with LangChain's human-in-the-loop middleware, which is LangChain's
 * approval step: `createAgent({ model, tools, middleware: [humanInTheLoopMiddleware({ interruptOn })],
 * checkpointer })`.
 * - `interruptOn` asks for each tool with `needsApproval`: every call of a `needsApproval: true` tool, and the calls of
 *   a predicate's tool that tooltype's approval round would pause (`when`: validated arguments, the predicate). The
 *   run stops with an interrupt (`result.__interrupt__`); `agent.invoke(new Command({ resume: { decisions } }),
 *   config)` goes on. A human may approve, reject (the model reads the message) or edit the arguments.
 * - The tools are `toLangChainTools`'s, except that a call reaching them was let through by the middleware, so a call
 *   that needs approval runs as approved (through tooltype's `dispatchWithApproval` and `resume`); an edited call's
 *   arguments are validated as the model's. Only give these tools to an agent that has this middleware.
 */
export function toLangChainHumanInTheLoop(
  registry: ToolRegistry,
  options: LangChainHumanInTheLoopOptions = {},
): LangChainHumanInTheLoop {
  const adapted = adaptTools(registry, options);
  const interruptOn: Record<string, LangChainInterruptOn> = {};
  for (const entry of adapted) {
    if (entry.approval === false) continue;
    interruptOn[entry.name] = {
      allowedDecisions: [...(options.decisions ?? ["approve", "edit", "reject"])],
      argsSchema: entry.parameters,
      ...(entry.approval === "per call"
        ? { when: ({ toolCall }) => entry.needsApproval(toolCall.args, toolCall.id) }
        : {}),
    };
  }
  return { tools: adapted.map((entry) => new TooltypeLangChainTool(entry, true)), interruptOn };
}
