/**
 * The agent loop on Anthropic Messages (`client.messages.create`, whole or streamed): the request (tools,
 * `output_config.format` for a structured answer), the reply's `{ role, content }` going back into `messages`.
 */
import { type LoopReply, type ProviderLoop, argsCall, isAsyncIterable } from "../provider";
import { anthropicToolChoice } from "./choice";
import { toAnthropicToolResults } from "./answer";
import { AnthropicAccumulator } from "./stream";
import { unreadableInput } from "./unreadable";
import { toAnthropicTool, toAnthropicTools } from "./tools";
import type {
  AnthropicContentBlock,
  AnthropicLoopParams,
  AnthropicMessageParam,
  AnthropicMessagesClient,
  AnthropicReply,
  AnthropicRequest,
  AnthropicStreamEvent,
  AnthropicToolUseBlock,
  AnthropicToolsOptions,
} from "./wire";

/**
 * The code execution container of each assistant turn the loop read. A programmatic call (a `tool_use` whose caller
 * is a code execution) waits in that container for its result, and the API refuses the results unless the next
 * request names it (`container`); the next request names the container of the latest turn that had one.
 */
const containers = new WeakMap<object, string>();

/** The agent loop on Anthropic Messages. */
export const loop: ProviderLoop<
  AnthropicMessagesClient,
  AnthropicLoopParams,
  AnthropicMessageParam,
  AnthropicReply,
  AnthropicToolUseBlock,
  AnthropicStreamEvent
> = {
  isClient: (client) => typeof (client as { messages?: { create?: unknown } }).messages?.create === "function",
  searchesTools: true,
  owned: [
    { field: "tools", use: "the registry's tools (and prepareStep's activeTools)" },
    { field: "tool_choice", use: "the toolChoice and parallelToolCalls options" },
    { field: "stream", use: "the stream option" },
  ],
  conversation: (params) => [...params.messages],
  request(params, step) {
    const body: Record<string, unknown> = { ...params, messages: [...step.items] };
    const container = latestContainer(step.items);
    if (container !== undefined) {
      const own = (params as { container?: unknown }).container;
      // A container given with its skills keeps them; its id is the one the conversation runs in now.
      body.container = typeof own === "object" && own !== null ? { ...own, id: container } : container;
    }
    const options: AnthropicToolsOptions = { toolSearch: step.toolSearchMatch ?? true };
    if (step.strict !== undefined) options.strict = step.strict;
    if (step.eagerInputStreaming !== undefined) options.eagerInputStreaming = step.eagerInputStreaming;
    const tools = [...toAnthropicTools(step.tools, options), ...step.loopTools.map((tool) => toAnthropicTool(tool))];
    if (tools.length > 0) {
      body.tools = tools;
      const parallel = step.parallelToolCalls === false ? { parallel: false } : {};
      // Without a choice, `{ parallel: false }` still needs a tool_choice to carry it: "auto", Anthropic's default.
      if (step.toolChoice !== undefined || step.parallelToolCalls === false)
        body.tool_choice = anthropicToolChoice(step.toolChoice ?? "auto", parallel).tool_choice;
    }
    if (step.output) {
      const config = (params as { output_config?: Record<string, unknown> }).output_config;
      if (config?.format !== undefined && config.format !== null)
        throw new TypeError(
          "runTools: params.output_config.format is set by the loop; use the responseFormat option instead.",
        );
      body.output_config = { ...config, format: { type: "json_schema", schema: step.output.schema } };
    }
    if (step.stream) body.stream = true;
    return body;
  },
  send: (client, request, signal) => client.messages.create(request as unknown as AnthropicRequest, { signal }),
  reply(response) {
    if (isAsyncIterable(response))
      throw new TypeError("runTools: the client returned a stream for a request without stream: true.");
    if (!Array.isArray((response as { content?: unknown } | undefined)?.content)) {
      throw new TypeError("runTools: the response has no content list; is the client an Anthropic client?");
    }
    return response as AnthropicReply;
  },
  accumulate: () => new AnthropicAccumulator(),
  read(reply): LoopReply<AnthropicMessageParam, AnthropicReply, AnthropicToolUseBlock> {
    const blocks = reply.content as readonly { type?: unknown; text?: unknown }[];
    const calls = (reply.content as AnthropicToolUseBlock[])
      .filter((block) => block.type === "tool_use")
      .map((call) => ({ call, read: loop.readCall(call) }));
    const texts = blocks
      .filter((block) => block.type === "text" && typeof block.text === "string")
      .map((block) => block.text as string);
    const text = texts.length > 0 ? texts.join("") : null;
    const item: AnthropicMessageParam = { role: "assistant", content: reply.content as AnthropicContentBlock[] };
    const container = (reply as { container?: { id?: unknown } | null }).container?.id;
    if (typeof container === "string") containers.set(item, container);
    const ended = {
      message: reply,
      items: [item],
      calls,
      text,
      refusal: reply.stop_reason === "refusal" ? (text ?? "refused") : null,
    };
    return reply.stop_reason === "pause_turn" && calls.length === 0 ? { ...ended, unfinished: true } : ended;
  },
  readCall(call) {
    // A streamed input that did not parse: dispatch reads the text the model sent, and answers with the parse error.
    const text = unreadableInput(call);
    return text === undefined
      ? argsCall(call as unknown as Record<string, unknown>, call.input)
      : { kind: "text", id: call.id, name: call.name, text };
  },
  answer: (_reply, results) => [toAnthropicToolResults(results)],
  userTurn: (text) => ({ role: "user", content: text }),
};

/** The container of the latest assistant turn in `items` that ran in one. */
function latestContainer(items: readonly AnthropicMessageParam[]): string | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    const container = containers.get(items[i] as object);
    if (container !== undefined) return container;
  }
  return undefined;
}
