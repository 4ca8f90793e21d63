/**
 * Benchmark 1, dispatch: one Chat Completions message answered by tooltype, by a hand-written floor and by
 * LangChain.js, in the same process.
 */
import { tool as lcTool } from "@langchain/core/tools";
import Ajv2020 from "ajv/dist/2020";
import { type Int, type Max, type Min, tool, ToolRegistry } from "tooltype";
import { z } from "zod";
import { trace } from "@opentelemetry/api";
import { BasicTracerProvider, BatchSpanProcessor, InMemorySpanExporter } from "@opentelemetry/sdk-trace-base";
import { type InterleaveOptions, type InterleaveResult, interleave, type Variant } from "./harness";

// ---- The tool, as a user writes it ---------------------------------------------------------------------------

/**
 * Get the weather forecast for a city.
 * @param city City name, e.g. "Paris"
 * @param days Number of days to forecast
 * @param unit Temperature unit
 */
function get_forecast(city: string, days: Int & Min<1> & Max<14>, unit: "celsius" | "fahrenheit"): string {
  return `${days}-day forecast for ${city}: sunny, 21 degrees ${unit}`;
}

export const getForecast = tool(get_forecast);

/** The same tool for LangChain.js, with the zod schema a LangChain user writes by hand. */
const lcForecast = lcTool(({ city, days, unit }) => get_forecast(city, days, unit), {
  name: "get_forecast",
  description: "Get the weather forecast for a city.",
  schema: z.object({
    city: z.string().describe('City name, e.g. "Paris"'),
    days: z.number().int().min(1).max(14).describe("Number of days to forecast"),
    unit: z.enum(["celsius", "fahrenheit"]).describe("Temperature unit"),
  }),
});

// ---- The messages ------------------------------------------------------------------------------------------------

interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}
interface ChatMessage {
  role: "assistant";
  content: null;
  tool_calls: ChatToolCall[];
}

const CITIES = ["Paris", "Beijing", "Lagos", "Lima", "Oslo", "Perth", "Quito", "Seoul", "Tunis", "Vienna"];

export function message(calls: number): ChatMessage {
  return {
    role: "assistant",
    content: null,
    tool_calls: Array.from({ length: calls }, (_, i) => ({
      id: `call_${i}_abcdefghijklmnop`,
      type: "function" as const,
      function: {
        name: "get_forecast",
        arguments: JSON.stringify({
          city: CITIES[i % CITIES.length],
          days: 1 + (i % 14),
          unit: i % 2 ? "fahrenheit" : "celsius",
        }),
      },
    })),
  };
}

/** What every side answers, reduced to what the model and the caller see. */
interface Answer {
  tool_call_id: string;
  name: string;
  content: string;
  status: string;
}

// ---- The dispatchers ---------------------------------------------------------------------------------------------

const registry = new ToolRegistry([getForecast]);

/**
 * The floor: the least code that answers the message correctly (the definition: `JSON.parse`, a precompiled
 * ajv validator, a direct call, the message object built by hand), plus two references that show what being
 * asynchronous costs on top of it:
 * - `sync`: the floor itself; returns the answers, no promise anywhere (only possible when every tool is sync);
 * - `promise`: the same work, returned as one promise per message (`async` function): the least any
 *   Promise-returning `dispatch(message)` can cost;
 * - `async`: one async function per call awaiting the tool, then `Promise.all`: a hand-written dispatcher that
 *   supports async tools.
 */
