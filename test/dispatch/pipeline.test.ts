/**
 * The one dispatch pipeline (pipeline.ts `answerCall`, the stages' fast forms, then continue-call.ts `continueCall`
 * for a call that needs a stage's continuation): every call of every format goes through `answerCall` exactly once;
 * a call that needs no continuation never reaches them (each case says how many of its calls the fast forms answer
 * to the end); and the two ways a call can go through the pipeline give the same answers. Every message below is
 * answered twice by fresh registries and tools: as it comes, and with every call's arguments left to the read
 * stage's continuation, the full reader, and the continuations after it (a probe in the registry's dispatch
 * environment, dispatch/testing.ts, with `readAllInFull`), as arguments text the fast read does not read is; both
 * runs must agree on everything observable: the ToolMessages (content, status, artifact, parts, ids, names, class,
 * `errorKind`), a rejection, what each tool was called with (including revived Dates), and the hook events. A third
 * run forces the walk over parsed arguments on for every tool (`walkAlways`), which closed schemas skip.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  type Int,
  type Max,
  type Min,
  type ToolContext,
  ToolError,
  ToolRegistry,
  image,
  text,
  tool,
} from "../../runtime/entries/index";
import { probeDispatch } from "../../runtime/dispatch/testing";
import type { DispatchOptions, RegistryOptions } from "../../runtime/dispatch/options";

/** Fresh tools that write down every call they receive. */
function makeTools(log: unknown[]) {
  /**
   * Weather forecast.
   * @param city City
   * @param days Days
   * @param unit Unit
   */
  const forecast = tool(function get_forecast(
    city: string,
    days: Int & Min<1> & Max<14>,
    unit: "celsius" | "fahrenheit" = "celsius",
  ) {
    log.push(["forecast", city, days, unit]);
    return `${days}-day forecast for ${city} in ${unit}`;
  });
  /**
   * Looks up an order.
   * @param id Order id
   */
  const order = tool(function order(id: Int) {
    log.push(["order", id]);
    return { id, items: [{ sku: "a", qty: 2 }], total: 12.5 };
  });
  /**
   * Fails on purpose.
   * @param how How to fail
   */
  const fail = tool(function fail(how: "tool-error" | "error" | "string") {
    log.push(["fail", how]);
    if (how === "tool-error") throw new ToolError("the order is closed");
    if (how === "error") throw new Error("connect ECONNREFUSED 10.0.0.7:5432 password=hunter2");
    throw "a thrown string";
  });
  /**
   * Answers later.
   * @param ms Delay
   * @param fail Whether to reject
   */
  const later = tool(async function later(ms: Int, fail?: boolean) {
    log.push(["later", ms, fail]);
    await new Promise((resolve) => setTimeout(resolve, ms));
    if (fail) throw new Error("later failed");
    return { waited: ms };
  });
  /**
   * Returns a thenable that is not a Promise.
   * @param value Value
   */
  const thenable = tool(function thenable(value: string) {
    log.push(["thenable", value]);
    // biome-ignore lint/suspicious/noThenProperty: a tool that returns a thenable, to see it awaited
    return { then: (resolve: (v: string) => void) => resolve(`then ${value}`) };
  });
  /**
   * Returns what it is asked to.
   * @param kind Kind of result
   */
  const shape = tool(function shape(
    kind: "undefined" | "null" | "big" | "bigint" | "circular" | "parts" | "media" | "array",
  ) {
    log.push(["shape", kind]);
    if (kind === "undefined") return undefined;
    if (kind === "null") return null;
    if (kind === "big") return "x".repeat(5000);
    if (kind === "bigint") return { n: 10n };
    if (kind === "circular") {
      const o: Record<string, unknown> = {};
      o.self = o;
      return o;
    }
    if (kind === "parts") return [text("first"), text("second")];
    // 26 bytes of text ("chart" and the label line) and 3000 of base64.
    if (kind === "media") return [text("chart"), image({ base64: "A".repeat(3000), mediaType: "image/png" })];
    return [1, "two", { three: 3 }];
  });
  /**
   * Content and artifact.
   * @param q Query
   */
  const withArtifact = tool(
    function with_artifact(q: string) {
      log.push(["with_artifact", q]);
      if (q === "media")
        return [image({ base64: "A".repeat(3000), mediaType: "image/png" }), { blob: "x".repeat(100_000) }];
      return q === "bad" ? "not a pair" : [`found ${q}`, { rows: [q] }];
    },
    { responseFormat: "content_and_artifact" },
  );
  /**
   * Schedules a meeting.
   * @param at When
   * @param title Title
   */
  const meeting = tool(function meeting(at: Date, title: string) {
    log.push(["meeting", at instanceof Date ? at.toISOString() : `not a date: ${String(at)}`, title]);
    return `booked ${title}`;
  });
  /**
   * Nested arguments.
   * @param filter Filter
   */
  const search = tool(function search(filter: { tags: string[]; nested?: { deeper?: { deepest?: number[] } } }) {
    log.push(["search", JSON.stringify(filter), Object.getPrototypeOf(filter) === Object.prototype]);
    return filter.tags.join(",");
  });
  /**
   * Takes a ToolContext.
   * @param q Query
   */
  const contextual = tool(function contextual(q: string, context: ToolContext) {
    log.push(["contextual", q, context.toolCall.id]);
    return `ctx ${q}`;
  });
  /** Takes nothing. */
  const ping = tool(function ping() {
    log.push(["ping"]);
    return "pong";
  });
  /**
   * Returns or throws a revoked Proxy.
   * @param how Return or throw it
   */
  const revoked = tool(function revoked(how: "return" | "throw") {
    log.push(["revoked", how]);
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    if (how === "throw") throw proxy;
    return proxy;
  });
  // Metadata written by hand with a schema ajv refuses to compile.
  const broken = tool(
    function broken(x: string) {
      log.push(["broken", x]);
      return x;
    },
    undefined,
    {
      v: 1,
      name: "broken",
      description: "",
      parameters: { type: "object", properties: { x: { type: "text" } }, additionalProperties: false },
      params: ["x"],
    },
  );
  return [
    forecast,
    order,
    fail,
    later,
    thenable,
    shape,
    withArtifact,
    meeting,
    search,
    contextual,
    ping,
    revoked,
    broken,
  ];
}

