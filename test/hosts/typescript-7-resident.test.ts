/**
 * Watch and dev modes on TypeScript 7 keep one `tsc --api` process and update its program with the files changed
 * (issue 49): `tooltype build -w` and Vite's dev server see an edit to the tools' own module, to a type two imports
 * away, a new module augmenting an interface the tools use and that module removed, all with the one process they
 * started; a process killed between two builds is replaced by the next build, which says nothing of it; and no
 * process outlives the watch (stopped by SIGINT or SIGTERM) or the dev server (closed). A rebuild reads again only the
 * modules a changed file can reach (counted: modules read and requests to the process). An esbuild context whose
 * first build the persistent cache answered opens its process when idle, so that the first edit finds it open, and a
 * one-shot build() the cache answered opens none; so does Vite's dev server whose first transform the cache answered. An edit of the project's own declaration file reaches the session.
 * esbuild's watch on 7.1 sees a file the tools' modules do not import edited into (and out of) a global declaration,
 * and a new augmenting module, in the next output's schema.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type ToolCallMessage, ToolRegistry } from "tooltype";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { typeScript7ProjectFor } from "../../transformer/hosts/project/typescript-7";
import { HANG_MS } from "../support/hang";
import { keepingNodeEnv, prepareApp, REPO, viteDevServer } from "./app";
import { start, waitFor } from "./project";
import { watchSeesGlobalDeclarations } from "./watches";

const CLI = path.join(REPO, "dist", "transformer", "hosts", "cli", "main.js");
const SUMMARY = /^\[[^\]]+\] Found (\d+) errors?\. Watching for file changes\.$/gm;
/** A module that augments the tools' `Place` (base.ts) with a property: new files join the program. */
const AUGMENTING = `export {};\ndeclare module "./base" {\n  interface Place {\n    /** Country code */\n    country?: string;\n  }\n}\n`;

const made: string[] = [];
test.after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/** The sample app outside the repository, its `typescript` the given TypeScript 7 package and nothing else. */
function projectOnlyOn(typescript7: "typescript-7" | "typescript-7.1", name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `tooltype-${name}-`));
  fs.cpSync(prepareApp(name), dir, { recursive: true, verbatimSymlinks: true });
  fs.symlinkSync(path.join(REPO, "node_modules", typescript7), path.join(dir, "node_modules", "typescript"), "dir");
  made.push(dir);
  return dir;
}

/** The running `tsc --api` processes whose parent is `parent`. */
function apiProcessesOf(parent: number): number[] {
  return procEntries()
    .filter((p) => p.parent === parent && p.args.includes("--api"))
    .map((p) => p.pid);
}

/** `tsc --api` processes working in `dir`, whoever their parent is now (an orphan's is init). */
function apiProcessesIn(dir: string): number[] {
  const real = fs.realpathSync(dir);
  return procEntries()
    .filter((p) => p.args.includes("--api") && p.cwd === real)
    .map((p) => p.pid);
}

