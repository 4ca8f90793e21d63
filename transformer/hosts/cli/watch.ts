/**
 * `tooltype build -w`: the build, then again whenever a source file of the project changes, until the process is
 * stopped; each build ends with a line saying when, and how many errors it found, as `tsc -w` prints it.
 *
 * Owns how changes are seen. Each folder is watched, never a file: an editor's atomic save (and `sed -i`) writes a
 * temporary file and renames it over the source, which puts a new file (inode) at that name, and a watch on the file
 * keeps watching the old one (Node's recursive watch on Linux watches files, and went deaf to such a file after its
 * first save). A folder's watch reports every name written or renamed in it, however often.
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** What watch mode drives: a build (the number of errors it found), news of a changed file, and the end. */
export interface Rebuilder {
  build(): number;
  /** `fileName` changed on disk; undefined when the platform did not say which file (any may have). */
  changed(fileName: string | undefined): void;
  close(): void;
  /**
   * Whether a declaration file written under the project is one of its sources (an edited one changes the next
   * build's types) and not the build's own output. Without it, declaration files are not watched.
   */
  isSourceDeclaration?(fileName: string): boolean;
}

/** The sources a change of which rebuilds: TypeScript files; declaration files when the builder says they are its. */
const SOURCE = /\.[cm]?tsx?$/;
const DECLARATION = /\.d\.[cm]?ts$/;

/** Builds, then again whenever a source file under `dir` changes, until the process is stopped. */
export function watch(dir: string, builder: Rebuilder, out: NodeJS.WritableStream = process.stdout): void {
  const run = (): void => {
    let summary: string;
    try {
      const errors = builder.build();
      summary = `Found ${errors} error${errors === 1 ? "" : "s"}.`;
    } catch (error) {
      process.stderr.write(`${(error as Error).message}\n`);
      summary = "The build stopped on the error above.";
    }
    out.write(`[${timestamp()}] ${summary} Watching for file changes.\n`);
  };
  // Stopped by a signal, Node runs no exit handlers: end the tsc --api process here.
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      builder.close();
      process.exit(130);
    });
  }
  let due: NodeJS.Timeout | undefined;
  const changed = (file: string | undefined): void => {
    builder.changed(file);
    // One rebuild for a burst of changes (an editor's save writes more than once).
    clearTimeout(due);
    due = setTimeout(() => {
      out.write(`[${timestamp()}] File change detected. Starting incremental compilation...\n`);
      run();
    }, 50);
  };
  // Watching before the first build: a change made while it runs, or as soon as it says it watches, is not missed.
  watchFolders(dir, changed, (file) => builder.isSourceDeclaration?.(file) ?? false);
  out.write(`[${timestamp()}] Starting compilation in watch mode...\n`);
  run();
}

/**
 * Watches `root` and every folder under it (but node_modules and hidden ones), folders made later included, and
 * calls `changed` with each source file written, made, removed or renamed (either name), a declaration file when it
 * is one of the project's sources rather than the build's output.
 */
function watchFolders(
  root: string,
  changed: (file: string | undefined) => void,
  isSourceDeclaration: (file: string) => boolean,
): void {
  const watchers = new Map<string, fs.FSWatcher>();
  /** Watches `folder` and those under it; whether they hold a source file. */
  const add = (folder: string): boolean => {
    if (watchers.has(folder)) return false;
    let watcher: fs.FSWatcher;
    try {
      watcher = fs.watch(folder, (_event, name) => {
        if (name === null) return changed(undefined);
        const file = path.join(folder, name.toString());
        if (SOURCE.test(file) && (!DECLARATION.test(file) || isSourceDeclaration(file))) changed(file);
        else if (watchers.has(file) && !isFolder(file)) {
          // A watched folder removed (or moved away): its watch ends; one made again at that name is watched anew.
          watchers.get(file)!.close();
          watchers.delete(file);
          changed(undefined);
        } else if (!ignored(name.toString()) && isFolder(file) && add(file)) {
          // A folder made (or moved in) with sources in it: watched, and those count as changed (not the outDir).
          changed(undefined);
        }
      });
    } catch {
      // Gone before it could be watched (removed meanwhile): nothing to watch.
      return false;
    }
    // A watched folder removed: its watch ends (the parent's reports the removal).
    watcher.on("error", () => {
      watcher.close();
      watchers.delete(folder);
    });
    watchers.set(folder, watcher);
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(folder, { withFileTypes: true });
    } catch {
      return false;
    }
    let sources = false;
    for (const entry of entries) {
      if (entry.isDirectory() && !ignored(entry.name)) sources = add(path.join(folder, entry.name)) || sources;
      else if (SOURCE.test(entry.name) && !DECLARATION.test(entry.name)) sources = true;
    }
    return sources;
  };
  add(root);
}

/** Folders never holding the project's sources: packages, and hidden ones (.git). */
function ignored(name: string): boolean {
  return name === "node_modules" || name.startsWith(".");
}

function isFolder(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/** The time as `tsc -w` prints it: the locale's time of day. */
function timestamp(): string {
  return new Date().toLocaleTimeString();
}