interface Case {
  name: string;
  /** The calls, as `[name, argumentsText]` or `[name, argumentsText, id]`. */
  calls: [string, string, string?][];
  registry?: RegistryOptions;
  dispatch?: DispatchOptions;
  /** Registry middleware (a no-op passing the call on). */
  middleware?: boolean;
  /** How many calls the first stages answer to the end (the later stages take the others). */
  fast: number;
  /** The status each answer must have, where the case is about which side of a limit it falls. */
  statuses?: ("success" | "error")[];
  /** The message dispatched, from its Chat Completions tool calls as built from `calls` (default: as they are). */
  message?: (toolCalls: { id: string; type: "function"; function: { name: string; arguments: string } }[]) => object;
}

/** A LangChain AIMessage of ToolCalls with the given parsed `args`, ids `lc_0`, `lc_1`, … */
const lcMessage = (calls: [string, unknown][]) => ({
  content: "",
  tool_calls: calls.map(([name, args], i) => ({ id: `lc_${i}`, name, args, type: "tool_call" as const })),
  invalid_tool_calls: [],
});

/** A LangChain ToolCall (`args` already parsed) standing for a Chat Completions one. */
const asLangChain = (call: { id: string; function: { name: string; arguments: string } }) => ({
  id: call.id,
  name: call.function.name,
  args: JSON.parse(call.function.arguments) as unknown,
  type: "tool_call" as const,
});

const forecastArgs = (i: number) =>
  JSON.stringify({ city: `City ${i}`, days: 1 + (i % 14), unit: i % 2 ? "fahrenheit" : "celsius" });

