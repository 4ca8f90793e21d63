/**
 * The MCP blocks of the guides (annotations in docs/providers.md; docs/tools-as-a-service.md: Hono, Next.js
 * route), each found by its `<!-- readme-compile: mcp-NAME -->` marker. The Hono app and the Next.js route handler
 * run (the official client through `app.fetch`, plain dispatch on their routes); test/docs/web-types.test.ts
 * compiles them and the Workers block against the Web types alone. The annotations block also goes through the
 * transformer, and its tool's title,
 * annotations, progress and auth are checked by running it; a tag value that does not parse is a TT1009 diagnostic
 * at the tag.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolRegistry, type ToolProgress } from "tooltype";
import { compileFixture } from "../support/compile";
import { readmeBlock } from "../support/readme";

const REPO = path.resolve(__dirname, "../../..");

/**
 * A block as CommonJS next to a `tools` module that exports the MCP tests' registry (test/mcp/tools.ts). The Next.js
 * block's `@/tools` (a path alias of Next's tsconfig) is pointed at that module too.
 */
function runnable(name: string): Record<string, unknown> {
  const dir = path.join(REPO, ".test-build", "readme-mcp-run");
  fs.mkdirSync(dir, { recursive: true });
  const tools = path.join(__dirname, "..", "mcp", "tools.js");
  fs.writeFileSync(
    path.join(dir, "tools.js"),
    `exports.registry = require(${JSON.stringify(tools)}).createMcpRegistry();\n`,
  );
  const js = ts.transpileModule(readmeBlock(name).replace('"@/tools"', '"./tools"'), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const file = path.join(dir, `${name}.js`);
  fs.writeFileSync(file, js);
  return require(file) as Record<string, unknown>;
}

test("the Hono block runs: the official client through app.fetch, plain dispatch on its own route", async () => {
  const app = runnable("mcp-hono").default as { fetch: (request: Request) => Promise<Response> };
  const client = new Client({ name: "readme-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL("http://tools.example.com/mcp"), {
    fetch: (url, init) => app.fetch(new Request(url, init)),
  });
  await client.connect(transport);
  try {
    const sum = await client.callTool({ name: "add", arguments: { values: [4, 5] } });
    assert.equal(sum.structuredContent, { total: 9, count: 2 });
  } finally {
    await client.close();
  }
  const refused = await app.fetch(new Request("http://localhost/mcp", { method: "POST", body: "{}" }));
  assert.is(refused.status, 403, "the block's allowedHosts lists only tools.example.com");
  const answered = await app.fetch(
    new Request("http://tools.example.com/dispatch", {
      method: "POST",
      body: JSON.stringify({
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "refuse", arguments: '{"what":"x"}' } }],
      }),
    }),
  );
  assert.equal(await answered.json(), [{ role: "tool", tool_call_id: "c1", content: "I will not x." }]);
});

test("the Next.js route handler runs: POST answers an OpenAI message with its ToolMessages", async () => {
  const { POST } = runnable("mcp-next") as { POST: (request: Request) => Promise<Response> };
  const message = {
    role: "assistant",
    content: null,
    tool_calls: [{ id: "c1", type: "function", function: { name: "add", arguments: '{"values":[1,2]}' } }],
  };
  const response = await POST(
    new Request("http://localhost/api/dispatch", { method: "POST", body: JSON.stringify(message) }),
  );
  assert.equal(await response.json(), [{ role: "tool", tool_call_id: "c1", content: '{"total":3,"count":2}' }]);
});

test("the annotations block: JSDoc @title and hints reach tools/list; progress and auth reach the tool", async () => {
  const compiled = compileFixture(readmeBlock("mcp-annotations"));
  assert.equal(
    compiled.diagnostics.map((d) => d.message),
    [],
  );
  const { reindex } = compiled.load<{ reindex: object }>();
  const registry = new ToolRegistry([reindex]);
  const [listed] = registry.toMCPTools();
  assert.is(listed!.title, "Re-index folder");
  assert.equal(listed!.annotations, { idempotentHint: true, openWorldHint: false });
  const seen: ToolProgress[] = [];
  const [message] = await registry.runCalls(
    { tool_calls: [{ id: "1", name: "reindex", args: { folder: "docs" } }] },
    { auth: { user: "ada" }, onProgress: (update) => seen.push(update) },
  );
  assert.is(message!.content, "indexed 3 files for ada");
  assert.equal(
    seen.map((p) => [p.progress, p.total, p.message]),
    [
      [1, 3, "docs/a.md"],
      [2, 3, "docs/b.md"],
      [3, 3, "docs/c.md"],
    ],
  );
});

test("an annotation tag with a value other than true/false, and an empty @title, are TT1009 at the tag", () => {
  const compiled = compileFixture(`import { tool } from "tooltype";
/**
 * Do it.
 * @readOnlyHint maybe
 * @title
 */
export const doIt = tool(function do_it(): string { return "done"; });
`);
  assert.equal(
    compiled.tooltype.map((d) => [d.code, d.line]),
    [
      ["TT1009", 4],
      ["TT1009", 5],
    ],
  );
  assert.match(compiled.tooltype[0]!.message, /@readOnlyHint takes no value, "true" or "false"; it got "maybe"/);
});

test.run();
