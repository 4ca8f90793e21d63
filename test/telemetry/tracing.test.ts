/**
 * Traces through OpenTelemetry (issue 48 item 6), with the SDK's in-memory exporter: with a tracer provider
 * registered, each call a dispatch answers has an `execute_tool {name}` span (GenAI conventions, error status and
 * `error.type` on failure), each `runTools` request a `chat {model}` span with the step's tool spans under it, each
 * MCP `tools/call` a server span that continues the client's `_meta.traceparent`, and `fromMCP` sends its own span's
 * context that way. Without a provider nothing is traced and `@opentelemetry/api` is never loaded (a fresh process).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import OpenAI from "openai";
import { AsyncLocalStorage } from "node:async_hooks";
import { type Context, ROOT_CONTEXT, context, trace } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { ToolError, ToolRegistry, tool } from "tooltype";
import { runTools } from "tooltype/loop";
import { fromMCP } from "tooltype/mcp";
import { readTraceparent, writeTraceparent } from "../../runtime/telemetry/trace-context";
import { activeTracing } from "../../runtime/telemetry/tracing";
import { startScriptedHttp } from "../support/scripted-http";
import { connect, rawPost, withNodeHandler } from "../mcp/support";

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

/** The active context across awaits, as an app's SDK set-up registers one (written here: a few lines of the API). */
class AsyncContextManager {
  readonly #storage = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.#storage.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.#storage.run(ctx, () => fn.apply(thisArg, args));
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.#storage.disable();
    return this;
  }
}

/** Traced only while a test runs: other files of this process must see no provider. */
async function traced(body: () => Promise<void>): Promise<ReadableSpan[]> {
  exporter.reset();
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(new AsyncContextManager());
  try {
    await body();
  } finally {
    trace.disable();
    context.disable();
  }
  return exporter.getFinishedSpans();
}

const attribute = (span: ReadableSpan, key: string): unknown => span.attributes[key];
const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;

const add = tool(
  /** Add two numbers. */
  function add(a: number, b: number): number {
    return a + b;
  },
);
const fail = tool(
  /** Always fails. */
  function fail(reason: string): string {
    throw new ToolError(`refused: ${reason}`);
  },
);

const message = (calls: [string, string, string][]) => ({
  role: "assistant" as const,
  content: null,
  tool_calls: calls.map(([id, name, args]) => ({ id, type: "function" as const, function: { name, arguments: args } })),
});

test("without a tracer provider nothing is traced, and a fresh process never loads @opentelemetry/api", async () => {
  assert.is(activeTracing(), undefined);
  const script = `
    const { ToolRegistry, tool } = require(${JSON.stringify(require.resolve("tooltype"))});
    const echo = tool.fromSchema({ name: "echo", description: "Echo.", parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"], additionalProperties: false } }, (args) => args.text);
    new ToolRegistry([echo]).dispatch({ role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "echo", arguments: '{"text":"hi"}' } }] }).then((answers) => {
      const loaded = Object.keys(require.cache).filter((file) => file.includes("@opentelemetry"));
      process.stdout.write(JSON.stringify({ content: answers[0].content, loaded }));
    });
  `;
  const child = spawnSync(process.execPath, ["-e", script], { encoding: "utf8", env: process.env, timeout: 60_000 });
  assert.is(child.status, 0, child.stderr);
  assert.equal(JSON.parse(child.stdout), { content: "hi", loaded: [] });
});

test("dispatch: one execute_tool span per call, with the GenAI attributes, an error status where the call failed", async () => {
  const registry = new ToolRegistry([add, fail]);
  const spans = await traced(async () => {
    const answers = await registry.dispatch(
      message([
        ["c1", "add", '{"a": 1, "b": 2}'],
        ["c2", "fail", '{"reason": "no"}'],
        ["c3", "add", '{"a": "x"}'],
        ["c4", "missing", "{}"],
      ]),
    );
    assert.equal(
      answers.map((answer) => answer.status),
      ["success", "error", "error", "error"],
    );
  });
  const byCall = new Map(spans.map((span) => [attribute(span, "gen_ai.tool.call.id"), span]));
  assert.equal([...byCall.keys()].sort(), ["c1", "c2", "c3", "c4"]);
  const ok = byCall.get("c1")!;
  assert.is(ok.name, "execute_tool add");
  assert.is(attribute(ok, "gen_ai.operation.name"), "execute_tool");
  assert.is(attribute(ok, "gen_ai.tool.name"), "add");
  assert.is(attribute(ok, "gen_ai.tool.type"), "function");
  assert.is(ok.status.code, 0);
  assert.is(byCall.get("c2")!.status.code, 2);
  assert.is(attribute(byCall.get("c2")!, "error.type"), "ToolError");
  assert.is(attribute(byCall.get("c3")!, "error.type"), "invalid_arguments");
  assert.is(byCall.get("c4")!.status.code, 2);
  // Untraced again: the same dispatch records nothing.
  exporter.reset();
  await registry.dispatch(message([["c5", "add", '{"a": 1, "b": 2}']]));
  assert.is(exporter.getFinishedSpans().length, 0);
});

test("a tool's own spans are children of its execute_tool span while it runs (the active context)", async () => {
  let inner: ReadableSpan | undefined;
  const nested = tool(
    /** Opens a span of its own. */
    function nested(n: number): number {
      const span = trace.getTracer("app").startSpan("inner work");
      inner = span as unknown as ReadableSpan;
      span.end();
      return n;
    },
  );
  const spans = await traced(async () => {
    await new ToolRegistry([nested]).dispatch(message([["n1", "nested", '{"n": 1}']]));
  });
  const execute = spans.find((span) => span.name === "execute_tool nested")!;
  assert.ok(inner !== undefined && execute !== undefined);
  assert.is(parentOf(inner!), execute.spanContext().spanId);
});