const CASES: Case[] = [
  { name: "one valid call", calls: [["get_forecast", forecastArgs(1)]], fast: 1 },
  {
    name: "ten valid calls",
    calls: Array.from(
      { length: 10 },
      (_, i) => ["get_forecast", forecastArgs(i), `call_${i}`] as [string, string, string],
    ),
    fast: 10,
  },
  { name: "a default left out", calls: [["get_forecast", '{"city":"Oslo","days":3}']], fast: 1 },
  { name: "an object result", calls: [["order", '{"id":7}']], fast: 0 },
  { name: "no arguments, empty text", calls: [["ping", ""]], fast: 0 },
  { name: "no arguments, {}", calls: [["ping", "{}"]], fast: 1 },
  { name: "invalid arguments", calls: [["get_forecast", '{"city":"Paris","days":40,"unit":"celsius"}']], fast: 0 },
  {
    name: "an unknown property",
    calls: [["get_forecast", '{"city":"Paris","days":4,"unit":"celsius","x":1}']],
    fast: 0,
  },
  { name: "coercible arguments", calls: [["get_forecast", '{"city":"Paris","days":"4","unit":"celsius"}']], fast: 0 },
  {
    name: "coercion off",
    calls: [["get_forecast", '{"city":"Paris","days":"4","unit":"celsius"}']],
    dispatch: { coerce: false },
    fast: 0,
  },
  { name: "repairable JSON", calls: [["get_forecast", "{city: 'Paris', days: 4, unit: 'celsius',}"]], fast: 0 },
  { name: "broken JSON", calls: [["get_forecast", '{"city": "Paris", "days": ']], fast: 0 },
  { name: "repair off", calls: [["get_forecast", "{city: 'Paris', days: 4}"]], dispatch: { repair: false }, fast: 0 },
  { name: "double-encoded arguments", calls: [["get_forecast", JSON.stringify(forecastArgs(2))]], fast: 0 },
  { name: "an array for arguments", calls: [["get_forecast", "[1,2]"]], fast: 0 },
  { name: "leading whitespace", calls: [["get_forecast", ` ${forecastArgs(3)}`]], fast: 0 },
  {
    name: "a __proto__ key",
    calls: [["get_forecast", '{"city":"Paris","days":4,"unit":"celsius","__proto__":{"polluted":true}}']],
    fast: 0,
  },
  {
    name: "an escaped __proto__ key",
    calls: [["search", '{"filter":{"tags":["a"],"\\u005f_proto__":{"x":1}}}']],
    fast: 0,
  },
  {
    name: "an escape in a value",
    calls: [["get_forecast", '{"city":"Z\\u00fcrich","days":4,"unit":"celsius"}']],
    fast: 1,
  },
  {
    name: "__proto__ inside a string",
    calls: [["get_forecast", '{"city":"__proto__","days":4,"unit":"celsius"}']],
    fast: 1,
  },
  { name: "a number too large", calls: [["order", '{"id":1e400}']], fast: 0 },
  {
    name: "a large exponent that is finite",
    calls: [["search", '{"filter":{"tags":["1e300"],"nested":{"deeper":{"deepest":[1e300,2e-300]}}}}']],
    fast: 1,
  },
  {
    name: "nested arguments",
    calls: [["search", '{"filter":{"tags":["a","b"],"nested":{"deeper":{"deepest":[1,2,3]}}}}']],
    fast: 1,
  },
  {
    name: "too deep",
    calls: [["search", '{"filter":{"tags":["a"],"nested":{"deeper":{"deepest":[1]}}}}']],
    registry: { maxArgumentsDepth: 3 },
    fast: 0,
  },
  {
    name: "just deep enough",
    calls: [["search", '{"filter":{"tags":["a"],"nested":{"deeper":{"deepest":[1]}}}}']],
    registry: { maxArgumentsDepth: 5 },
    fast: 1,
  },
  {
    name: "arguments too long",
    calls: [["get_forecast", forecastArgs(4)]],
    registry: { maxArgumentsBytes: 30 },
    fast: 0,
  },
  {
    name: "arguments near the byte limit",
    calls: [["get_forecast", '{"city":"Zürich Zürich Zürich","days":2,"unit":"celsius"}']],
    registry: { maxArgumentsBytes: 60 },
    fast: 0,
  },
  { name: "a Date revived", calls: [["meeting", '{"at":"2026-11-30T10:00:00Z","title":"standup"}']], fast: 1 },
  { name: "a leap second revived", calls: [["meeting", '{"at":"2016-12-31T23:59:60Z","title":"leap"}']], fast: 1 },
  { name: "an invalid Date", calls: [["meeting", '{"at":"yesterday","title":"x"}']], fast: 0 },
  { name: "a ToolError", calls: [["fail", '{"how":"tool-error"}']], fast: 0 },
  { name: "an Error with a secret", calls: [["fail", '{"how":"error"}']], fast: 0 },
  { name: "a thrown string", calls: [["fail", '{"how":"string"}']], fast: 0 },
  {
    name: "handleToolError text",
    calls: [["fail", '{"how":"error"}']],
    registry: { handleToolError: "the tool failed" },
    fast: 0,
  },
  {
    name: "handleToolError function",
    calls: [["fail", '{"how":"error"}']],
    registry: {
      handleToolError: (e, call) => `${call.name}(${JSON.stringify(call.args)}): ${(e as Error).message.length}`,
    },
    fast: 0,
  },
  {
    name: "handleToolError false rejects",
    calls: [
      ["order", '{"id":1}'],
      ["fail", '{"how":"error"}'],
      ["order", '{"id":2}'],
    ],
    registry: { handleToolError: false },
    fast: 0,
  },
  {
    name: "handleValidationError false rejects",
    calls: [
      ["order", '{"id":1}'],
      ["order", '{"id":"x"}'],
    ],
    registry: { handleValidationError: false },
    fast: 0,
  },
  { name: "an async tool", calls: [["later", '{"ms":1}']], fast: 0 },
  { name: "an async tool that rejects", calls: [["later", '{"ms":1,"fail":true}']], fast: 0 },
  { name: "an async tool past its time limit", calls: [["later", '{"ms":200}']], registry: { timeoutMs: 20 }, fast: 0 },
  { name: "a thenable result", calls: [["thenable", '{"value":"v"}']], fast: 0 },
  {
    name: "sync and async mixed, in order",
    calls: [
      ["later", '{"ms":5}', "a"],
      ["order", '{"id":1}', "b"],
      ["later", '{"ms":1}', "c"],
      ["get_forecast", forecastArgs(5), "d"],
    ],
    fast: 1,
  },
  { name: "undefined result", calls: [["shape", '{"kind":"undefined"}']], fast: 0 },
  { name: "null result", calls: [["shape", '{"kind":"null"}']], fast: 0 },
  { name: "array result", calls: [["shape", '{"kind":"array"}']], fast: 0 },
  { name: "content parts", calls: [["shape", '{"kind":"parts"}']], fast: 0 },
  { name: "a BigInt result", calls: [["shape", '{"kind":"bigint"}']], fast: 0 },
  { name: "a circular result", calls: [["shape", '{"kind":"circular"}']], fast: 0 },
  {
    name: "a result over maxResultBytes",
    calls: [["shape", '{"kind":"big"}']],
    registry: { maxResultBytes: 1000 },
    fast: 0,
  },
  {
    name: "media parts over maxResultBytes",
    calls: [["shape", '{"kind":"media"}']],
    registry: { maxResultBytes: 1000 },
    fast: 0,
    statuses: ["error"],
  },
  {
    name: "text and media summed over maxResultBytes",
    calls: [["shape", '{"kind":"media"}']],
    registry: { maxResultBytes: 3025 },
    fast: 0,
    statuses: ["error"],
  },
  {
    name: "text and media just within maxResultBytes",
    calls: [["shape", '{"kind":"media"}']],
    registry: { maxResultBytes: 3026 },
    fast: 0,
    statuses: ["success"],
  },
  { name: "content and artifact", calls: [["with_artifact", '{"q":"cats"}']], fast: 0 },
  {
    name: "media content and a large artifact (not counted)",
    calls: [["with_artifact", '{"q":"media"}']],
    registry: { maxResultBytes: 5000 },
    fast: 0,
    statuses: ["success"],
  },
  {
    name: "media content of content and artifact over maxResultBytes",
    calls: [["with_artifact", '{"q":"media"}']],
    registry: { maxResultBytes: 2000 },
    fast: 0,
    statuses: ["error"],
  },
  { name: "content and artifact, not a pair", calls: [["with_artifact", '{"q":"bad"}']], fast: 0 },
  {
    name: "a revoked Proxy returned",
    calls: [
      ["revoked", '{"how":"return"}'],
      ["order", '{"id":1}'],
    ],
    fast: 0,
  },
  {
    name: "a revoked Proxy thrown",
    calls: [
      ["revoked", '{"how":"throw"}'],
      ["order", '{"id":1}'],
    ],
    fast: 0,
  },
  {
    name: "a schema ajv cannot compile",
    calls: [
      ["broken", '{"x":"a"}'],
      ["broken", '{"x":"b"}'],
      ["order", '{"id":1}'],
    ],
    fast: 0,
  },
  { name: "an unknown tool", calls: [["nope", "{}"]], fast: 0 },
  {
    name: "duplicate ids",
    calls: [
      ["order", '{"id":1}', "same"],
      ["order", '{"id":2}', "same"],
    ],
    fast: 0,
  },
  { name: "an id too long", calls: [["order", '{"id":1}', "x".repeat(300)]], fast: 0 },
  {
    name: "an id at a lowered limit",
    calls: [["order", '{"id":1}', "abcdef"]],
    dispatch: { maxCallIdLength: 5 },
    fast: 0,
  },
  {
    name: "more calls than maxCallsPerMessage",
    calls: Array.from({ length: 5 }, (_, i) => ["order", `{"id":${i}}`, `c${i}`] as [string, string, string]),
    registry: { maxCallsPerMessage: 3 },
    fast: 0,
  },
  {
    name: "maxConcurrency 1",
    calls: [
      ["later", '{"ms":3}', "a"],
      ["order", '{"id":1}', "b"],
      ["order", '{"id":2}', "c"],
    ],
    dispatch: { maxConcurrency: 1 },
    fast: 0,
  },
  { name: "a ToolContext tool", calls: [["contextual", '{"q":"x"}']], fast: 0 },
  { name: "a dispatch time limit", calls: [["order", '{"id":1}']], dispatch: { timeoutMs: 5000 }, fast: 0 },
  {
    name: "a caller's signal",
    calls: [["order", '{"id":1}']],
    dispatch: { signal: new AbortController().signal },
    fast: 0,
  },
  {
    name: "dispatch metadata and redact",
    calls: [["fail", '{"how":"error"}']],
    dispatch: { metadata: { user: "u" }, redact: (s) => s.replace(/hunter2/g, "***") },
    fast: 0,
  },
  {
    name: "registry hooks",
    calls: [
      ["order", '{"id":1}'],
      ["fail", '{"how":"error"}'],
      ["order", '{"id":"x"}'],
    ],
    registry: { onToolStart: () => {} },
    fast: 0,
  },
  { name: "dispatch hooks", calls: [["order", '{"id":1}']], dispatch: { onToolEnd: () => {} }, fast: 0 },
  {
    name: "registry middleware",
    calls: [
      ["order", '{"id":1}'],
      ["fail", '{"how":"error"}'],
    ],
    middleware: true,
    fast: 0,
  },
  { name: "dispatch wrap", calls: [["order", '{"id":1}']], dispatch: { wrap: (_request, next) => next() }, fast: 0 },
  // A plain batch hands the rest of it on at its first call that needs a later stage.
  {
    name: "handed on mid-batch: an invalid call",
    calls: [
      ["get_forecast", forecastArgs(1)],
      ["order", '{"id":"x"}'],
      ["get_forecast", forecastArgs(2)],
    ],
    fast: 2,
  },
  {
    name: "handed on mid-batch: a throwing tool",
    calls: [
      ["get_forecast", forecastArgs(1)],
      ["get_forecast", forecastArgs(2)],
      ["fail", '{"how":"error"}'],
      ["get_forecast", forecastArgs(3)],
    ],
    fast: 3,
  },
  {
    name: "handed on mid-batch: an async tool",
    calls: [
      ["get_forecast", forecastArgs(1)],
      ["later", '{"ms":2}'],
      ["get_forecast", forecastArgs(3)],
    ],
    fast: 2,
  },
  {
    name: "handed on mid-batch: an object result",
    calls: [
      ["get_forecast", forecastArgs(1)],
      ["order", '{"id":3}'],
      ["get_forecast", forecastArgs(3)],
    ],
    fast: 2,
  },
  {
    name: "handed on mid-batch: an unknown tool",
    calls: [
      ["get_forecast", forecastArgs(1)],
      ["nope", "{}"],
      ["get_forecast", forecastArgs(3)],
    ],
    fast: 2,
  },
  {
    name: "text results under a caller's signal",
    calls: [
      ["get_forecast", forecastArgs(1)],
      ["get_forecast", forecastArgs(2)],
    ],
    dispatch: { signal: new AbortController().signal },
    fast: 2,
  },
  {
    name: "a registry limit set to a valid value",
    calls: [["get_forecast", forecastArgs(1)]],
    registry: { maxCallsPerMessage: 4, maxConcurrency: 2, maxCallIdLength: 64 },
    fast: 1,
  },
  // Every shape of chat call, where it stands in the batch, read into a NormalizedCall by the chat reader.
  {
    name: "a LangChain call between two chat calls",
    calls: [
      ["get_forecast", forecastArgs(1)],
      ["order", '{"id":1}'],
      ["get_forecast", forecastArgs(2)],
    ],
    message: (tc) => ({ role: "assistant", content: null, tool_calls: [tc[0], asLangChain(tc[1]!), tc[2]] }),
    fast: 2,
  },
  {
    name: "a LangChain message",
    calls: [
      ["get_forecast", forecastArgs(1)],
      ["get_forecast", forecastArgs(2)],
    ],
    message: (tc) => ({ content: "", tool_calls: tc.map(asLangChain), invalid_tool_calls: [] }),
    fast: 2,
  },
  {
    name: "an empty invalid_tool_calls list",
    calls: [
      ["get_forecast", forecastArgs(1)],
      ["get_forecast", forecastArgs(2)],
    ],
    message: (tc) => ({ tool_calls: tc, invalid_tool_calls: [] }),
    fast: 2,
  },
  {
    name: "invalid_tool_calls to answer too",
    calls: [["get_forecast", forecastArgs(1)]],
    message: (tc) => ({
      tool_calls: tc,
      invalid_tool_calls: [{ name: "get_forecast", args: "{oops", id: "bad", error: "unparsable" }],
    }),
    fast: 1,
  },
  {
    name: "a call with a numeric id",
    calls: [
      ["get_forecast", forecastArgs(1)],
      ["get_forecast", forecastArgs(2)],
    ],
    message: (tc) => ({ tool_calls: [tc[0], { ...tc[1], id: 7 }] }),
    fast: 2,
  },
  {
    name: "arguments already parsed by a gateway",
    calls: [
      ["get_forecast", forecastArgs(1)],
      ["get_forecast", forecastArgs(2)],
    ],
    message: (tc) => ({
      tool_calls: [
        { ...tc[0], function: { name: "get_forecast", arguments: JSON.parse(tc[0]!.function.arguments) } },
        tc[1],
      ],
    }),
    fast: 2,
  },
  {
    name: "a call that is not an object",
    calls: [["get_forecast", forecastArgs(1)]],
    message: (tc) => ({ tool_calls: [tc[0], null] }),
    fast: 1,
  },
  {
    name: "no arguments at all",
    calls: [["get_forecast", forecastArgs(1)]],
    message: (tc) => ({ tool_calls: [tc[0], { id: "x", type: "function", function: { name: "order" } }] }),
    fast: 1,
  },
  // A message of one call is answered apart from the loop (dispatch.ts): each shape it hands on, in that place.
  {
    name: "one LangChain call",
    calls: [["get_forecast", forecastArgs(1)]],
    message: (tc) => ({ content: "", tool_calls: tc.map(asLangChain), invalid_tool_calls: [] }),
    fast: 1,
  },
  {
    name: "one call with a numeric id",
    calls: [["get_forecast", forecastArgs(1)]],
    message: (tc) => ({ tool_calls: [{ ...tc[0], id: 7 }] }),
    fast: 1,
  },
  {
    name: "one call that is not an object",
    calls: [["get_forecast", forecastArgs(1)]],
    message: () => ({ tool_calls: [null] }),
    fast: 0,
  },
  {
    name: "one call with arguments already parsed",
    calls: [["get_forecast", forecastArgs(1)]],
    message: (tc) => ({
      tool_calls: [{ ...tc[0], function: { name: "get_forecast", arguments: JSON.parse(tc[0]!.function.arguments) } }],
    }),
    fast: 1,
  },
  { name: "one call of an async tool", calls: [["later", '{"ms":1}']], message: (tc) => ({ tool_calls: tc }), fast: 0 },
  // Shapes another format owns, though they carry `tool_calls` (the catalogue): that format reads their call.
  {
    name: "tool_calls beside a Responses output list",
    calls: [["get_forecast", forecastArgs(1)]],
    message: (tc) => ({
      tool_calls: tc,
      output: [{ type: "function_call", call_id: "r1", name: "order", arguments: '{"id":1}' }],
    }),
    fast: 0,
  },
  {
    name: "a legacy function_call beside an empty tool_calls list",
    calls: [],
    message: () => ({
      role: "assistant",
      content: null,
      tool_calls: [],
      function_call: { name: "order", arguments: '{"id":1}' },
    }),
    fast: 0,
  },
  // Arguments that came parsed (LangChain `args`, Anthropic `input`, Gemini `args`): read by the reader's copy in
  // the read stage's fast form (read.ts), so each limit and shape below must be answered as its continuation answers
  // it.
  {
    name: "parsed: a __proto__ key",
    calls: [],
    message: () =>
      lcMessage([
        ["get_forecast", JSON.parse('{"city":"Oslo","days":2,"unit":"celsius","__proto__":{"polluted":true}}')],
      ]),
    fast: 1,
  },
  {
    name: "parsed: nested arguments",
    calls: [],
    message: () => lcMessage([["search", { filter: { tags: ["a", "b"], nested: { deeper: { deepest: [1, 2] } } } }]]),
    fast: 1,
  },
  {
    name: "parsed: too deep",
    calls: [],
    message: () => lcMessage([["search", { filter: { tags: ["a"], nested: { deeper: { deepest: [1] } } } }]]),
    registry: { maxArgumentsDepth: 3 },
    fast: 0,
  },
  {
    name: "parsed: too large",
    calls: [],
    message: () => lcMessage([["get_forecast", { city: "Paris".repeat(20), days: 2, unit: "celsius" }]]),
    registry: { maxArgumentsBytes: 60 },
    fast: 0,
  },
  {
    name: "parsed: a number that is not finite",
    calls: [],
    message: () => lcMessage([["order", { id: Infinity }]]),
    fast: 0,
  },
  {
    name: "parsed: a Date where a string belongs",
    calls: [],
    message: () => lcMessage([["meeting", { at: new Date("2026-11-30T10:00:00Z"), title: "x" }]]),
    fast: 0,
  },
  {
    name: "parsed: a Date revived from a string",
    calls: [],
    message: () => lcMessage([["meeting", { at: "2026-11-30T10:00:00Z", title: "x" }]]),
    fast: 1,
  },
  { name: "parsed: an array", calls: [], message: () => lcMessage([["order", [1]]]), fast: 0 },
  { name: "parsed: null", calls: [], message: () => lcMessage([["order", null]]), fast: 0 },
  { name: "parsed: no args at all", calls: [], message: () => lcMessage([["ping", undefined]]), fast: 1 },
  {
    name: "parsed: text a gateway left unparsed",
    calls: [],
    message: () => lcMessage([["order", '{"id":3}']]),
    fast: 0,
  },
  {
    name: "parsed: a class instance",
    calls: [],
    message: () =>
      lcMessage([
        [
          "order",
          new (class Args {
            id = 1;
          })(),
        ],
      ]),
    fast: 0,
  },
  {
    name: "parsed: an unknown property",
    calls: [],
    message: () => lcMessage([["order", { id: 1, extra: true }]]),
    fast: 0,
  },
  { name: "parsed: a coercible value", calls: [], message: () => lcMessage([["order", { id: "4" }]]), fast: 0 },
  {
    name: "parsed: a getter that throws",
    calls: [],
    message: () =>
      lcMessage([
        [
          "order",
          {
            get id(): number {
              throw new Error("getter failed");
            },
          },
        ],
        ["order", { id: 2 }],
      ]),
    fast: 0,
  },
  {
    name: "parsed: a throwing tool, then more",
    calls: [],
    message: () =>
      lcMessage([
        ["order", { id: 1 }],
        ["fail", { how: "error" }],
        ["order", { id: 2 }],
      ]),
    fast: 0,
  },
  {
    name: "parsed: an Anthropic message",
    calls: [],
    message: () => ({
      role: "assistant",
      content: [
        { type: "text", text: "Checking." },
        { type: "tool_use", id: "toolu_1", name: "get_forecast", input: { city: "Lima", days: 3, unit: "celsius" } },
        { type: "tool_use", id: "toolu_2", name: "order", input: { id: 9 } },
      ],
    }),
    fast: 1,
  },
  {
    name: "parsed: a Gemini response",
    calls: [],
    message: () => ({
      candidates: [
        {
          content: {
            role: "model",
            parts: [
              { functionCall: { id: "g1", name: "order", args: { id: 5 } } },
              { functionCall: { id: "g2", name: "ping" } },
            ],
          },
        },
      ],
    }),
    fast: 1,
  },
  {
    name: "parsed: a Responses API call",
    calls: [],
    message: () => ({ output: [{ type: "function_call", call_id: "r1", name: "order", arguments: '{"id":6}' }] }),
    fast: 0,
  },
  // Read once per registry for dispatch(message) without options (dispatch.ts `registryRun`).
  {
    name: "an id at a registry's lowered limit",
    calls: [["order", '{"id":1}', "abcdef"]],
    registry: { maxCallIdLength: 5 },
    fast: 0,
  },
  {
    name: "a registry limit set to an invalid value",
    calls: [["order", '{"id":1}']],
    registry: { maxConcurrency: 0 },
    fast: 0,
  },
  {
    name: "a registry's hooks with dispatch options",
    calls: [["order", '{"id":1}']],
    registry: { onToolEnd: () => {} },
    dispatch: { maxConcurrency: 4 },
    fast: 0,
  },
];

