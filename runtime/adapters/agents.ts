/**
 * `tooltype/agents`: a registry's tools as function tools of the OpenAI Agents SDK (`@openai/agents`), for
 * `new Agent({ tools })` and `run(agent, input)`. Needs `@openai/agents` installed (an optional peer).
 *
 * @module tooltype/agents
 */
import { type FunctionTool, type RunContext, tool } from "@openai/agents";
import type { ToolRegistry } from "./runtime";
import { type AdaptedTool, type AdapterOptions, ToolCallFailedError, adaptTools } from "./common";

export { ToolCallFailedError } from "./common";
export type { AdapterOptions } from "./common";

/** The SDK's error function: the text the model reads when a call fails. */
export type AgentsErrorFunction = (context: RunContext, error: unknown) => string | Promise<string>;

export interface AgentsToolsOptions extends AdapterOptions {
  /** Strict mode for every tool that does not set its own `strict` (default `true`, the SDK's default). */
  strict?: boolean;
  /**
   * What the model reads when a call fails; `error` is a `ToolCallFailedError` for the failures tooltype answers, or
   * what a `handle*Error: false` handler rethrew. Default: tooltype's text. `null`: the run fails with the error.
   */
  errorFunction?: AgentsErrorFunction | null;
}

/**
 * The registry's tools as Agents SDK function tools. Throws ToolExportError where a strict rewrite is impossible.
 * - Each tool is made by the SDK's own `tool()` (JSON Schema parameters), so approval, enabling and tracing work as
 *   for the SDK's tools; strict by default, as the SDK is: the schema is tooltype's strict rewrite (optional
 *   parameters nullable, every property required), sent as is. `{ strict: false }` opts out.
 * - Its `invoke` receives the model's arguments text and runs it through the registry's pipeline (lenient read,
 *   repair, coercion, validation, tooltype's time limits, the run's abort signal); the SDK would only `JSON.parse` it.
 * - The model reads the content; artifacts go to `onToolMessage`. A failed call (invalid arguments, a throwing or
 *   timed-out tool) reaches `errorFunction` as a `ToolCallFailedError`; the default answers with tooltype's text;
 *   `errorFunction: null` makes the run fail instead, as in the SDK.
 * - Approval: a tool's `needsApproval` becomes the SDK's (`true`, or for a predicate one that answers as tooltype's
 *   approval round would: validated arguments, the tool's predicate), so the run stops with an interruption; the
 *   app calls `result.state.approve(item)` or `reject(item)` and runs again from the state. The SDK invokes the tool
 *   only once its approval step let the call through, so `invoke` runs the call as approved (through tooltype's
 *   `dispatchWithApproval` and `resume`, validated as every call); a rejected call never reaches it.
 */
export function toAgentsTools(registry: ToolRegistry, options: AgentsToolsOptions = {}): FunctionTool[] {
  const errorFunction = options.errorFunction === undefined ? defaultErrorFunction : options.errorFunction;
  return adaptTools(registry, options, true).map((adapted): FunctionTool => {
    // The schema is already the one to send (tooltype's strict rewrite where strict): made non-strict, so the SDK
    // leaves it as it is, then marked strict below.
    const made = tool({
      name: adapted.name,
      description: adapted.description,
      parameters: adapted.parameters,
      strict: false,
      needsApproval: approvalOf(adapted),
      execute: () => {
        throw new Error("unreachable: tooltype's invoke runs this tool");
      },
    } as unknown as Parameters<typeof tool>[0]) as unknown as FunctionTool;
    const invoke: FunctionTool["invoke"] = async (runContext, input, details) => {
      const signal = details?.signal;
      try {
        // Reached once the SDK's approval step let the call through: a call that needs approval runs as approved.
        const message = await adapted.run(input, details?.toolCall?.callId, signal, undefined, true);
        if (message.status === "error") throw new ToolCallFailedError(message);
        return message.content;
      } catch (error) {
        if (errorFunction === null || (signal?.aborted && error === signal.reason)) throw error;
        return errorFunction(runContext, error);
      }
    };
    return { ...made, strict: adapted.strict, invoke, errorFunction: null };
  });
}

/** The tool's `needsApproval` as the SDK's: a boolean, or for a predicate the SDK's approval function. */
function approvalOf(
  adapted: AdaptedTool,
): boolean | ((context: RunContext, input: unknown, callId?: string) => Promise<boolean>) {
  if (adapted.approval !== "per call") return adapted.approval;
  return (_context, input, callId) => adapted.needsApproval(input, callId);
}

function defaultErrorFunction(_context: RunContext, error: unknown): string {
  if (error instanceof ToolCallFailedError) return error.message;
  return `Error: ${error instanceof Error ? error.message : String(error)}`;
}
