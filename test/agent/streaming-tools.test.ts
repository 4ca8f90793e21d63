/**
 * Tools that stream in the agent loop: a streamed `runTools` run (the OpenAI SDK against the scripted server)
 * reports each value a streaming tool yields as a `tool_progress` event of its step and call, before that call's
 * `tool_result`; the model gets the value the generator returned. A `ToolContext.progress` report is an event too
 * (without a value), and the caller's own `onProgress` still hears every report.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import OpenAI from "openai";
import { type ToolContext, ToolRegistry, tool } from "tooltype";
import { type RunToolsEvent, runTools } from "tooltype/loop";
import { startScriptedServer, toolResults, type Script, type ToolResult } from "../scripted-openai/server";

/**
 * Download files one by one.
 * @param files How many files
 */
const download = tool(async function* download(files: number): AsyncGenerator<{ file: number; of: number }, string> {
  for (let file = 1; file <= files; file++) yield { file, of: files };
  return `downloaded ${files} files`;
});

/**
 * Index the downloads.
 * @param name Index name
 */
const indexFiles = tool(async function index_files(name: string, ctx: ToolContext): Promise<string> {
  ctx.progress(50, 100, "half");
  return `indexed ${name}`;
});

/** The function name of a Chat Completions call (its custom-tool calls have none). */
const nameOf = (call: unknown): string | undefined => (call as { function?: { name: string } }).function?.name;

test("a streamed run reports each yield as tool_progress before the call's tool_result; the model reads the returned value", async () => {
  let seen: ToolResult[] = [];
  const script: Script = [
    {
      tool_calls: [
        { name: "download", arguments: { files: 3 } },
        { name: "index_files", arguments: { name: "main" } },
      ],
    },
    (request) => {
      seen = toolResults(request);
      return { content: "All done." };
    },
  ];
  const server = await startScriptedServer(script, { fragmentSize: 5 });
  try {
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: "test", maxRetries: 0 });
    const heard: unknown[] = [];
    const run = runTools(
      client,
      { model: "scripted", messages: [{ role: "user", content: "fetch" }] },
      new ToolRegistry([download, indexFiles]),
      {
        stream: true,
        dispatch: { onProgress: (update) => heard.push(update.progress) },
      },
    );
    const events: RunToolsEvent[] = [];
    for await (const event of run) events.push(event);
    const result = await run.finalResult();
    assert.is(result.content, "All done.");
    assert.equal(
      seen.map((r) => r.content),
      ["downloaded 3 files", "indexed main"],
    );

    const progress = events.filter(
      (e): e is Extract<RunToolsEvent, { type: "tool_progress" }> => e.type === "tool_progress",
    );
    const ofDownload = progress.filter((e) => nameOf(e.call) === "download");
    assert.equal(
      ofDownload.map((e) => [e.step, e.progress, e.value]),
      [
        [1, { progress: 1 }, { file: 1, of: 3 }],
        [1, { progress: 2 }, { file: 2, of: 3 }],
        [1, { progress: 3 }, { file: 3, of: 3 }],
      ],
    );
    const ofIndex = progress.filter((e) => nameOf(e.call) === "index_files");
    assert.equal(
      ofIndex.map((e) => [e.progress, "value" in e]),
      [[{ progress: 50, total: 100, message: "half" }, false]],
    );
    // Every report comes before its call's answer.
    for (const event of progress) {
      const answered = events.findIndex((e) => e.type === "tool_result" && e.call.id === event.call.id);
      assert.ok(answered > events.indexOf(event), `progress of ${nameOf(event.call)} after its tool_result`);
    }
    assert.equal(
      [...heard].sort((a, b) => Number(a) - Number(b)),
      [1, 2, 3, 50],
    );
  } finally {
    await server.close();
  }
});

/**
 * Deploy a service, after a human's approval.
 * @param service Which service
 */
const deploy = tool(
  async function* deploy(service: string): AsyncGenerator<string, string> {
    yield `building ${service}`;
    yield `rolling out ${service}`;
    return `deployed ${service}`;
  },
  { needsApproval: true },
);

test("a streamed run resumed after approval reports the resumed calls' progress as events of the paused step", async () => {
  let seen: ToolResult[] = [];
  const server = await startScriptedServer([
    { tool_calls: [{ name: "deploy", arguments: { service: "api" } }] },
    (request) => {
      seen = toolResults(request);
      return { content: "Deployed." };
    },
  ]);
  try {
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: "test", maxRetries: 0 });
    const params = { model: "scripted", messages: [{ role: "user" as const, content: "ship it" }] };
    const paused = await runTools(client, params, new ToolRegistry([deploy]));
    assert.is(paused.finishReason, "paused");
    const state = JSON.parse(JSON.stringify(paused.paused!.state));
    const run = runTools(client, params, new ToolRegistry([deploy]), {
      stream: true,
      resume: { state, decisions: [{ id: paused.paused!.pending[0]!.id, approved: true }] },
    });
    const progress: [number, unknown][] = [];
    for await (const event of run) if (event.type === "tool_progress") progress.push([event.step, event.value]);
    assert.is((await run.finalResult()).content, "Deployed.");
    assert.equal(progress, [
      [1, "building api"],
      [1, "rolling out api"],
    ]);
    assert.equal(
      seen.map((r) => r.content),
      ["deployed api"],
    );
  } finally {
    await server.close();
  }
});

test("without stream the run gives the same answers (no events to report)", async () => {
  const server = await startScriptedServer([
    { tool_calls: [{ name: "download", arguments: { files: 2 } }] },
    { content: "ok" },
  ]);
  try {
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: "test", maxRetries: 0 });
    const result = await runTools(
      client,
      { model: "scripted", messages: [{ role: "user", content: "fetch" }] },
      new ToolRegistry([download]),
    );
    assert.is(result.steps[0]!.results[0]!.content, "downloaded 2 files");
  } finally {
    await server.close();
  }
});

test.run();