/** Hook events, as far as they do not depend on time. */
function recordingHooks(
  events: unknown[],
): Required<Pick<RegistryOptions, "onToolStart" | "onToolEnd" | "onToolError">> {
  return {
    onToolStart: (e) => events.push(["start", e.call.id, e.call.name, e.call.args, e.repairs, e.coercions]),
    onToolEnd: (e) => events.push(["end", e.call.id, e.status, e.message.content]),
    onToolError: (e) =>
      events.push(["error", e.call.id, e.kind, String((e.error as Error | undefined)?.message ?? e.error)]),
  };
}

/** What one run of a case shows: answers (or the rejection), the tools' calls, hook events. */
async function run(
  c: Case,
  fast: boolean,
  walkAlways = false,
): Promise<{ outcome: unknown; log: unknown[]; events: unknown[]; fastAnswers: number; begun: number }> {
  const log: unknown[] = [];
  const events: unknown[] = [];
  const hooked = (options: object | undefined) =>
    options && ("onToolStart" in options || "onToolEnd" in options)
      ? { ...options, ...recordingHooks(events) }
      : options;
  const registry = new ToolRegistry(makeTools(log), hooked(c.registry));
  if (c.middleware) registry.use((_request, next) => next());
  const toolCalls = c.calls.map(([name, args, id], i) => ({
    id: id ?? `call_${i}`,
    type: "function" as const,
    function: { name, arguments: args },
  }));
  const message = c.message
    ? c.message(toolCalls)
    : { role: "assistant" as const, content: null, tool_calls: toolCalls };
  const probe = probeDispatch(registry, { readAllInFull: !fast, walkAlways });
  let outcome: unknown;
  try {
    const answers = await registry.dispatch(message, hooked(c.dispatch) as DispatchOptions | undefined);
    // ToolMessages for chat messages; another format's answer (Anthropic, Gemini, Responses) as its JSON.
    outcome = Array.isArray(answers)
      ? answers.map((m) => ({
          class: m.constructor.name,
          fields: { ...m },
          errorKind: m.errorKind,
          json: JSON.stringify(m),
        }))
      : { answer: JSON.stringify(answers) };
  } catch (error) {
    outcome = { rejected: error instanceof Error ? `${error.constructor.name}: ${error.message}` : String(error) };
  }
  return { outcome, log, events, fastAnswers: probe.began - probe.continued, begun: probe.began };
}

