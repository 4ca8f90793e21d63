/**
 * A tool that streams (`async function*`) served over MCP: each value it yields reaches a client that sent a
 * progress token as `notifications/progress` (through the same path as `ToolContext.progress`, so the server needs
 * nothing of its own for it), and the result is what the generator returned, with its `structuredContent`.
 * The official SDK client over its in-memory transport.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ToolRegistry, tool } from "tooltype";
import { serveMCP } from "tooltype/mcp";
import { TIMEOUT } from "./support";

/**
 * Import rows in batches.
 * @param batches How many batches
 */
const importRows = tool(async function* import_rows(
  batches: number,
): AsyncGenerator<{ progress: number; total: number; message: string }, { rows: number }> {
  for (let i = 1; i <= batches; i++) yield { progress: i, total: batches, message: `batch ${i}` };
  return { rows: batches * 100 };
});

/**
 * Check a file, step by step.
 * @param name The file
 */
const check = tool(async function* check(name: string) {
  yield `opening ${name}`;
  yield `reading ${name}`;
  return `${name} is fine`;
});

test("each yield is a notifications/progress to a client with a progress token; the result is the returned value", async () => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = await serveMCP(new ToolRegistry([importRows, check]), serverSide, {
    name: "stream",
    version: "1.0.0",
    progressIntervalMs: 0,
  });
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  try {
    const seen: { progress: number; total?: number; message?: string }[] = [];
    const result = (await client.callTool({ name: "import_rows", arguments: { batches: 3 } }, undefined, {
      ...TIMEOUT,
      onprogress: (p) => seen.push(p),
    })) as CallToolResult;
    assert.not.ok(result.isError);
    assert.equal(result.structuredContent, { rows: 300 });
    assert.equal(seen, [
      { progress: 1, total: 3, message: "batch 1" },
      { progress: 2, total: 3, message: "batch 2" },
      { progress: 3, total: 3, message: "batch 3" },
    ]);

    // Text yields count the steps and say what they are.
    const steps: { progress: number; message?: string }[] = [];
    const checked = (await client.callTool({ name: "check", arguments: { name: "a.txt" } }, undefined, {
      ...TIMEOUT,
      onprogress: (p) => steps.push(p),
    })) as CallToolResult;
    assert.equal(checked.content, [{ type: "text", text: "a.txt is fine" }]);
    assert.equal(steps, [
      { progress: 1, message: "opening a.txt" },
      { progress: 2, message: "reading a.txt" },
    ]);
  } finally {
    await client.close();
    await server.close();
  }
});

test.run();
