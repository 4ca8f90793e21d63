/**
 * The agent loop on the Responses API (`client.responses.create`, whole or streamed): the request (`input`, tools,
 * `text.format` for a structured answer), reading a `Response` (its output items go back into `input` as they came,
 * reasoning items included).
 */
import {
  type LoopReply,
  type OutputFormatSource,
  type ProviderLoop,
  isAsyncIterable,
  strictOutputSchema,
} from "../provider";
import { toResponsesOutputs } from "./answer";
import { responsesToolChoice } from "./choice";
import { customCallIds, readResponsesCalls } from "./read";
import { ResponsesAccumulator } from "./stream";
import { toResponsesTool, toResponsesTools } from "./tools";
import type {
  ResponsesCall,
  ResponsesClient,
  ResponsesLoopParams,
  ResponsesReply,
  ResponsesRequest,
  ResponsesStreamEvent,
} from "./wire";

/** The text of a Response's output messages (`output_text` parts), and its refusal. */
function responseText(output: readonly object[]): { text: string | null; refusal: string | null } {
  let text: string | null = null;
  let refusal: string | null = null;
  for (const item of output as readonly { type?: unknown; content?: unknown }[]) {
    if (item.type !== "message" || !Array.isArray(item.content)) continue;
    for (const part of item.content as readonly { type?: unknown; text?: unknown; refusal?: unknown }[]) {
      if (part.type === "output_text" && typeof part.text === "string") text = (text ?? "") + part.text;
      if (part.type === "refusal" && typeof part.refusal === "string") refusal = (refusal ?? "") + part.refusal;
    }
  }
  return { text, refusal };
}

/** The agent loop on the Responses API. */
export const loop: ProviderLoop<
  ResponsesClient,
  ResponsesLoopParams,
  object,
  ResponsesReply,
  ResponsesCall,
  ResponsesStreamEvent
> = {
  isClient: (client) => typeof (client as { responses?: { create?: unknown } }).responses?.create === "function",
  searchesTools: true,
  narrowsTools: true,
  owned: [
    { field: "tools", use: "the registry's tools (and prepareStep's activeTools)" },
    { field: "tool_choice", use: "the toolChoice option" },
    { field: "parallel_tool_calls", use: "the parallelToolCalls option" },
    { field: "stream", use: "the stream option" },
  ],
  conversation: (params) =>
    typeof params.input === "string" ? [{ role: "user", content: params.input }] : [...params.input],
  request(params, step) {
    const body: Record<string, unknown> = { ...params, input: [...step.items] };
    const tools = [
      ...toResponsesTools(
        step.tools,
        step.strict === undefined
          ? { toolSearch: true, customTools: true }
          : { strict: step.strict, toolSearch: true, customTools: true },
      ),
      ...step.loopTools.map((tool) => toResponsesTool(tool, { strict: false })),
    ];
    if (tools.length > 0) {
      body.tools = tools;
      // With allowedTools, the step's active tools are named in the choice (`allowed_tools`), the list unchanged;
      // the hosted tool search stays callable, so that deferred tools can still be found.
      if (step.toolChoice !== undefined || step.allowed !== undefined) {
        const allowed = step.allowed === undefined ? {} : { allowed: step.allowed };
        const tool_choice = responsesToolChoice(step.toolChoice ?? "auto", allowed).tool_choice;
        if (typeof tool_choice === "object" && tool_choice.type === "allowed_tools" && hasToolSearch(tools))
          tool_choice.tools.push({ type: "tool_search" });
        body.tool_choice = tool_choice;
      }
      if (step.parallelToolCalls !== undefined) body.parallel_tool_calls = step.parallelToolCalls;
    }
    if (step.output) {
      const text = (params as { text?: Record<string, unknown> }).text;
      if (text?.format !== undefined)
        throw new TypeError("runTools: params.text.format is set by the loop; use the responseFormat option instead.");
      body.text = { ...text, format: responsesTextFormat(step.output) };
    }
    if (step.stream) body.stream = true;
    return body;
  },
  send: (client, request, signal) => client.responses.create(request as unknown as ResponsesRequest, { signal }),
  reply(response) {
    if (isAsyncIterable(response))
      throw new TypeError("runTools: the client returned a stream for a request without stream: true.");
    const output = (response as { output?: unknown } | undefined)?.output;
    if (!Array.isArray(output))
      throw new TypeError("runTools: the response has no output list; is the client an OpenAI Responses API client?");
    return response as ResponsesReply;
  },
  accumulate: () => new ResponsesAccumulator(),
  read(reply): LoopReply<object, ResponsesReply, ResponsesCall> {
    const calls = reply.output
      .filter((item): item is ResponsesCall => {
        const type = (item as { type?: unknown }).type;
        return type === "function_call" || type === "custom_tool_call";
      })
      .map((call) => ({ call, read: loop.readCall(call) }));
    return { message: reply, items: [...reply.output], calls, ...responseText(reply.output) };
  },
  readCall: (call) =>
    readResponsesCalls([call])[0] ?? {
      kind: "invalid",
      id: "",
      name: "",
      error: "the call is not a function_call or custom_tool_call item",
    },
  answer: (reply, results) => toResponsesOutputs(results, customCallIds(reply)),
  userTurn: (text) => ({ role: "user", content: text }),
};

/** `text.format` for a structured answer: the strict rewrite when `strict`, as for tools. */
function responsesTextFormat(output: OutputFormatSource): NonNullable<NonNullable<ResponsesRequest["text"]>["format"]> {
  const format: NonNullable<NonNullable<ResponsesRequest["text"]>["format"]> = {
    type: "json_schema",
    name: output.name,
    schema: output.strict ? strictOutputSchema(output) : output.schema,
    strict: output.strict,
  };
  if (output.description) format.description = output.description;
  return format;
}

/** Whether the tools end with the hosted tool search (a deferred tool is among them). */
function hasToolSearch(tools: readonly object[]): boolean {
  return tools.some((tool) => (tool as { type?: unknown }).type === "tool_search");
}
