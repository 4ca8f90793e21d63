/**
 * A run paused for approval whose batch also holds a call of the loop's own tools, resumed: the loop answers its
 * own calls exactly as an uninterrupted run would, on every API that has them, each through its official SDK
 * against a scripted server of its wire format:
 * - the loop's `search_tools` (Chat Completions, Gemini, and the Responses API and Anthropic with
 *   `toolSearch.local`): answered from the index, and the tools it found offered whole from the next request on;
 * - `patch_tool_arguments` (`repair: "jsonpatch"`): the patch applied to the failed call and the repaired call run
 *   under the patch call's id; a repaired call of a tool that needs approval pauses the run like any such call, with
 *   the patched arguments shown; the calls still waiting for a patch are offered after the pause;
 * - a call of a tool `prepareStep` did not offer in the paused step is answered as unavailable, never run.
 * The run's state still goes through JSON, sealed with `approvalSecret`; one whose reply no longer matches its
 * sealed batch is refused before anything runs.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { type ApprovalDecision, ToolRegistry, tool } from "tooltype";
import {
  type LoopTypes,
  type RunToolsApprovalState,
  type RunToolsOptions,
  type RunToolsResult,
  SEARCH_TOOL_NAME,
  runTools,
} from "tooltype/loop";
import { anthropicReply, geminiReply, responsesCall, responsesReply, responsesText } from "../support/provider-replies";
import { startScriptedHttp } from "../support/scripted-http";
import { ask, cancelBooking, getForecast } from "./deferred-tools";

const SECRET = "a secret of at least thirty-two bytes, for tests only";

interface ScriptedCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/** One API: its scripted replies, its run, and what a request carries (the last turn's answers, the tools offered). */
interface Api {
  name: string;
  /** What the run needs so that the loop searches itself on this API. */
  options: object;
  calls(calls: ScriptedCall[]): unknown;
  text(text: string): unknown;
  run(origin: string, registry: ToolRegistry, options: object): Promise<RunToolsResult<unknown, undefined, LoopTypes>>;
  answers(body: Record<string, unknown>): [string, string][];
  tools(body: Record<string, unknown>): string[];
}

const completion = (message: Record<string, unknown>, finish: string) => ({
  id: "c",
  object: "chat.completion",
  created: 1,
  model: "gpt-scripted",
  choices: [
    {
      index: 0,
      message: { role: "assistant", refusal: null, content: null, ...message },
      finish_reason: finish,
      logprobs: null,
    },
  ],
});

const chat: Api = {
  name: "Chat Completions",
  options: {},
  calls: (calls) =>
    completion(
      {
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: "function",
          function: { name: call.name, arguments: JSON.stringify(call.args) },
        })),
      },
      "tool_calls",
    ),
  text: (text) => completion({ content: text }, "stop"),
  run: (origin, registry, options) =>
    runTools(
      new OpenAI({ baseURL: `${origin}/v1`, apiKey: "test", maxRetries: 0, timeout: 10_000 }),
      { model: "gpt-scripted", messages: [{ role: "user", content: "Go." }] },
      registry,
      options,
    ) as never,
  answers: (body) =>
    (body.messages as Record<string, unknown>[])
      .filter((m) => m.role === "tool")
      .map((m) => [m.tool_call_id as string, m.content as string]),
  tools: (body) => ((body.tools ?? []) as { function: { name: string } }[]).map((entry) => entry.function.name),
};

