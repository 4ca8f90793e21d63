/**
 * Validation retries in runTools, against the scripted server with the real SDK client: a model script that first
 * sends invalid nested arguments, then repairs them by calling the tool again ("regenerate") or by a JSON Patch of
 * its failed call ("jsonpatch"); streaks per tool, reset by a valid call; ToolRetryError with every attempt; what
 * the model sees (the patch tool offered only while a call can be patched, hints, errors); untrusted patches.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import OpenAI from "openai";
import type { ChatCompletionCreateParams } from "openai/resources/chat/completions";
import { ToolRegistry } from "tooltype";
import { PATCH_TOOL_NAME, ToolRetryError, runTools, type RunToolsResult } from "tooltype/loop";
import { startScriptedServer, toolResults, type Script, type ScriptedServer } from "../scripted-openai/server";
import { add, mathRegistry, multiply, recordPeople, recorded } from "./tools";

const model = "scripted-retries";

async function withServer<R>(script: Script, body: (server: ScriptedServer, client: OpenAI) => Promise<R>): Promise<R> {
  const server = await startScriptedServer(script);
  try {
    return await body(server, new OpenAI({ baseURL: server.baseURL, apiKey: "test", maxRetries: 0 }));
  } finally {
    await server.close();
  }
}

const TEXT = "Ada Lovelace, 36, lives in London, UK (ada@example.org). Alan Turing, 41, of Wilmslow, GB.";

/** Invalid in three nested places: an age in words, a bad email, a country that is not a two-letter code. */
const INVALID = {
  people: [
    {
      name: "Ada Lovelace",
      age: "thirty-six",
      email: "ada-at-example.org",
      address: { city: "London", country: "United Kingdom" },
    },
    { name: "Alan Turing", age: 41, address: { city: "Wilmslow", country: "GB" } },
  ],
};
const VALID = {
  people: [
    { name: "Ada Lovelace", age: 36, email: "ada@example.org", address: { city: "London", country: "GB" } },
    { name: "Alan Turing", age: 41, address: { city: "Wilmslow", country: "GB" } },
  ],
};
const FIX = [
  { op: "replace", path: "/people/0/age", value: 36 },
  { op: "replace", path: "/people/0/email", value: "ada@example.org" },
  { op: "replace", path: "/people/0/address/country", value: "GB" },
];

function offered(request: ChatCompletionCreateParams): string[] {
  return (request.tools ?? []).map((t) => (t.type === "function" ? t.function.name : t.custom.name));
}

function registry(): ToolRegistry {
  return new ToolRegistry([recordPeople]);
}

test("regenerate: the error goes back as the tool message, the model calls again, the loop recovers", async () => {
  recorded.length = 0;
  const script: Script = [
    { tool_calls: [{ name: "record_people", arguments: INVALID }] },
    (request) => {
      const [error] = toolResults(request);
      assert.match(error!.content, /^Error: invalid arguments for record_people:/);
      assert.match(error!.content, /\/people\/0\/age: must be an integer/);
      assert.match(error!.content, /\/people\/0\/email/);
      assert.match(error!.content, /\/people\/0\/address\/country/);
      assert.not.match(error!.content, /patch_tool_arguments/, "no patch hint outside JSON Patch mode");
      assert.not.ok(offered(request).includes(PATCH_TOOL_NAME));
      return { tool_calls: [{ name: "record_people", arguments: VALID }] };
    },
    (request) => ({ content: toolResults(request)[0]!.content }),
  ];
  await withServer(script, async (server, client) => {
    const result = await runTools(client, { model, messages: [{ role: "user", content: TEXT }] }, registry());
    assert.is(result.content, "Recorded 2 people: Ada Lovelace, Alan Turing.");
    assert.equal(recorded, [VALID.people]);
    assert.is(server.requests.length, 3);
    const failure = result.steps[0]!.failures[0]!;
    assert.is(failure.toolName, "record_people");
    assert.is(failure.toolCallId, "call_1");
    assert.is(failure.reason, "invalid_arguments");
    assert.equal(JSON.parse(failure.arguments), INVALID);
    assert.ok(failure.issues.length >= 3);
    assert.ok(failure.errors.some((e) => e.instancePath === "/people/0/age"));
    assert.equal(result.steps[1]!.failures, []);
  });
});

