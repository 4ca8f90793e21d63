/**
 * `tooltype build -w`: the build, then again whenever a source file of the project changes, until the process is
 * stopped.
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** What watch mode drives: a build, news of a changed file, and the end. */
export interface Rebuilder {
  build(): void;
  changed(fileName: string): void;
  close(): void;
}

/** Builds, then again whenever a source file under `dir` changes, until the process is stopped. */
export function watch(dir: string, builder: Rebuilder): void {
  const run = (): void => {
    try {
      builder.build();
    } catch (error) {
      process.stderr.write(`${(error as Error).message}\n`);
    }
    process.stdout.write("Watching for file changes.\n");
  };
  // Stopped by a signal, Node runs no exit handlers: end the tsc --api process here.
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      builder.close();
      process.exit(130);
    });
  }
  let due: NodeJS.Timeout | undefined;
  // Watching before the first build: a change made while it runs, or as soon as it says it watches, is not missed.
  fs.watch(dir, { recursive: true }, (_event, name) => {
    if (!name || !/\.[cm]?tsx?$/.test(name) || /\.d\.[cm]?ts$/.test(name) || /(^|[\\/])node_modules[\\/]/.test(name))
      return;
    builder.changed(path.join(dir, name));
    // One rebuild for a burst of changes (an editor's save writes more than once).
    clearTimeout(due);
    due = setTimeout(run, 50);
  });
  run();
}
