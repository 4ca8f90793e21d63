/**
 * Hostile input: the longest the event loop is blocked while tooltype answers each payload of the security review
 * (hostile input, round two), each the largest the default limits let through.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import OpenAI from "openai";
import { type CompiledToolMeta, type JsonSchema, type Pattern, ToolRegistry, type UniqueItems, tool } from "tooltype";
import { PATCH_TOOL_NAME, runTools } from "tooltype/loop";
import { type MCPClient, fromMCP, mcpFetchHandler } from "tooltype/mcp";
import { LocalToolSearch, SEARCH_TOOL_NAME } from "../runtime/agent/tool-search";
import type { ToolFormatSource } from "../runtime/providers/provider";
import { type Script, startScriptedServer } from "../test/scripted-openai/server";

export interface HostileCase {
  name: string;
  /** The longest block of the event loop in any run, ms. */
  worstMs: number;
  /** Wall time of the slowest run, ms. */
  totalMs: number;
}

/**
 * Check a code.
 * @param code The code
 */
const checkCode = tool(function check_code(code: string & Pattern<"^(?:[ab]?b?){16}$">) {
  return code.length;
});

/**
 * Tag a thing.
 * @param tag A tag
 */
const tagThing = tool(function tag_thing(tag: (string & Pattern<"^\\d*\\d*\\d*x$">) | boolean) {
  return String(tag).length;
});

interface Folder {
  name: string;
  children: Folder[] & UniqueItems;
}

/**
 * Count folders.
 * @param root The top folder
 */
const countFolders = tool(function count_folders(root: Folder) {
  return root.name;
});

/**
 * Take a record.
 * @param record The record
 */
const takeRecord = tool(function take_record(record: { id: string }) {
  return record.id;
});

/**
 * Fail with a long message.
 * @param size Characters of the message
 */
const failLong = tool(function fail_long(size: number) {
  throw new Error(`${"password=p@ss,word;1 -----BEGIN RSA PRIVATE KEY----- a-".repeat(Math.ceil(size / 60))}`);
});

/**
 * Tag a thing with several tags.
 * @param tags The tags
 */
const tagMany = tool(function tag_many(tags: string[]) {
  return tags.length;
});

/**
 * Keep a note.
 * @param note The note
 */
const keepNote = tool(function keep_note(note: { a: number[] }) {
  return note.a.length;
});

/**
 * Move money (needs a human's approval before it runs).
 * @param to Who receives it
 * @param amount How much
 */
const transfer = tool(
  function transfer(to: string, amount: number) {
    return `sent ${amount} to ${to}`;
  },
  { needsApproval: true },
);

function handWritten(name: string, parameters: JsonSchema): ReturnType<typeof tool> {
  const meta: CompiledToolMeta = {
    v: 1,
    name,
    description: "A schema given at run time.",
    parameters,
    params: ["value"],
  };
  return tool((value: unknown) => String(value).length, undefined, meta);
}

function chat(name: string, args: string): object {
  return {
    role: "assistant",
    content: null,
    tool_calls: [{ id: "c", type: "function", function: { name, arguments: args } }],
  };
}

function folderTree(): Folder {
  let node: Folder = { name: "bottom", children: [] as unknown as Folder["children"] };
  for (let level = 0; level < 30; level++) {
    const leaves = Array.from({ length: 700 }, (_, i) => ({ name: `leaf ${level}.${i}`, children: [] }));
    node = { name: `level ${level}`, children: [node, ...leaves] as unknown as Folder["children"] };
  }
  return node;
}

function exponentialSchema(levels: number): Record<string, unknown> {
  const defs: Record<string, unknown> = { [`d${levels}`]: { type: "string" } };
  for (let i = levels - 1; i >= 0; i--)
    defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
  return { type: "object", properties: { v: { $ref: "#/$defs/d0" } }, $defs: defs };
}

/** The JSON Patch bomb: each copy doubles /x, 2^31 elements if nothing stopped it (1.3 KB of patch). */
function patchBomb(): object[] {
  return [
    { op: "add", path: "/x", value: [0] },
    ...Array.from({ length: 31 }, () => ({ op: "copy", from: "/x", path: "/x/-" })),
  ];
}

/**
 * A `runTools` run in JSON Patch mode against the scripted model on 127.0.0.1: an invalid call, then the patch bomb
 * on it, then an answer. The scripted server runs in this process, so its (small) work counts in the block too.
 */
