/**
 * Next.js 16, as a user builds it: `next build` with Turbopack (its default) and tooltype's loader in
 * `turbopack.rules`, then `next start` and a request to a route handler that registers tools (one of them with a
 * parameter type from another file), exports them and dispatches a call. Also: a TT error fails `next build` at its
 * position; in `next dev`, an edit to the file a parameter type comes from changes the schema; `next build --webpack`
 * with the webpack plugin, as docs/building.md configures each. And on TypeScript 7 as the only `typescript`:
 * `next build` (Next's type check through TypeScript 7's `tsc`) serves the schemas of the 5.9 build byte for byte,
 * `next dev` follows an edit, and no `tsc --api` process outlives either.
 *
 * The projects live under .test-build, inside the repository, with `tooltype` linked to it: `turbopack.root` is the
 * repository so that Turbopack resolves `tooltype`, `next` and `react` there (a user's project installs them).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as fs from "node:fs";
import * as http from "node:http";
import { spawn } from "node:child_process";
import * as os from "node:os";
import * as path from "node:path";
import tooltypeLoader from "tooltype/turbopack";
import { HANG_MS } from "../support/hang";
import { listenOnLoopback } from "../support/listen";
import { makeProject, writeFiles } from "./project";
import { run } from "./app";
import { stripVTControlCharacters } from "node:util";

const REPO = path.resolve(__dirname, "../../..");
const NEXT = path.join(REPO, "node_modules", "next", "dist", "bin", "next");
const ENV = { NEXT_TELEMETRY_DISABLED: "1" };

const TSCONFIG = JSON.stringify({
  compilerOptions: {
    target: "ES2022",
    lib: ["dom", "ES2022"],
    module: "esnext",
    moduleResolution: "bundler",
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    jsx: "preserve",
    isolatedModules: true,
    esModuleInterop: true,
  },
  include: ["**/*.ts", "**/*.tsx"],
  exclude: ["node_modules"],
});

const TYPES = `/** Where to look. */
export interface Place {
  /** City name */
  city: string;
  /** Country code */
  country?: "FR" | "DE";
}
`;

const TOOLS = `import { tool } from "tooltype";
import type { Place } from "./types";

/**
 * Get the weather for a place.
 * @param place The place
 */
