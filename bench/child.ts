/** One fresh process for the cold-start and memory benchmarks (run with `node --expose-gc child.js job.json`). */
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import * as vm from "node:vm";

export interface ChildJob {
  mode: "cold" | "memory" | "import" | "compile";
  side: "tooltype" | "langchain";
  /** The generated project: packages resolve from here as they would for its own code. */
  projectDir: string;
  /** The module exporting `tools` (import mode: any module, resolved from the project). */
  module: string;
  /** One message per entry. */
  calls: { name: string; arguments: string }[];
}

export interface ChildReport {
  side: string;
  toolCount: number;
  exportedCount: number;
  /** Cold: ms per phase, measured in the process (node's own start-up is the same for both sides and left out). */
  phases?: { import: number; register: number; export: number; dispatch: number; total: number };
  /** Memory: bytes of heap used after GC. */
  heap?: { baseline: number; registered: number; dispatched: number };
  /** The content of each answer, in call order. */
  answers: string[];
  /** Each exported tool: name, sorted property names, sorted required names. */
  shapes: [string, string[], string[]][];
}

interface Exported {
  function: { name: string; parameters?: { properties?: Record<string, unknown>; required?: string[] } };
}

interface Answered {
  content: unknown;
  status?: string;
}

const gc = (globalThis as { gc?: () => void }).gc;
const now = (): number => Number(process.hrtime.bigint()) / 1e6;

