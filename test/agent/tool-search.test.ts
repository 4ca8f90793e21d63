/**
 * Deferred tools and tool search: `@deferred` and the `deferred` option in the compiled metadata; the exports with
 * `toolSearch` (checked against the SDKs' request types by the compiler: the OpenAI Responses `Tool` union and the
 * Anthropic `ToolUnion`); the loop's own index; and one scripted conversation per model API, through its official
 * SDK client, where the model searches, the tool it found is loaded, and its call of that deferred tool runs:
 * the API's own search on the Responses API (`tool_search_call` / `tool_search_output` items) and Anthropic
 * (`server_tool_use` / `tool_search_tool_result` with `tool_reference` blocks, whole and streamed), the loop's
 * `search_tools` on Chat Completions and Gemini (and on the Responses API with `toolSearch.local`).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import Anthropic from "@anthropic-ai/sdk";
import type { Tool as AnthropicSdkTool, ToolUnion } from "@anthropic-ai/sdk/resources/messages";
import OpenAI from "openai";
import type { FunctionTool, Tool as ResponsesSdkTool } from "openai/resources/responses/responses";
import { ToolRegistry, tool } from "tooltype";
import { type RunToolsApprovalState, SEARCH_TOOL_NAME, runTools } from "tooltype/loop";
import * as fc from "fast-check";
import { MAX_QUERY_WORDS, queryWords, searchTools, termsOf } from "../../runtime/agent/tool-index";
import { LocalToolSearch } from "../../runtime/agent/tool-search";
import type { ToolFormatSource } from "../../runtime/providers/provider";
import { compileFixture } from "../support/compile";
import { startScriptedServer, toolResults } from "../scripted-openai/server";
import { anthropicReply, geminiReply, responsesCall, responsesReply, responsesText } from "../support/provider-replies";
import { sse, startScriptedHttp } from "../support/scripted-http";
import { approvalRegistry, deferredRegistry } from "./deferred-tools";

const DEFERRED = ["get_forecast", "convert_currency", "book_table"];
const FORECAST = '{"city":"Lyon","days":3,"sky":"rain"}';

test("@deferred and the deferred option reach the registered tool; the option wins", () => {
  const registry = deferredRegistry();
  assert.is(registry.get("get_forecast")!.meta.deferred, true, "JSDoc @deferred is compiled into the metadata");
  assert.is(registry.get("book_table")!.meta.deferred, undefined, "no tag: the option alone defers it");
  assert.is(registry.get("list_tickets")!.meta.deferred, true);
  assert.equal(
    registry
      .list()
      .filter((entry) => (entry.options.deferred ?? entry.meta.deferred) === true)
      .map((entry) => entry.name),
    DEFERRED,
  );
});

test("@deferred false defers nothing; another value is TT1009 at the tag", () => {
  const compiled = compileFixture(`import { tool } from "tooltype";
/**
 * Do it.
 * @deferred false
 */
export const a = tool(function do_a(): string { return "a"; });
/**
 * Do it.
 * @deferred later
 */
