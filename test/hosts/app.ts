/**
 * The sample app the bundler tests build (test/fixtures/hosts-app): a copy per test in .test-build/hosts/<name>
 * with node_modules/tooltype linked to this repository, the scripted OpenAI reply it dispatches, running a built
 * bundle against the scripted server, and reading what it printed.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as assert from "uvu/assert";
import { startScriptedServer } from "../scripted-openai/server";
import { HANG_MS } from "../support/hang";

export const REPO = path.resolve(__dirname, "../../..");
const FIXTURE = path.join(REPO, "test", "fixtures", "hosts-app");

/**
 * A fresh copy of the sample app; `edit` rewrites files (by path under the app) before anything reads them. The
 * folder is this process's own: the same test may run at the same time under another Node release.
 */
export function prepareApp(name: string, edit: Record<string, (text: string) => string> = {}): string {
  const dir = path.join(REPO, ".test-build", "hosts", `${name}-${process.pid}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, "node_modules"), { recursive: true });
  fs.cpSync(FIXTURE, dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: `hosts-${name}`, private: true }));
  fs.symlinkSync(REPO, path.join(dir, "node_modules", "tooltype"), "dir");
  for (const [file, change] of Object.entries(edit)) {
    const full = path.join(dir, file);
    fs.writeFileSync(full, change(fs.readFileSync(full, "utf8")));
  }
  return dir;
}

/** What the scripted model asks for: one good call per tool, and one that is valid only once `country` exists. */
export const CALLS = [
  { name: "forecast", arguments: { query: { city: "Lisbon", days: 2 }, unit: "fahrenheit" } },
  { name: "search", arguments: { keyword: "umbrella", limit: 2 } },
  { name: "search", arguments: { keyword: "umbrella", limit: 99 } },
  { name: "forecast", arguments: { query: { city: "Porto", days: 1, country: "PT" } } },
];

export interface AppOutput {
  results: { name: string; status: "success" | "error"; content: string }[];
  metas: { data: string; validator: string }[];
}

/** Runs a built bundle (`command`) against a scripted server answering {@link CALLS}; returns what it printed. */
export async function runApp(command: string, args: string[], cwd: string): Promise<AppOutput> {
  const server = await startScriptedServer(() => ({ tool_calls: CALLS }));
  try {
    const { code, stdout, stderr } = await run(command, args, cwd, { TOOLTYPE_BASE_URL: server.baseURL });
    assert.is(code, 0, `${command} ${args.join(" ")} failed:\n${stderr}`);
    return JSON.parse(stdout.trim().split("\n").pop()!) as AppOutput;
  } finally {
    await server.close();
  }
}

/** The dispatch came out right: the tools ran, the validators held, and `country` is accepted iff it exists. */
export function expectDispatch(output: AppOutput, countryKnown: boolean, label: string): void {
  const [forecast, search, tooMany, withCountry] = output.results;
  assert.is(forecast?.status, "success", `${label}: forecast`);
  assert.match(forecast!.content, /^Lisbon: sunny for 2 day\(s\), 21 F/, label);
  assert.is(search?.status, "success", `${label}: search`);
  assert.equal(JSON.parse(search!.content), ["umbrella #1", "umbrella #2"], label);
  assert.is(tooMany?.status, "error", `${label}: limit 99 is above Max<50>`);
  assert.match(tooMany!.content, /limit/, label);
  assert.is(
    withCountry?.status,
    countryKnown ? "success" : "error",
    `${label}: query.country ${countryKnown ? "accepted" : "rejected"}`,
  );
  if (countryKnown) assert.match(withCountry!.content, /"country":"PT"/, label);
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function run(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), HANG_MS);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Runs `fn` and puts NODE_ENV back as it was: Vite sets it for the whole process, and the test files that run
 * after in the same process (npm installs among them, which skip devDependencies under "production") must not
 * inherit it.
 */
export async function keepingNodeEnv<T>(fn: () => Promise<T>): Promise<T> {
  const before = process.env.NODE_ENV;
  try {
    return await fn();
  } finally {
    if (before === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = before;
  }
}

/**
 * Vite's dev server on the app in `dir`, in middleware mode (no HTTP server, no hot updates), with tooltype's plugin
 * (`options`) and a plugin that tells `seen` of each changed file (its hook runs before the server drops modules).
 */
export async function viteDevServer(
  dir: string,
  options: { tsconfig: string; cache?: boolean; cacheDir?: string },
  seen: (id: string) => void,
) {
  const vite = await import("vite");
  const tooltype = (await import("tooltype/vite")).default;
  return vite.createServer({
    root: dir,
    configFile: false,
    logLevel: "silent",
    appType: "custom",
    ssr: { external: ["tooltype"] },
    server: { middlewareMode: true, hmr: false },
    plugins: [tooltype(options), { name: "test-seen", watchChange: (id: string) => void seen(id) }],
  });
}

/**
 * Bun's binary. It comes in an npm platform package (@oven/bun-<platform>-<arch>); where npm ran `bun`'s install
 * script, that script moved it to node_modules/bun/bin/bun.exe. The first candidate that runs is the one.
 */
let bun: string | undefined;

export function bunBinary(): string {
  if (bun) return bun;
  const oven = path.join(REPO, "node_modules", "@oven");
  const candidates = [
    ...(fs.existsSync(oven)
      ? fs
          .readdirSync(oven)
          .filter((d) => d.startsWith(`bun-${process.platform}-`))
          .map((d) => path.join(oven, d, "bin", "bun"))
      : []),
    path.join(REPO, "node_modules", "bun", "bin", "bun.exe"),
  ];
  const found = candidates.find(
    (c) => fs.existsSync(c) && spawnSync(c, ["--version"], { stdio: "ignore" }).status === 0,
  );
  if (!found)
    throw new Error(
      `No Bun binary that runs among ${candidates.join(", ")}: run npm install (Bun comes in an optional package such as @oven/bun-linux-x64).`,
    );
  bun = found;
  return found;
}