function procEntries(): { pid: number; parent: number; args: string[]; cwd: string | undefined }[] {
  const found: { pid: number; parent: number; args: string[]; cwd: string | undefined }[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const [state, parent] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (state === "Z") continue;
      let cwd: string | undefined;
      try {
        cwd = fs.readlinkSync(`/proc/${entry}/cwd`);
      } catch {
        cwd = undefined;
      }
      const args = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      found.push({ pid: Number(entry), parent: Number(parent), args, cwd });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Every `tsc --api` process `parent` starts while this runs, seen by polling (each lives as long as its session). */
function countingApiProcesses(parent: () => number | undefined): { seen: Set<number>; stop(): void } {
  const seen = new Set<number>();
  const look = () => {
    const pid = parent();
    if (pid !== undefined) for (const api of apiProcessesOf(pid)) seen.add(api);
  };
  const timer = setInterval(look, 20);
  return {
    seen,
    stop: () => {
      look();
      clearInterval(timer);
    },
  };
}

async function noneLeftIn(dir: string, label: string): Promise<void> {
  const until = Date.now() + HANG_MS;
  while (apiProcessesIn(dir).length > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  assert.equal(apiProcessesIn(dir), [], `${label}: no tsc --api process left`);
}

// Each stopped by one of the signals the command handles.
for (const [typescript7, signal] of [
  ["typescript-7.1", "SIGINT"],
  ["typescript-7", "SIGTERM"],
] as const) {
  test(`${typescript7}: \`tooltype build -w\` updates one tsc --api process through edits, a new augmenting module and its removal; a killed one is replaced; ${signal} leaves none`, async () => {
    const dir = projectOnlyOn(typescript7, `ts7-resident-watch-${typescript7}`);
    const tsconfig = path.join(dir, "tsconfig.json");
    fs.writeFileSync(tsconfig, fs.readFileSync(tsconfig, "utf8").replace('"outDir":', '"rootDir": "src", "outDir":'));
    const src = (file: string) => path.join(dir, "src", file);
    const edit = (file: string, from: string, to: string) =>
      fs.writeFileSync(src(file), fs.readFileSync(src(file), "utf8").replace(from, to));
    const out = path.join(dir, "out-tspc", "tools.js");
    const { child, output } = start(process.execPath, [CLI, "build", "-w"], dir);
    const processes = countingApiProcesses(() => child.pid);
    /** A build after `since` (an output length) without errors whose tools.js matches `has` and not `lacks`. */
    const built = (label: string, since: number, has: RegExp, lacks?: RegExp) =>
      waitFor(`${label}: a build whose output matches ${has}`, () => {
        const counts = [...output().slice(since).matchAll(SUMMARY)].map((m) => Number(m[1]));
        if (child.exitCode !== null) throw new Error(`the watch ended (status ${child.exitCode}):\n${output()}`);
        if (!counts.includes(0) || !fs.existsSync(out)) return undefined;
        const js = fs.readFileSync(out, "utf8");
        return has.test(js) && !lacks?.test(js) ? true : undefined;
      }).catch((error: Error) => {
        throw new Error(`${error.message}; the watch printed:\n${output().slice(since)}`);
      });
    try {
      await built("the first build", 0, /City name/);
      let mark = output().length;
      edit("tools.ts", "Forecast the weather for a place.", "Forecast the weather anywhere.");
      await built("the tools' own module edited", mark, /Forecast the weather anywhere\./);

      mark = output().length;
      edit("base.ts", "City name", "Town name");
      await built("a type two imports away edited", mark, /Town name/, /City name/);

      mark = output().length;
      fs.writeFileSync(src("augment.ts"), AUGMENTING);
      await built("a new module augmenting Place", mark, /Country code/);

      mark = output().length;
      fs.rmSync(src("augment.ts"));
      await built("the augmenting module removed", mark, /Town name/, /Country code/);

      processes.stop();
      assert.is(processes.seen.size, 1, `one tsc --api process across the edits: ${[...processes.seen]}`);
      const [first] = processes.seen;

      // Killed between two builds (as an out-of-memory killer would): the next build opens a new session.
      process.kill(first!, "SIGKILL");
      await waitFor("the killed process gone", () => (apiProcessesOf(child.pid!).includes(first!) ? undefined : true));
      mark = output().length;
      edit("base.ts", "Town name", "Village name");
      await built("the build after the kill", mark, /Village name/, /Town name/);
      const said = output()
        .slice(mark)
        .replace(/Found 0 errors\./g, "");
      assert.not.match(said, /exited|error|TypeScript 7/i, `nothing said of the old process: ${said}`);
      const now = apiProcessesOf(child.pid!);
      assert.is(now.length, 1, "a new tsc --api process");
      assert.is.not(now[0], first);

      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill(signal);
      await exited;
    } finally {
      processes.stop();
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
    assert.not.match(output().replace(/Found 0 errors\./g, ""), /error/i, output());
    await noneLeftIn(dir, `${typescript7}, tooltype build -w stopped by ${signal}`);
  });
}

test("typescript-7.1: a rebuild reads again only the modules whose own text, imports reached or global files changed", () => {
  const dir = projectOnlyOn("typescript-7.1", "ts7-resident-reads");
  const src = (file: string) => path.join(dir, "src", file);
  fs.writeFileSync(
    src("more.ts"),
    `import { tool } from "tooltype";\n\n/** Count the letters of a word. */\nexport const count = tool(function count(word: string) {\n  return word.length;\n});\n`,
  );
  const project = typeScript7ProjectFor(path.join(dir, "tsconfig.json"), undefined);
  assert.ok(project, "a TypeScript 7 project");
  const outputs = new Map<string, string | undefined>();
  /** One rebuild as `tooltype build -w` makes it, after `changed` were refreshed: modules read, requests sent. */
  const rebuild = (...changed: string[]): { reads: number; requests: number } => {
    for (const file of changed) project.refresh(src(file));
    const reads = project.modulesRead;
    const files = project.sourceFiles();
    const requests = project.openSession().roundTrips;
    for (const file of files)
      outputs.set(path.basename(file), project.transform(file, fs.readFileSync(file, "utf8")).code);
    return { reads: project.modulesRead - reads, requests: project.openSession().roundTrips - requests };
  };
  const edit = (file: string, from: string, to: string) => {
    const text = fs.readFileSync(src(file), "utf8");
    assert.ok(text.includes(from), `${file} has ${from}`);
    fs.writeFileSync(src(file), text.replace(from, to));
  };
  try {
    const first = rebuild();
    assert.is(first.reads, 6, "the first build reads every module");
    assert.equal(rebuild(), { reads: 0, requests: 0 }, "nothing changed: nothing read, nothing asked");

    edit("more.ts", "Count the letters", "Count the characters");
    const one = rebuild("more.ts");
    assert.is(one.reads, 1, "one tool module of two edited: only it is read");
    assert.match(outputs.get("more.ts") ?? "", /Count the characters/);
    assert.ok(
      one.requests < first.requests,
      `fewer requests than the first build: ${one.requests} of ${first.requests}`,
    );

    edit("base.ts", "City name", "Town name");
    assert.is(rebuild("base.ts").reads, 2, "a type two imports away: base.ts itself and tools.ts, not more.ts");
    assert.match(outputs.get("tools.ts") ?? "", /Town name/);

    edit("more.ts", "word: string", "word: string, times: number");
    assert.is(rebuild("more.ts").reads, 1);
    assert.match(outputs.get("more.ts") ?? "", /times/);
    assert.match(outputs.get("tools.ts") ?? "", /Town name/, "tools.ts keeps its last result");

    fs.writeFileSync(src("augment.ts"), AUGMENTING);
    assert.is(rebuild("augment.ts").reads, 7, "a new augmenting module: every module is read again");
    assert.match(outputs.get("tools.ts") ?? "", /Country code/);
  } finally {
    project.close();
  }
});

test("typescript-7.1: an esbuild context whose first build the cache answered opens its tsc --api process when idle, and the first edit's rebuild uses it; a one-shot build() opens none", async () => {
  const dir = projectOnlyOn("typescript-7.1", "ts7-ahead-esbuild");
  const esbuild = await import("esbuild");
  const tooltype = (await import("tooltype/esbuild")).default;
  const tools = path.join(dir, "src", "tools.ts");
  const options = (): import("esbuild").BuildOptions => ({
    entryPoints: [tools],
    bundle: true,
    platform: "node",
    format: "esm",
    write: false,
    logLevel: "silent",
    external: ["tooltype"],
    plugins: [
      tooltype({ tsconfig: path.join(dir, "tsconfig.json"), cache: true, cacheDir: path.join(dir, ".tooltype-cache") }),
    ],
  });
  const text = (result: import("esbuild").BuildResult): string => result.outputFiles![0]!.text;
  // Fills the cache (the types read by one process, which the build's end ends).
  const cold = await esbuild.build(options());
  assert.match(text(cold), /Forecast the weather for a place\./);
  await noneLeftIn(dir, "a one-shot build that read types");

  const oneShot = countingApiProcesses(() => process.pid);
  const warm = await esbuild.build(options());
  assert.is(text(warm), text(cold), "the cache's answer");
  // Well past the idle delay after which a watch opens its session: a one-shot build has ended by then.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  oneShot.stop();
  assert.is(oneShot.seen.size, 0, `a one-shot build the cache answered starts no process: ${[...oneShot.seen]}`);

  const context = await esbuild.context(options());
  const watching = countingApiProcesses(() => process.pid);
  try {
    assert.is(text(await context.rebuild()), text(cold), "the context's first build: the cache's answer");
    const [opened] = await waitFor("the session opened while the context is idle", () => {
      const now = apiProcessesOf(process.pid);
      return now.length > 0 ? now : undefined;
    });
    fs.writeFileSync(
      tools,
      fs.readFileSync(tools, "utf8").replace("Forecast the weather for a place.", "Forecast the weather anywhere."),
    );
    const edited = text(await context.rebuild());
    assert.match(edited, /Forecast the weather anywhere\./);
    assert.not.match(edited, /Forecast the weather for a place\./);
    watching.stop();
    assert.equal([...watching.seen], [opened], "one tsc --api process: the one opened ahead read the edit");
  } finally {
    watching.stop();
    await context.dispose();
  }
  await noneLeftIn(dir, "the context disposed");
});

/** A declaration file of the project augmenting the tools' `Place` with a property described as `description`. */
const declaring = (description: string) =>
  `export {};\ndeclare module "./base" {\n  interface Place {\n    /** ${description} */\n    country?: string;\n  }\n}\n`;

test("typescript-7.1: an edit of the project's own declaration file reaches the resident session and changes the next schema", () => {
  const dir = projectOnlyOn("typescript-7.1", "ts7-resident-declaration");
  const declaration = path.join(dir, "src", "country.d.ts");
  fs.writeFileSync(declaration, declaring("Country code"));
  const project = typeScript7ProjectFor(path.join(dir, "tsconfig.json"), undefined);
  assert.ok(project, "a TypeScript 7 project");
  const tools = path.join(dir, "src", "tools.ts");
  const read = () => project.transform(tools, fs.readFileSync(tools, "utf8"));
  try {
    const before = read();
    assert.match(before.code ?? "", /Country code/);
    assert.ok(
      before.dependencies.some((d) => path.basename(d) === "country.d.ts"),
      `the declaration file is a dependency (a bundler's watch then sees it): ${before.dependencies}`,
    );
    fs.writeFileSync(declaration, declaring("Nation code, as ISO 3166 writes it"));
    project.refresh(declaration);
    const after = read().code ?? "";
    assert.match(after, /Nation code, as ISO 3166 writes it/);
    assert.not.match(after, /Country code/);
    // What `tooltype build -w` watches: the project's declaration files, not those the build writes.
    assert.not.ok(project.isOutput(declaration), "src/country.d.ts is a source");
    assert.ok(project.isOutput(path.join(dir, "out-tspc", "tools.d.ts")), "the outDir's declarations are output");
    assert.ok(project.isOutput(path.join(dir, "src", "tools.d.ts")), "a declaration beside its source is output");
  } finally {
    project.close();
  }
});

const CALL: ToolCallMessage = {
  content: "",
  tool_calls: [{ id: "1", name: "forecast", args: { query: { city: "Porto", days: 1, country: "PT" } } }],
};

test("typescript-7.1: Vite's dev server keeps one tsc --api process across edits two imports away and a new augmenting module, and closing the server ends it", () =>
  keepingNodeEnv(async () => {
    const dir = projectOnlyOn("typescript-7.1", "ts7-resident-vite");
    const base = path.join(dir, "src", "base.ts");
    const augment = path.join(dir, "src", "augment.ts");
    let changed: (() => void) | undefined;
    const server = await viteDevServer(dir, { tsconfig: path.join(dir, "tsconfig.json") }, (id) => {
      if (id === base || id === augment) changed?.();
    });
    const processes = countingApiProcesses(() => process.pid);
    try {
      const toolsId = path.join(fs.realpathSync(dir), "src", "tools.ts");
      const dispatch = async (): Promise<string> => {
        const tools = (await server.ssrLoadModule("/src/tools.ts")) as { forecast: (...args: never[]) => unknown };
        const [message] = await new ToolRegistry([tools.forecast]).runCalls(CALL);
        return `${message!.status}: ${message!.content}`;
      };
      /** Changes a file and waits until the server has dropped the tools' module (the next load transforms it). */
      const change = async (write: () => void): Promise<void> => {
        const seen = new Promise<void>((resolve) => (changed = resolve));
        write();
        await seen;
        const module =
          server.environments.ssr.moduleGraph.getModuleById(toolsId) ??
          server.environments.ssr.moduleGraph.getModuleById(path.join(dir, "src", "tools.ts"));
        assert.ok(module, "the server knows tools.ts");
        for (const end = Date.now() + HANG_MS; module.transformResult && Date.now() < end; )
          await new Promise((resolve) => setTimeout(resolve, 10));
      };
      const before = await dispatch();
      assert.match(before, /^error: [\s\S]*unexpected property "country"/, before);
      const editBase = (from: string, to: string) =>
        change(() => fs.writeFileSync(base, fs.readFileSync(base, "utf8").replace(from, to)));
      await editBase("city: string;", "city: string;\n  /** Country code */\n  country?: string;");
      const after = await dispatch();
      assert.match(after, /^success: Porto: sunny .*"country":"PT"/, after);
      await editBase("  /** Country code */\n  country?: string;", "");
      const again = await dispatch();
      assert.match(again, /^error: [\s\S]*unexpected property "country"/, again);
      await change(() => fs.writeFileSync(augment, AUGMENTING));
      const augmented = await dispatch();
      assert.match(augmented, /^success: Porto: sunny .*"country":"PT"/, `a new module augmenting Place: ${augmented}`);
      processes.stop();
      assert.is(processes.seen.size, 1, `one tsc --api process across the edits: ${[...processes.seen]}`);
    } finally {
      processes.stop();
      await server.close();
    }
    await noneLeftIn(dir, "Vite's dev server closed");
  }));

test("typescript-7.1: a Vite dev server whose first transform the cache answered opens its tsc --api process when idle, and the first edit's transform uses it", () =>
  keepingNodeEnv(async () => {
    const dir = projectOnlyOn("typescript-7.1", "ts7-ahead-vite");
    const tools = path.join(dir, "src", "tools.ts");
    let changed: (() => void) | undefined;
    const devServer = () =>
      viteDevServer(
        dir,
        { tsconfig: path.join(dir, "tsconfig.json"), cache: true, cacheDir: path.join(dir, ".tooltype-cache") },
        (id) => {
          if (id === tools) changed?.();
        },
      );
    const description = async (server: Awaited<ReturnType<typeof devServer>>): Promise<string> => {
      const loaded = (await server.ssrLoadModule("/src/tools.ts")) as { forecast: never };
      return new ToolRegistry([loaded.forecast]).toOpenAITools()[0]!.function.description ?? "";
    };
    // Fills the cache: the first server reads the types, and closing it ends its process.
    const first = await devServer();
    try {
      assert.match(await description(first), /Forecast the weather for a place\./);
    } finally {
      await first.close();
    }
    await noneLeftIn(dir, "the first dev server closed");

    const server = await devServer();
    const processes = countingApiProcesses(() => process.pid);
    try {
      assert.match(await description(server), /Forecast the weather for a place\./, "the cache's answer");
      const [opened] = await waitFor("the session opened while the server is idle", () => {
        const now = apiProcessesOf(process.pid);
        return now.length > 0 ? now : undefined;
      });
      const seen = new Promise<void>((resolve) => (changed = resolve));
      fs.writeFileSync(
        tools,
        fs.readFileSync(tools, "utf8").replace("Forecast the weather for a place.", "Forecast the weather anywhere."),
      );
      await seen;
      const module = server.environments.ssr.moduleGraph.getModuleById(
        path.join(fs.realpathSync(dir), "src", "tools.ts"),
      );
      for (const end = Date.now() + HANG_MS; module?.transformResult && Date.now() < end; )
        await new Promise((resolve) => setTimeout(resolve, 10));
      assert.match(await description(server), /Forecast the weather anywhere\./);
      processes.stop();
      assert.equal([...processes.seen], [opened], "one tsc --api process: the one opened ahead read the edit");
    } finally {
      processes.stop();
      await server.close();
    }
    await noneLeftIn(dir, "the dev server closed");
  }));

test("typescript-7.1: esbuild's watch sees a file edited into and out of a global declaration, and a new augmenting module, in the next output's schema; an unrelated edit reads no module again", () =>
  watchSeesGlobalDeclarations("esbuild", projectOnlyOn("typescript-7.1", "ts7-watch-globals")));

test.run();
