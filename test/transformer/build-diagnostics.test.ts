/**
 * The diagnostics of one `tooltype build`, whichever part found them, printed together in one format (tsc's with the
 * position first) and ordered by file and position (issue 45: a TT warning at line 34 printed before a TypeScript
 * error at line 32, each in its own format). tsc 7.0's printed output is read back into diagnostics here; the real
 * CLI's runs are in test/hosts/cli.test.ts.
 */
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  type BuildDiagnostic,
  formatBuildDiagnostic,
  fromTscOutput,
  fromTypeScript7,
  printBuildDiagnostics,
} from "../../transformer/hosts/cli/build-diagnostics";

const cwd = path.resolve("/work/app");

/** What the build printed, into a string. */
function printed(diagnostics: BuildDiagnostic[], written: boolean): { text: string; errors: number } {
  let text = "";
  const out = {
    write: (chunk: string) => {
      text += chunk;
      return true;
    },
  } as unknown as NodeJS.WritableStream;
  const previous = process.cwd;
  process.cwd = () => cwd;
  try {
    return { errors: printBuildDiagnostics(out, diagnostics, { written }), text };
  } finally {
    process.cwd = previous;
  }
}

test("tsc's printed diagnostics (a chain's lines indented below) are read back; other lines are kept as they came", () => {
  const { diagnostics, rest } = fromTscOutput(
    [
      "src/a.ts(32,7): error TS2322: Type 'string' is not assignable to type 'number'.",
      "tsconfig.json(1,80): error TS5011: The common source directory is './src'.",
      "  Visit https://aka.ms/ts6 for migration information.",
      "error TS5083: Cannot read file 'base.json'.",
      "Something else tsc said.",
      "",
    ].join("\n"),
    cwd,
  );
  assert.equal(diagnostics, [
    {
      category: "error",
      code: "TS2322",
      text: "Type 'string' is not assignable to type 'number'.",
      file: path.join(cwd, "src/a.ts"),
      line: 32,
      column: 7,
    },
    {
      category: "error",
      code: "TS5011",
      text: "The common source directory is './src'.\n  Visit https://aka.ms/ts6 for migration information.",
      file: path.join(cwd, "tsconfig.json"),
      line: 1,
      column: 80,
    },
    { category: "error", code: "TS5083", text: "Cannot read file 'base.json'.", file: "", line: 0, column: 0 },
  ]);
  assert.equal(rest, ["Something else tsc said."]);
});

test("one format for TypeScript's and tooltype's, ordered by file and position, then a line that counts them", () => {
  const tt = (line: number, category: "error" | "warning", code: string, text: string): BuildDiagnostic => ({
    category,
    code,
    text,
    file: path.join(cwd, "src/tools.ts"),
    line,
    column: 3,
  });
  const typeScript7 = fromTypeScript7({
    fileName: path.join(cwd, "src/tools.ts"),
    pos: 0,
    startPosition: { line: 31, character: 6 },
    code: 2322,
    category: 1,
    text: "Type 'string' is not assignable to type 'number'.",
    relatedInformation: [
      {
        fileName: path.join(cwd, "src/types.ts"),
        pos: 0,
        startPosition: { line: 1, character: 2 },
        code: 6500,
        category: 3,
        text: "The expected type comes from property 'n'.",
      },
    ],
  });
  const { text, errors } = printed(
    [
      tt(34, "warning", "TT1005", 'parameter "x" is typed unknown'),
      tt(40, "error", "TT1001", 'parameter "cb" has type a function'),
      typeScript7,
      { ...tt(2, "error", "TS1005", "';' expected."), file: path.join(cwd, "src/a.ts") },
    ],
    false,
  );
  assert.is(errors, 3);
  assert.is(
    text,
    [
      "src/a.ts:2:3 - error TS1005: ';' expected.",
      "src/tools.ts:32:7 - error TS2322: Type 'string' is not assignable to type 'number'.",
      "    src/types.ts:2:3 - The expected type comes from property 'n'.",
      'src/tools.ts:34:3 - warning TT1005: parameter "x" is typed unknown',
      'src/tools.ts:40:3 - error TT1001: parameter "cb" has type a function',
      "",
      "Found 3 error(s) and 1 warning(s) in 2 file(s), 1 of the errors tooltype's: nothing written (a tool with an error has no correct schema).",
      "",
    ].join("\n"),
  );
  assert.is(
    printed([typeScript7], true).text.split("\n\n")[1],
    "Found 1 error(s) in 1 file(s).\n",
    "written all the same",
  );
  assert.equal(printed([tt(34, "warning", "TT1005", "typed unknown")], true), {
    text: "src/tools.ts:34:3 - warning TT1005: typed unknown\n",
    errors: 0,
  });
  assert.is(
    formatBuildDiagnostic({
      category: "error",
      code: "TS5083",
      text: "Cannot read file.",
      file: "",
      line: 0,
      column: 0,
    }),
    "error TS5083: Cannot read file.",
  );
});

test("TypeScript 7.0's diagnostics, which carry an offset only, are placed by the file's text", () => {
  const file = path.join(__dirname, "build-diagnostics.test.js");
  const placed = fromTypeScript7({ fileName: file, pos: 0, code: 1, category: 1, text: "at the start" });
  assert.equal([placed.line, placed.column], [1, 1]);
});

test.run();
