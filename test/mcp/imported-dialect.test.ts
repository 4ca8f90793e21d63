/**
 * An imported tool keeps the `$schema` marker of the `inputSchema` its server sent (issue 46, item 2): served again
 * over MCP it lists what the server listed, while dispatch still validates the arguments (as 2020-12, whatever the
 * marker says) and the model API exports still work. The server is an in-process client double, so what it sent
 * is exact.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ToolRegistry } from "tooltype";
import { type MCPClient, type MCPListedTool, fromMCP } from "tooltype/mcp";

function serverListing(tools: MCPListedTool[]): MCPClient {
  return {
    transport: {},
    getServerVersion: () => ({ name: "dialects" }),
    listTools: async () => ({ tools }),
    callTool: async (params) => ({ content: [{ type: "text", text: JSON.stringify(params.arguments) }] }),
    close: async () => undefined,
  };
}

const SENT: MCPListedTool[] = [
  {
    name: "modern",
    inputSchema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { q: { type: "string", minLength: 2 } },
      required: ["q"],
    },
  },
  {
    name: "draft07",
    inputSchema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { n: { type: "integer" } },
      required: ["n"],
      additionalProperties: false,
    },
  },
  { name: "plain", inputSchema: { type: "object", properties: {} } },
];

test("a re-export over MCP lists each imported inputSchema as the server sent it, $schema included", async () => {
  const imported = await fromMCP(serverListing(SENT));
  const registry = new ToolRegistry(imported.tools);
  const listed = registry.toMCPTools();
  assert.equal(
    listed.map((tool) => [tool.name, tool.inputSchema]),
    SENT.map((tool) => [tool.name, tool.inputSchema]),
  );
});

test("dispatch validates the imported schemas whatever their marker, and the model API exports still work", async () => {
  const registry = new ToolRegistry((await fromMCP(serverListing(SENT))).tools);
  const call = async (name: string, args: string) => {
    const [answer] = await registry.dispatch({
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c", type: "function", function: { name, arguments: args } }],
    });
    return answer!;
  };
  assert.is((await call("modern", '{"q":"ok"}')).status, "success");
  assert.is((await call("modern", '{"q":"x"}')).status, "error");
  assert.is((await call("draft07", '{"n":3}')).content, '{"n":3}');
  const refused = await call("draft07", '{"n":3,"extra":1}');
  assert.is(refused.status, "error");
  assert.match(refused.content, /extra/);
  assert.is(registry.toOpenAITools().length, 3);
  assert.is(registry.toOpenAITools({ strict: true }).length, 3);
  assert.is(registry.toAnthropicTools().length, 3);
  assert.is(registry.toGeminiTools()[0]!.functionDeclarations!.length, 3);
});

test.run();