test("maxAttempts invalid calls of one tool in a row: ToolRetryError holding every attempt, transcript valid", async () => {
  const bad = (n: number) => ({ people: [{ name: `P${n}`, age: -n, address: { city: "X", country: "xx" } }] });
  const script: Script = (_request, index) => ({ tool_calls: [{ name: "record_people", arguments: bad(index + 1) }] });
  await withServer(script, async (server, client) => {
    const error = await runTools(client, { model, messages: [{ role: "user", content: TEXT }] }, registry()).catch(
      (e: unknown) => e,
    );
    assert.instance(error, ToolRetryError);
    const retry = error as ToolRetryError;
    assert.is(retry.subject, "tool");
    assert.is(retry.toolName, "record_people");
    assert.match(retry.message, /failed 3 times in a row to call record_people with valid arguments/);
    assert.match(retry.message, /\/people\/0\/age: must be >= 0; got -3/);
    assert.is(retry.attempts.length, 3);
    assert.equal(
      retry.attempts.map((a) => [a.step, a.toolCallId]),
      [
        [1, "call_1"],
        [2, "call_2"],
        [3, "call_3"],
      ],
    );
    retry.attempts.forEach((attempt, i) => {
      assert.equal(JSON.parse(attempt.arguments), bad(i + 1));
      assert.ok(attempt.issues.some((line) => line.startsWith("/people/0/address/country")));
      assert.match(attempt.message, /^Error: invalid arguments for record_people/);
    });
    assert.is(server.requests.length, 3);
    assert.equal(
      retry.messages.map((m) => m.role),
      ["user", "assistant", "tool", "assistant", "tool", "assistant", "tool"],
    );
    assert.is(retry.steps.length, 3);
  });
});

test("a valid call resets the streak; streaks are per tool", async () => {
  const script: Script = [
    {
      tool_calls: [
        { name: "add", arguments: { a: "one", b: 1 } },
        { name: "multiply", arguments: { a: "two", b: 2 } },
      ],
    },
    {
      tool_calls: [
        { name: "add", arguments: { a: "one", b: 1 } },
        { name: "multiply", arguments: { a: 2, b: 2 } },
      ],
    },
    { tool_calls: [{ name: "multiply", arguments: { a: "two", b: 2 } }] },
    { tool_calls: [{ name: "multiply", arguments: { a: "two", b: 2 } }] },
    { content: "gave up on my own" },
  ];
  await withServer(script, async (_server, client) => {
    const result = await runTools(client, { model, messages: [{ role: "user", content: "x" }] }, mathRegistry(), {
      maxAttempts: 3,
    });
    assert.is(result.content, "gave up on my own");
    assert.equal(
      result.steps.map((s) => s.failures.map((f) => f.toolName)),
      [["add", "multiply"], ["add"], ["multiply"], ["multiply"], []],
    );
  });
  // The same script with maxAttempts 2: add fails twice in a row at step 2.
  await withServer(script, async (_server, client) => {
    const error = await runTools(client, { model, messages: [{ role: "user", content: "x" }] }, mathRegistry(), {
      maxAttempts: 2,
    }).catch((e: unknown) => e);
    assert.instance(error, ToolRetryError);
    assert.is((error as ToolRetryError).toolName, "add");
    assert.equal(
      (error as ToolRetryError).attempts.map((a) => a.step),
      [1, 2],
    );
  });
});

test("a valid call later in the same reply ends the streak before it is counted against the tool", async () => {
  const script: Script = [
    { tool_calls: [{ name: "add", arguments: { a: "x", b: 1 } }] },
    {
      tool_calls: [
        { name: "add", arguments: { a: "x", b: 1 } },
        { name: "add", arguments: { a: 1, b: 1 } },
      ],
    },
    { content: "ok" },
  ];
  await withServer(script, async (_server, client) => {
    const result = await runTools(client, { model, messages: [{ role: "user", content: "x" }] }, mathRegistry(), {
      maxAttempts: 2,
    });
    assert.is(result.content, "ok");
    assert.equal(
      result.steps.map((s) => s.failures.length),
      [1, 1, 0],
    );
  });
});