test("runTools: a chat span per request, the step's execute_tool spans under it", async () => {
  const completion = (body: Record<string, unknown>, finish: string) => ({
    id: "c",
    object: "chat.completion",
    created: 1,
    model: "gpt-scripted",
    choices: [
      {
        index: 0,
        message: { role: "assistant", refusal: null, content: null, ...body },
        finish_reason: finish,
        logprobs: null,
      },
    ],
  });
  const server = await startScriptedHttp([
    () =>
      completion(
        { tool_calls: [{ id: "t1", type: "function", function: { name: "add", arguments: '{"a": 2, "b": 3}' } }] },
        "tool_calls",
      ),
    () => completion({ content: "5" }, "stop"),
  ]);
  try {
    const spans = await traced(async () => {
      const result = await runTools(
        new OpenAI({ baseURL: `${server.origin}/v1`, apiKey: "test", maxRetries: 0, timeout: 10_000 }),
        { model: "gpt-scripted", messages: [{ role: "user", content: "2 + 3?" }] },
        new ToolRegistry([add]),
      );
      assert.is(result.content, "5");
    });
    const chats = spans.filter((span) => span.name === "chat gpt-scripted");
    assert.is(chats.length, 2);
    for (const chat of chats) {
      assert.is(attribute(chat, "gen_ai.operation.name"), "chat");
      assert.is(attribute(chat, "gen_ai.provider.name"), "openai");
      assert.is(attribute(chat, "gen_ai.request.model"), "gpt-scripted");
    }
    const tool = spans.find((span) => span.name === "execute_tool add")!;
    const first = chats.find((chat) => attribute(chat, "tooltype.step") === 1)!;
    assert.is(parentOf(tool), first.spanContext().spanId);
    assert.is(tool.spanContext().traceId, first.spanContext().traceId);
  } finally {
    await server.close();
  }
});

test("MCP: tools/call continues the client's traceparent; fromMCP sends its own span's context", async () => {
  const registry = new ToolRegistry([add]);
  await withNodeHandler(registry, undefined, async (url) => {
    // A raw 2026-07-28 request that names a remote parent.
    const remote = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    const spans = await traced(async () => {
      const answer = await rawPost(
        url,
        {
          jsonrpc: "2.0",
          id: 7,
          method: "tools/call",
          params: {
            name: "add",
            arguments: { a: 1, b: 1 },
            _meta: {
              "io.modelcontextprotocol/protocolVersion": "2026-07-28",
              "io.modelcontextprotocol/clientCapabilities": {},
              "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
              traceparent: remote,
            },
          },
        },
        { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "add" },
      );
      assert.is(answer.status, 200, answer.body);
    });
    const server = spans.find((span) => span.name === "tools/call add")!;
    assert.ok(server, spans.map((span) => span.name).join(", "));
    assert.is(server.spanContext().traceId, "0af7651916cd43dd8448eb211c80319c");
    assert.is(parentOf(server), "b7ad6b7169203331");
    assert.is(attribute(server, "mcp.method.name"), "tools/call");
    assert.is(attribute(server, "jsonrpc.request.id"), "7");
    const execute = spans.find((span) => span.name === "execute_tool add")!;
    assert.is(parentOf(execute), server.spanContext().spanId);

    // Through fromMCP: the client's span, then the server's under it, in one trace.
    const client = await connect(url);
    try {
      const imported = await fromMCP(client);
      const local = new ToolRegistry().register(imported.tools);
      const both = await traced(async () => {
        const [answer] = await local.dispatch(message([["m1", "add", '{"a": 2, "b": 2}']]));
        assert.is(answer!.content, "4");
      });
      const sent = both.find((span) => span.name === "tools/call add" && span.kind === 2)!;
      const served = both.find((span) => span.name === "tools/call add" && span.kind === 1)!;
      assert.ok(sent && served, both.map((span) => `${span.name}/${span.kind}`).join(", "));
      assert.is(served.spanContext().traceId, sent.spanContext().traceId);
      assert.is(parentOf(served), sent.spanContext().spanId);
      // The client's span is the local call's child: the local execute_tool span was active while it ran.
      const localSpan = both.find(
        (span) => span.name === "execute_tool add" && attribute(span, "gen_ai.tool.call.id") === "m1",
      )!;
      assert.is(parentOf(sent), localSpan.spanContext().spanId);
    } finally {
      await client.close();
    }
  });
});

test("traceparent: only a well-formed header is read; anything else starts a new trace", () => {
  const good = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
  assert.equal(readTraceparent(good), {
    traceId: "0af7651916cd43dd8448eb211c80319c",
    spanId: "b7ad6b7169203331",
    traceFlags: 1,
    isRemote: true,
  });
  assert.is(writeTraceparent(readTraceparent(good)!), good);
  for (const bad of [
    undefined,
    42,
    "",
    `${good}-extra`,
    "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
    "00-00000000000000000000000000000000-b7ad6b7169203331-01",
    "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",
    "00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01",
    `00-${"a".repeat(32)}-${"b".repeat(16)}-01${"-x".repeat(1_000)}`,
    "0-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
  ]) {
    assert.is(readTraceparent(bad), undefined, String(bad).slice(0, 80));
  }
  // A later version may carry more fields after a dash.
  assert.ok(readTraceparent("01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-later") !== undefined);
});

test.run();
