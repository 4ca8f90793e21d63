/**
 * Watch mode: in a Vite dev server, a property added to an interface two imports away from a tool (tools.ts →
 * models.ts, a barrel → query.ts, `extends` → base.ts) is accepted by the very next dispatch: the plugin marked
 * every file the tool's schema depends on, so the server re-transforms the tool's module when one changes.
 *
 * In the Rollup, esbuild and webpack watch modes (and Rolldown's and Rspack's), the next output's schema changes,
 * with no other edit, when a file the tools' modules do not import is edited into a global declaration augmenting an
 * interface the tools use, when it is edited out of one again, and when a new file augmenting that interface is made;
 * an edit of that file that declares nothing globally starts a rebuild that transforms no module with tools again.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { type ToolCallMessage, ToolRegistry } from "tooltype";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { HANG_MS } from "../support/hang";
import { keepingNodeEnv, prepareApp, viteDevServer } from "./app";
import { WATCHED_BUNDLERS, watchSeesGlobalDeclarations } from "./watches";

const CALL: ToolCallMessage = {
  content: "",
  tool_calls: [{ id: "1", name: "forecast", args: { query: { city: "Porto", days: 1, country: "PT" } } }],
};

test("Vite dev server: a property added two imports away is accepted by the next dispatch", () =>
  keepingNodeEnv(async () => {
    const dir = prepareApp("watch");
    const base = path.join(dir, "src", "base.ts");
    let changed: (() => void) | undefined;
    // Tells the test when the server has seen the edit (the hook runs before the server invalidates modules).
    const server = await viteDevServer(dir, { tsconfig: path.join(dir, "tsconfig.json") }, (id) => {
      if (id === base) changed?.();
    });
    try {
      const dispatch = async (): Promise<string> => {
        const tools = (await server.ssrLoadModule("/src/tools.ts")) as { forecast: (...args: never[]) => unknown };
        const [message] = await new ToolRegistry([tools.forecast]).runCalls(CALL);
        return `${message!.status}: ${message!.content}`;
      };
      const before = await dispatch();
      assert.match(before, /^error: [\s\S]*unexpected property "country"/, before);

      const seen = new Promise<void>((resolve) => (changed = resolve));
      fs.writeFileSync(
        base,
        fs
          .readFileSync(base, "utf8")
          .replace("city: string;", "city: string;\n  /** Country code */\n  country?: string;"),
      );
      await seen;
      // The server drops the tool's module once every plugin's watchChange has settled: the next load is the next
      // dispatch.
      const toolsModule = server.environments.ssr.moduleGraph.getModuleById(path.join(dir, "src", "tools.ts"));
      assert.ok(toolsModule, "the server knows tools.ts");
      for (const end = Date.now() + HANG_MS; toolsModule.transformResult && Date.now() < end; )
        await new Promise((resolve) => setTimeout(resolve, 10));
      const after = await dispatch();
      assert.match(after, /^success: Porto: sunny .*"country":"PT"/, after);
    } finally {
      await server.close();
    }
  }));

for (const bundler of WATCHED_BUNDLERS)
  test(`${bundler} watch: a file edited into (and out of) a global declaration, and a new augmenting file, change the next output's schema; an unrelated edit transforms no tool module again`, () =>
    watchSeesGlobalDeclarations(bundler, prepareApp(`watch-${bundler}`)));

test.run();