export const weather = tool(function get_weather(place: Place): string {
  return \`Sunny in \${place.city}\`;
});
`;

/** A class whose method is a tool under standard decorators (the tsconfig has no experimentalDecorators). */
const SHOP = `import { tool } from "tooltype";

export class Shop {
  /**
   * Price of an item.
   * @param item Item name
   */
  @tool
  price(item: string): string {
    return \`\${item}: 3\`;
  }
}
`;

const ROUTE = `import { tool, ToolRegistry } from "tooltype";
import { weather } from "../../../lib/tools";
import { Shop } from "../../../lib/shop";

/**
 * Search products.
 * @param keyword Search keyword
 * @param limit Maximum number of results
 */
function search_products(keyword: string, limit: number = 10): string {
  return \`\${keyword}:\${limit}\`;
}

const registry = new ToolRegistry([tool(search_products), weather, new Shop()]);

export async function GET(): Promise<Response> {
  const call = (args: string) => ({ role: "assistant" as const, content: null, tool_calls: [{ id: "c1", type: "function" as const, function: { name: "get_weather", arguments: args } }] });
  const [ok] = await registry.dispatch(call('{"place":{"city":"Paris"}}'));
  const [bad] = await registry.dispatch(call('{"place":{"city":"Paris","country":"IT"}}'));
  const [priced] = await registry.dispatch({ role: "assistant", content: null, tool_calls: [{ id: "c2", type: "function", function: { name: "price", arguments: '{"item":"tea"}' } }] });
  return Response.json({ tools: registry.toOpenAITools(), ok: ok!.content, bad: bad!.status, priced: priced!.content });
}
`;

/** The next.config.mjs of docs/building.md, plus `turbopack.root` (see above). */
const turbopackConfig = (root: string) => `export default {
  turbopack: {
    root: ${JSON.stringify(root)},
    rules: {
      "*.ts": { loaders: ["tooltype/turbopack"] },
      "*.tsx": { loaders: ["tooltype/turbopack"] },
    },
  },
};
`;
const TURBOPACK_CONFIG = turbopackConfig(REPO);

const WEBPACK_CONFIG = `import tooltype from "tooltype/webpack";

export default {
  turbopack: { root: ${JSON.stringify(REPO)} },
  webpack(config) {
    config.plugins = [...(config.plugins ?? []), tooltype()];
    return config;
  },
};
`;

function appFiles(name: string, config: string): Record<string, string> {
  return {
    "package.json": JSON.stringify({ name, private: true }),
    "tsconfig.json": TSCONFIG,
    "next.config.mjs": config,
    "lib/types.ts": TYPES,
    "lib/tools.ts": TOOLS,
    "lib/shop.ts": SHOP,
    "app/api/tools/route.ts": ROUTE,
  };
}

function nextApp(name: string, config: string, files: Record<string, string> = {}): string {
  return makeProject(name, { ...appFiles(name, config), ...files });
}

const made: string[] = [];
test.after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * The app in a folder of its own outside the repository, whose only `typescript` is TypeScript 7.0 (npm's
 * `typescript` today): inside it, the repository's @typescript/typescript6 would be found by walking up and read the
 * types instead. Its node_modules links the packages a user installs to the repository's copies; `turbopack.root`
 * is the folder holding both, since Turbopack reads no file outside its root (a user's installed packages are
 * inside their project).
 */
function nextAppOnTypeScript7(name: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `tooltype-${name}-`)));
  made.push(dir);
  let root = dir;
  while (path.relative(root, REPO).startsWith("..")) root = path.dirname(root);
  for (let above = path.dirname(dir); ; above = path.dirname(above)) {
    const stray = fs.readdirSync(above).filter((file) => /^(middleware|proxy)\.(m|c)?[jt]sx?$/.test(file));
    assert.equal(stray, [], `${above} holds a file Next.js would take for this app's middleware: remove it`);
    if (above === path.dirname(above)) break;
  }
  writeFiles(dir, appFiles(name, turbopackConfig(root)));
  const link = (target: string, name: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, "node_modules", name)), { recursive: true });
    fs.symlinkSync(target, path.join(dir, "node_modules", name), "dir");
  };
  link(REPO, "tooltype");
  link(path.join(REPO, "node_modules", "typescript-7"), "typescript");
  for (const name of ["next", "react", "react-dom", "@types/react", "@types/node"])
    link(path.join(REPO, "node_modules", name), name);
  return dir;
}

/** The `tsc --api` processes running for the project in `dir` (TypeScript 7's API, started with `--cwd dir`). */
function apiProcessesOf(dir: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) continue;
      const argv = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (argv.includes("--api") && argv.includes(dir)) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Runs `during` while noting every `tsc --api` process of `dir` that runs meanwhile. */
async function watchingApiProcesses<T>(
  dir: string,
  during: () => Promise<T>,
): Promise<{ result: T; seen: Set<number> }> {
  const seen = new Set<number>();
  const look = () =>
    apiProcessesOf(dir).forEach((pid) => {
      seen.add(pid);
    });
  const timer = setInterval(look, 50);
  try {
    return { result: await during(), seen };
  } finally {
    clearInterval(timer);
  }
}