async function patchBombRun(registry: ToolRegistry): Promise<unknown> {
  const script: Script = [
    { tool_calls: [{ name: "take_record", arguments: { record: 5 } }] },
    {
      tool_calls: [
        { name: PATCH_TOOL_NAME, arguments: { tool_call_id: "call_1", patch: patchBomb() }, id: "call_patch" },
      ],
    },
    { content: "done" },
  ];
  const server = await startScriptedServer(script);
  try {
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: "bench", maxRetries: 0 });
    const result = await runTools(
      client,
      { model: "scripted-hostile", messages: [{ role: "user", content: "go" }] },
      registry,
      { repair: "jsonpatch" },
    );
    const answered = result.steps[1]?.results.map((r) => r.content).join("\n") ?? "";
    if (!/too large|larger than|bytes/i.test(answered))
      throw new Error(`the patch bomb was not refused for its size: ${answered.slice(0, 300)}`);
    return result;
  } finally {
    await server.close();
  }
}

/** The answer to the made-up seal, checked: the bench times the refusal, not some earlier error. */
async function sealRefused(answer: Promise<Response>): Promise<string> {
  const text = await (await answer).text();
  if (!/seal does not match/.test(text))
    throw new Error(`the made-up seal was not refused by the seal: ${text.slice(0, 300)}`);
  return text;
}

/** 200 deferred tools for the local tool search, each with a few words of its own. */
function deferredTools(): ToolFormatSource[] {
  return Array.from({ length: 200 }, (_, i) => ({
    name: `tool_${i}`,
    description: `Handle task ${i}: look up record ${i} in ledger ${i % 17} and report its status.`,
    parameters: {
      type: "object",
      properties: { id: { type: "string", description: `Identifier ${i}` } },
      required: ["id"],
    },
    options: { deferred: true },
  }));
}

/** About 1 MB of distinct words. */
function longQuery(): string {
  const words: string[] = [];
  let length = 0;
  for (let i = 0; length < 1_000_000; i++) {
    const word = `word${i.toString(36)}`;
    words.push(word);
    length += word.length + 1;
  }
  return words.join(" ");
}

