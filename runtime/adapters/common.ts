/**
 * What every framework adapter shares, built on the public API only: which tools to hand over, each one's schema
 * as OpenAI's export writes it, and one call through the registry's full pipeline answered with a ToolMessage.
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
   * Answer one call through the registry's pipeline: `input` is the arguments object the framework parsed, or the
   * model's arguments text (read leniently). Rejects only as `registry.invoke(call)` does.
   */
  run(
    input: unknown,
    callId: string | undefined,
    signal: AbortSignal | undefined,
    onProgress?: DispatchOptions["onProgress"],
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
      return {
        tool,
        name,
        description: entry.function.description ?? "",
        ownDescription: tool.description,
        examples: tool.meta.examples ?? [],
        parameters: (entry.function.parameters ?? { type: "object", properties: {} }) as JsonSchema,
        strict: entry.function.strict === true,
        run: async (input, callId, signal, onProgress) => {
          const id = callId ?? `tooltype_call_${++anonymousCalls}`;
          const call: ToolCall | OpenAIToolCall =
            typeof input === "string"
              ? { id, type: "function", function: { name, arguments: input } }
              : { id, name, args: (input ?? {}) as Record<string, unknown> };
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
          const message = await registry.invoke(call, dispatch);
          options.onToolMessage?.(message);
          return message;
        },
      };
    });
}

/**
 * Whether a tool asks for a human's approval before it runs: its `needsApproval` option, or `needsApproval: true`
 * in its metadata, until tooltype's own approval option lands (then that one is read here).
 */
export function toolNeedsApproval(tool: RegisteredTool): boolean {
  const own = (tool.options as { needsApproval?: unknown }).needsApproval;
  return own === true || tool.options.metadata?.needsApproval === true;
}