async function settledHeap(): Promise<number> {
  if (!gc) throw new Error("run the child with node --expose-gc");
  for (let i = 0; i < 4; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  return process.memoryUsage().heapUsed;
}

/** Kept reachable so that GC cannot take what is being weighed. */
const kept: unknown[] = [];

/** The CommonJS wrapper's parameters, as Node's loader compiles a module. */
const CJS_PARAMETERS = ["exports", "require", "module", "__filename", "__dirname"];

/** compile mode: ms to compile the folder's files (read first, untimed); toolCount is how many files. */
function compileOnly(job: ChildJob): ChildReport {
  const files = fs
    .readdirSync(job.module)
    .filter((name) => name.endsWith(".js"))
    .map((name) => ({
      filename: path.join(job.module, name),
      text: fs.readFileSync(path.join(job.module, name), "utf8"),
    }));
  const start = now();
  for (const file of files) kept.push(vm.compileFunction(file.text, CJS_PARAMETERS, { filename: file.filename }));
  const ms = now() - start;
  return {
    side: job.side,
    toolCount: files.length,
    exportedCount: 0,
    answers: [],
    shapes: [],
    phases: { import: ms, register: 0, export: 0, dispatch: 0, total: ms },
  };
}

/**
 * The process must import neither tooltype nor LangChain.js before the clock starts: the import is part of what is
 * measured.
 * - cold: import the library and 1,000 generated tools, register them, export them in OpenAI's format, then answer
 *   one Chat Completions message per called tool (each tool's first dispatch); prints the time of each phase;
 * - memory: heap after GC with the library imported (baseline), then with the tools registered, then after the
 *   first dispatch of the called tools; prints the differences.
 * - import: only `require(module)`, timed: the references the cold start is read against (the runtime alone, the
 *   same tools compiled by plain tsc);
 * - compile: V8 compiles every .js file of the folder `module` as Node's CommonJS loader does, and runs none of them:
 *   what reading a build's text costs before any of it runs (the tools built with the plugin, and by plain tsc).
 * The first two print the answers and each exported tool's parameter names, which the parent compares across the
 * sides.
 */
async function main(): Promise<void> {
  const job = JSON.parse(fs.readFileSync(process.argv[2]!, "utf8")) as ChildJob;
  const requireFromProject = createRequire(path.join(job.projectDir, "package.json"));
  if (job.mode === "compile") {
    process.stdout.write(JSON.stringify(compileOnly(job)));
    return;
  }
  if (job.mode === "import") {
    const start = now();
    const loaded = requireFromProject(job.module) as { tools?: unknown[] };
    const ms = now() - start;
    kept.push(loaded);
    // The tools as written: functions, and the methods of the objects in the list (registration is not timed here).
    const toolCount = (loaded.tools ?? []).reduce<number>(
      (n, entry) =>
        n +
        (typeof entry === "function"
          ? 1
          : Object.getOwnPropertyNames(Object.getPrototypeOf(entry)).filter((key) => key !== "constructor").length),
      0,
    );
    const report: ChildReport = { side: job.side, toolCount, exportedCount: 0, answers: [], shapes: [] };
    report.phases = { import: ms, register: 0, export: 0, dispatch: 0, total: ms };
    process.stdout.write(JSON.stringify(report));
    return;
  }
  const messages = job.calls.map((call, i) => ({
    role: "assistant" as const,
    content: null,
    tool_calls: [
      { id: `call_${i}`, type: "function" as const, function: { name: call.name, arguments: call.arguments } },
    ],
  }));

  let baseline = 0;
  if (job.mode === "memory") {
    // The library alone, so that the difference is what the tools cost.
    if (job.side === "tooltype") kept.push(requireFromProject("tooltype"));
    else
      kept.push(
        requireFromProject("@langchain/core/tools"),
        requireFromProject("@langchain/core/utils/function_calling"),
        requireFromProject("zod"),
      );
    baseline = await settledHeap();
  }

  const t0 = now();
  let register: () => unknown;
  let exportTools: () => Exported[];
  let answer: (message: (typeof messages)[number]) => Promise<Answered>;
  let toolCount: () => number;
  if (job.side === "tooltype") {
    const { ToolRegistry } = requireFromProject("tooltype") as typeof import("tooltype");
    const { tools } = requireFromProject(job.module) as { tools: object[] };
    let registry: InstanceType<typeof ToolRegistry> | undefined;
    register = () => (registry = new ToolRegistry(tools));
    // All 1,000 at once, as the benchmark asks: past OpenAI's 128 tools per request, so the request limit is off.
    exportTools = () => registry!.toOpenAITools({ checkLimits: false }) as Exported[];
    answer = async (message) => (await registry!.dispatch(message))[0]!;
    toolCount = () => registry!.size;
  } else {
    const { convertToOpenAITool } = requireFromProject("@langchain/core/utils/function_calling") as {
      convertToOpenAITool: (tool: unknown) => Exported;
    };
    interface LangChainTool {
      name: string;
      invoke(call: unknown): Promise<Answered>;
    }
    const { tools } = requireFromProject(job.module) as { tools: LangChainTool[] };
    let byName: Map<string, LangChainTool> | undefined;
    register = () => (byName = new Map(tools.map((t) => [t.name, t])));
    exportTools = () => tools.map((t) => convertToOpenAITool(t));
    answer = (message) => {
      const call = message.tool_calls[0];
      const args = JSON.parse(call.function.arguments) as Record<string, unknown>;
      const tool = byName!.get(call.function.name);
      if (!tool) throw new Error(`unknown tool ${call.function.name}`);
      return tool.invoke({ name: call.function.name, args, id: call.id, type: "tool_call" });
    };
    toolCount = () => byName!.size;
  }
  const t1 = now();
  kept.push(register());
  const t2 = now();
  // Memory: the tools and the registry alone, before anything is exported or dispatched.
  const registeredHeap = job.mode === "memory" ? (await settledHeap()) - baseline : 0;
  const t2b = now();
  const exported = exportTools();
  const t3 = now();
  const answers: string[] = [];
  for (const message of messages) {
    const reply = await answer(message);
    if (reply.status !== undefined && reply.status !== "success")
      throw new Error(`${message.tool_calls[0].function.name}: ${String(reply.content)}`);
    answers.push(String(reply.content));
  }
  const t4 = now();

  const report: ChildReport = {
    side: job.side,
    toolCount: toolCount(),
    exportedCount: exported.length,
    answers,
    shapes: exported.map((e) => [
      e.function.name,
      Object.keys(e.function.parameters?.properties ?? {}).sort(),
      [...(e.function.parameters?.required ?? [])].sort(),
    ]),
  };
  if (job.mode === "cold") {
    report.phases = {
      import: t1 - t0,
      register: t2 - t1,
      export: t3 - t2b,
      dispatch: t4 - t3,
      total: t2 - t0 + (t4 - t2b),
    };
  } else {
    // After the first dispatch of each called tool: what dispatch compiled and kept (the export is dropped first).
    exported.length = 0;
    report.heap = { baseline, registered: registeredHeap, dispatched: (await settledHeap()) - baseline };
  }
  process.stdout.write(JSON.stringify(report));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