/** The cases: each a function that answers one hostile request or call. */
function cases(): [string, () => Promise<unknown>][] {
  const registry = new ToolRegistry([checkCode, tagThing, countFolders, takeRecord, failLong, tagMany, keepNote]);
  const approvals = mcpFetchHandler(new ToolRegistry([transfer]), { allowedHosts: "any" });
  const search = new LocalToolSearch();
  search.offer(deferredTools());
  const runtime = new ToolRegistry([
    handWritten("backtracks", {
      type: "object",
      properties: { value: { type: "string", pattern: "^(a?a?)+$" } },
      required: ["value"],
    }),
    handWritten("union", {
      type: "object",
      properties: { value: { anyOf: [{ type: "string", pattern: "^(a+)+$" }, { type: "integer" }] } },
      required: ["value"],
    }),
  ]);
  const unknownKeys: Record<string, string> = { id: "x" };
  for (let i = 0; i < 1_990; i++) unknownKeys[`k${i}_${"k".repeat(490)}`] = "v";
  const mcp = mcpFetchHandler(registry, { allowedHosts: "any" });
  const deepBody = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"take_record","arguments":${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}}}`;
  const hostileServer: MCPClient = {
    transport: {},
    getServerVersion: () => ({ name: "hostile" }),
    listTools: async () => ({ tools: [{ name: "expands", inputSchema: exponentialSchema(40) as { type: "object" } }] }),
    callTool: async () => ({ content: [] }),
    close: async () => undefined,
  };
  // Each payload is written before it is timed: only tooltype's answer counts, not the bench's making of it.
  const payload = {
    codes: JSON.stringify({ code: `${"b".repeat(500_000)}c` }),
    backtracks: JSON.stringify({ value: `${"a".repeat(500_000)}!` }),
    digits: JSON.stringify({ tag: "1".repeat(500_000) }),
    fence: `\`\`\`json${" ".repeat(1_000_000)}`,
    brackets: "[".repeat(1_000_000),
    unknownKeys: JSON.stringify({ record: unknownKeys }),
    tree: JSON.stringify({ root: folderTree() }),
    failure: JSON.stringify({ size: 1_000_000 }),
    tagsInString: JSON.stringify({ tags: "[".repeat(500_000) }),
    noteInString: JSON.stringify({ note: `{"a":${"[".repeat(500_000)}` }),
    // A million levels of nesting under a made-up seal (base64url text, ".", 64 hex digits), for a tool that needs
    // approval.
    sealedState: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "transfer",
        arguments: { to: "bob", amount: 5 },
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
        },
        requestState: `${Buffer.from("[".repeat(1_000_000)).toString("base64url")}.${"0".repeat(64)}`,
        inputResponses: { approval: { action: "accept", content: { approve: true } } },
      },
    }),
    query: longQuery(),
  };
  const queryText = JSON.stringify({ query: payload.query });
  const mcpHeaders = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call",
    "mcp-name": "transfer",
  };
  return [
    [
      "pattern ^(?:[ab]?b?){16}$, 500,000 characters (generated validator)",
      () => registry.dispatch(chat("check_code", payload.codes)),
    ],
    [
      "pattern ^(a?a?)+$, 500,000 characters (ajv, run-time schema)",
      () => runtime.dispatch(chat("backtracks", payload.backtracks)),
    ],
    [
      "pattern in a union, 500,000 digits (coercion's branch test)",
      () => registry.dispatch(chat("tag_thing", payload.digits)),
    ],
    [
      "anyOf with ^(a+)+$, 500,000 characters (ajv and coercion)",
      () => runtime.dispatch(chat("union", payload.backtracks)),
    ],
    ["a fence and 1 MiB of spaces (repair)", () => registry.dispatch(chat("take_record", payload.fence))],
    ["1 MiB of [ (nesting)", () => registry.dispatch(chat("take_record", payload.brackets))],
    [
      "1,990 unknown keys of 500 characters (the error text)",
      () => registry.dispatch(chat("take_record", payload.unknownKeys)),
    ],
    ["UniqueItems at every level of a 21,000-node tree", () => registry.dispatch(chat("count_folders", payload.tree))],
    ["a 1 MiB error message (redaction)", () => registry.dispatch(chat("fail_long", payload.failure))],
    [
      "MCP over HTTP: a 2 MB body nested a million deep",
      () =>
        mcp(
          new Request("http://localhost/mcp", {
            method: "POST",
            headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
            body: deepBody,
          }),
        ),
    ],
    ["fromMCP: a schema of 40 nested anyOf references", () => fromMCP(hostileServer)],
    [
      "JSON Patch bomb: add then 31 copies of /x into itself (runTools, repair: jsonpatch)",
      () => patchBombRun(registry),
    ],
    [
      "an array parameter given a string of 500,000 [ (coercion)",
      () => registry.dispatch(chat("tag_many", payload.tagsInString)),
    ],
    [
      'an object parameter given a string of {"a": and 500,000 [ (coercion)',
      () => registry.dispatch(chat("keep_note", payload.noteInString)),
    ],
    [
      "MCP approval: a requestState of a million [ under a made-up seal",
      () =>
        sealRefused(
          approvals(
            new Request("http://localhost/mcp", { method: "POST", headers: mcpHeaders, body: payload.sealedState }),
          ),
        ),
    ],
    [
      "tool search: a 1 MB query of distinct words over 200 deferred tools",
      async () => search.answer({ kind: "args", id: "s", name: SEARCH_TOOL_NAME, args: { query: payload.query } }),
    ],
    [
      "tool search: the 1 MB query as JSON text",
      async () => search.answer({ kind: "text", id: "s", name: SEARCH_TOOL_NAME, text: queryText }),
    ],
  ];
}

/**
 * Each case `runs` times: the worst block of the event loop and the slowest wall time.
 * (hostile input, round two), each the largest the default limits let through. The target: no single request or
 * call blocks the loop for more than 100 ms. Measured with `monitorEventLoopDelay` at 1 ms resolution around each
 * case, run several times; the worst run counts.
 */
export async function benchHostile(runs: number): Promise<HostileCase[]> {
  const out: HostileCase[] = [];
  for (const [name, run] of cases()) {
    let worstMs = 0;
    let totalMs = 0;
    for (let i = 0; i < runs; i++) {
      (globalThis as { gc?: () => void }).gc?.();
      const histogram = monitorEventLoopDelay({ resolution: 1 });
      histogram.enable();
      // A turn first: the histogram's timer must be running before the work starts, or a block is not sampled.
      await new Promise((resolve) => setTimeout(resolve, 5));
      const started = performance.now();
      await run();
      // One more turn, so that a block at the very end is sampled too.
      await new Promise((resolve) => setTimeout(resolve, 5));
      totalMs = Math.max(totalMs, performance.now() - started);
      histogram.disable();
      worstMs = Math.max(worstMs, histogram.max / 1e6);
    }
    out.push({ name, worstMs, totalMs });
  }
  return out;
}
