/**
 * The blocks of docs/tools-as-a-service.md (Workers, Hono, Next.js route), each found by its
 * `<!-- readme-compile: mcp-NAME -->` marker, compiled with the real compiler against tooltype's published types,
 * hono's and the Web (DOM) globals, with no Node types: what compiles here compiles in a Workers or Next.js project.
 * (test/readme/mcp.test.ts runs the Hono and Next.js blocks.)
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { readmeBlock } from "../support/readme";

const REPO = path.resolve(__dirname, "../../..");
/** What the blocks import from "./tools" (the user's own module). */
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
  const files: Record<string, string> = {
    "tools.ts": TOOLS,
    "readme-worker.ts": readmeBlock("mcp-workers"),
    "readme-hono.ts": readmeBlock("mcp-hono"),
    "readme-route.ts": readmeBlock("mcp-next"),
  };
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
  const problems = ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) => `${d.file ? path.basename(d.file.fileName) : ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`,
    );
  assert.equal(problems, []);
});

test.run();
