/**
 * Hostile input: the longest the event loop is blocked while tooltype answers each payload of the security review
 * (hostile input, round two), each the largest the default limits let through.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { type CompiledToolMeta, type JsonSchema, type Pattern, ToolRegistry, type UniqueItems, tool } from "tooltype";
import { type MCPClient, fromMCP, mcpFetchHandler } from "tooltype/mcp";

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

function handWritten(name: string, parameters: JsonSchema): ReturnType<typeof tool> {
  const meta: CompiledToolMeta = { v: 1, name, description: "A schema given at run time.", parameters, params: ["value"] };
  return tool((value: unknown) => String(value).length, undefined, meta);
}

function chat(name: string, args: string): object {
  return { role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name, arguments: args } }] };
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
  for (let i = levels - 1; i >= 0; i--) defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
  return { type: "object", properties: { v: { $ref: "#/$defs/d0" } }, $defs: defs };
}

/** The cases: each a function that answers one hostile request or call. */
function cases(): [string, () => Promise<unknown>][] {
  const registry = new ToolRegistry([checkCode, tagThing, countFolders, takeRecord, failLong]);
  const runtime = new ToolRegistry([
    handWritten("backtracks", { type: "object", properties: { value: { type: "string", pattern: "^(a?a?)+$" } }, required: ["value"] }),
    handWritten("union", { type: "object", properties: { value: { anyOf: [{ type: "string", pattern: "^(a+)+$" }, { type: "integer" }] } }, required: ["value"] }),
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
  };
  return [
    ["pattern ^(?:[ab]?b?){16}$, 500,000 characters (generated validator)", () => registry.dispatch(chat("check_code", payload.codes))],
    ["pattern ^(a?a?)+$, 500,000 characters (ajv, run-time schema)", () => runtime.dispatch(chat("backtracks", payload.backtracks))],
    ["pattern in a union, 500,000 digits (coercion's branch test)", () => registry.dispatch(chat("tag_thing", payload.digits))],
    ["anyOf with ^(a+)+$, 500,000 characters (ajv and coercion)", () => runtime.dispatch(chat("union", payload.backtracks))],
    ["a fence and 1 MiB of spaces (repair)", () => registry.dispatch(chat("take_record", payload.fence))],
    ["1 MiB of [ (nesting)", () => registry.dispatch(chat("take_record", payload.brackets))],
    ["1,990 unknown keys of 500 characters (the error text)", () => registry.dispatch(chat("take_record", payload.unknownKeys))],
    ["UniqueItems at every level of a 21,000-node tree", () => registry.dispatch(chat("count_folders", payload.tree))],
    ["a 1 MiB error message (redaction)", () => registry.dispatch(chat("fail_long", payload.failure))],
    ["MCP over HTTP: a 2 MB body nested a million deep", () => mcp(new Request("http://localhost/mcp", { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: deepBody }))],
    ["fromMCP: a schema of 40 nested anyOf references", () => fromMCP(hostileServer)],
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
