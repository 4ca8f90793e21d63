/**
 * `tooltype/mastra`: a registry's tools as Mastra tools (`createTool`), for `new Agent({ tools })` of `@mastra/core`
 * (an optional peer).
 *
 * @module tooltype/mastra
 */
import type { JsonSchema, ToolMessage, ToolRegistry } from "./runtime";
import { type AdaptedTool, type AdapterOptions, adaptTools } from "./common";

type ToolExecutionContext = import("@mastra/core/tools", { with: { "resolution-mode": "import" }}).ToolExecutionContext;

export type { AdapterOptions } from "./common";

/** One tool for Mastra: the arguments object in, the ToolMessage out. */
export type MastraTool = import("@mastra/core/tools", { with: { "resolution-mode": "import" }}).ToolAction<
  Record<string, unknown>,
  ToolMessage
>;

/**
 * `@mastra/core` declares its types as an ES module only: this CommonJS entry loads its CommonJS build with `require`
 * and refers to its types with `resolution-mode: "import"`.
 */
type MastraTools = typeof import("@mastra/core/tools", { with: { "resolution-mode": "import" }});

/**
 * `{ [name]: tool }` for `new Agent({ tools: toMastraTools(registry) })`.
 * - Schema: Mastra takes a Standard Schema with a JSON Schema side. Each tool's is tooltype's: its JSON Schema (or
 *   strict rewrite) for the model, and a `validate` that passes every input on, because tooltype validates: Mastra's
 *   own check of a plain JSON Schema would refuse what tooltype coerces, and answer the model with nothing.
 * - Call: `execute` runs the call through the registry's pipeline with Mastra's tool call id and abort signal; its
 *   output (what the program keeps) is the ToolMessage, artifact included, and `toModelOutput` sends the model its
 *   content (tooltype's error text for a failed call).
 * - `strict` where asked.
 * - Approval: a tool's `needsApproval` becomes Mastra's `requireApproval` (`true`, or for a predicate one that
 *   answers as tooltype's approval round would: validated arguments, the tool's predicate), so the agent's run
 *   suspends on the call; `agent.approveToolCallGenerate` / `approveToolCall` (or their `decline…`) go on. Mastra
 *   runs `execute` only once its approval step let the call through, so `execute` runs the call as approved
 *   (through tooltype's `dispatchWithApproval` and `resume`, validated as every call); a declined call never runs.
 */
export function toMastraTools(registry: ToolRegistry, options: AdapterOptions = {}): Record<string, MastraTool> {
  const { createTool } = loadMastra();
  const tools: Record<string, MastraTool> = {};
  for (const adapted of adaptTools(registry, options)) {
    const created = createTool({
      id: adapted.name,
      description: adapted.description,
      inputSchema: passThrough(adapted.parameters) as unknown as Parameters<typeof createTool>[0]["inputSchema"],
      ...(adapted.strict ? { strict: true } : {}),
      ...requireApproval(adapted),
      // Reached once Mastra's approval step let the call through: a call that needs approval runs as approved.
      execute: (input: unknown, context: ToolExecutionContext) =>
        adapted.run(input, context?.agent?.toolCallId, context?.abortSignal, undefined, true),
      toModelOutput: (output: ToolMessage) => ({ type: "text", value: output.content }),
    } as unknown as Parameters<typeof createTool>[0]);
    tools[adapted.name] = created as unknown as MastraTool;
  }
  return tools;
}

/** The tool's `needsApproval` as Mastra's `requireApproval`: a boolean, or for a predicate a predicate of the input. */
function requireApproval(adapted: AdaptedTool): { requireApproval?: boolean | ((input: unknown) => Promise<boolean>) } {
  if (adapted.approval === false) return {};
  if (adapted.approval === true) return { requireApproval: true };
  return { requireApproval: (input) => adapted.needsApproval(input, undefined) };
}

/** A Standard Schema that shows the model `parameters` and accepts every input (tooltype checks it in `execute`). */
function passThrough(parameters: JsonSchema): object {
  return {
    "~standard": {
      version: 1,
      vendor: "tooltype",
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: () => parameters, output: () => parameters },
    },
  };
}

function loadMastra(): MastraTools {
  try {
    return require("@mastra/core/tools") as MastraTools;
  } catch (error) {
    throw new Error(
      `tooltype/mastra could not load Mastra (the "@mastra/core" package, version 1 or later): ${error instanceof Error ? error.message : String(error)}. Install it with \`npm install @mastra/core\`.`,
      { cause: error },
    );
  }
}
