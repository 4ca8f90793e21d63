/**
 * `tooltype/ai`: a registry's tools as the `tools` record of the Vercel AI SDK (`ai`, major 7) for `generateText`,
 * `streamText` and agents built on them. Needs `ai` installed (an optional peer).
 *
 * @module tooltype/ai
 */
import { ReportQueue, ToolMessage, type ToolRegistry, parseArguments } from "./runtime";
import { type AdaptedTool, type AdapterOptions, adaptTools } from "./common";

type JSONSchema7 = import("ai", { with: { "resolution-mode": "import" }}).JSONSchema7;

export type { AdapterOptions } from "./common";

/** One tool for the AI SDK: arguments as the model sent them in, the ToolMessage out. */
export type AISDKTool = import("ai", { with: { "resolution-mode": "import" }}).Tool<
  Record<string, unknown>,
  ToolMessage
>;

type AISDK = typeof import("ai", { with: { "resolution-mode": "import" }});

/**
 * `{ [name]: tool }` for `generateText({ model, tools: toAISDKTools(registry), … })`. Throws ToolExportError when
 * `strict` is asked for a tool whose schema strict mode cannot express.
 *
 * Each tool: its description and example arguments (`inputExamples`, from `@example` JSON blocks), its JSON Schema
 * through `jsonSchema()` (unchecked there: tooltype validates), `strict`
 * where asked (the AI SDK's OpenAI provider sends it), and an `execute` that runs the call through the registry's
 * pipeline with the AI SDK's tool call id and abort signal. The tool's output (what the program keeps, in
 * `toolResults` and steps) is the ToolMessage with its artifact; `toModelOutput` sends the model only its content.
 * A call tooltype answers with an error (invalid arguments, a throwing or timed-out tool) is a tool result too,
 * whose ToolMessage has `status: "error"`: the model reads tooltype's text exactly, where a thrown error would reach
 * it wrapped as `{"error": "<name>: <message>"}`. Only a handler that rethrows (`handleToolError: false`, …) makes
 * the AI SDK record a `tool-error`.
 *
 * Approval: a tool's `needsApproval` becomes the AI SDK's (`true`, or for a predicate an async predicate of the
 * input that answers as tooltype's approval round would), so the AI SDK's loop ends its step with a
 * `tool-approval-request`; the app answers with a `tool-approval-response` and calls `generateText` again. The AI SDK
 * calls `execute` only once its approval step let the call through, so `execute` runs the call as approved (through
 * tooltype's `dispatchWithApproval` and `resume`, validated as every call); a denied call never reaches it.
 *
 * The AI SDK parses the arguments text before `execute`: give `toolCallRepair(registry)` as `repairToolCall` to have
 * text it refused read as tooltype reads it (trailing commas, single quotes, …). `ai` 7 is an ES module; this
 * CommonJS entry loads it with `require`, which Node runs for ES modules from 20.19 and 22.12 on (the AI SDK itself
 * asks for Node 22).
 */
export function toAISDKTools(registry: ToolRegistry, options: AdapterOptions = {}): Record<string, AISDKTool> {
  const { jsonSchema, tool } = loadAISDK();
  const tools: Record<string, AISDKTool> = {};
  for (const adapted of adaptTools(registry, options)) {
    tools[adapted.name] = tool({
      description: adapted.ownDescription,
      ...(adapted.examples.length > 0
        ? { inputExamples: adapted.examples.map((input) => ({ input: { ...input } })) }
        : {}),
      inputSchema: jsonSchema<Record<string, unknown>>(adapted.parameters as JSONSchema7),
      ...(adapted.strict ? { strict: true } : {}),
      ...approvalOf(adapted),
      // Reached once the AI SDK's approval step let the call through: a call that needs approval runs as approved.
      execute:
        adapted.tool.meta.streams === true
          ? (input, { toolCallId, abortSignal }) => preliminaryResults(adapted, input, toolCallId, abortSignal)
          : (input, { toolCallId, abortSignal }) => adapted.run(input, toolCallId, abortSignal, undefined, true),
      toModelOutput: (options) => ({ type: "text", value: modelText(options) }),
    });
  }
  return tools;
}