const apis: Api[] = [
  chat,
  {
    name: "Responses (toolSearch.local)",
    options: { provider: "responses", toolSearch: { local: true } },
    calls: (calls) =>
      responsesReply(
        "r",
        calls.map((call) => responsesCall(call.id, call.name, call.args)),
      ),
    text: (text) => responsesReply("r", [responsesText(text)]),
    run: (origin, registry, options) =>
      runTools(
        new OpenAI({ baseURL: `${origin}/v1`, apiKey: "test", maxRetries: 0, timeout: 10_000 }),
        { model: "g", input: "Go." },
        registry,
        { ...options, provider: "responses" },
      ) as never,
    answers: (body) =>
      (body.input as Record<string, unknown>[])
        .filter((item) => item.type === "function_call_output")
        .map((item) => [item.call_id as string, item.output as string]),
    tools: (body) => (body.tools as Record<string, unknown>[]).map((entry) => (entry.name ?? entry.type) as string),
  },
  {
    name: "Anthropic (toolSearch.local)",
    options: { toolSearch: { local: true } },
    calls: (calls) =>
      anthropicReply(
        "m",
        calls.map((call) => ({ type: "tool_use", id: call.id, name: call.name, input: call.args })),
      ),
    text: (text) => anthropicReply("m", [{ type: "text", text }]),
    run: (origin, registry, options) =>
      runTools(
        new Anthropic({ baseURL: origin, apiKey: "test", maxRetries: 0, timeout: 10_000 }),
        { model: "c", max_tokens: 100, messages: [{ role: "user" as const, content: "Go." }] },
        registry,
        options,
      ) as never,
    answers: (body) => {
      const messages = body.messages as { content: Record<string, unknown>[] | string }[];
      const last = messages[messages.length - 1]!.content;
      return typeof last === "string"
        ? []
        : last
            .filter((block) => block.type === "tool_result")
            .map((block) => [block.tool_use_id as string, block.content as string]);
    },
    tools: (body) => (body.tools as { name: string }[]).map((entry) => entry.name),
  },
  {
    name: "Gemini",
    options: {},
    calls: (calls) =>
      geminiReply(
        calls.map((call) => ({ functionCall: { id: call.id, name: call.name, args: call.args } })),
        "STOP",
      ),
    text: (text) => geminiReply([{ text }], "STOP"),
    run: async (origin, registry, options) => {
      const { GoogleGenAI } = await import("@google/genai");
      return runTools(
        new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: origin, timeout: 10_000 } }),
        { model: "g", contents: "Go." },
        registry,
        options,
      ) as never;
    },
    answers: (body) => {
      const contents = body.contents as {
        parts: { functionResponse?: { id: string; response: { output?: unknown; error?: unknown } } }[];
      }[];
      return contents[contents.length - 1]!.parts.flatMap(({ functionResponse }) =>
        functionResponse
          ? [
              [
                functionResponse.id,
                String(
                  functionResponse.response.error ??
                    (typeof functionResponse.response.output === "string"
                      ? functionResponse.response.output
                      : JSON.stringify(functionResponse.response.output)),
                ),
              ] as [string, string],
            ]
          : [],
      );
    },
    tools: (body) =>
      (body.tools as { functionDeclarations: { name: string }[] }[])[0]!.functionDeclarations.map((d) => d.name),
  },
];

/** The state as the caller stores it: plain JSON. */
function stored(result: RunToolsResult<unknown, undefined, LoopTypes>): RunToolsApprovalState {
  assert.is(result.finishReason, "paused");
  return JSON.parse(JSON.stringify(result.paused!.state)) as RunToolsApprovalState;
}

// ---- the loop's own search ----------------------------------------------------------------------------------------

const SEARCH_AND_CANCEL: ScriptedCall[] = [
  { id: "call_s", name: SEARCH_TOOL_NAME, args: { query: "weather forecast" } },
  { id: "call_c", name: "cancel_booking", args: { bookingId: "B-7" } },
];

for (const api of apis) {
  test(`${api.name}: search_tools in a batch paused for approval is answered on resume, and the tool it found is offered on the next request`, async () => {
    const server = await startScriptedHttp([
      () => api.calls(SEARCH_AND_CANCEL),
      () => api.text("Cancelled, and rain tomorrow."),
    ]);
    try {
      const registry = () => new ToolRegistry([ask, getForecast, cancelBooking]);
      const paused = await api.run(server.origin, registry(), api.options);
      assert.equal(
        paused.paused!.pending.map((p) => [p.id, p.name, p.args]),
        [["call_c", "cancel_booking", { bookingId: "B-7" }]],
        "only the registry's call waits for a human",
      );
      assert.equal(api.tools(server.requests[0]!.body as Record<string, unknown>), ["ask", SEARCH_TOOL_NAME]);
      const state = stored(paused);
      const done = await api.run(server.origin, registry(), {
        ...api.options,
        resume: { state, decisions: [{ id: "call_c", approved: true }] },
      });
      assert.is(done.content, "Cancelled, and rain tomorrow.");
      const next = server.requests[1]!.body as Record<string, unknown>;
      const answers = api.answers(next);
      assert.equal(
        answers.map(([id]) => id),
        ["call_s", "call_c"],
      );
      assert.match(
        answers[0]![1],
        /^Found 1 tool, which you can call from your next step on:\n- get_forecast: Get the weather forecast/,
        "the search answered, not refused as an unknown tool",
      );
      assert.is(answers[1]![1], "Cancelled B-7.");
      assert.equal(
        api.tools(next),
        ["ask", "get_forecast", SEARCH_TOOL_NAME],
        "the tool the search found, whole, from the next request on",
      );
    } finally {
      await server.close();
    }
  });
}