/** No `tsc --api` process of `dir` left once the ones closed have had time to exit (HANG_MS bounds only a hang). */
async function noApiProcessLeft(dir: string, label: string): Promise<void> {
  const until = Date.now() + HANG_MS;
  while (apiProcessesOf(dir).length > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(apiProcessesOf(dir), [], `${label}: no tsc --api process outlives it`);
}

async function build(dir: string, ...flags: string[]): Promise<{ code: number | null; output: string }> {
  const result = await run(process.execPath, [NEXT, "build", ...flags], dir, ENV);
  return { code: result.code, output: stripVTControlCharacters(`${result.stdout}${result.stderr}`) };
}

interface Served {
  tools: {
    function: {
      name: string;
      description: string;
      parameters: {
        properties: Record<string, { description?: string; properties?: Record<string, unknown> }>;
        required?: string[];
      };
    };
  }[];
  ok: string;
  bad: string;
  priced: string;
}

/** A Next.js server (`next start` or `next dev`) on a free loopback port, and GET /api/tools on it. */
async function withServer<T>(
  dir: string,
  command: "start" | "dev",
  use: (get: () => Promise<Served>) => Promise<T>,
): Promise<T> {
  const probe = http.createServer();
  const port = await listenOnLoopback(probe);
  await new Promise((resolve) => probe.close(resolve));
  const server = spawn(process.execPath, [NEXT, command, "-p", String(port), "-H", "127.0.0.1"], {
    cwd: dir,
    env: { ...process.env, ...ENV },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  server.stdout.on("data", (d: Buffer) => (log += d.toString()));
  server.stderr.on("data", (d: Buffer) => (log += d.toString()));
  const get = async (): Promise<Served> => {
    const deadline = Date.now() + HANG_MS;
    for (;;) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/api/tools`);
        const text = await response.text();
        assert.is(response.status, 200, text);
        return JSON.parse(text) as Served;
      } catch (error) {
        if (Date.now() > deadline || server.exitCode !== null)
          throw new Error(`next ${command}: ${String(error)}\n${log}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  };
  try {
    return await use(get);
  } finally {
    server.kill();
  }
}

function serve(dir: string): Promise<Served> {
  return withServer(dir, "start", (get) => get());
}

/** The app built on the JavaScript API (the repository's TypeScript 5.9) with tooltype/turbopack, served: built once. */
let onJavaScriptApi: Promise<{ built: { code: number | null; output: string }; served?: Served }> | undefined;
function turbopackOnJavaScriptApi(): Promise<{ built: { code: number | null; output: string }; served?: Served }> {
  return (onJavaScriptApi ??= (async () => {
    const dir = nextApp("next-turbopack", TURBOPACK_CONFIG);
    const built = await build(dir);
    return built.code === 0 ? { built, served: await serve(dir) } : { built };
  })());
}

/** The properties of get_weather's `place`, sorted. */
function placeKeys(served: Served): string[] {
  const weather = served.tools.find((t) => t.function.name === "get_weather")!;
  return Object.keys(weather.function.parameters.properties.place!.properties ?? {}).sort();
}

function checkServed(served: Served, how: string): void {
  const byName = new Map(served.tools.map((t) => [t.function.name, t.function]));
  assert.equal([...byName.keys()].sort(), ["get_weather", "price", "search_products"], how);
  // The @tool method under standard decorators: the loader writes the decorator out as plain JavaScript.
  assert.equal(byName.get("price")!.parameters.required, ["item"], `${how}: the @tool method`);
  assert.is(served.priced, "tea: 3", `${how}: the @tool method runs`);
  const search = byName.get("search_products")!;
  assert.is(search.description, "Search products.", how);
  assert.equal(search.parameters.required, ["keyword"], how);
  assert.is(search.parameters.properties.limit!.description, "Maximum number of results", how);
  assert.equal(placeKeys(served), ["city", "country"], `${how}: the type from another file`);
  assert.is(served.ok, "Sunny in Paris", how);
  assert.is(served.bad, "error", `${how}: a country outside the union is refused`);
}

test("Next.js 16 with Turbopack (next build): tooltype/turbopack in turbopack.rules; the route's tools have their schemas and validate", async () => {
  const { built, served } = await turbopackOnJavaScriptApi();
  assert.is(built.code, 0, built.output);
  assert.match(built.output, /Next\.js 16\.\d+\.\d+ \(Turbopack\)/);
  checkServed(served!, "Turbopack");
});

// nextAppOnTypeScript7 refuses a middleware.js or proxy.ts in a folder above the app: Next.js took a compiled module
// left in /tmp for the app's middleware and answered 500.
test("Next.js 16 with Turbopack on TypeScript 7 alone: next build type-checks with TypeScript 7's tsc, the loader reads types through its API (no process left after the build), the schemas are byte for byte those of the 5.9 build", async () => {
  const dir = nextAppOnTypeScript7("next-turbopack-ts7");
  const { result: built, seen } = await watchingApiProcesses(dir, () => build(dir));
  assert.is(built.code, 0, built.output);
  assert.match(built.output, /Next\.js 16\.\d+\.\d+ \(Turbopack\)/);
  // Next's own type check runs the project's tsc (experimental.useTypeScriptCli, on by default): TypeScript 7's.
  assert.match(built.output, /Finished TypeScript/, "next build type-checked the project");
  assert.ok(seen.size > 0, "the loader read the types through TypeScript 7's API (a tsc --api process ran)");
  await noApiProcessLeft(dir, "next build");
  const served = await serve(dir);
  checkServed(served, "Turbopack on TypeScript 7");
  const reference = (await turbopackOnJavaScriptApi()).served;
  assert.ok(reference, "the same app builds on TypeScript 5.9 (the test above)");
  assert.is(
    JSON.stringify(served.tools),
    JSON.stringify(reference.tools),
    "the tools as the 5.9 build exports them, byte for byte",
  );
});

/** Adds a documented `zip` to the parameter type's file, then asks the dev server until its schema has it (HANG_MS bounds a hang). */
async function editTypesAndSeeSchemaChange(dir: string, get: () => Promise<Served>): Promise<void> {
  const before = await get();
  assert.equal(placeKeys(before), ["city", "country"]);
  fs.writeFileSync(
    path.join(dir, "lib", "types.ts"),
    TYPES.replace("  country?:", "  /** Postal code */\n  zip?: string;\n  country?:"),
  );
  const deadline = Date.now() + HANG_MS;
  let keys = placeKeys(before);
  while (!keys.includes("zip") && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    keys = placeKeys(await get());
  }
  assert.equal(keys, ["city", "country", "zip"], "the schema after the edit");
}

test("next dev with Turbopack: an edit to the file a tool's parameter type comes from (imported as a type only) changes the schema", async () => {
  const dir = nextApp("next-turbopack-dev", TURBOPACK_CONFIG);
  await withServer(dir, "dev", async (get) => {
    // Nothing but the loader's declared dependency ties lib/types.ts to the route: \`import type\` is erased.
    await editTypesAndSeeSchemaChange(dir, get);
  });
});

test("next dev with Turbopack on TypeScript 7 alone: an edit to the parameter type's file changes the schema; no tsc --api process outlives the server", async () => {
  const dir = nextAppOnTypeScript7("next-turbopack-ts7-dev");
  const { seen } = await watchingApiProcesses(dir, () =>
    withServer(dir, "dev", async (get) => {
      await editTypesAndSeeSchemaChange(dir, get);
    }),
  );
  assert.ok(seen.size > 0, "next dev's loader read the types through TypeScript 7's API");
  await noApiProcessLeft(dir, "next dev, stopped");
});

test("Next.js 16 with Turbopack: a TT error fails next build with its file, line and column", async () => {
  const dir = nextApp("next-turbopack-error", TURBOPACK_CONFIG, {
    "lib/tools.ts": `${TOOLS}
/**
 * Run later.
 * @param cb What to run
 */
export const later = tool(function run_later(cb: () => void): string { return ""; });
`,
  });
  const built = await build(dir);
  assert.is.not(built.code, 0);
  assert.match(built.output, /lib\/tools\.ts\(16,\d+\): error TT1001: parameter "cb" has type a function/);
});

test("the loader takes its options from turbopack.rules (here a tsconfig of another name), as JSON", async () => {
  const dir = makeProject("turbopack-options", {
    "package.json": JSON.stringify({ name: "turbopack-options", private: true }),
    "config/app.tsconfig.json": JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "esnext",
        moduleResolution: "bundler",
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      include: ["../lib"],
    }),
    "lib/types.ts": TYPES,
    "lib/tools.ts": TOOLS,
    "lib/shop.ts": SHOP,
  });
  const file = path.join(dir, "lib", "tools.ts");
  const output = await new Promise<string>((resolve, reject) => {
    const context = {
      resourcePath: file,
      getOptions: () =>
        JSON.parse(JSON.stringify({ tsconfig: path.join(dir, "config", "app.tsconfig.json") })) as unknown,
      async: () => (error: Error | null, code?: string) => (error ? reject(error) : resolve(code!)),
    };
    tooltypeLoader.call(context, fs.readFileSync(file, "utf8"));
  });
  assert.match(output, /\{ v: 1, name: "get_weather"/);
  assert.match(
    output,
    '"city":{"type":"string","description":"City name"}',
    "the type from the other file, read through the given tsconfig",
  );
});

test("Next.js 16 with webpack (next build --webpack): the tooltype/webpack plugin", async () => {
  const dir = nextApp("next-webpack", WEBPACK_CONFIG);
  const built = await build(dir, "--webpack");
  assert.is(built.code, 0, built.output);
  assert.match(built.output, /Next\.js 16\.\d+\.\d+ \(webpack\)/);
  checkServed(await serve(dir), "webpack");
});

test.run();
