/**
 * Dispatch is one pipeline: a call of every format, read by its provider into a NormalizedCall, goes through
 * pipeline.ts `answerCall` once; a plain call never reaches the stages' continuations (continue-call.ts
 * `continueCall`), nor anything a hook, middleware, approval or a deadline would need; and a call's arguments are
 * read (parsed) and checked by the pipeline once, also when they are invalid and go on to the failure path. The
 * counts come from a probe put into each registry's dispatch environment (dispatch/testing.ts).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { type Int, type Max, type Min, ToolRegistry, tool } from "../../runtime/entries/index";
import { type DispatchProbe, probeDispatch } from "../../runtime/dispatch/testing";
import type { DispatchTool } from "../../runtime/dispatch/environment";
import { parsedDuring } from "../support/parse-watch";

/**
 * Weather forecast.
 * @param city City
 * @param days Days
 */
function get_forecast(city: string, days: Int & Min<1> & Max<14>): string {
  return `${days} days in ${city}`;
}

const ARGS = { city: "Oslo", days: 3 };
const TEXT = JSON.stringify(ARGS);

/** One call of get_forecast in each format dispatch reads. */
const MESSAGES: [string, object][] = [
  [
    "Chat Completions",
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c1", type: "function", function: { name: "get_forecast", arguments: TEXT } }],
    },
  ],
  [
    "LangChain AIMessage",
    {
      content: "",
      tool_calls: [{ id: "c1", name: "get_forecast", args: ARGS, type: "tool_call" }],
      invalid_tool_calls: [],
    },
  ],
  [
    "legacy function_call",
    { role: "assistant", content: null, function_call: { name: "get_forecast", arguments: TEXT } },
  ],
  ["Responses API", { output: [{ type: "function_call", call_id: "c1", name: "get_forecast", arguments: TEXT }] }],
  ["Anthropic", { role: "assistant", content: [{ type: "tool_use", id: "c1", name: "get_forecast", input: ARGS }] }],
  [
    "Gemini",
    {
      candidates: [
        { content: { role: "model", parts: [{ functionCall: { id: "c1", name: "get_forecast", args: ARGS } }] } },
      ],
    },
  ],
];

/** What `run` did to the pipeline's counts. */
async function counted(
  probe: DispatchProbe,
  run: () => Promise<unknown>,
): Promise<{ begun: number; finished: number; result: unknown }> {
  const begun = probe.began;
  const finished = probe.continued;
  const result = await run();
  return { begun: probe.began - begun, finished: probe.continued - finished, result };
}

test("a call of every format goes through the one pipeline function, and a plain one no further", async () => {
  const registry = new ToolRegistry([tool(get_forecast)]);
  const probe = probeDispatch(registry);
  for (const [format, message] of MESSAGES) {
    const { begun, finished, result } = await counted(probe, () => registry.dispatch(message as never));
    assert.is(begun, 1, `${format}: through answerCall once`);
    assert.is(finished, 0, `${format}: no later stage`);
    assert.ok(JSON.stringify(result).includes("3 days in Oslo"), `${format}: answered`);
  }
  // The other ways in: runCalls, invoke(call), dispatchWithApproval.
  const chat = MESSAGES[0]![1];
  assert.is((await counted(probe, () => registry.runCalls(chat as never))).begun, 1, "runCalls");
  assert.is(
    (await counted(probe, () => registry.invoke({ id: "c1", name: "get_forecast", args: ARGS, type: "tool_call" })))
      .begun,
    1,
    "invoke(call)",
  );
  assert.is(
    (await counted(probe, () => registry.dispatchWithApproval(chat as never))).begun,
    1,
    "dispatchWithApproval",
  );
});

test("a call that needs a later stage goes through the same function first, and each stage once", async () => {
  const seen: string[] = [];
  const registry = new ToolRegistry([tool(get_forecast)], { onToolStart: (event) => seen.push(event.call.id) });
  const probe = probeDispatch(registry);
  for (const [format, message] of MESSAGES) {
    const { begun, finished } = await counted(probe, () => registry.dispatch(message as never));
    assert.is(begun, 1, `${format}: through answerCall once`);
    assert.is(finished, 1, `${format}: on to the later stages (hooks) once`);
  }
  assert.is(seen.length, MESSAGES.length, "each call observed once");
});

/** JSON.parse and the tool's compiled validator, counted while `run` runs. */
async function reads(
  registry: ToolRegistry,
  run: () => Promise<unknown>,
): Promise<{ parsed: number; checked: number }> {
  const validator = (registry.get("get_forecast") as DispatchTool).validator();
  const kit = validator.kit!;
  let checked = 0;
  // The wrapper keeps what the failure path reads of the validator (its schema, patterns, formats, budget).
  const counting = Object.assign((args: unknown) => {
    checked++;
    return kit(args);
  }, kit);
  (validator as { kit: unknown }).kit = counting;
  try {
    const texts = await parsedDuring(run);
    return { parsed: texts.filter((text) => text.includes("Oslo")).length, checked };
  } finally {
    (validator as { kit: unknown }).kit = kit;
  }
}

test("arguments are parsed once and checked once by the pipeline, valid or not", async () => {
  const message = (text: string) => ({
    role: "assistant",
    content: null,
    tool_calls: [{ id: "c1", type: "function", function: { name: "get_forecast", arguments: text } }],
  });
  // A fresh registry per case: the validator is wrapped before the pipeline first asks for it.
  const plain = new ToolRegistry([tool(get_forecast)]);
  // A flat object of the tool's keys is read without JSON.parse (arguments/read/flat-json.ts); other text once by it.
  assert.equal(await reads(plain, () => plain.dispatch(message(TEXT))), { parsed: 0, checked: 1 }, "valid, flat");
  const spaced = new ToolRegistry([tool(get_forecast)]);
  assert.equal(
    await reads(spaced, () => spaced.dispatch(message('{"city":"Oslo","days":2.0}'))),
    { parsed: 1, checked: 1 },
    "valid arguments JSON.parse reads",
  );
  const invalid = new ToolRegistry([tool(get_forecast)]);
  const answers: unknown[] = [];
  const counts = await reads(invalid, async () =>
    answers.push(...(await invalid.dispatch(message('{"city":"Oslo","days":40.0}')))),
  );
  // Parsed once; checked once by the pipeline, which hands what it read to the failure path; that path's coercion
  // step (arguments/repair/conform.ts) asks the validator once more where it begins, then describes the errors.
  assert.equal(counts, { parsed: 1, checked: 2 }, "invalid arguments");
  assert.is((answers[0] as { status: string }).status, "error");
  const hooked = new ToolRegistry([tool(get_forecast)], { onToolEnd: () => {} });
  assert.equal(
    await reads(hooked, () => hooked.dispatch(message('{"city":"Oslo","days":2.0}'))),
    { parsed: 1, checked: 1 },
    "valid arguments in a run with hooks",
  );
});

test.run();
