/**
 * MCP import (`fromMCP`) against a server written with the official SDK alone (test/support/mcp-sdk1-server.ts), run
 * as a child process over stdio and over Streamable HTTP: its tools registered in a ToolRegistry, exported to OpenAI,
 * called
 * from a scripted model reply through the OpenAI SDK and dispatched back to the server (coercion and validation on
 * this side, `isError` and content kept, artifacts out of the next request); then the server process is killed and
 * the next call is answered with an error within its time limit. Also: a name clash between two servers is an
 * error naming both, and a prefix resolves it.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { type ChildProcess, spawn } from "node:child_process";
import * as path from "node:path";
import { once } from "node:events";
import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolRegistry, ToolRegistrationError, type ToolMessage } from "tooltype";
import { type MCPImport, fromMCP } from "tooltype/mcp";
import { startScriptedServer } from "../scripted-openai/server";
import { SDK_SERVER_TOOLS } from "../support/mcp-sdk1-server";
import { HANG_MS } from "../support/hang";

const SERVER = path.join(__dirname, "..", "support", "mcp-sdk1-server.js");
// The calls' and the connection's time limits only catch a hang: a server process answers slowly on a loaded machine.
const TIMEOUT_MS = HANG_MS;
const CONNECT_TIMEOUT_MS = HANG_MS;

interface Started {
  imported: MCPImport;
  /** Kill the server process and wait until it is gone. */
  kill(): Promise<void>;
}

async function startStdio(name: string): Promise<Started> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER, "stdio", name],
    stderr: "pipe",
  });
  const imported = await fromMCP(transport, { timeoutMs: TIMEOUT_MS, connectTimeoutMs: CONNECT_TIMEOUT_MS });
  const pid = transport.pid!;
  return {
    imported,
    kill: async () => {
      process.kill(pid, "SIGKILL");
      // The transport notices the closed pipes and closes the client.
      for (let i = 0; i < 100 && imported.client.transport; i++) await new Promise((r) => setTimeout(r, 20));
    },
  };
}

async function startHttp(name: string): Promise<Started> {
  const child: ChildProcess = spawn(process.execPath, [SERVER, "http", name], { stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  const port = await new Promise<number>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the HTTP server exited early (${String(code)})`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /PORT (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
  });
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`));
  const imported = await fromMCP(transport, {
    timeoutMs: TIMEOUT_MS,
    connectTimeoutMs: CONNECT_TIMEOUT_MS,
    prefix: "remote_",
  });
  return {
    imported,
    kill: async () => {
      const exited = once(child, "exit");
      child.kill("SIGKILL");
      await exited;
    },
  };
}

async function exercise(started: Started, prefix: string): Promise<void> {
  const { imported } = started;
  const registry = new ToolRegistry().register(imported.tools);
  const name = (n: string): string => `${prefix}${n}`;

  // Exported like compiled tools: the server's schemas as it sent them (its draft-07 marker kept: issue 46),
  // strict rewrite included.
  const exported = registry.toOpenAITools();
  assert.equal(
    exported.map((t) => t.function.name),
    SDK_SERVER_TOOLS.map((t) => name(t.name)),
  );
  assert.equal(exported[0]!.function.parameters, SDK_SERVER_TOOLS[0]!.inputSchema);
  assert.is(exported[0]!.function.description, "Forecast for a city.");
  assert.is(registry.toOpenAITools({ strict: true })[0]!.function.strict, true);
  assert.ok(
    registry.toAnthropicTools().length === 3 && registry.toGeminiTools()[0]!.functionDeclarations!.length === 3,
  );

  const model = await startScriptedServer([
    {
      tool_calls: [
        { name: name("get_forecast"), arguments: '{"city": "Oslo", "days": "3",}' },
        { name: name("get_forecast"), arguments: { city: "Oslo", days: 9 } },
        { name: name("render_chart"), arguments: { series: [1, 2, 3] } },
        { name: name("always_fails"), arguments: {} },
      ],
    },
    { content: "done" },
  ]);
  try {
    const client = new OpenAI({ baseURL: model.baseURL, apiKey: "test", maxRetries: 0 });
    const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "Weather in Oslo?" }];
    const first = await client.chat.completions.create({ model: "scripted", messages, tools: exported });
    const reply = first.choices[0]!.message;
    const answers: ToolMessage[] = await registry.dispatch(reply);

    // Repaired (trailing comma) and coerced ("3" → 3) here: the server, which refuses a string, saw a number.
    assert.is(answers[0]!.status, "success");
    assert.is(answers[0]!.content, "Oslo: sunny for 3 days");
    assert.equal((answers[0]!.artifact as { structuredContent: unknown }).structuredContent, {
      city: "Oslo",
      days: 3,
      sky: "sunny",
    });
    // Validated against the server's schema before anything was sent.
    assert.is(answers[1]!.status, "error");
    assert.match(
      answers[1]!.content,
      new RegExp(`^Error: invalid arguments for ${name("get_forecast")}:\\n- /days: must be <= 7; got 9`),
    );
    // Content kept: the text for the model, the whole result (the image) as the artifact.
    assert.is(answers[2]!.content, "Chart of 3 points\n[image image/png]");
    const image = (answers[2]!.artifact as { content: { type: string; data?: string }[] }).content[1]!;
    assert.is(image.type, "image");
    assert.match(Buffer.from(image.data!, "base64").toString(), /PIXELS-NEVER-SENT/);
    // isError kept.
    assert.equal([answers[3]!.status, answers[3]!.content], ["error", "The upstream service is down."]);

    await client.chat.completions.create({
      model: "scripted",
      messages: [...messages, reply, ...answers],
      tools: exported,
    });
    const body = JSON.stringify(model.requests[1]);
    assert.ok(body.includes("Chart of 3 points"));
    assert.not.ok(body.includes(image.data!), "the image (the artifact) never reaches the model");
  } finally {
    await model.close();
  }

  // The server disappears: the next call is an error answer (the connection's end or the call's time limit), not a
  // wait without end.
  await started.kill();
  const [gone] = await registry.dispatch({
    tool_calls: [{ id: "late", name: name("get_forecast"), args: { city: "Oslo", days: 2 } }],
  });
  assert.is(gone!.status, "error");
  assert.match(
    gone!.content,
    /^Error: (MCP server "weather-[ab]" did not answer the call of get_forecast: |get_forecast timed out)/,
  );
  await started.imported.close();
}

