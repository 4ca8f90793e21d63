/**
 * What every framework adapter shares, built on the public API only: which tools to hand over, each one's schema
 * as OpenAI's export writes it, one call through the registry's full pipeline answered with a ToolMessage, and a
 * tool's `needsApproval` as the framework's own approval step asks it.
 */
import {
  type DispatchOptions,
  type JsonSchema,
  type OpenAIToolCall,
  type RegisteredTool,
  type ToolCall,
  type ToolMessage,
  type ToolRegistry,
  toOpenAITools,
} from "./runtime";

/** Options every adapter takes. */
export interface AdapterOptions {
  /** Hand over only these tools (names as the model sees them). Default: every tool of the registry. */
  tools?: readonly string[];
  /**
   * OpenAI strict mode for every tool that does not set its own `strict` option: the schema is rewritten into the
   * strict subset (as `toOpenAITools({ strict: true })` does) and the framework is told to send `strict: true`.
   */
  strict?: boolean;
  /** Settings for every call (metadata, hooks, `timeoutMs`, `coerce`, …); the framework's abort signal is added. */
  dispatch?: Omit<DispatchOptions, "signal">;
  /**
   * Called with each ToolMessage (status, content, artifact) the adapter produces: the program's copy of every
   * result, including artifacts, in frameworks that have no place of their own for them.
   */
  onToolMessage?: (message: ToolMessage) => void;
}

/** One tool as an adapter hands it over. */
export interface AdaptedTool {
  readonly tool: RegisteredTool;
  readonly name: string;
  /** What the model reads: the tool's description, with its example arguments appended when it has any. */
  readonly description: string;
  /** The tool's own description, for frameworks that send the examples in a field of their own. */
  readonly ownDescription: string;
  /** Example arguments (`@example` JSON blocks), each valid against the parameter schema. */
  readonly examples: readonly { [key: string]: unknown }[];
  /** The schema the model sees: the parameter schema, or its strict rewrite. */
  readonly parameters: JsonSchema;
  readonly strict: boolean;
  /**
   * Whether calls of this tool ask for a human's approval: `false` never, `true` every call, `"per call"` when its
   * `needsApproval` is a predicate (ask `needsApproval(input)` for each call).
   */
  readonly approval: boolean | "per call";
  /**
   * Whether this call needs a human's approval, as `registry.dispatchWithApproval` would decide it: the arguments read
   * and validated as dispatch reads them, then the tool's predicate with its ToolContext (a throw counts as yes); a
   * call whose arguments are invalid needs none (it is answered with its validation error).
   */
  needsApproval(input: unknown, callId: string | undefined): Promise<boolean>;
  /**
   * Answer one call through the registry's pipeline: `input` is the arguments object the framework parsed, or the
   * model's arguments text (read leniently). Rejects only as `registry.invoke(call)` does.
   *
   * `approved`: the framework's own approval step let this call through (a human approved it, or the tool's
   * `needsApproval` said it needs none), so a call that needs approval runs as approved: paused and resumed with
   * one approval through `dispatchWithApproval` and `resume`, which validate it as every call. Without it, such a
   * call is refused as a plain dispatch refuses it (ApprovalRequiredError).
   */
  run(
    input: unknown,
    callId: string | undefined,
    signal: AbortSignal | undefined,
    onProgress?: DispatchOptions["onProgress"],
    approved?: boolean,
  ): Promise<ToolMessage>;
}

/**
 * The tool's failure as an error, for frameworks that mark a failed call by a throw (the AI SDK's `tool-error`, the
 * Agents SDK's `errorFunction`): its message is exactly the text tooltype wrote for the model.
 */
export class ToolCallFailedError extends Error {
  readonly toolMessage: ToolMessage;

  constructor(toolMessage: ToolMessage) {
    super(toolMessage.content);
    this.name = "ToolCallFailedError";
    this.toolMessage = toolMessage;
  }
}

let anonymousCalls = 0;

