/**
 * TypeScript 7's API process, as tooltype's reader runs it: one per session, closed at the end; a process that
 * crashes or hangs while a file is read is a clear error naming that file, and leaves no process behind. Both
 * 7.0's `typescript/unstable/sync` and 7.1's `typescript/sync`.
 */
import type { ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { loadTypeScript7, TypeScript7Session } from "../../transformer/readers/ts7/api";
import { analyseTypeScript7 } from "../../transformer/readers/ts7/analyse";
import { HANG_MS } from "../support/hang";

const REPO = path.resolve(__dirname, "../../..");
const made: string[] = [];

/** A project of one tool file, importing the built package as `tooltype`. */
function project(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-ts7-session-"));
  made.push(dir);
  fs.mkdirSync(path.join(dir, "node_modules"));
  fs.symlinkSync(REPO, path.join(dir, "node_modules", "tooltype"), "dir");
  fs.writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { target: "es2022", module: "node16", strict: true, skipLibCheck: true, types: [] },
      include: ["*.ts"],
    }),
  );
  fs.writeFileSync(
    path.join(dir, "main.ts"),
    `import { tool } from "tooltype";\n/** Says hello. */\nexport const greet = tool(function greet(name: string, times?: number) { return name.repeat(times ?? 1); });\n`,
  );
  return dir;
}

function alive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Once every thread of the process is stopped (state T in /proc), as a SIGSTOP leaves it. */
async function allThreadsStopped(pid: number): Promise<void> {
  const states = (): string[] =>
    fs.readdirSync(`/proc/${pid}/task`).map((task) => {
      const stat = fs.readFileSync(`/proc/${pid}/task/${task}/stat`, "utf8");
      return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0]!;
    });
  const until = Date.now() + HANG_MS;
  while (!states().every((state) => state === "T" || state === "t") && Date.now() < until)
    await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(
    states().every((state) => state === "T" || state === "t"),
    `every thread of ${pid} stopped: ${states().join(" ")}`,
  );
}

