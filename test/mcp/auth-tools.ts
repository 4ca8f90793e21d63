/**
 * Tools for the MCP authorization tests, compiled by the transformer: two that declare the OAuth scopes they need
 * (`scopes`), one that needs none and tells who called (`ctx.auth`). Each counts its runs, so a test can show that
 * a refused call never ran.
 */
import { ToolRegistry, type ToolContext, tool } from "tooltype";

/** Runs of each tool, by name. */
export const runs = new Map<string, number>();

function ran(name: string): void {
  runs.set(name, (runs.get(name) ?? 0) + 1);
}

/**
 * Read a file of the workspace.
 * @param path Path of the file
 */
export const readFile = tool(
  function read_file(path: string): string {
    ran("read_file");
    return `contents of ${path}`;
  },
  { scopes: ["files:read"] },
);

/**
 * Write a file of the workspace.
 * @param path Path of the file
 * @param text What to write
 */
export const writeFile = tool(
  function write_file(path: string, text: string): string {
    ran("write_file");
    return `wrote ${text.length} characters to ${path}`;
  },
  { scopes: ["files:read", "files:write"] },
);

/** The verified token's subject. */
export const whoami = tool(function whoami(ctx: ToolContext<{ sub?: string }>): string {
  ran("whoami");
  return `you are ${ctx.auth?.sub ?? "nobody"}`;
});

export function createAuthRegistry(): ToolRegistry {
  return new ToolRegistry([readFile, writeFile, whoami]);
}
