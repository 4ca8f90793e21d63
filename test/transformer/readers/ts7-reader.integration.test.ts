/**
 * The same answer from both readers (issue 31, item 6): the conformance corpus, compiled as one project, read once
 * through TypeScript 5.9's JavaScript API and once through TypeScript 7's API (7.0's `typescript/unstable/sync` and
 * 7.1's `typescript/sync`, each a separate tsgo process), must give byte-identical metadata for every tool and the
 * same TT diagnostics (code, file, line, column, spanned text, message). Cases where TypeScript 7 itself types
 * something differently are listed in KNOWN_DIFFERENCES with the reason; nothing else may differ. The corpus
 * includes streaming tools (`async function*`, functions and methods, fixture 193): their `streams`, `yields` and
 * `returns` must agree too. Integration tier:
 * it starts tsgo.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type * as ts from "typescript";
import tooltypeTransformer, { type TooltypeTransformerExtras } from "../../../transformer/index";
import { createTsconfigProgram, projectSourceFiles, readTsconfig } from "../../../transformer/hosts/project/tsconfig";
import { loadTypeScript7, TypeScript7Session } from "../../../transformer/readers/ts7/api";
import { analyseTypeScript7 } from "../../../transformer/readers/ts7/analyse";
import { CORPUS_DIR, corpusFixtureNames } from "../../support/corpus";

const REPO = path.resolve(__dirname, "../../../..");

type ToolMeta = Parameters<NonNullable<TooltypeTransformerExtras["onToolMeta"]>>[0];

interface Comparable {
  /** Each tool's metadata as JSON text, by fixture file and tool name. */
  tools: Map<string, string>;
  /** `code file:line:column "spanned text" message`, in order. */
  diagnostics: string[];
}

/**
 * Where TypeScript 7 types something differently from 5.9, by the new compiler's design rather than by a fault of
 * the reader: the tool (fixture file and name), the part of its metadata that differs, and why. That part is left
 * out of the comparison; the rest of the tool must still be identical.
 *
 * Both are return types nobody wrote: the inferred type of an array literal, `(A | B | C)[]`. With no spelling to
 * follow, the reader keeps the checker's order of the union's members, which follows type ids; TypeScript 7
 * assigns ids in another order (its checker is concurrent), so the members come in another order, and subtype
 * reduction of `Int & Min<3> | Percent & Max<10> | number & MultipleOf<4>` keeps another of the number members.
 */
const KNOWN_DIFFERENCES: Record<string, { part: "returns"; why: string }> = {
  "094-generic-defs-names.ts pages": {
    part: "returns",
    why: "an inferred union's members in type-id order, which TypeScript 7 assigns differently",
  },
  "170-repeated-type-tags.ts tune": {
    part: "returns",
    why: "an inferred union reduced by subtypes in type-id order: another number member is kept",
  },
};

/** The corpus written out as a project of its own, importing the built package as `tooltype`. */
function corpusProject(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-ts7-reader-"));
  for (const name of corpusFixtureNames) fs.copyFileSync(path.join(CORPUS_DIR, name), path.join(dir, name));
  fs.mkdirSync(path.join(dir, "node_modules"));
  fs.symlinkSync(REPO, path.join(dir, "node_modules", "tooltype"), "dir");
  fs.writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "es2022",
        module: "node16",
        moduleResolution: "node16",
        strict: true,
        skipLibCheck: true,
        types: [],
        lib: ["es2022"],
        outDir: "out",
        rootDir: ".",
      },
      include: ["*.ts"],
    }),
  );
  return dir;
}

function lineAndColumn(text: string, position: number): string {
  const before = text.slice(0, position).split("\n");
  return `${before.length}:${before[before.length - 1]!.length + 1}`;
}

