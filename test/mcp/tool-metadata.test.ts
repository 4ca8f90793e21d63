/**
 * What a tool says of itself to MCP clients (issue 46 item 6): `title`, `icons` (SEP-973) and the annotations from
 * the tool's options reach `tools/list` and no model API export; `tools/list` keeps the registry's order; a W3C
 * `traceparent` (and its `tracestate`) in a call's `_meta` reaches the tool's context, anything malformed does not.
 * The requests go to mcpFetchHandler in process, on the 2026-07-28 revision. (The JSDoc forms, `@title`, the hint tags
 * and `@icon`, are compiled in tools.ts and checked by the transformer's own tests.)
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { type ToolContext, ToolRegistry, tool } from "tooltype";
import { mcpFetchHandler } from "tooltype/mcp";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

async function post(
  handler: (request: Request) => Promise<Response>,
  method: string,
  params: Record<string, unknown>,
  name?: string,
): Promise<Record<string, unknown>> {
  const response = await handler(
    new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": method,
        ...(name === undefined ? {} : { "mcp-name": name }),
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method,
        params: { ...params, _meta: { ...META, ...(params._meta as object) } },
      }),
    }),
  );
  assert.is(response.status, 200, await response.clone().text());
  return (await response.json()) as Record<string, unknown>;
}

const ICON = { src: "https://example.com/weather.png", mimeType: "image/png", sizes: ["48x48"] };
const NONE = { type: "object", properties: {} } as const;
let seen: Record<string, unknown> | undefined;

function registry(): ToolRegistry {
  return new ToolRegistry([
    tool.fromSchema(
      {
        name: "weather",
        description: "The weather.",
        parameters: NONE,
        title: "Weather",
        icons: [ICON],
        annotations: { readOnlyHint: true, openWorldHint: true },
      },
      () => "sunny",
    ),
    tool.fromSchema({ name: "zebra", description: "Second, though last in the alphabet.", parameters: NONE }, () => ""),
    tool.fromSchema(
      { name: "apple", description: "Third, though first in the alphabet.", parameters: NONE },
      (_args, context: ToolContext) => {
        seen = context.metadata;
        return "ok";
      },
    ),
  ]);
}

test("title, icons and annotations from the options are in tools/list, in the registry's order", async () => {
  const listed = (await post(mcpFetchHandler(registry()), "tools/list", {})).result as {
    tools: Record<string, unknown>[];
  };
  assert.equal(
    listed.tools.map((entry) => entry.name),
    ["weather", "zebra", "apple"],
  );
  const weather = listed.tools[0]!;
  assert.is(weather.title, "Weather");
  assert.equal(weather.icons, [ICON]);
  assert.equal(weather.annotations, { readOnlyHint: true, openWorldHint: true });
  assert.is(listed.tools[1]!.icons, undefined);
});

test("model API exports leave the MCP metadata out", () => {
  const exported = JSON.stringify([
    registry().toOpenAITools(),
    registry().toResponsesTools(),
    registry().toAnthropicTools(),
    registry().toGeminiTools(),
  ]);
  for (const word of ["icons", "example.com", "readOnlyHint", "openWorldHint", '"Weather"'])
    assert.not.ok(exported.includes(word), `${word} in a model API export`);
});

test("a traceparent in a call's _meta reaches the tool's context; a malformed one does not", async () => {
  const handler = mcpFetchHandler(registry(), { metadata: { tenant: "t1" } });
  const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
  const call = (meta: Record<string, unknown>) =>
    post(handler, "tools/call", { name: "apple", arguments: {}, _meta: meta }, "apple");

  await call({ traceparent, tracestate: "congo=t61rcWkgMzE" });
  assert.equal(seen, { tenant: "t1", traceparent, tracestate: "congo=t61rcWkgMzE" });
  for (const bad of [
    "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
    "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
    "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
    "not a trace",
    42,
  ]) {
    seen = undefined;
    await call({ traceparent: bad });
    assert.equal(seen, { tenant: "t1" }, String(bad));
  }
});

test.run();