for (const c of CASES) {
  test(`one pipeline, both ways through it: ${c.name}`, async () => {
    const full = await run(c, false);
    const fast = await run(c, true);
    assert.is(full.fastAnswers, 0, "the switch leaves every call to the later stages");
    assert.is(fast.begun, full.begun, "the same calls went through answerCall");
    assert.equal(fast.outcome, full.outcome, "the answers");
    assert.equal(fast.log, full.log, "the tools' calls");
    assert.equal(fast.events, full.events, "the hook events");
    assert.is(fast.fastAnswers, c.fast, "calls the first stages answered to the end");
    if (c.statuses)
      assert.equal(
        (fast.outcome as { fields: { status: string } }[]).map((m) => m.fields.status),
        c.statuses,
        "the statuses",
      );
    // Closed schemas skip the walk over parsed arguments: walking them anyway must change nothing.
    const walked = await run(c, true, true);
    assert.equal(walked, fast, "the first stages with their walk forced on");
  });
}

test("a registry's options are a frozen copy: what dispatch read of them once stays true", () => {
  const given: RegistryOptions = { maxCallIdLength: 64 };
  const registry = new ToolRegistry([], given);
  assert.ok(Object.isFrozen(registry.options));
  assert.is.not(registry.options, given);
  given.maxCallIdLength = 5;
  assert.is(registry.options.maxCallIdLength, 64);
});