test("a sealed state (approvalSecret) with the loop's own call resumes; one whose reply was changed is refused before anything runs", async () => {
  const server = await startScriptedHttp([() => chat.calls(SEARCH_AND_CANCEL), () => chat.text("Done.")]);
  try {
    const ran: string[] = [];
    /**
     * Cancel a booking of a restaurant table.
     * @param bookingId The booking to cancel
     */
    const cancel = tool(
      function cancel_booking(bookingId: string) {
        ran.push(bookingId);
        return `Cancelled ${bookingId}.`;
      },
      { needsApproval: true, deferred: true },
    );
    const registry = new ToolRegistry([ask, getForecast, cancel], { approvalSecret: SECRET });
    const state = stored(await chat.run(server.origin, registry, {}));
    assert.type(state.approval.seal, "string");
    const decisions: ApprovalDecision[] = [{ id: "call_c", approved: true }];

    // The reply (not sealed) whose search call was made a call of a registry tool no longer matches the sealed batch.
    const changed = JSON.parse(JSON.stringify(state)) as RunToolsApprovalState & {
      reply: { tool_calls: { id: string; function: { name: string; arguments: string } }[] };
    };
    changed.reply.tool_calls[0]!.function = { name: "ask", arguments: '{"question":"?"}' };
    await chat.run(server.origin, registry, { resume: { state: changed, decisions } }).then(
      () => assert.unreachable("expected a TypeError"),
      (error: unknown) =>
        assert.match(
          String(error),
          /resume: refused, the paused reply's calls do not match the batch paused for approval .*nothing was run/,
        ),
    );
    assert.equal(ran, []);
    assert.is(server.requests.length, 1);

    // A state whose reply holds only the loop's own call still has its approval state checked (here: its seal).
    const forged = JSON.parse(JSON.stringify(state)) as RunToolsApprovalState & {
      reply: { tool_calls: { id: string }[] };
    };
    forged.reply.tool_calls = forged.reply.tool_calls.filter((call) => call.id === "call_s");
    const emptied = { ...forged, approval: { ...forged.approval, calls: [], pending: [] } };
    await chat.run(server.origin, registry, { resume: { state: emptied, decisions: [] } }).then(
      () => assert.unreachable("expected a TypeError"),
      (error: unknown) => assert.match(String(error), /resume: refused, the state's seal does not match/),
    );
    assert.is(server.requests.length, 1);

    const done = await chat.run(server.origin, registry, { resume: { state, decisions } });
    assert.is(done.content, "Done.");
    assert.equal(ran, ["B-7"]);
    assert.match(chat.answers(server.requests[1]!.body as Record<string, unknown>)[0]![1], /^Found 1 tool/);
  } finally {
    await server.close();
  }
});

// ---- JSON Patch ---------------------------------------------------------------------------------------------------

function patchRegistry(ran: string[]): ToolRegistry {
  /**
   * Delete a file.
   * @param path File path
   */
  const remove = tool(
    function remove(path: string) {
      ran.push(`remove ${path}`);
      return `removed ${path}`;
    },
    { needsApproval: true },
  );
  /**
   * List files.
   * @param dir Directory
   */
  const list = tool(function list(dir: string) {
    ran.push(`list ${dir}`);
    return ["a.txt", "b.txt"];
  });
  return new ToolRegistry([remove, list]);
}

const patchCall = (id: string, target: string, path: string, value: unknown): ScriptedCall => ({
  id,
  name: "patch_tool_arguments",
  args: { tool_call_id: target, patch: [{ op: "replace", path, value }] },
});
const jsonpatch: RunToolsOptions = { repair: "jsonpatch" };

test("jsonpatch: a patch call in a batch paused for approval is applied on resume, the repaired call answering it", async () => {
  const server = await startScriptedHttp([
    () => chat.calls([{ id: "call_1", name: "list", args: { dir: 5 } }]),
    () =>
      chat.calls([
        patchCall("call_p", "call_1", "/dir", "."),
        { id: "call_r", name: "remove", args: { path: "a.txt" } },
      ]),
    () => chat.text("Done."),
  ]);
  try {
    const ran: string[] = [];
    const paused = await chat.run(server.origin, patchRegistry(ran), jsonpatch);
    assert.equal(
      paused.paused!.pending.map((p) => p.id),
      ["call_r"],
    );
    assert.equal(ran, []);
    const done = await chat.run(server.origin, patchRegistry(ran), {
      ...jsonpatch,
      resume: { state: stored(paused), decisions: [{ id: "call_r", approved: true }] },
    });
    assert.is(done.content, "Done.");
    assert.equal(ran.sort(), ["list .", "remove a.txt"]);
    assert.equal(chat.answers(server.requests[2]!.body as Record<string, unknown>).slice(1), [
      ["call_p", '["a.txt","b.txt"]'],
      ["call_r", "removed a.txt"],
    ]);
    assert.not.ok(
      chat.tools(server.requests[2]!.body as Record<string, unknown>).includes("patch_tool_arguments"),
      "nothing is left to patch",
    );
  } finally {
    await server.close();
  }
});

test("jsonpatch: the repaired call of a tool that needs approval pauses the run with the patched arguments; approved, it answers the patch call", async () => {
  const server = await startScriptedHttp([
    () => chat.calls([{ id: "call_1", name: "remove", args: { path: 5 } }]),
    () => chat.calls([patchCall("call_p", "call_1", "/path", "a.txt")]),
    () => chat.text("Removed."),
  ]);
  try {
    const ran: string[] = [];
    const paused = await chat.run(server.origin, patchRegistry(ran), jsonpatch);
    assert.equal(
      paused.paused!.pending.map((p) => [p.id, p.name, p.args]),
      [["call_p", "remove", { path: "a.txt" }]],
      "the human sees the call that would run",
    );
    assert.equal(ran, [], "the patch did not run a tool that needs approval");
    const done = await chat.run(server.origin, patchRegistry(ran), {
      ...jsonpatch,
      resume: { state: stored(paused), decisions: [{ id: "call_p", approved: true }] },
    });
    assert.is(done.content, "Removed.");
    assert.equal(ran, ["remove a.txt"]);
    assert.equal(chat.answers(server.requests[2]!.body as Record<string, unknown>).slice(1), [
      ["call_p", "removed a.txt"],
    ]);
  } finally {
    await server.close();
  }
});

test("jsonpatch: a failed call still waiting for a patch is offered for patching after the pause", async () => {
  const server = await startScriptedHttp([
    () => chat.calls([{ id: "call_1", name: "list", args: { dir: 5 } }]),
    () => chat.calls([{ id: "call_r", name: "remove", args: { path: "a.txt" } }]),
    () => chat.calls([patchCall("call_p", "call_1", "/dir", ".")]),
    () => chat.text("Done."),
  ]);
  try {
    const ran: string[] = [];
    const paused = await chat.run(server.origin, patchRegistry(ran), jsonpatch);
    const done = await chat.run(server.origin, patchRegistry(ran), {
      ...jsonpatch,
      resume: { state: stored(paused), decisions: [{ id: "call_r", approved: true }] },
    });
    assert.is(done.content, "Done.");
    assert.ok(
      chat.tools(server.requests[2]!.body as Record<string, unknown>).includes("patch_tool_arguments"),
      "call_1 can still be patched",
    );
    assert.equal(chat.answers(server.requests[3]!.body as Record<string, unknown>).slice(-1), [
      ["call_p", '["a.txt","b.txt"]'],
    ]);
    assert.equal(ran, ["remove a.txt", "list ."]);
  } finally {
    await server.close();
  }
});

test("jsonpatch: an edit by a human that does not fit is not the model's to patch, nor one of its failed attempts", async () => {
  const server = await startScriptedHttp([
    () => chat.calls([{ id: "call_r", name: "remove", args: { path: "a.txt" } }]),
    () => chat.text("Not removed."),
  ]);
  try {
    const ran: string[] = [];
    const paused = await chat.run(server.origin, patchRegistry(ran), jsonpatch);
    const done = await chat.run(server.origin, patchRegistry(ran), {
      ...jsonpatch,
      maxAttempts: 1,
      resume: { state: stored(paused), decisions: [{ id: "call_r", approved: true, args: { path: 5 } }] },
    });
    assert.is(done.content, "Not removed.");
    assert.equal(ran, []);
    const [answer] = chat.answers(server.requests[1]!.body as Record<string, unknown>);
    assert.match(answer![1], /^The user approved this call of remove with edited arguments, but the edit does not fit/);
    assert.not.match(answer![1], /patch_tool_arguments/);
    assert.not.ok(chat.tools(server.requests[1]!.body as Record<string, unknown>).includes("patch_tool_arguments"));
  } finally {
    await server.close();
  }
});

// ---- prepareStep's active tools -----------------------------------------------------------------------------------

test("a call of a tool the paused step did not offer is answered as unavailable on resume, never shown for approval nor run", async () => {
  const server = await startScriptedHttp([
    () =>
      chat.calls([
        { id: "call_r", name: "remove", args: { path: "a.txt" } },
        { id: "call_l", name: "list", args: { dir: "." } },
      ]),
    () => chat.text("Done."),
  ]);
  try {
    const ran: string[] = [];
    const options: RunToolsOptions = { prepareStep: () => ({ activeTools: ["remove"] }) };
    const paused = await chat.run(server.origin, patchRegistry(ran), options);
    assert.equal(
      paused.paused!.pending.map((p) => p.id),
      ["call_r"],
    );
    const done = await chat.run(server.origin, patchRegistry(ran), {
      ...options,
      resume: { state: stored(paused), decisions: [{ id: "call_r", approved: true }] },
    });
    assert.is(done.content, "Done.");
    assert.equal(ran, ["remove a.txt"]);
    const answers = chat.answers(server.requests[1]!.body as Record<string, unknown>);
    assert.equal(answers[0], ["call_r", "removed a.txt"]);
    assert.match(answers[1]![1], /^Error: list is not available in this step\. Available tools: remove\./);
  } finally {
    await server.close();
  }
});

test.run();