function makeFloor(): {
  sync: (m: ChatMessage) => Answer[];
  promise: (m: ChatMessage) => Promise<Answer[]>;
  async: (m: ChatMessage) => Promise<Answer[]>;
} {
  // Default ajv options: the fastest set-up (first error only); the schema is the one the transformer emitted.
  const ajv = new Ajv2020({ strict: false });
  const validate = ajv.compile(registry.get("get_forecast")!.parameters);
  interface Args {
    city: string;
    days: number;
    unit: "celsius" | "fahrenheit";
  }
  const answerSync = (call: ChatToolCall): Answer => {
    const args = JSON.parse(call.function.arguments) as Args;
    if (!validate(args)) {
      return { tool_call_id: call.id, name: call.function.name, content: "Error: invalid arguments", status: "error" };
    }
    const content = get_forecast(args.city, args.days, args.unit);
    return { tool_call_id: call.id, name: call.function.name, content, status: "success" };
  };
  const answerAsync = async (call: ChatToolCall): Promise<Answer> => {
    const args = JSON.parse(call.function.arguments) as Args;
    if (!validate(args)) {
      return { tool_call_id: call.id, name: call.function.name, content: "Error: invalid arguments", status: "error" };
    }
    const content = await get_forecast(args.city, args.days, args.unit);
    return { tool_call_id: call.id, name: call.function.name, content, status: "success" };
  };
  const sync = (m: ChatMessage): Answer[] => m.tool_calls.map(answerSync);
  return {
    sync,
    promise: async (m) => sync(m),
    async: (m) => Promise.all(m.tool_calls.map(answerAsync)),
  };
}

const floor = makeFloor();

const lcTools = new Map<string, typeof lcForecast>([[lcForecast.name, lcForecast]]);

/** LangChain.js: each call becomes the `ToolCall` a LangChain chat model produces, invoked on its tool. */
function langchainDispatch(m: ChatMessage): Promise<Answer[]> {
  return Promise.all(
    m.tool_calls.map(async (call) => {
      const toolCall = {
        name: call.function.name,
        args: JSON.parse(call.function.arguments) as Record<string, unknown>,
        id: call.id,
        type: "tool_call" as const,
      };
      const t = lcTools.get(toolCall.name);
      if (!t) throw new Error(`unknown tool ${toolCall.name}`);
      const reply = (await t.invoke(toolCall)) as {
        tool_call_id: string;
        name?: string;
        content: unknown;
        status?: string;
      };
      return {
        tool_call_id: reply.tool_call_id,
        name: reply.name ?? "",
        content: String(reply.content),
        status: reply.status ?? "",
      };
    }),
  );
}

export function tooltypeDispatch(m: ChatMessage): Promise<Answer[]> {
  return registry.dispatch(m);
}

// ---- Checks and timing -------------------------------------------------------------------------------------------

function pick(answers: readonly Answer[]): Answer[] {
  return answers.map(({ tool_call_id, name, content, status }) => ({ tool_call_id, name, content, status }));
}

/** Throws unless the three sides answer both messages identically and all refuse invalid arguments. */
export async function checkDispatch(): Promise<string[]> {
  const notes: string[] = [];
  for (const calls of [1, 10]) {
    const m = message(calls);
    const ours = pick(await tooltypeDispatch(m));
    const theirs = pick(await langchainDispatch(m));
    const expected = JSON.stringify(ours);
    const others = [
      ["LangChain.js", theirs],
      ["floor", pick(floor.sync(m))],
      ["floor (promise)", pick(await floor.promise(m))],
      ["floor (async per call)", pick(await floor.async(m))],
    ] as const;
    for (const [who, answers] of others) {
      if (JSON.stringify(answers) !== expected) {
        throw new Error(
          `dispatch of ${calls} call(s): ${who} answers differently.\ntooltype: ${expected}\n${who}: ${JSON.stringify(answers)}`,
        );
      }
    }
    if (ours.length !== calls || ours.some((a) => a.status !== "success"))
      throw new Error(`tooltype did not answer ${calls} call(s) with success`);
    notes.push(
      `${calls} call(s): tooltype, floor and LangChain.js answer identically (${ours.length} ToolMessage(s), e.g. ${JSON.stringify(ours[0]!.content)})`,
    );
  }
  // Validation is on for everyone: days out of range.
  const bad = message(1);
  bad.tool_calls[0]!.function.arguments = JSON.stringify({ city: "Paris", days: 40, unit: "celsius" });
  const oursBad = await tooltypeDispatch(bad);
  if (oursBad[0]?.status !== "error") throw new Error("tooltype accepted days: 40");
  if (floor.sync(bad)[0]?.status !== "error" || (await floor.async(bad))[0]?.status !== "error")
    throw new Error("the floor accepted days: 40");
  let langchainRefused = false;
  try {
    await langchainDispatch(bad);
  } catch {
    langchainRefused = true;
  }
  if (!langchainRefused) throw new Error("LangChain.js accepted days: 40");
  notes.push("invalid arguments (days: 40) are refused by all of them");
  return notes;
}

