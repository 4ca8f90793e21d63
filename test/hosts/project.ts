/**
 * Throwaway user projects for the host tests (register hook, CLI, incremental tspc): files written under
 * .test-build/hosts/, with node_modules/tooltype linked to this repository as an installed package would be, and
 * the commands a user types run as child processes with a time limit (the repository's node_modules, reached by
 * walking up, provide typescript, ts-patch and tsx).
 */
import { execFile, type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { HANG_MS } from "../support/hang";

export const repo = path.resolve(__dirname, "../../..");
const base = path.join(repo, ".test-build", "hosts");
let counter = 0;

/** Writes `files` (relative names → text) into a fresh project folder and returns its path. */
export function makeProject(name: string, files: Record<string, string>): string {
  const dir = path.join(base, `${name}-${process.pid}-${++counter}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, "node_modules"), { recursive: true });
  fs.symlinkSync(repo, path.join(dir, "node_modules", "tooltype"), "dir");
  writeFiles(dir, files);
  return dir;
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `file args` in `cwd` without a shell (in `env`, this process's by default); never throws (the exit code says how it went). */
export function run(
  file: string,
  args: string[],
  cwd: string,
  timeout = HANG_MS,
  env?: NodeJS.ProcessEnv,
): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, timeout, env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      const note = error?.killed ? `\n(killed after ${timeout} ms)` : "";
      resolve({ code, stdout: String(stdout), stderr: String(stderr) + note });
    });
  });
}

/** `node args...` with this process's Node. */
export function node(args: string[], cwd: string, timeout?: number, env?: NodeJS.ProcessEnv): Promise<Run> {
  return run(process.execPath, args, cwd, timeout, env);
}

/** A binary of the repository's node_modules/.bin run with Node (tspc, tsx). */
export function bin(name: string): string {
  return path.join(repo, "node_modules", ".bin", name);
}

/** The `tooltype` CLI as installed (package.json "bin"). */
export function tooltype(args: string[], cwd: string): Promise<Run> {
  return node([path.join(repo, "dist", "transformer", "hosts", "cli", "main.js"), ...args], cwd);
}

/** Starts a long-running child (a watcher); the caller must stop it with `stop`. */
export function start(file: string, args: string[], cwd: string): { child: ChildProcess; output: () => string } {
  const child = spawn(file, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout?.on("data", (d) => (out += String(d)));
  child.stderr?.on("data", (d) => (out += String(d)));
  return { child, output: () => out };
}

/** Polls `check` until it returns a value, or fails after `timeoutMs` (a hang) with `what`. */
export async function waitFor<T>(what: string, check: () => T | undefined, timeoutMs = HANG_MS): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The commands of a block of docs/building.md marked `<!-- readme-commands: NAME -->`, one argv per line. They run as
 * the guide says: `npx` is dropped, `tooltype`, `tsx` and `tspc` are the installed bins, `node` is this Node.
 */
export function readmeCommands(name: string): string[][] {
  const readme = fs.readFileSync(path.join(repo, "docs", "building.md"), "utf8");
  const marker = `<!-- readme-commands: ${name} -->\n\`\`\`sh\n`;
  const start = readme.indexOf(marker);
  if (start < 0) throw new Error(`docs/building.md has no block marked readme-commands: ${name}`);
  const body = readme.slice(start + marker.length, readme.indexOf("\n```", start + marker.length));
  return body
    .split("\n")
    .filter((l) => l.trim() && !l.startsWith("#"))
    .map((l) => l.trim().split(/\s+/));
}

/** Runs one documented command line in `cwd`. */
export function runCommand(argv: string[], cwd: string): Promise<Run> {
  const [first, ...rest] = argv[0] === "npx" ? argv.slice(1) : argv;
  if (first === "node") return node(rest, cwd);
  if (first === "tooltype") return tooltype(rest, cwd);
  if (first === "tsx" || first === "tspc") return run(bin(first), rest, cwd);
  throw new Error(`documented command ${argv.join(" ")}: no runner for ${first}`);
}

/** The first ```lang block under `heading` (a `## ` line of docs/building.md, as written): what a test runs as documented. */
export function docsBlock(heading: string, lang: string): string {
  const doc = fs.readFileSync(path.join(repo, "docs", "building.md"), "utf8");
  const at = doc.indexOf(`\n## ${heading}\n`);
  if (at < 0) throw new Error(`docs/building.md has no section "## ${heading}"`);
  const next = doc.indexOf("\n## ", at + 1);
  const section = doc.slice(at, next < 0 ? undefined : next);
  const start = section.indexOf(`\`\`\`${lang}\n`);
  if (start < 0) throw new Error(`docs/building.md, "## ${heading}": no \`\`\`${lang} block`);
  const body = start + lang.length + 4;
  return section.slice(body, section.indexOf("\n```", body) + 1);
}