test("jsonpatch: the model patches its failed call; the repaired call runs and answers the patch call", async () => {
  recorded.length = 0;
  const script: Script = [
    (request) => {
      assert.not.ok(offered(request).includes(PATCH_TOOL_NAME), "nothing to patch yet: the patch tool is not offered");
      return { tool_calls: [{ name: "record_people", arguments: INVALID }] };
    },
    (request) => {
      const [error] = toolResults(request);
      assert.match(error!.content, /invalid arguments for record_people/);
      assert.match(
        error!.content,
        /call patch_tool_arguments with tool_call_id "call_1" and JSON Patch operations on the arguments you sent\.$/,
      );
      const patchTool = request.tools?.find((t) => t.type === "function" && t.function.name === PATCH_TOOL_NAME);
      assert.ok(patchTool, "the patch tool is offered while call_1 can be patched");
      const parameters = (patchTool!.type === "function" ? patchTool!.function.parameters : {}) as {
        properties: { tool_call_id: { enum: string[] } };
      };
      assert.equal(parameters.properties.tool_call_id.enum, ["call_1"]);
      return {
        tool_calls: [{ name: PATCH_TOOL_NAME, arguments: { tool_call_id: "call_1", patch: FIX }, id: "call_patch" }],
      };
    },
    (request) => {
      const [result] = toolResults(request);
      assert.equal(
        [result!.tool_call_id, result!.content],
        ["call_patch", "Recorded 2 people: Ada Lovelace, Alan Turing."],
      );
      assert.not.ok(offered(request).includes(PATCH_TOOL_NAME), "nothing left to patch: the patch tool is gone");
      return { content: "Both recorded." };
    },
  ];
  await withServer(script, async (server, client) => {
    const result: RunToolsResult = await runTools(
      client,
      { model, messages: [{ role: "user", content: TEXT }] },
      registry(),
      { repair: "jsonpatch" },
    );
    assert.is(result.content, "Both recorded.");
    assert.equal(recorded, [VALID.people]);
    assert.is(server.requests.length, 3);
    const patchStep = result.steps[1]!;
    assert.equal(
      patchStep.results.map((r) => [r.tool_call_id, r.name, r.status]),
      [["call_patch", "record_people", "success"]],
    );
    assert.equal(patchStep.failures, []);
    // The transcript stays valid for OpenAI: the patch call is answered under its own id.
    const wire = JSON.parse(JSON.stringify(result.messages)) as { role: string; tool_call_id?: string }[];
    assert.equal(
      wire.map((m) => m.tool_call_id ?? m.role),
      ["user", "assistant", "call_1", "assistant", "call_patch", "assistant"],
    );
  });
});