export interface DispatchResult {
  calls: number;
  result: InterleaveResult;
}

export const TOOLTYPE = "tooltype dispatch";
export const FLOOR = "floor: JSON.parse + ajv + direct call + object";
export const FLOOR_PROMISE = "floor, returned as one promise per message";
export const FLOOR_ASYNC = "floor, one async function per call + Promise.all";
export const LANGCHAIN = "LangChain.js tool.invoke";
export const TOOLTYPE_TRACED = "tooltype dispatch, traced (OpenTelemetry SDK, a span per call)";

/**
 * A tracer provider as production sets one up (the SDK's batch processor; no context manager), exporting to memory,
 * emptied after each batch.
 */
const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] });

/** `run` with the provider registered (the only variant that traces: the others run with none, as an app would). */
async function tracedBatch(run: () => Promise<number>): Promise<number> {
  trace.setGlobalTracerProvider(tracerProvider);
  try {
    return await run();
  } finally {
    trace.disable();
    exporter.reset();
    // `disable` leaves the API's global object in place, empty: the next batches would run in a process that once
    // had OpenTelemetry registered, which an app without it never is. Without the object they run as such an app.
    delete (globalThis as Record<symbol, unknown>)[OTEL_GLOBALS];
  }
}

/** Where `@opentelemetry/api` 1.x keeps what is registered (runtime/telemetry/tracing.ts reads it the same way). */
const OTEL_GLOBALS = Symbol.for("opentelemetry.js.api.1");

/** The variants for a message of `calls` calls, each running a batch of N messages (awaited when async). */
export function dispatchVariants(calls: number): Variant[] {
  const m = message(calls);
  return [
    { label: TOOLTYPE, batch: (n) => loop(n, () => tooltypeDispatch(m)) },
    { label: FLOOR, batch: (n) => loopSync(n, () => floor.sync(m)) },
    { label: FLOOR_PROMISE, batch: (n) => loop(n, () => floor.promise(m)) },
    { label: FLOOR_ASYNC, batch: (n) => loop(n, () => floor.async(m)) },
    { label: LANGCHAIN, batch: (n) => loop(n, () => langchainDispatch(m)) },
    { label: TOOLTYPE_TRACED, batch: (n) => tracedBatch(() => loop(n, () => tooltypeDispatch(m))) },
  ];
}

/**
 * ns per message for tooltype, the floor and LangChain.js, interleaved; ratios are relative to tooltype.
 * Benchmark 1, dispatch: one Chat Completions assistant message (arguments as JSON text, validation on) answered
 * with ToolMessages, by three hands in the same process:
 * - tooltype: `registry.dispatch(message)` on a `tool()` compiled by the transformer;
 * - the floor: `JSON.parse`, an ajv validator compiled before timing from the same schema, a direct call of the same
 *   function, the message object built by hand; plus two references on top of it (one promise per message, one
 *   async function per call), see `makeFloor`;
 * - LangChain.js: `tool()` with a zod schema, `invoke`d with the same `ToolCall` (arguments parsed from the same
 *   JSON text, the tool looked up by name in a Map, as a registry does).
 * Each runs the same message as a batch of N messages, awaited one by one when the variant is async; see harness.ts
 * for the rounds. `checkDispatch` proves first that all answer identically (content, id, status, name) and that
 * all refuse invalid arguments.
 */
export async function benchDispatch(calls: number, options: InterleaveOptions): Promise<DispatchResult> {
  return { calls, result: await interleave(dispatchVariants(calls), options) };
}

async function loop(n: number, run: () => Promise<Answer[]>): Promise<number> {
  let total = 0;
  for (let i = 0; i < n; i++) total += (await run()).length;
  return total;
}

function loopSync(n: number, run: () => Answer[]): number {
  let total = 0;
  for (let i = 0; i < n; i++) total += run().length;
  return total;
}
