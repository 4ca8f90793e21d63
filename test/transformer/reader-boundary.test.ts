/**
 * The transformer's core asks types through the reader interface (transformer/readers/reader.ts) and never names a
 * compiler's checker, so each backend stays one adapter under readers/. The imports are checked by
 * dependency-cruiser (.dependency-cruiser.cjs); a type named in a signature is not an import, so it is checked here.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as fs from "node:fs";
import * as path from "node:path";

const transformer = path.resolve(__dirname, "../../../transformer");

/** The core's source files: everything of transformer/ but the readers (the adapters) and the hosts. */
function coreFiles(dir = transformer): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (dir === transformer && (entry.name === "readers" || entry.name === "hosts")) continue;
      out.push(...coreFiles(full));
    } else if (/\.m?ts$/.test(entry.name)) out.push(full);
  }
  return out;
}

test("no file of the core names the compiler's TypeChecker (it asks a TypeReader)", () => {
  const files = coreFiles();
  assert.ok(
    files.some((f) => f.endsWith(`${path.sep}index.ts`)) &&
      files.some((f) => f.includes(`${path.sep}schema${path.sep}read${path.sep}`)),
    "the core's files are found",
  );
  // (index.ts makes its default reader from `program.getTypeChecker()`, a program's method, which is no type named.)
  const naming = files.filter((f) => /\bTypeChecker\b/.test(fs.readFileSync(f, "utf8")));
  assert.equal(
    naming.map((f) => path.relative(transformer, f)),
    [],
  );
});

test("the core reaches TypeScript 7 through no special case of its own", () => {
  // What the TypeScript 7 adapter answers (declarationFileNames, the facade's types) is asked through the interface.
  const naming = coreFiles().filter((f) =>
    /declarationFileNames|CheckerFacade|FacadeSymbol|FacadeType/.test(fs.readFileSync(f, "utf8")),
  );
  assert.equal(
    naming.map((f) => path.relative(transformer, f)),
    [],
  );
});

test.run();