test("jsonpatch: a patch that cannot apply changes nothing and counts as an attempt; a still-invalid repair can be patched again", async () => {
  recorded.length = 0;
  const script: Script = [
    { tool_calls: [{ name: "record_people", arguments: INVALID }] },
    // An operation on a path that does not exist: the whole patch is refused.
    {
      tool_calls: [
        {
          name: PATCH_TOOL_NAME,
          arguments: { tool_call_id: "call_1", patch: [FIX[0], { op: "replace", path: "/people/5/age", value: 1 }] },
        },
      ],
    },
    (request) => {
      const [error] = toolResults(request);
      assert.match(
        error!.content,
        /^Error: the JSON Patch for call call_1 \(record_people\) could not be applied, so nothing was changed:/,
      );
      assert.match(error!.content, /operation 1 \(replace \/people\/5\/age\): nothing at \/people\/5 in the arguments/);
      assert.match(error!.content, /on these arguments: \{"people":\[\{"name":"Ada Lovelace","age":"thirty-six"/);
      // Fix only the age: the repaired call is still invalid.
      return { tool_calls: [{ name: PATCH_TOOL_NAME, arguments: { tool_call_id: "call_1", patch: [FIX[0]] } }] };
    },
    (request) => {
      const [error] = toolResults(request);
      assert.is(error!.tool_call_id, "call_3");
      assert.match(error!.content, /invalid arguments for record_people/);
      assert.not.match(error!.content, /\/people\/0\/age/);
      assert.match(
        error!.content,
        /tool_call_id "call_3" and JSON Patch operations on these arguments: \{"people":\[\{"name":"Ada Lovelace","age":36,/,
      );
      const patchTool = request.tools?.find((t) => t.type === "function" && t.function.name === PATCH_TOOL_NAME);
      const ids = (
        (patchTool?.type === "function" ? patchTool.function.parameters : {}) as {
          properties: { tool_call_id: { enum: string[] } };
        }
      ).properties.tool_call_id.enum;
      assert.equal(ids, ["call_3"], "the repaired call replaces the original as the one to patch");
      return { tool_calls: [{ name: PATCH_TOOL_NAME, arguments: { tool_call_id: "call_3", patch: FIX.slice(1) } }] };
    },
    { content: "done" },
  ];
  await withServer(script, async (_server, client) => {
    const result = await runTools(client, { model, messages: [{ role: "user", content: TEXT }] }, registry(), {
      repair: "jsonpatch",
      maxAttempts: 4,
    });
    assert.is(result.content, "done");
    assert.equal(recorded, [VALID.people]);
    assert.equal(
      result.steps.map((s) => s.failures.map((f) => f.reason)),
      [["invalid_arguments"], ["invalid_patch"], ["invalid_arguments"], [], []],
    );
    const repaired = result.steps[2]!.failures[0]!;
    assert.equal(repaired.patch, [FIX[0]]);
    assert.is(JSON.parse(repaired.arguments).people[0].age, 36);
  });
  // With the default maxAttempts (3) the same script stops at the third failure in a row.
  recorded.length = 0;
  await withServer(script, async (_server, client) => {
    const error = await runTools(client, { model, messages: [{ role: "user", content: TEXT }] }, registry(), {
      repair: "jsonpatch",
    }).catch((e: unknown) => e);
    assert.instance(error, ToolRetryError);
    assert.equal(
      (error as ToolRetryError).attempts.map((a) => a.reason),
      ["invalid_arguments", "invalid_patch", "invalid_arguments"],
    );
    assert.equal(recorded, []);
  });
});

test("jsonpatch: untrusted operations: prototype paths, bad ops, unknown ids are refused with what is wrong", async () => {
  const hostile = [
    { tool_call_id: "call_1", patch: [{ op: "add", path: "/__proto__/polluted", value: true }] },
    { tool_call_id: "call_1", patch: [{ op: "add", path: "/people/0/constructor/prototype/polluted", value: true }] },
    { tool_call_id: "call_1", patch: [{ op: "copy", from: "/__proto__", path: "/x" }] },
    { tool_call_id: "call_1", patch: [{ op: "delete", path: "/people" }] },
    { tool_call_id: "call_1", patch: [{ op: "replace", path: "people/0/age", value: 1 }] },
    { tool_call_id: "call_1", patch: [{ op: "replace", path: "", value: {} }] },
    { tool_call_id: "call_1", patch: [{ op: "replace", path: "/people/0/age" }] },
    { tool_call_id: "call_1", patch: [] },
    { tool_call_id: "call_9", patch: FIX },
  ];
  const script: Script = [
    { tool_calls: [{ name: "record_people", arguments: INVALID }] },
    { tool_calls: hostile.map((args, i) => ({ name: PATCH_TOOL_NAME, arguments: args, id: `p${i}` })) },
    { content: "ok" },
  ];
  await withServer(script, async (server, client) => {
    const result = await runTools(client, { model, messages: [{ role: "user", content: TEXT }] }, registry(), {
      repair: "jsonpatch",
      maxAttempts: 20,
    });
    const contents = result.steps[1]!.results.map((r) => r.content);
    assert.match(contents[0]!, /\/patch\/0\/path: must not go through "__proto__"/);
    assert.match(contents[1]!, /must not go through "constructor"/);
    assert.match(contents[2]!, /\/patch\/0\/from: must not go through "__proto__"/);
    assert.match(
      contents[3]!,
      /\/patch\/0\/op: must be one of "add", "remove", "replace", "move", "copy", "test"; got "delete"/,
    );
    assert.match(contents[4]!, /must start with "\/"/);
    assert.match(contents[5]!, /must point inside the arguments object/);
    assert.match(contents[6]!, /"replace" needs a "value"/);
    assert.match(contents[7]!, /\/patch: must hold at least one operation/);
    assert.match(
      contents[8]!,
      /no failed call with id "call_9" to repair\. Calls you can repair: call_1 \(record_people\)\./,
    );
    assert.ok(result.steps[1]!.results.every((r) => r.status === "error"));
    assert.is(({} as Record<string, unknown>).polluted, undefined);
    assert.is(Object.hasOwn(Object.prototype, "polluted"), false);
    // Every patch call was answered under its own id.
    assert.equal(
      toolResults(server.requests[2]!).map((r) => r.tool_call_id),
      hostile.map((_, i) => `p${i}`),
    );
  });
});

test("jsonpatch: paths into built-ins are nothing there; the process's built-ins are unchanged and later patches work", async () => {
  recorded.length = 0;
  const builtIns = [Object.prototype.toString, Array.prototype.slice, Object.prototype.hasOwnProperty];
  const hostile = [
    { tool_call_id: "call_1", patch: [{ op: "add", path: "/toString/call", value: 0 }] },
    { tool_call_id: "call_1", patch: [{ op: "add", path: "/people/slice/call", value: 0 }] },
    { tool_call_id: "call_1", patch: [{ op: "add", path: "/hasOwnProperty/call", value: 0 }] },
  ];
  const script: Script = [
    { tool_calls: [{ name: "record_people", arguments: INVALID }] },
    { tool_calls: hostile.map((args, i) => ({ name: PATCH_TOOL_NAME, arguments: args, id: `p${i}` })) },
    { tool_calls: [{ name: PATCH_TOOL_NAME, arguments: { tool_call_id: "call_1", patch: FIX }, id: "fix" }] },
    { content: "ok" },
  ];
  await withServer(script, async (_server, client) => {
    const result = await runTools(client, { model, messages: [{ role: "user", content: TEXT }] }, registry(), {
      repair: "jsonpatch",
      maxAttempts: 20,
    });
    const contents = result.steps[1]!.results.map((r) => r.content);
    assert.match(contents[0]!, /operation 0 \(add \/toString\/call\): nothing at \/toString in the arguments/);
    assert.match(contents[1]!, /nothing at \/people\/slice in the arguments/);
    assert.match(contents[2]!, /nothing at \/hasOwnProperty in the arguments/);
    assert.equal([Object.prototype.toString, Array.prototype.slice, Object.prototype.hasOwnProperty], builtIns);
    assert.is(Object.prototype.toString.call([]), "[object Array]");
    assert.is(result.content, "ok");
    assert.equal(recorded, [VALID.people], "a later patch still applies");
  });
});

test("jsonpatch: a 1.3 KB patch that doubles the arguments is refused at the tool's byte limit, with nothing run", async () => {
  recorded.length = 0;
  const bomb = [
    { op: "add", path: "/x", value: [0] },
    ...Array.from({ length: 31 }, () => ({ op: "copy", from: "/x", path: "/x/-" })),
  ];
  const script: Script = [
    { tool_calls: [{ name: "record_people", arguments: INVALID }] },
    { tool_calls: [{ name: PATCH_TOOL_NAME, arguments: { tool_call_id: "call_1", patch: bomb } }] },
    (request) => ({ content: toolResults(request)[0]!.content }),
  ];
  await withServer(script, async (_server, client) => {
    const heap = process.memoryUsage().heapUsed;
    const result = await runTools(client, { model, messages: [{ role: "user", content: TEXT }] }, registry(), {
      repair: "jsonpatch",
    });
    assert.match(
      result.content!,
      /could not be applied, so nothing was changed:\n- operation \d+ \(copy \/x\/-\): (the patched arguments would be larger than the limit of 1048576 bytes|the patch walks more than 2097152 bytes of values)/,
    );
    // A loose bound against the blow-up (2^31 items), not a measure: the limit is 1 MiB of JSON.
    assert.ok(process.memoryUsage().heapUsed - heap < 200 * 1024 * 1024);
    assert.equal(recorded, []);
  });
});

test("jsonpatch: a patch of a tool prepareStep took out of the step is refused, never run; the patch tool is not offered for it", async () => {
  recorded.length = 0;
  const script: Script = [
    { tool_calls: [{ name: "record_people", arguments: INVALID }] },
    (request) => {
      assert.equal(
        offered(request).sort(),
        ["add", "multiply"],
        "no patch tool: the failed call's tool is not offered",
      );
      return {
        tool_calls: [
          { name: PATCH_TOOL_NAME, arguments: { tool_call_id: "call_1", patch: FIX } },
          { name: "record_people", arguments: VALID },
        ],
      };
    },
    (request) => ({
      content: toolResults(request)
        .map((r) => r.content)
        .join("\n"),
    }),
  ];
  await withServer(script, async (_server, client) => {
    const prepareStep = ({ stepNumber }: { stepNumber: number }) =>
      stepNumber === 1 ? {} : { activeTools: ["add", "multiply"] };
    const result = await runTools(
      client,
      { model, messages: [{ role: "user", content: TEXT }] },
      new ToolRegistry([recordPeople, add, multiply]),
      { repair: "jsonpatch", prepareStep, maxAttempts: 5 },
    );
    assert.equal(result.content!.split("\n"), [
      'Error: there is no failed call with id "call_1" to repair. No call is waiting for a repair: call the tool itself instead.',
      "Error: record_people is not available in this step. Available tools: add, multiply.",
    ]);
    assert.equal(recorded, [], "neither the patch nor the direct call ran record_people");
  });
});

test("jsonpatch off: a model calling patch_tool_arguments gets the unknown-tool error", async () => {
  const script: Script = [
    { tool_calls: [{ name: PATCH_TOOL_NAME, arguments: { tool_call_id: "x", patch: FIX } }] },
    (request) => ({ content: toolResults(request)[0]!.content }),
  ];
  await withServer(script, async (_server, client) => {
    const result = await runTools(client, { model, messages: [{ role: "user", content: "x" }] }, registry());
    assert.is(result.content, 'Error: "patch_tool_arguments" is not a valid tool. Valid tools: record_people.');
  });
});

test.run();