test("neither way through the pipeline passes a polluted prototype's property to a tool as an argument", async () => {
  // A property added to Object.prototype must not reach the tool as an argument on either path.
  (Object.prototype as Record<string, unknown>).unit = "fahrenheit";
  try {
    const c: Case = { name: "polluted", calls: [["get_forecast", '{"city":"Oslo","days":3}']], fast: 1 };
    const full = await run(c, false);
    const fast = await run(c, true);
    assert.equal(fast.outcome, full.outcome);
    assert.equal(fast.log, full.log);
  } finally {
    delete (Object.prototype as Record<string, unknown>).unit;
  }
});

test("parsed arguments reach the tool as a copy, either way through the pipeline", async () => {
  const seen: unknown[] = [];
  /**
   * Changes what it is given.
   * @param filter Filter
   */
  const mutate = tool(function mutate(filter: { tags: string[] }) {
    seen.push(filter);
    filter.tags.push("changed");
    return filter.tags.join(",");
  });
  const registry = new ToolRegistry([mutate]);
  const probe = probeDispatch(registry);
  for (const fast of [true, false]) {
    const args = { filter: { tags: ["a"] } };
    probe.readAllInFull = !fast;
    const before = probe.continued;
    const [answer] = await registry.dispatch(lcMessage([["mutate", args]]));
    assert.is(answer!.content, "a,changed", `the tool's own copy (${fast ? "first stages" : "later stages"})`);
    assert.is(probe.continued - before, fast ? 0 : 1, "the stages that answered");
    assert.equal(args, { filter: { tags: ["a"] } }, "the message's arguments are unchanged");
    assert.is.not(seen.at(-1), args.filter);
  }
});