export const b = tool(function do_b(): string { return "b"; });
`);
  assert.equal(
    compiled.tooltype.map((d) => [d.code, d.line]),
    [["TT1009", 9]],
  );
  assert.match(
    compiled.tooltype[0]!.message,
    /@deferred takes no value, "true" or "false"; it got "later"\. Write @deferred\./,
  );
  assert.match(compiled.js["main.js"]!, /@deferred later/, "the emitted file is the one read");
  assert.not.match(
    compiled.js["main.js"]!,
    /deferred"?\s*:\s*true/,
    "neither tool is deferred in the emitted metadata",
  );
});

test("Responses export: whole by default; with toolSearch, defer_loading and tool_search, accepted by the SDK's types", () => {
  const registry = deferredRegistry();
  const whole: FunctionTool[] = registry.toResponsesTools();
  assert.ok(
    whole.every((entry) => entry.defer_loading === undefined),
    "no deferral without a tool search",
  );
  const tools: ResponsesSdkTool[] = registry.toResponsesTools({ toolSearch: true });
  assert.equal(
    tools.map((entry) => (entry.type === "function" ? [entry.name, entry.defer_loading ?? false] : [entry.type])),
    [
      ["ask", false],
      ["get_forecast", true],
      ["convert_currency", true],
      ["book_table", true],
      ["list_tickets", false],
      ["tool_search"],
    ],
  );
  /** Echo a text. */
  const ping = tool(function ping(text: string) {
    return text;
  });
  const plain = new ToolRegistry([ping]);
  assert.equal(
    plain.toResponsesTools({ toolSearch: true }).map((entry) => entry.type),
    ["function"],
    "no tool_search without a deferred tool",
  );
});

test("Responses export: deferred tools do not count towards the 128 tools loaded up front", () => {
  const parameters = deferredRegistry().get("get_forecast")!.parameters;
  const sources = Array.from({ length: 200 }, (_, i) => ({
    name: `forecast_${i}`,
    description: "d",
    parameters,
    options: { deferred: true },
  }));
  // Through the provider's exporter, as the loop calls it.
  const exported = registryExport(sources);
  assert.is(exported.length, 201);
  assert.throws(() => registryExport(sources.map((source) => ({ ...source, options: {} }))), /at most 128 tools/);
});

function registryExport(
  sources: readonly { name: string; description: string; parameters: object; options: object }[],
): unknown[] {
  const { toResponsesTools } =
    require("../../runtime/providers/openai-responses/tools") as typeof import("../../runtime/providers/openai-responses/tools");
  return toResponsesTools(sources as never, { toolSearch: true });
}

test("Anthropic export: whole by default; with toolSearch, defer_loading and the bm25 or regex search tool, accepted by the SDK's types", () => {
  const registry = deferredRegistry();
  const whole: AnthropicSdkTool[] = registry.toAnthropicTools();
  assert.ok(whole.every((entry) => entry.defer_loading === undefined));
  const bm25: ToolUnion[] = registry.toAnthropicTools({ toolSearch: true });
  assert.equal(
    bm25.map((entry) =>
      "name" in entry ? ("defer_loading" in entry && entry.defer_loading ? `${entry.name}*` : entry.name) : entry.type,
    ),
    ["ask", "get_forecast*", "convert_currency*", "book_table*", "list_tickets", "tool_search_tool_bm25"],
  );
  assert.equal(bm25[5], { type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" });
  const regex: ToolUnion[] = registry.toAnthropicTools({ toolSearch: "regex" });
  assert.equal(regex[5], { type: "tool_search_tool_regex_20251119", name: "tool_search_tool_regex" });
});

test("MCP export: tools/list has no deferral, so a deferred tool is listed whole like any other", () => {
  const registry = deferredRegistry();
  const listed = registry.toMCPTools();
  assert.equal(
    listed.map((entry) => entry.name),
    registry.list().map((entry) => entry.name),
  );
  const forecast = listed.find((entry) => entry.name === "get_forecast")!;
  assert.equal(Object.keys(forecast).sort(), ["description", "inputSchema", "name", "outputSchema"]);
  assert.equal(forecast.inputSchema, { ...registry.get("get_forecast")!.parameters, type: "object" });
});

test("the loop's index: words of names (split at _ and case changes), descriptions and parameter docs; best first", () => {
  const tools = deferredRegistry().list();
  const names = (query: string): string[] => searchTools(tools, query, 5).map((entry) => entry.name);
  assert.equal(names("currency"), ["convert_currency"]);
  assert.equal(names("restaurant guests"), ["book_table"], "restaurantName's word, and a parameter's description");
  assert.equal(names("Lyon"), ["get_forecast"], "a word of a parameter's description");
  assert.equal(names("forecasts"), ["get_forecast"], "a word that starts with a tool's word");
  assert.equal(names("the of and"), [], "words no query is about");
  assert.equal(names("book_table")[0], "book_table", "a tool's exact name first");
  assert.equal(searchTools(tools, "name", 1).length, 1, "at most max");
});

/** The search as it was written before the index: every word of the query against every word of every tool. */
function searchByScan(tools: readonly ToolFormatSource[], query: string, max: number): string[] {
  const scored: { name: string; score: number; order: number }[] = [];
  tools.forEach((tool, order) => {
    const terms = termsOf(tool);
    let score = tool.name === query.trim() ? 100 : 0;
    for (const word of queryWords(query)) {
      const weight = terms.get(word);
      if (weight !== undefined) {
        score += weight;
        continue;
      }
      if (word.length < 4) continue;
      let prefix = 0;
      for (const [term, termWeight] of terms)
        if (term.startsWith(word) || (term.length >= 4 && word.startsWith(term)))
          prefix = Math.max(prefix, termWeight / 2);
      score += prefix;
    }
    if (score > 0) scored.push({ name: tool.name, score, order });
  });
  // The first tool of a name is the one an exact name finds (names are unique in a registry).
  return scored
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, max)
    .map((entry) => entry.name);
}

test("the loop's index finds what a scan of every word finds, in the same order (property-based)", () => {
  const word = fc.constantFrom(
    "weather",
    "forecast",
    "forecasts",
    "fore",
    "city",
    "cities",
    "book",
    "booking",
    "table",
    "currency",
    "convert",
    "converter",
    "rate",
    "time",
    "timezone",
    "zone",
    "user",
    "users",
    "mail",
    "email",
  );
  const phrase = fc.array(word, { minLength: 1, maxLength: 5 }).map((words) => words.join(" "));
  const toolArb = fc.record({
    words: fc.array(word, { minLength: 1, maxLength: 3 }),
    description: phrase,
    parameter: word,
    parameterDoc: phrase,
  });
  fc.assert(
    fc.property(
      fc.array(toolArb, { minLength: 1, maxLength: 12 }),
      phrase,
      fc.integer({ min: 1, max: 6 }),
      (specs, query, max) => {
        const tools: ToolFormatSource[] = specs.map((spec, i) => ({
          name: `${spec.words.join("_")}_${i}`,
          description: spec.description,
          options: {},
          parameters: {
            type: "object",
            properties: { [spec.parameter]: { type: "string", description: spec.parameterDoc } },
          },
        }));
        assert.equal(
          searchTools(tools, query, max).map((tool) => tool.name),
          searchByScan(tools, query, max),
        );
      },
    ),
    { numRuns: 300 },
  );
});

test("a hostile query: 1 MB of words over 200 deferred tools uses its first words only and quotes back a short prefix", () => {
  const tools: ToolFormatSource[] = Array.from({ length: 200 }, (_, i) => ({
    name: `tool_${i}_${"abcdefghij"[i % 10]}`,
    description: `Does thing number ${i} with widgets and gadgets of kind ${i % 17}.`,
    options: { deferred: true },
    parameters: { type: "object", properties: { [`field${i}`]: { type: "string", description: `The field ${i}` } } },
  }));
  const query = Array.from({ length: 160_000 }, (_, i) => `w${i}x`).join(" ");
  assert.ok(query.length > 1_000_000);
  assert.is(queryWords(query).length, MAX_QUERY_WORDS);
  const search = new LocalToolSearch();
  search.offer(tools);
  const { result } = search.answer({ kind: "args", id: "call_1", name: "search_tools", args: { query } });
  assert.ok(result.content.length < 400, `the answer is ${result.content.length} characters`);
  assert.match(result.content, /^No tool matches "w0x w1x w2x/);
  assert.match(result.content, /…"/);
  // As JSON text, the arguments' limit (1 MiB) applies before anything is parsed.
  const text = JSON.stringify({ query: "a".repeat(1_100_000) });
  const tooLong = search.answer({ kind: "text", id: "call_2", name: "search_tools", text });
  assert.match(
    tooLong.result.content,
    /^Error: invalid arguments for search_tools: the arguments for search_tools are too large/,
  );
  assert.ok(tooLong.result.content.length < 400);
});

// ---- OpenAI Responses: the API's hosted tool search ----------------------------------------------------------------

test("Responses: the hosted tool_search finds the deferred tool, its items go back as they came, the call runs", async () => {
  const searchCall = {
    type: "tool_search_call",
    id: "tsc_1",
    call_id: null,
    execution: "server",
    status: "completed",
    arguments: { query: "weather forecast" },
  };
  const searchOutput = {
    type: "tool_search_output",
    id: "tso_1",
    call_id: null,
    execution: "server",
    status: "completed",
    tools: [
      {
        type: "function",
        name: "get_forecast",
        description: "Get the weather forecast for the coming days.",
        parameters: { type: "object" },
        strict: true,
        defer_loading: true,
      },
    ],
  };
  const server = await startScriptedHttp([
    () =>
      responsesReply("resp_1", [searchCall, searchOutput, responsesCall("call_1", "get_forecast", { city: "Lyon" })]),
    () => responsesReply("resp_2", [responsesText("Rain in Lyon.")]),
  ]);
  try {
    const client = new OpenAI({ baseURL: `${server.origin}/v1`, apiKey: "test", maxRetries: 0, timeout: 10_000 });
    const registry = deferredRegistry();
    const result = await runTools(client, { model: "gpt-scripted", input: "Rain in Lyon?" }, registry, {
      provider: "responses",
    });
    assert.is(result.content, "Rain in Lyon.");
    assert.equal(
      result.steps[0]!.results.map((r) => [r.name, r.status, r.content]),
      [["get_forecast", "success", FORECAST]],
    );
    const first = server.requests[0]!.body as { tools: Record<string, unknown>[] };
    assert.equal(
      first.tools,
      JSON.parse(JSON.stringify(registry.toResponsesTools({ toolSearch: true }))),
      "the deferred tools and tool_search",
    );
    const second = server.requests[1]!.body as { input: Record<string, unknown>[] };
    assert.equal(
      second.input.slice(1, 3),
      [searchCall, searchOutput],
      "the search and its output, back in the conversation as they came",
    );
    assert.equal(
      second.input.slice(4).map((item) => [item.type, item.call_id, item.output]),
      [["function_call_output", "call_1", FORECAST]],
    );
  } finally {
    await server.close();
  }
});

test("Responses with toolSearch.local: the loop's search_tools instead of tool_search", async () => {
  const server = await startScriptedHttp([
    () => responsesReply("resp_1", [responsesCall("call_s", SEARCH_TOOL_NAME, { query: "money currencies" })]),
    () =>
      responsesReply("resp_2", [responsesCall("call_c", "convert_currency", { amount: 5, from: "EUR", to: "CHF" })]),
    () => responsesReply("resp_3", [responsesText("10 CHF.")]),
  ]);
  try {
    const client = new OpenAI({ baseURL: `${server.origin}/v1`, apiKey: "test", maxRetries: 0, timeout: 10_000 });
    const result = await runTools(client, { model: "gpt-scripted", input: "5 EUR in CHF?" }, deferredRegistry(), {
      provider: "responses",
      toolSearch: { local: true },
    });
    assert.is(result.content, "10 CHF.");
    const tools = (index: number) => (server.requests[index]!.body as { tools: Record<string, unknown>[] }).tools;
    assert.equal(
      tools(0).map((entry) => [entry.name ?? entry.type, entry.defer_loading ?? false]),
      [
        ["ask", false],
        ["list_tickets", false],
        [SEARCH_TOOL_NAME, false],
      ],
    );
    assert.equal(
      tools(1).map((entry) => [entry.name ?? entry.type, entry.defer_loading ?? false]),
      [
        ["ask", false],
        ["convert_currency", false],
        ["list_tickets", false],
        [SEARCH_TOOL_NAME, false],
      ],
    );
    assert.equal(
      result.steps[1]!.results.map((r) => [r.name, r.status]),
      [["convert_currency", "success"]],
    );
  } finally {
    await server.close();
  }
});

const travel = { name: "travel", description: "Book flights and hotels." };

/**
 * Book a flight.
 * @param to Destination airport code
 */
const bookFlight = tool(
  function book_flight(to: string) {
    return `Flight to ${to} booked.`;
  },
  { deferred: true, namespace: travel },
);

/**
 * Book a hotel room.
 * @param city City of the hotel
 * @param nights Number of nights
 */
const bookHotel = tool(
  function book_hotel(city: string, nights: number) {
    return `${nights} nights in ${city} booked.`;
  },
  { deferred: true, namespace: travel },
);

test("Responses export: tools of one namespace become one namespace tool of deferred functions, accepted by the SDK's types", () => {
  const registry = deferredRegistry().register(bookFlight, bookHotel);
  const tools: ResponsesSdkTool[] = registry.toResponsesTools({ toolSearch: true });
  assert.equal(
    tools.map((entry) => (entry.type === "function" || entry.type === "namespace" ? entry.name : entry.type)),
    ["ask", "get_forecast", "convert_currency", "book_table", "list_tickets", "travel", "tool_search"],
  );
  const group = tools[5] as Extract<ResponsesSdkTool, { type: "namespace" }>;
  assert.is(group.description, "Book flights and hotels.");
  assert.equal(
    group.tools.map((entry) => [entry.name, (entry as { defer_loading?: boolean }).defer_loading]),
    [
      ["book_flight", true],
      ["book_hotel", true],
    ],
  );
  assert.equal(
    registry
      .toResponsesTools()
      .map((entry) => entry.name)
      .slice(5),
    ["book_flight", "book_hotel"],
    "without a tool search, every tool on its own",
  );
  /** Rent a car. */
  const rentCar = tool(
    function rent_car() {
      return "ok";
    },
    { deferred: true, namespace: { name: "travel", description: "Cars." } },
  );
  assert.throws(
    () => registry.register(rentCar).toResponsesTools({ toolSearch: true }),
    /Tool "rent_car" names the namespace "travel" with another description/,
  );
});

test("Responses: a call of a function the hosted search loaded from a namespace says its namespace, goes back as it came, and runs", async () => {
  const call = { ...responsesCall("call_h", "book_hotel", { city: "Lyon", nights: 2 }), namespace: "travel" };
  const server = await startScriptedHttp([
    () =>
      responsesReply("resp_1", [
        {
          type: "tool_search_call",
          id: "tsc_1",
          call_id: null,
          execution: "server",
          status: "completed",
          arguments: { query: "hotel" },
        },
        { type: "tool_search_output", id: "tso_1", call_id: null, execution: "server", status: "completed", tools: [] },
        call,
      ]),
    () => responsesReply("resp_2", [responsesText("Booked.")]),
  ]);
  try {
    const client = new OpenAI({ baseURL: `${server.origin}/v1`, apiKey: "test", maxRetries: 0, timeout: 10_000 });
    const result = await runTools(
      client,
      { model: "gpt-scripted", input: "Two nights in Lyon." },
      new ToolRegistry([bookFlight, bookHotel]),
      { provider: "responses" },
    );
    assert.is(result.content, "Booked.");
    assert.equal(
      result.steps[0]!.results.map((r) => [r.name, r.status, r.content]),
      [["book_hotel", "success", "2 nights in Lyon booked."]],
    );
    const first = server.requests[0]!.body as { tools: Record<string, unknown>[] };
    assert.equal(
      first.tools.map((entry) => entry.type),
      ["namespace", "tool_search"],
    );
    const input = (server.requests[1]!.body as { input: Record<string, unknown>[] }).input;
    assert.equal(input[3], call, "the call with its namespace");
  } finally {
    await server.close();
  }
});

// ---- Anthropic: the tool search tool ------------------------------------------------------------------------------

const SEARCH_BLOCKS = [
  { type: "text", text: "Let me find a tool." },
  { type: "server_tool_use", id: "srvtoolu_1", name: "tool_search_tool_regex", input: { query: "forecast" } },
  {
    type: "tool_search_tool_result",
    tool_use_id: "srvtoolu_1",
    content: {
      type: "tool_search_tool_search_result",
      tool_references: [{ type: "tool_reference", tool_name: "get_forecast" }],
    },
  },
  { type: "tool_use", id: "toolu_1", name: "get_forecast", input: { city: "Lyon" } },
];

/** The blocks above as Anthropic streams them: the server tool's input in pieces, the search result whole. */
function streamedSearch(): ReturnType<typeof sse> {
  const message = { ...anthropicReply("msg_1", []), stop_reason: null };
  const events: Record<string, unknown>[] = [{ type: "message_start", message }];
  SEARCH_BLOCKS.forEach((block, index) => {
    if (block.type === "server_tool_use" || block.type === "tool_use") {
      events.push({ type: "content_block_start", index, content_block: { ...block, input: {} } });
      const json = JSON.stringify(block.input);
      for (const partial_json of [json.slice(0, 5), json.slice(5)])
        events.push({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json } });
    } else {
      events.push({ type: "content_block_start", index, content_block: block });
    }
    events.push({ type: "content_block_stop", index });
  });
  events.push({
    type: "message_delta",
    delta: { stop_reason: "tool_use", stop_sequence: null },
    usage: { output_tokens: 10 },
  });
  events.push({ type: "message_stop" });
  return sse(events.map((data) => ({ event: data.type as string, data })));
}

/** A streamed final answer of one text block. */
function streamedText(id: string, text: string): ReturnType<typeof sse> {
  const events: Record<string, unknown>[] = [
    { type: "message_start", message: { ...anthropicReply(id, []), stop_reason: null } },
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } },
    { type: "content_block_stop", index: 0 },
    { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 10 } },
    { type: "message_stop" },
  ];
  return sse(events.map((data) => ({ event: data.type as string, data })));
}

for (const stream of [false, true]) {
  test(`Anthropic${stream ? ", streamed" : ""}: the regex tool search finds the deferred tool by tool_reference, the blocks go back as they came, the call runs`, async () => {
    const server = await startScriptedHttp([
      () => (stream ? streamedSearch() : anthropicReply("msg_1", SEARCH_BLOCKS)),
      () =>
        stream
          ? streamedText("msg_2", "Rain in Lyon.")
          : anthropicReply("msg_2", [{ type: "text", text: "Rain in Lyon." }]),
    ]);
    try {
      const client = new Anthropic({ baseURL: server.origin, apiKey: "test", maxRetries: 0, timeout: 10_000 });
      const registry = deferredRegistry();
      const params = {
        model: "claude-scripted",
        max_tokens: 512,
        messages: [{ role: "user" as const, content: "Rain in Lyon?" }],
      };
      const options = { toolSearch: { match: "regex" as const } };
      const result = stream
        ? await runTools(client, params, registry, { ...options, stream: true }).finalResult()
        : await runTools(client, params, registry, options);
      assert.is(result.content, "Rain in Lyon.");
      assert.equal(
        result.steps[0]!.results.map((r) => [r.name, r.status, r.content]),
        [["get_forecast", "success", FORECAST]],
      );
      const first = server.requests[0]!.body as { tools: unknown };
      assert.equal(first.tools, JSON.parse(JSON.stringify(registry.toAnthropicTools({ toolSearch: "regex" }))));
      const messages = (
        server.requests[1]!.body as { messages: { role: string; content: Record<string, unknown>[] }[] }
      ).messages;
      assert.equal(
        messages[1]!.content,
        SEARCH_BLOCKS,
        "the search and its result, back in the conversation as they came",
      );
      assert.equal(
        messages[2]!.content.map((block) => [block.type, block.tool_use_id]),
        [["tool_result", "toolu_1"]],
      );
    } finally {
      await server.close();
    }
  });
}

test("Anthropic: a turn paused while the search runs (pause_turn) is sent again, and the model goes on with it", async () => {
  const searching = SEARCH_BLOCKS.slice(0, 3);
  const server = await startScriptedHttp([
    () => ({ ...anthropicReply("msg_1", searching), stop_reason: "pause_turn" }),
    () => anthropicReply("msg_2", [SEARCH_BLOCKS[3]!]),
    () => anthropicReply("msg_3", [{ type: "text", text: "Rain in Lyon." }]),
  ]);
  try {
    const client = new Anthropic({ baseURL: server.origin, apiKey: "test", maxRetries: 0, timeout: 10_000 });
    const params = {
      model: "claude-scripted",
      max_tokens: 512,
      messages: [{ role: "user" as const, content: "Rain in Lyon?" }],
    };
    const result = await runTools(client, params, deferredRegistry());
    assert.is(result.content, "Rain in Lyon.");
    assert.equal(
      result.steps.map((step) => step.results.map((r) => r.name)),
      [[], ["get_forecast"], []],
    );
    const second = (server.requests[1]!.body as { messages: { role: string; content: unknown }[] }).messages;
    assert.equal(
      second.map((m) => m.role),
      ["user", "assistant"],
      "the paused turn, sent again as it ends",
    );
    assert.equal(second[1]!.content, searching);
  } finally {
    await server.close();
  }
});

// ---- Chat Completions and Gemini: the loop's own search -----------------------------------------------------------

test("Chat Completions: the loop's search_tools reveals the tool found on the next request, and its call runs", async () => {
  const server = await startScriptedServer([
    { tool_calls: [{ id: "call_s", name: SEARCH_TOOL_NAME, arguments: { query: "weather forecast" } }] },
    { tool_calls: [{ id: "call_f", name: "get_forecast", arguments: { city: "Lyon" } }] },
    { content: "Rain in Lyon." },
  ]);
  try {
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: "test", maxRetries: 0 });
    const registry = deferredRegistry();
    const result = await runTools(
      client,
      { model: "gpt-scripted", messages: [{ role: "user", content: "Rain in Lyon?" }] },
      registry,
    );
    assert.is(result.content, "Rain in Lyon.");
    const names = (index: number): string[] =>
      (server.requests[index]!.tools ?? []).map((entry) => (entry as { function: { name: string } }).function.name);
    assert.equal(names(0), ["ask", "list_tickets", SEARCH_TOOL_NAME], "deferred tools wait for a search");
    assert.equal(
      names(1),
      ["ask", "get_forecast", "list_tickets", SEARCH_TOOL_NAME],
      "the tool found, whole, from the next request on",
    );
    assert.equal(names(2), names(1), "a found tool stays offered");
    const forecast = (server.requests[1]!.tools ?? []).find(
      (entry) => (entry as { function: { name: string } }).function.name === "get_forecast",
    );
    assert.equal(
      forecast,
      registry.toOpenAITools().find((entry) => entry.function.name === "get_forecast"),
    );
    const answer = toolResults(server.requests[1]!)[0]!;
    assert.is(answer.tool_call_id, "call_s");
    assert.match(
      String(answer.content),
      /^Found 1 tool, which you can call from your next step on:\n- get_forecast: Get the weather forecast/,
    );
    assert.equal(
      result.steps.map((step) => step.results.map((r) => [r.name, r.status])),
      [[[SEARCH_TOOL_NAME, "success"]], [["get_forecast", "success"]], []],
    );
    assert.is(result.steps[1]!.results[0]!.content, FORECAST);
  } finally {
    await server.close();
  }
});

test("Chat Completions: a search that finds nothing, and one with invalid arguments, are answered for the model", async () => {
  const server = await startScriptedServer([
    {
      tool_calls: [
        { id: "call_1", name: SEARCH_TOOL_NAME, arguments: { query: "spaceship" } },
        { id: "call_2", name: SEARCH_TOOL_NAME, arguments: { q: 1 } },
      ],
    },
    { content: "No tool for that." },
  ]);
  try {
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: "test", maxRetries: 0 });
    const result = await runTools(
      client,
      { model: "gpt-scripted", messages: [{ role: "user", content: "Fly me." }] },
      deferredRegistry(),
    );
    const [none, invalid] = result.steps[0]!.results;
    assert.match(none!.content, /^No tool matches "spaceship"\./);
    assert.is(invalid!.status, "error");
    assert.match(invalid!.content, /^Error: invalid arguments for search_tools: query must be a non-empty string/);
    assert.equal(
      result.steps[0]!.failures.map((f) => [f.toolName, f.toolCallId, f.reason]),
      [[SEARCH_TOOL_NAME, "call_2", "invalid_arguments"]],
    );
    assert.equal((server.requests[1]!.tools ?? []).length, 3, "nothing revealed");
  } finally {
    await server.close();
  }
});

test("runTools refuses a registry whose own tool is named search_tools when the loop searches; without deferred tools there is no search", async () => {
  /** Search my notes. */
  const notes = tool(function search_tools(query: string) {
    return query;
  });
  const clash = deferredRegistry().register(notes);
  const client = new OpenAI({ baseURL: "http://127.0.0.1:9/v1", apiKey: "test", maxRetries: 0 });
  await runTools(client, { model: "m", messages: [] }, clash).then(
    () => assert.unreachable("expected a TypeError"),
    (error: unknown) =>
      assert.match(String(error), /the registry has a tool named search_tools, the name the loop's tool search uses/),
  );
  const server = await startScriptedServer([{ content: "Hi." }]);
  try {
    const plain = new ToolRegistry([notes]);
    const ok = new OpenAI({ baseURL: server.baseURL, apiKey: "test", maxRetries: 0 });
    await runTools(ok, { model: "gpt-scripted", messages: [{ role: "user", content: "Hi" }] }, plain);
    assert.equal(
      (server.requests[0]!.tools ?? []).map((entry) => (entry as { function: { name: string } }).function.name),
      ["search_tools"],
    );
  } finally {
    await server.close();
  }
});

test("Chat Completions: a run paused for approval keeps the tools it found; resumed, it still offers them", async () => {
  const server = await startScriptedServer([
    { tool_calls: [{ id: "call_s", name: SEARCH_TOOL_NAME, arguments: { query: "cancel booking" } }] },
    { tool_calls: [{ id: "call_c", name: "cancel_booking", arguments: { bookingId: "B-7" } }] },
    { content: "Cancelled." },
  ]);
  try {
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: "test", maxRetries: 0 });
    const params = { model: "gpt-scripted", messages: [{ role: "user" as const, content: "Cancel B-7." }] };
    const paused = await runTools(client, params, approvalRegistry());
    assert.is(paused.finishReason, "paused");
    const state = JSON.parse(JSON.stringify(paused.paused!.state)) as RunToolsApprovalState;
    assert.equal(state.toolsFound, ["cancel_booking"]);
    const done = await runTools(client, params, approvalRegistry(), {
      resume: { state, decisions: [{ id: "call_c", approved: true }] },
    });
    assert.is(done.content, "Cancelled.");
    const names = (server.requests[2]!.tools ?? []).map(
      (entry) => (entry as { function: { name: string } }).function.name,
    );
    assert.equal(names, ["ask", "cancel_booking", SEARCH_TOOL_NAME], "the tool found before the pause");
    assert.equal(
      toolResults(server.requests[2]!).map((r) => [r.tool_call_id, r.content]),
      [["call_c", "Cancelled B-7."]],
    );
    assert.match(
      String(toolResults(server.requests[1]!)[0]!.content),
      /^Found 1 tool, which you can call from your next step on:\n- cancel_booking: /,
    );
  } finally {
    await server.close();
  }
});

test("Gemini: the loop's search_tools reveals the tool found, and its call runs", async () => {
  const server = await startScriptedHttp([
    () =>
      geminiReply(
        [{ functionCall: { id: "c1", name: SEARCH_TOOL_NAME, args: { query: "table in a restaurant" } } }],
        "STOP",
      ),
    () =>
      geminiReply(
        [{ functionCall: { id: "c2", name: "book_table", args: { restaurantName: "Chez Marc", partySize: 4 } } }],
        "STOP",
      ),
    () => geminiReply([{ text: "Booked." }], "STOP"),
  ]);
  try {
    const { GoogleGenAI } = await import("@google/genai");
    const client = new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: server.origin, timeout: 10_000 } });
    const result = await runTools(
      client,
      { model: "gemini-scripted", contents: "A table for 4 at Chez Marc." },
      deferredRegistry(),
    );
    assert.is(result.content, "Booked.");
    const names = (index: number): string[] =>
      (
        server.requests[index]!.body as { tools: { functionDeclarations: { name: string }[] }[] }
      ).tools[0]!.functionDeclarations.map((d) => d.name);
    assert.equal(names(0), ["ask", "list_tickets", SEARCH_TOOL_NAME]);
    assert.equal(names(1), ["ask", "book_table", "list_tickets", SEARCH_TOOL_NAME]);
    assert.equal(
      result.steps[1]!.results.map((r) => [r.name, r.status, r.content]),
      [["book_table", "success", "Booked Chez Marc for 4."]],
    );
  } finally {
    await server.close();
  }
});

test.run();
