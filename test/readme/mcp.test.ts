/**
 * The README's MCP blocks ("MCP" annotations, "Tools as a service": Workers, Hono, Next.js route), each found by
 * its `<!-- readme-compile: mcp-NAME -->` marker and compiled with the real compiler against tooltype's published
 * types, hono's and the Web (DOM) globals, with no Node types: what compiles here compiles in a Workers or Next.js
 * project. The
 * annotations block also goes through the transformer, and its tool's title, annotations, progress and auth are
 * checked by running it; a tag value that does not parse is a TT1009 diagnostic at the tag.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { ToolRegistry, type ToolProgress } from "tooltype";
import { compileFixture } from "../support/compile";
import { readmeBlock } from "../support/readme";

const REPO = path.resolve(__dirname, "../../..");
/** What the blocks import from "../mcp/tools" (the user's own module). */
const TOOLS = `import { ToolRegistry } from "tooltype";
export const registry = new ToolRegistry();
export async function verifyToken(header: string | null): Promise<{ id: string; suspended: boolean } | undefined> {
  return header === "Bearer ok" ? { id: "u1", suspended: false } : undefined;
}
`;

test("Tools as a service: the Workers, Hono and Next.js blocks compile against Web types only", () => {
  const dir = path.join(REPO, ".test-build", "readme-mcp");
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, "node_modules"), { recursive: true });
  const link = path.join(dir, "node_modules", "tooltype");
  if (!fs.existsSync(link)) fs.symlinkSync(REPO, link, "dir");
  const files: Record<string, string> = { "tools.ts": TOOLS, "readme-worker.ts": readmeBlock("mcp-workers"), "readme-hono.ts": readmeBlock("mcp-hono"), "readme-route.ts": readmeBlock("mcp-next") };
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  const program = ts.createProgram(
    Object.keys(files).map((f) => path.join(dir, f)),
    {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
      types: [],
      strict: true,
      skipLibCheck: true,
      noEmit: true,
      baseUrl: dir,
      paths: { "@/*": ["./*"] },
    },
  );
  const problems = ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? path.basename(d.file.fileName) : ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
  assert.equal(problems, []);
});

test("the annotations block: JSDoc @title and hints reach tools/list; progress and auth reach the tool", async () => {
  const compiled = compileFixture(readmeBlock("mcp-annotations"));
  assert.equal(compiled.diagnostics.map((d) => d.message), []);
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
  assert.equal(seen.map((p) => [p.progress, p.total, p.message]), [
    [1, 3, "docs/a.md"],
    [2, 3, "docs/b.md"],
    [3, 3, "docs/c.md"],
  ]);
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
