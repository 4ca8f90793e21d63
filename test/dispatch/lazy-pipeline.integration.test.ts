/**
 * The continuations of the dispatch pipeline's stages (runtime/dispatch/continuations.ts, "the later stages" below)
 * are loaded on first need; the stages' fast forms (pipeline.ts), which every call goes through, answer plain calls
 * without them.
 *
 * - An app of compiled tools written against `tooltype/openai`, compiled with tspc and the plugin and bundled by
 *   esbuild (code splitting on): the part the app loads on start (entry and static chunks, from esbuild's metafile)
 *   holds the pipeline's first stages and none of its later stages' modules, which sit in a chunk of their own. Run
 *   alone, the bundle answers a plain call, an async tool that rejects at once while the chunk loads, then a batch
 *   whose calls need the later stages from the second on (an invalid call, a ToolError, an
 *   Error with a secret to redact, an async tool, an unknown tool), then approval (a plain dispatch refused, a
 *   paused batch, its resumption): its answers must equal the same app's under Node, where the CommonJS build
 *   requires the later stages on the spot.
 * - Under Node the same app loads none of the later stages at start nor for the plain call; the first call that
 *   needs one loads them.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

import { bundleEsmApp, staticOutputs } from "../../bench/bundle";
import { runChild } from "../../bench/harness";

const APP = `import { ApprovalRequiredError, ToolError, ToolRegistry, tool } from "tooltype/openai";

/**
 * Repeat a word.
 * @param word The word
 * @param times How often
 */
export const repeat = tool(function repeat(word: string, times: number): string {
  return word.repeat(times);
});

/**
 * Fails on purpose.
 * @param how How
 */
export const fail = tool(function fail(how: "tool" | "error"): string {
  if (how === "tool") throw new ToolError("the order is closed");
  throw new Error("connect failed for /home/alice/app/config.json with password=hunter2");
});

/**
 * Answers later.
 * @param ms Delay
 */
export const later = tool(async function later(ms: number): Promise<{ waited: number }> {
  if (ms < 0) throw new Error("a delay cannot be negative");
  await new Promise((resolve) => setTimeout(resolve, ms));
  return { waited: ms };
});

/**
 * Deletes a file.
 * @param file The file
 */
export const remove = tool(function remove(file: string): string {
  return "removed " + file;
}, { needsApproval: true });

const registry = new ToolRegistry([repeat, fail, later, remove]);
const call = (id: string, name: string, args: unknown) => ({ id, type: "function" as const, function: { name, arguments: typeof args === "string" ? args : JSON.stringify(args) } });
const reply = (...calls: ReturnType<typeof call>[]) => ({ role: "assistant" as const, content: null, tool_calls: calls });
const shown = (messages: { toJSON(): unknown; status: string; name: string }[]) => messages.map((m) => ({ ...(m.toJSON() as object), name: m.name, status: m.status }));