function comparable(
  dir: string,
  tools: ToolMeta[],
  toolFiles: string[],
  diagnostics: readonly ts.Diagnostic[],
): Comparable {
  const out: Comparable = { tools: new Map(), diagnostics: [] };
  tools.forEach((meta, i) => {
    const key = `${toolFiles[i]} ${meta.name}`;
    const known = KNOWN_DIFFERENCES[key];
    out.tools.set(
      key,
      JSON.stringify(known ? { ...meta, [known.part]: `(differs on TypeScript 7: ${known.why})` } : meta),
    );
  });
  for (const d of diagnostics) {
    const file = d.file ? path.relative(dir, d.file.fileName) : "";
    const where =
      d.file && d.start !== undefined
        ? `${file}:${lineAndColumn(d.file.text, d.start)} "${d.file.text.slice(d.start, d.start + (d.length ?? 0))}"`
        : file;
    const text = typeof d.messageText === "string" ? d.messageText : d.messageText.messageText;
    out.diagnostics.push(`${d.code} ${where} ${text}`);
  }
  return out;
}

/** The corpus through TypeScript 5.9's JavaScript API, as `tooltype check` reads a project. */
function readWithJavaScriptApi(dir: string): Comparable {
  const tsi: typeof ts = require("typescript");
  const { program, pluginConfig } = createTsconfigProgram(
    tsi,
    readTsconfig(tsi, path.join(dir, "tsconfig.json"), { hint: "" }),
  );
  const diagnostics: ts.Diagnostic[] = [];
  const tools: ToolMeta[] = [];
  const toolFiles: string[] = [];
  const factory = tooltypeTransformer(
    program,
    { ...pluginConfig, validators: false },
    {
      ts: tsi,
      addDiagnostic: (d) => diagnostics.push(d),
      onToolMeta: (meta, fn) => {
        tools.push(meta);
        toolFiles.push(path.relative(dir, fn.getSourceFile().fileName));
      },
    },
  );
  tsi.transform(projectSourceFiles(program), [factory], program.getCompilerOptions()).dispose();
  return comparable(dir, tools, toolFiles, diagnostics);
}

function readWithTypeScript7(dir: string, pkg: string): { read: Comparable; roundTrips: number } {
  const session = new TypeScript7Session(
    loadTypeScript7(path.join(REPO, "node_modules", pkg)),
    path.join(dir, "tsconfig.json"),
  );
  try {
    const analysis = analyseTypeScript7(session);
    return {
      read: comparable(
        dir,
        analysis.tools,
        analysis.toolFiles.map((f) => path.relative(dir, f)),
        analysis.diagnostics,
      ),
      roundTrips: session.roundTrips,
    };
  } finally {
    session.close();
  }
}

let dir: string;
let expected: Comparable;
test.before(() => {
  dir = corpusProject();
  expected = readWithJavaScriptApi(dir);
});
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

for (const pkg of ["typescript-7", "typescript-7.1"]) {
  test(`the corpus read through ${pkg === "typescript-7" ? "TypeScript 7.0's typescript/unstable/sync" : "TypeScript 7.1's typescript/sync"} gives the metadata and TT diagnostics of TypeScript 5.9's JavaScript API`, () => {
    const { read, roundTrips } = readWithTypeScript7(dir, pkg);
    assert.ok(expected.tools.size > 100, `the corpus has its tools (${expected.tools.size})`);
    // Streaming tools (`async function*`, as functions and as methods) are compared with the rest: their yields and
    // returns.
    const streaming = [...expected.tools]
      .filter(([, json]) => (JSON.parse(json) as { streams?: boolean }).streams === true)
      .map(([key]) => key);
    assert.equal(streaming, [
      "193-streaming-tools.ts download",
      "193-streaming-tools.ts countdown",
      "193-streaming-tools.ts deploy",
      "193-streaming-tools.ts tail_log",
    ]);
    assert.equal([...read.tools.keys()], [...expected.tools.keys()], "the same tools, in the same order");
    for (const [key, json] of expected.tools) assert.is(read.tools.get(key), json, `the metadata of ${key}`);
    assert.equal(read.diagnostics, expected.diagnostics);
    console.log(`${pkg}: ${read.tools.size} tools in ${roundTrips} round trips`);
  });
}

test.run();