/**
 * A streaming tool's `execute` (an async iterable, the AI SDK's preliminary results): each value the tool yields
 * as a preliminary output, a ToolMessage whose content is the value's text and whose artifact is the value, then the
 * call's ToolMessage, which the AI SDK keeps as the output (the last value) and hands to `toModelOutput`.
 */
async function* preliminaryResults(
  adapted: AdaptedTool,
  input: unknown,
  callId: string,
  signal: AbortSignal | undefined,
): AsyncGenerator<ToolMessage, ToolMessage> {
  // The preliminary outputs reported while the call runs, until `execute`'s iterator takes them.
  const events = new ReportQueue<ToolMessage>();
  const answer = adapted.run(
    input,
    callId,
    signal,
    (_update, _call, yielded) => {
      if (yielded)
        events.push(
          new ToolMessage({
            tool_call_id: callId,
            name: adapted.name,
            content: typeof yielded.value === "string" ? yielded.value : (JSON.stringify(yielded.value) ?? ""),
            artifact: yielded.value,
            status: "success",
          }),
        );
    },
    true,
  );
  let final: ToolMessage | undefined;
  let failure: { error: unknown } | undefined;
  const settled = answer.then(
    (message) => void (final = message),
    (error: unknown) => void (failure = { error }),
  );
  for (;;) {
    for (const message of events.take()) yield message;
    if (final || failure) break;
    await Promise.race([settled, events.queued()]);
  }
  for (const message of events.take()) yield message;
  if (failure) throw failure.error;
  yield final!;
  return final!;
}

/**
 * The tool's `needsApproval` as the AI SDK's: `true` for a tool whose every call asks, and for a predicate, an async
 * predicate of the call's input that answers as tooltype's own approval round would (validated arguments, the
 * tool's predicate with the adapter's dispatch metadata and auth).
 */
function approvalOf(adapted: AdaptedTool): { needsApproval?: AISDKTool["needsApproval"] } {
  if (adapted.approval === false) return {};
  if (adapted.approval === true) return { needsApproval: true };
  return { needsApproval: (input, { toolCallId }) => adapted.needsApproval(input, toolCallId) };
}

/**
 * `repairToolCall` for `generateText` / `streamText`: arguments text of a registry tool that the AI SDK could not
 * parse as JSON is read with tooltype's lenient reading (unless the tool turns `repair` off) and handed back as JSON,
 * so the call goes on to `execute`; text that cannot be read stays the AI SDK's error.
 */
export function toolCallRepair(
  registry: ToolRegistry,
): import("ai", { with: { "resolution-mode": "import" }}).ToolCallRepairFunction<
  import("ai", { with: { "resolution-mode": "import" }}).ToolSet
> {
  return ({ toolCall }) => {
    const tool = registry.get(toolCall.toolName);
    if (!tool || tool.options.repair === false) return Promise.resolve(null);
    const read = parseArguments(toolCall.input, {
      ...(tool.options.maxArgumentsBytes === undefined ? {} : { maxBytes: tool.options.maxArgumentsBytes }),
      ...(tool.options.maxArgumentsDepth === undefined ? {} : { maxDepth: tool.options.maxArgumentsDepth }),
    });
    return Promise.resolve(read.ok ? { ...toolCall, input: JSON.stringify(read.args) } : null);
  };
}

/**
 * The text the model reads. The AI SDK (6, 7) calls `toModelOutput({ toolCallId, input, output })`; hosts that still
 * follow the AI SDK 5 contract (Mastra's loop, which also takes AI SDK tools) call it with the output itself.
 */
function modelText(options: { output: ToolMessage } | ToolMessage): string {
  return options instanceof ToolMessage ? options.content : options.output.content;
}

function loadAISDK(): AISDK {
  try {
    return require("ai") as AISDK;
  } catch (error) {
    throw new Error(
      `tooltype/ai could not load the AI SDK (the "ai" package, version 7 or later): ${error instanceof Error ? error.message : String(error)}. Install it with \`npm install ai\`; loading it from CommonJS needs Node 20.19 / 22.12 or later.`,
      { cause: error },
    );
  }
}
