/**
 * What the `tooltype` command's arguments name, read the same way by every command (the tsconfig `-p` names), and
 * the error of a command line that cannot be run (exit status 2 with the help text).
 */
import * as path from "node:path";

export class UsageError extends Error {}

/** The tsconfig `-p` names: the file, or tsconfig.json in the folder. */
export function configPathOf(project: string): string {
  return path.resolve(project.endsWith(".json") ? project : path.join(project, "tsconfig.json"));
}