/** The registry's tools as adapters hand them over. Throws ToolExportError where a strict rewrite is impossible. */
export function adaptTools(registry: ToolRegistry, options: AdapterOptions, defaultStrict = false): AdaptedTool[] {
  const wanted = options.tools === undefined ? undefined : new Set(options.tools);
  if (wanted) {
    const missing = [...wanted].filter((name) => !registry.has(name));
    if (missing.length > 0) {
      throw new RangeError(
        `No tool named ${missing.map((name) => JSON.stringify(name)).join(", ")} in the registry (it has ${
          registry
            .list()
            .map((t) => t.name)
            .join(", ") || "none"
        }).`,
      );
    }
  }
  const exported = toOpenAITools(registry.list(), { strict: options.strict ?? defaultStrict, checkLimits: false });
  return exported
    .filter((entry) => wanted?.has(entry.function.name) ?? true)
    .map((entry): AdaptedTool => {
      const name = entry.function.name;
      const tool = registry.get(name)!;
      const approval = approvalKind(tool);
      return {
        tool,
        name,
        description: entry.function.description ?? "",
        ownDescription: tool.description,
        examples: tool.meta.examples ?? [],
        parameters: (entry.function.parameters ?? { type: "object", properties: {} }) as JsonSchema,
        strict: entry.function.strict === true,
        approval,
        needsApproval: async (input, callId) =>
          (await registry.pendingApprovals(messageOf(callOf(name, input, callId)), options.dispatch)).length > 0,
        run: async (input, callId, signal, onProgress, approved = false) => {
          const call = callOf(name, input, callId);
          const own = options.dispatch?.onProgress;
          const progress: DispatchOptions["onProgress"] =
            onProgress && own
              ? (...report) => {
                  own(...report);
                  onProgress(...report);
                }
              : (onProgress ?? own);
          const dispatch = {
            ...options.dispatch,
            ...(signal ? { signal } : {}),
            ...(progress ? { onProgress: progress } : {}),
          };
          const message =
            approved && approval !== false
              ? await runApproved(registry, call, dispatch)
              : await registry.invoke(call, dispatch);
          options.onToolMessage?.(message);
          return message;
        },
      };
    });
}

/** One call as dispatch reads it: the arguments object the framework parsed, or the model's arguments text. */
function callOf(name: string, input: unknown, callId: string | undefined): ToolCall | OpenAIToolCall {
  const id = callId ?? `tooltype_call_${++anonymousCalls}`;
  return typeof input === "string"
    ? { id, type: "function", function: { name, arguments: input } }
    : { id, name, args: (input ?? {}) as Record<string, unknown> };
}

/** A model message of one call, for the registry's approval round. */
function messageOf(call: ToolCall | OpenAIToolCall): { tool_calls: ToolCall[] } | { tool_calls: OpenAIToolCall[] } {
  return "function" in call ? { tool_calls: [call] } : { tool_calls: [call] };
}

/**
 * A call the framework's approval step let through, run as approved: tooltype's own approval round, with the
 * approval given. `dispatchWithApproval` runs it at once when it needs no approval; else it pauses, and `resume`
 * runs it with one approval, through the whole pipeline (reading, validation, the tool's limits, hooks, middleware).
 */
async function runApproved(
  registry: ToolRegistry,
  call: ToolCall | OpenAIToolCall,
  dispatch: DispatchOptions,
): Promise<ToolMessage> {
  const round = await registry.dispatchWithApproval(messageOf(call), dispatch);
  if (round.status === "done") return round.results[0]!;
  const decisions = round.pending.map((entry) => ({ id: entry.id, approved: true as const }));
  return (await registry.resume(round.state, decisions, dispatch)).results[0]!;
}

/**
 * How a tool asks for a human's approval: its `needsApproval` option (a boolean or a predicate), or, from before
 * that option, `needsApproval: true` in its metadata.
 */
function approvalKind(tool: RegisteredTool): boolean | "per call" {
  const own = tool.options.needsApproval;
  if (typeof own === "function") return "per call";
  return own === true || tool.options.metadata?.needsApproval === true;
}