test("stdio: an SDK server's tools imported, exported, dispatched; killed, the next call answers an error", async () => {
  await exercise(await startStdio("weather-a"), "");
});

test("Streamable HTTP: the same, with a prefix", async () => {
  await exercise(await startHttp("weather-b"), "remote_");
});

test("two servers offering the same tool: an error naming both, unless a prefix is given", async () => {
  const a = await startStdio("weather-a");
  const b = await startStdio("weather-b");
  try {
    const registry = new ToolRegistry().register(a.imported.tools);
    try {
      registry.register(b.imported.tools);
      assert.unreachable("the clash was accepted");
    } catch (error) {
      assert.instance(error, ToolRegistrationError);
      assert.match(
        (error as Error).message,
        /Tool name "get_forecast" is used twice: by tool "get_forecast" of MCP server "weather-a" and by tool "get_forecast" of MCP server "weather-b"/,
      );
    }
    const prefixed = await fromMCP(b.imported.client, { prefix: "b_" });
    registry.register(prefixed.tools);
    assert.equal(
      registry.list().map((t) => t.name),
      ["get_forecast", "render_chart", "always_fails", "b_get_forecast", "b_render_chart", "b_always_fails"],
    );
    const [answer] = await registry.dispatch({
      tool_calls: [{ id: "1", name: "b_get_forecast", args: { city: "Rome", days: 1 } }],
    });
    assert.is(answer!.content, "Rome: sunny for 1 days");
  } finally {
    await a.imported.close();
    await b.imported.close();
  }
});

test("a server that stops answering: the call is a timeout error within the tool's timeoutMs, never a hang", async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER, "stdio", "frozen"],
    stderr: "pipe",
  });
  const imported = await fromMCP(transport, { timeoutMs: 300, connectTimeoutMs: CONNECT_TIMEOUT_MS });
  const pid = transport.pid!;
  try {
    const registry = new ToolRegistry().register(imported.tools);
    process.kill(pid, "SIGSTOP");
    // A stopped server never answers: only the call's time limit ends this dispatch.
    const [answer] = await registry.dispatch({
      tool_calls: [{ id: "1", name: "get_forecast", args: { city: "Oslo", days: 2 } }],
    });
    assert.is(answer!.status, "error");
    assert.match(answer!.content, /timed out|Request timed out/i);
  } finally {
    process.kill(pid, "SIGKILL");
    await imported.close();
  }
});

test("tool.fromSchema: a run-time schema tool is read, coerced and validated like a compiled one", async () => {
  const { tool } = await import("tooltype");
  const seen: unknown[] = [];
  const lookup = tool.fromSchema(
    {
      name: "lookup",
      description: "Look a record up.",
      parameters: {
        type: "object",
        properties: { id: { type: "integer" }, tags: { type: "array", items: { type: "string" } } },
        required: ["id"],
      },
    },
    (args, context) => {
      seen.push(args, context.toolCall.id);
      return { id: args.id };
    },
  );
  const registry = new ToolRegistry([lookup]);
  assert.equal(registry.toOpenAITools()[0]!.function.description, "Look a record up.");
  const answers = await registry.dispatch({
    tool_calls: [
      { id: "a", type: "function", function: { name: "lookup", arguments: "{'id': '7', tags: 'x'}" } },
      { id: "b", type: "function", function: { name: "lookup", arguments: '{"id": 1.5}' } },
    ],
  });
  assert.equal(seen, [{ id: 7, tags: ["x"] }, "a"]);
  assert.is(answers[0]!.content, '{"id":7}');
  assert.match(answers[1]!.content, /^Error: invalid arguments for lookup:\n- \/id: must be an integer/);
  assert.throws(
    () => tool.fromSchema({ name: "bad", parameters: { type: "string" } }, () => 1),
    /parameters must be an object schema/,
  );
});

test.run();
