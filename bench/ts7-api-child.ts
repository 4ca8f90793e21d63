/**
 * One side of the TypeScript 7 benchmark in its own process, `node ts7-api-child.js <tsconfig>`: what TypeScript 7's
 * API alone costs tooltype's reader on a project.
 */
import * as path from "node:path";
import type * as Analyse from "../transformer/readers/ts7/analyse";
import type * as Api from "../transformer/readers/ts7/api";
import type { CheckerFacade } from "../transformer/readers/ts7/facade";

const REPO = path.resolve(__dirname, "..", "..");

/**
 * What is timed: Node's start, the API client's load, `tsc --api`'s start and the
 * project's open, every source file's AST, and the questions the reader asks before the core reads a file (the
 * callees' symbols, the tools' parameter and return types, their type graphs), answered and decoded, and then
 * nothing: no tool is read, no schema made. This is the part of `tooltype check` on TypeScript 7 that no change to
 * tooltype's own reading can remove, for as long as it asks those questions.
 */
function main(): void {
  const tsconfig = path.resolve(process.argv[2]!);
  const api = require(path.join(REPO, "dist", "transformer", "readers", "ts7", "api.js")) as typeof Api;
  const { TypeScript7Reader } = require(
    path.join(REPO, "dist", "transformer", "readers", "ts7", "analyse.js"),
  ) as typeof Analyse;
  const packageDir = path.dirname(require.resolve("typescript/package.json", { paths: [path.dirname(tsconfig)] }));
  const session = new api.TypeScript7Session(api.loadTypeScript7(packageDir), tsconfig);
  try {
    const reader = new TypeScript7Reader(session);
    // The reader's own prefetch, as readFile runs it before the core's walk.
    const { facade } = reader as unknown as { facade: CheckerFacade };
    let files = 0;
    for (const name of reader.sourceFileNames()) {
      const file = session.ask(() => session.program.getSourceFile(name)) as
        | Parameters<CheckerFacade["prefetchFile"]>[1]
        | undefined;
      if (!file) continue;
      facade.prefetchFile(reader.tsi, file);
      files++;
    }
    if (files === 0) throw new Error(`ts7-api-child: no source file in ${tsconfig}`);
    process.stdout.write(`${files} file(s) asked about in ${session.roundTrips} requests\n`);
  } finally {
    session.close();
  }
}

main();