/** Whether the process is still there once it had time to exit and be reaped (HANG_MS bounds only a hang). */
async function running(pid: number | undefined): Promise<boolean> {
  const until = Date.now() + HANG_MS;
  while (alive(pid) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
  return alive(pid);
}

test.after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

for (const pkg of ["typescript-7", "typescript-7.1"]) {
  const ts7 = loadTypeScript7(path.join(REPO, "node_modules", pkg));

  test(`${pkg}: a session reads the project's tools and its process ends when the session is closed`, async () => {
    const dir = project();
    const session = new TypeScript7Session(ts7, path.join(dir, "tsconfig.json"));
    assert.ok(alive(session.pid), "tsc --api runs while the session is open");
    let analysis: ReturnType<typeof analyseTypeScript7>;
    try {
      analysis = analyseTypeScript7(session);
    } finally {
      session.close();
    }
    assert.equal(
      analysis.tools.map((t) => t.name),
      ["greet"],
    );
    assert.is(analysis.tools[0]!.description, "Says hello.");
    assert.equal(analysis.diagnostics, []);
    assert.not.ok(await running(session.pid), "no process is left after close");
  });

  test(`${pkg}: closing a session kills its process outright, so tsc --api never prints "context canceled"`, async () => {
    // A SIGTERM that meets the end of its input makes tsc --api print "context canceled" on the stderr it shares with
    // tooltype (a CI run of `tooltype check` printed it on a loaded machine); a process killed outright prints nothing.
    // Whether the race is met depends on scheduling, so the test watches the order of the signals sent.
    const session = new TypeScript7Session(ts7, path.join(project(), "tsconfig.json"));
    const child = (session as unknown as { api: { client: { channel: { child: ChildProcess } } } }).api.client.channel
      .child;
    // What the operating system is asked to send, whichever way it is asked: the child's handle takes signal numbers.
    const sent: string[] = [];
    const handle = (child as unknown as { _handle: { kill(signal: number): number } })._handle;
    const handleKill = handle.kill.bind(handle);
    handle.kill = (signal: number) => {
      sent.push(signal === os.constants.signals.SIGKILL ? "SIGKILL" : `signal ${signal}`);
      return handleKill(signal);
    };
    const processKill = process.kill;
    process.kill = (pid: number, signal?: string | number) => {
      if (pid === child.pid && signal !== 0) sent.push(String(signal ?? "SIGTERM"));
      return processKill.call(process, pid, signal);
    };
    const ended = new Promise<string>((resolve) =>
      child.once("exit", (code, signal) => resolve(signal ?? `exit ${code}`)),
    );
    try {
      analyseTypeScript7(session);
      session.close();
    } finally {
      process.kill = processKill;
    }
    assert.is(sent[0], "SIGKILL", `the first signal sent: ${sent.join(", ")}`);
    // The client unrefs its process, so a timer holds the event loop open until the exit is seen (or a hang is).
    const hold = setTimeout(() => {}, HANG_MS);
    try {
      // Killed, or gone on its own at the end of its input (the client closes that first) before the kill arrived.
      const how = await ended;
      assert.ok(how === "SIGKILL" || how === "exit 0", `the process ended: ${how}`);
    } finally {
      clearTimeout(hold);
    }
  });

  test(`${pkg}: a crash of the process is an error naming the file being read, and the session is closed`, async () => {
    const dir = project();
    const session = new TypeScript7Session(ts7, path.join(dir, "tsconfig.json"));
    session.reading = path.join(dir, "main.ts");
    process.kill(session.pid!, "SIGKILL");
    try {
      assert.throws(
        () => analyseTypeScript7(session),
        (error: Error) =>
          /API process \(tsc --api, pid \d+\) exited while tooltype was reading .*main\.ts/.test(error.message) &&
          error.message.includes(`TypeScript ${ts7.version}`),
      );
      assert.not.ok(await running(session.pid));
    } finally {
      session.close(); // closing again after a failure is harmless
    }
  });

  test(`${pkg}: a process that stops answering is stopped after the timeout, with an error naming the file being read`, async () => {
    const dir = project();
    const session = new TypeScript7Session(ts7, path.join(dir, "tsconfig.json"));
    const file = path.join(dir, "main.ts");
    session.reading = file;
    // Only now, with the project open: a stopped process can never answer, so this bound cannot be hit by slowness.
    session.timeoutMs = 500;
    process.kill(session.pid!, "SIGSTOP"); // a hang: the process is there but never answers
    // A stop takes effect when each of its threads is next scheduled: until then a busy thread could still answer.
    await allThreadsStopped(session.pid!);
    try {
      assert.throws(
        // A question the client cannot answer from what it holds: it goes to the process.
        () => session.ask(() => session.checker.getSymbolAtPosition(file, 40)),
        (error: Error) =>
          /did not answer within 0\.5 s while tooltype was reading .*main\.ts, so it was stopped/.test(error.message),
      );
      assert.not.ok(await running(session.pid), "the hung process was killed");
    } finally {
      if (alive(session.pid)) process.kill(session.pid!, "SIGKILL");
      session.close();
    }
    assert.throws(
      () => session.ask(() => session.checker.getSymbolAtPosition(file, 40)),
      /did not answer/,
      "the session stays failed",
    );
  });

  test(`${pkg}: a file's tools are read in a few requests, not a few per tool`, () => {
    const dir = project();
    const tools = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0
        ? `/** Tool ${i}. */\nexport const t${i} = tool(function t${i}(query: string, address: Address | null, when?: Date, tags?: string[]): string { return query; });\n`
        : `export class C${i} {\n  /** Tool ${i}. */\n  @tool\n  m${i}(query: string, level: "low" | "high", items: LineItem[]): number { return 1; }\n}\n`,
    );
    fs.writeFileSync(
      path.join(dir, "main.ts"),
      `import { tool } from "tooltype";\n` +
        `/** A postal address. */\ninterface Address { /** Street */ street: string; city: string; zip?: string }\n` +
        `interface LineItem { sku: string; quantity: number; note?: string | null }\n` +
        tools.join(""),
    );
    const session = new TypeScript7Session(ts7, path.join(dir, "tsconfig.json"));
    let analysis: ReturnType<typeof analyseTypeScript7>;
    try {
      analysis = analyseTypeScript7(session);
    } finally {
      session.close();
    }
    assert.is(analysis.tools.length, 20);
    assert.equal(analysis.diagnostics, []);
    // Before a file's questions were asked together, each tool cost several requests of its own (its parameters',
    // its signature's and its return type's, its annotations' types one by one): 290 here on 7.0, 143 on 7.1.
    const bound = session.batches ? 40 : 100;
    assert.ok(
      session.roundTrips <= bound,
      `${session.roundTrips} requests for 20 tools (at most ${bound}): ${JSON.stringify([...session.requests])}`,
    );
  });

  test(`${pkg}: TOOLTYPE_TRACE_TS7=1 writes where the session's time went when it closes, and nothing without it`, () => {
    const dir = project();
    const written: string[] = [];
    const write = process.stderr.write;
    const traced = (value: string | undefined): string => {
      const before = process.env.TOOLTYPE_TRACE_TS7;
      if (value === undefined) delete process.env.TOOLTYPE_TRACE_TS7;
      else process.env.TOOLTYPE_TRACE_TS7 = value;
      written.length = 0;
      const session = new TypeScript7Session(ts7, path.join(dir, "tsconfig.json"));
      process.stderr.write = ((chunk: string | Uint8Array) =>
        written.push(String(chunk)) > 0) as typeof process.stderr.write;
      try {
        analyseTypeScript7(session);
        session.close();
      } finally {
        process.stderr.write = write;
        if (before === undefined) delete process.env.TOOLTYPE_TRACE_TS7;
        else process.env.TOOLTYPE_TRACE_TS7 = before;
      }
      const report = written.join("");
      for (const [method, count] of session.requests)
        if (value === "1")
          assert.match(report, new RegExp(`request ${method}: ${count} in \\d`), `the report counts ${method}`);
      return report;
    };
    const report = traced("1");
    assert.match(report, `TypeScript ${ts7.version} session for ${path.join(dir, "tsconfig.json")}`);
    assert.match(report, /phase project open: [\d.]+ ms/);
    assert.match(report, /phase reading tools: [\d.]+ ms/);
    assert.match(report, /requests: \d+ in [\d.]+ ms; tooltype's own work: [\d.]+ ms/);
    assert.is(traced(undefined), "");
  });
}

test.run();