// Under Node (not bundled), how many of the pipeline's later stages' CommonJS modules are loaded; a bundle has none to
// count.
const { createRequire } = await import("node:module");
const cache = createRequire(import.meta.url).cache;
const fullLoaded = () => Object.keys(cache).filter((file) => /dist[\\/]runtime[\\/]dispatch[\\/](continuations|batch|continue-call|approval|error-text).js$/.test(file)).length;
const atStart = fullLoaded();
const plain = shown(await registry.dispatch(reply(call("a", "repeat", { word: "ab", times: 2 }))));
const afterPlain = fullLoaded();
// The first call to need a later stage: a promise that rejects at once, while a bundle still loads them.
const rejecting = shown(await registry.dispatch(reply(call("m", "later", { ms: -1 }))));
const mixed = shown(
  await registry.dispatch(
    reply(
      call("b", "repeat", { word: "x", times: 3 }),
      call("c", "repeat", { word: "x", times: "many" }),
      call("d", "fail", { how: "tool" }),
      call("e", "fail", { how: "error" }),
      call("f", "later", { ms: 2 }),
      call("g", "nope", {}),
      call("h", "repeat", "{word: 'y', times: 2}"),
    ),
  ),
);
let refused: unknown;
try {
  await registry.dispatch(reply(call("i", "repeat", { word: "z", times: 1 }), call("j", "remove", { file: "a.txt" })));
} catch (error) {
  refused = { approvalError: error instanceof ApprovalRequiredError, message: (error as Error).message };
}
const paused = await registry.dispatchWithApproval(reply(call("k", "remove", { file: "b.txt" }), call("l", "repeat", { word: "w", times: 2 })));
const resumed = paused.status === "paused" ? await registry.resume(JSON.parse(JSON.stringify(paused.state)), [{ id: "k", approved: false, reason: "not today" }]) : undefined;
process.stdout.write(JSON.stringify({ loaded: [atStart, afterPlain, fullLoaded()], plain, rejecting, mixed, refused, paused: paused.status === "paused" ? paused.pending : paused.status, resumed: resumed && shown(resumed.results) }));
`;

/** The modules of the pipeline's later stages (the ES module build): none of them may be part of the app's start. */
const FULL_PIPELINE =
  /dist\/esm\/runtime\/dispatch\/(continuations|continue-call|batch|approval|approve|invoke|dispatch-run|call-state|unfound|read-in-full|run-guarded|result-message|error-text|result-json|middleware|hooks|limit-errors)\.js$/;

interface Report {
  /** Under Node: the later stages' modules loaded at start, after the plain call, at the end. */
  loaded: number[];
  plain: { content: string; status: string }[];
  rejecting: { content: string; status: string }[];
  mixed: { tool_call_id: string; content: string; status: string }[];
  refused: { approvalError: boolean; message: string };
  paused: { id: string; name: string }[];
  resumed: { tool_call_id: string; content: string; status: string }[];
}

test("a bundled tooltype/openai app keeps the pipeline's later stages out of its start, loads them on first need, and answers as under Node", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-lazy-pipeline-"));
  try {
    const bundle = await bundleEsmApp(path.join(dir, "app"), APP, ["node"]);
    const atStart = staticOutputs(bundle);
    const startInputs = atStart
      .flatMap((file) => Object.keys(bundle.outputs[file]!.inputs))
      .map((file) => path.resolve(file));
    assert.ok(
      startInputs.some((file) => file.endsWith("dist/esm/runtime/dispatch/pipeline.js")),
      `the pipeline's first stages are not part of the app's start: ${startInputs.join(", ")}`,
    );
    assert.equal(
      startInputs.filter((file) => FULL_PIPELINE.test(file)),
      [],
      "the app's start holds modules of the pipeline's later stages",
    );
    const later = Object.keys(bundle.outputs).filter((file) => !atStart.includes(file));
    const chunk = later.find((file) =>
      Object.keys(bundle.outputs[file]!.inputs).some((input) =>
        input.endsWith("dist/esm/runtime/dispatch/continue-call.js"),
      ),
    );
    assert.ok(chunk, "no chunk loaded on need holds the pipeline's later stages");

    // The bundle away from any node_modules, and the same compiled app under Node (CommonJS build, loaded on the spot).
    const alone = path.join(dir, "alone");
    fs.cpSync(bundle.outdir, alone, { recursive: true });
    const runNode = (file: string): Report =>
      JSON.parse(runChild(process.execPath, [file], { cwd: dir, timeoutMs: 30_000 }).stdout) as Report;
    const bundled = runNode(path.join(alone, path.basename(bundle.entry)));
    const underNode = runNode(path.join(dir, "app", "out", "app.js"));
    assert.equal(underNode.loaded, [0, 0, 5], "under Node the later stages load with the first call that needs one");
    assert.equal(bundled.loaded, [0, 0, 0]);
    assert.equal(
      { ...bundled, loaded: [] },
      { ...underNode, loaded: [] },
      "the bundle answers as the app does under Node",
    );

    assert.equal(bundled.plain, [
      { role: "tool", tool_call_id: "a", content: "abab", name: "repeat", status: "success" },
    ]);
    assert.equal(
      bundled.rejecting.map((m) => [m.status, m.content]),
      [["error", "Error: a delay cannot be negative"]],
    );
    assert.equal(
      bundled.mixed.map((m) => [m.tool_call_id, m.status]),
      [
        ["b", "success"],
        ["c", "error"],
        ["d", "error"],
        ["e", "error"],
        ["f", "success"],
        ["g", "error"],
        ["h", "success"],
      ],
    );
    assert.is(bundled.mixed[0]!.content, "xxx");
    assert.match(bundled.mixed[1]!.content, /times/);
    assert.is(bundled.mixed[2]!.content, "the order is closed");
    assert.not.match(bundled.mixed[3]!.content, /hunter2|alice/);
    assert.is(bundled.mixed[4]!.content, '{"waited":2}');
    assert.match(bundled.mixed[5]!.content, /"nope" is not a valid tool/);
    assert.is(bundled.mixed[6]!.content, "yy");
    assert.is(bundled.refused.approvalError, true);
    assert.equal(
      bundled.paused.map((entry) => [entry.id, entry.name]),
      [["k", "remove"]],
    );
    assert.equal(
      bundled.resumed.map((m) => [m.tool_call_id, m.status]),
      [
        ["k", "error"],
        ["l", "success"],
      ],
    );
    assert.match(bundled.resumed[0]!.content, /rejected.*not today/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
