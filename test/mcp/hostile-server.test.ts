/**
 * A malicious MCP server cannot hang or exhaust a client that imports its tools (hostile input, round two, item 6):
 * endless or looping `tools/list` pages are refused within `connectTimeoutMs` and `maxTools`; a tool whose schema is
 * nested 10,000 deep, has 5,000 properties, loops through `$ref`s, expands exponentially through nested `anyOf`
 * references or points outside itself is left out with a sentence naming the server and the tool, and the server's
 * other tools import and export as usual. The server is an in-process client double, so each behaviour is exact.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ToolRegistry } from "tooltype";
import { type MCPClient, type MCPListedTool, fromMCP } from "tooltype/mcp";

/** A connected client whose server lists what `pages` gives, page by page. */
function serverOf(
  pages: (
    cursor: string | undefined,
  ) => Promise<{ tools: MCPListedTool[]; nextCursor?: string }> | { tools: MCPListedTool[]; nextCursor?: string },
): MCPClient {
  return {
    transport: {},
    getServerVersion: () => ({ name: "evil-server" }),
    listTools: async (params) => pages(params?.cursor),
    callTool: async () => ({ content: [{ type: "text", text: "called" }] }),
    close: async () => undefined,
  };
}

const GOOD: MCPListedTool = {
  name: "good",
  description: "A plain tool.",
  inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
};

async function rejection(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    return String((error as Error).message);
  }
  assert.unreachable("the import should have been refused");
  return "";
}

test("a listing that never ends is refused: by maxTools, by a repeated cursor, by connectTimeoutMs for the whole listing", async () => {
  let pages = 0;
  const endless = serverOf((cursor) => {
    pages++;
    const n = Number(cursor ?? 0);
    return { tools: [{ ...GOOD, name: `t${n}` }], nextCursor: String(n + 1) };
  });
  assert.match(await rejection(() => fromMCP(endless, { maxTools: 50 })), /lists more than 50 tools \(maxTools\)/);
  assert.ok(pages <= 51, `${pages} pages read`);
  assert.match(await rejection(() => fromMCP(endless)), /evil-server.*lists more than 10000 tools/);

  const looping = serverOf(() => ({ tools: [GOOD], nextCursor: "again" }));
  assert.match(await rejection(() => fromMCP(looping)), /same tools\/list cursor twice/);

  // Slow pages, each within its own time: the listing as a whole is what connectTimeoutMs bounds.
  const slow = serverOf(async (cursor) => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    return { tools: [GOOD], nextCursor: `${cursor ?? ""}x` };
  });
  assert.match(
    await rejection(() => fromMCP(slow, { connectTimeoutMs: 100 })),
    /did not finish listing its tools within 100 ms \(connectTimeoutMs\)/,
  );
});

/** A schema nested `depth` levels deep, written without recursion. */
function deep(depth: number): Record<string, unknown> {
  let node: Record<string, unknown> = { type: "string" };
  for (let i = 0; i < depth; i++) node = { type: "object", properties: { x: node } };
  return node;
}

/** Nested `anyOf` references: each level names the next twice, 2^levels paths in a couple of KiB. */
function exponential(levels: number): Record<string, unknown> {
  const defs: Record<string, unknown> = { [`d${levels}`]: { type: "string" } };
  for (let i = levels - 1; i >= 0; i--)
    defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
  return { type: "object", properties: { v: { $ref: "#/$defs/d0" } }, $defs: defs };
}

test("tools with hostile schemas are left out, each with why; the server's other tools import, validate and export", async () => {
  const many: Record<string, unknown> = {};
  for (let i = 0; i < 5_000; i++) many[`p${i}`] = { type: "string" };
  const hostile: [name: string, schema: Record<string, unknown>, why: RegExp][] = [
    ["deep", { type: "object", properties: { v: deep(10_000) } }, /nests deeper than 64 levels/],
    ["wide", { type: "object", properties: many }, /more than 1000 entries in "properties"/],
    [
      "loop",
      {
        type: "object",
        properties: { v: { $ref: "#/$defs/a" } },
        $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } },
      },
      /leads back to itself through references alone/,
    ],
    ["self", { type: "object", properties: { v: { $ref: "#/properties/v" } } }, /leads back to itself/],
    ["expands", exponential(40), /with its references inlined it holds more than 100000 schemas/],
    [
      "outside",
      { type: "object", properties: { v: { $ref: "https://evil.example/schema.json" } } },
      /does not point inside the schema/,
    ],
  ];
  const server = serverOf(() => ({
    tools: [
      ...hostile.map(([name, inputSchema]) => ({ name, inputSchema: inputSchema as MCPListedTool["inputSchema"] })),
      GOOD,
    ],
  }));
  const imported = await fromMCP(server);
  assert.equal(
    new ToolRegistry(imported.tools).list().map((t) => t.name),
    ["good"],
  );
  assert.equal(
    imported.refused.map((r) => r.name),
    hostile.map(([name]) => name),
  );
  for (const [name, , why] of hostile) {
    const reason = imported.refused.find((r) => r.name === name)!.reason;
    assert.match(reason, new RegExp(`tool "${name}" of MCP server "evil-server" was not imported`));
    assert.match(reason, why, reason);
  }
  // A recursive schema is no problem: a reference back into a structure, not a loop of references.
  const tree = {
    type: "object",
    properties: { root: { $ref: "#/$defs/node" } },
    $defs: { node: { type: "object", properties: { kids: { type: "array", items: { $ref: "#/$defs/node" } } } } },
  };
  const fine = await fromMCP(
    serverOf(() => ({ tools: [{ name: "tree", inputSchema: tree as MCPListedTool["inputSchema"] }] })),
  );
  assert.equal(fine.refused, []);

  const registry = new ToolRegistry([...imported.tools, ...fine.tools]);
  assert.is(registry.toOpenAITools().length, 2);
  assert.is(registry.toAnthropicTools().length, 2);
  assert.ok(JSON.stringify(registry.toGeminiTools()).length < 100_000);
  const [answer] = await registry.dispatch({
    role: "assistant",
    content: null,
    tool_calls: [{ id: "c", type: "function", function: { name: "good", arguments: '{"q":"x"}' } }],
  });
  assert.is(answer!.status, "success", answer!.content);
});

test.run();