test("a format's answer is the same whether the calls were answered at once or through a promise", async () => {
  /**
   * Echoes its text, at once or later.
   * @param text Text
   * @param later Whether to answer through a promise
   */
  const echo = tool(function echo(text: string, later?: boolean) {
    return later ? Promise.resolve(text) : text;
  });
  const registry = new ToolRegistry([echo]);
  const probe = probeDispatch(registry);
  const messages = (later: boolean): [string, object][] => [
    [
      "Anthropic",
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "t1", name: "echo", input: { text: "a", later } },
          { type: "tool_use", id: "t2", name: "echo", input: { text: "b" } },
        ],
      },
    ],
    [
      "Gemini",
      {
        candidates: [
          {
            content: {
              role: "model",
              parts: [
                { functionCall: { id: "g1", name: "echo", args: { text: "a", later } } },
                { functionCall: { id: "g2", name: "echo", args: { text: "b" } } },
              ],
            },
          },
        ],
      },
    ],
    [
      "Responses",
      {
        output: [
          { type: "function_call", call_id: "r1", name: "echo", arguments: JSON.stringify({ text: "a", later }) },
          { type: "function_call", call_id: "r2", name: "echo", arguments: '{"text":"b"}' },
        ],
      },
    ],
  ];
  const now = messages(false);
  const later = messages(true);
  for (let i = 0; i < now.length; i++) {
    const before = probe.continued;
    const atOnce = await registry.dispatch(now[i]![1] as never);
    assert.is(probe.continued - before, 0, `${now[i]![0]}: both calls answered by the first stages`);
    assert.equal(JSON.stringify(atOnce), JSON.stringify(await registry.dispatch(later[i]![1] as never)), now[i]![0]);
  }
});

test("a message whose tool_calls throw when read is rejected with that error", async () => {
  const registry = new ToolRegistry(makeTools([]));
  const boom = new Error("a getter that throws");
  const message = {
    role: "assistant",
    content: null,
    get tool_calls(): unknown[] {
      throw boom;
    },
  };
  const failure = await registry.dispatch(message as never).then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.is(failure, boom);
  const one = {
    role: "assistant",
    content: null,
    tool_calls: [
      {
        id: "c1",
        type: "function",
        get function(): never {
          throw boom;
        },
      },
    ],
  };
  const failed = await registry.dispatch(one as never).then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.is(failed, boom, "a call whose function throws when read");
});

test.run();
