/**
 * A stdio MCP server for the progress test: one tool that reports each of its n steps and returns right after the
 * last report, so the final report and the result leave back to back. argv[2] is `progressIntervalMs`.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { type Int, type ToolContext, ToolRegistry, tool } from "tooltype";
import { serveMCP } from "tooltype/mcp";

/**
 * Take n steps, reporting each.
 * @param n How many steps
 */
const steps = tool(function steps(n: Int, ctx: ToolContext): string {
  for (let i = 1; i <= n; i++) ctx.progress(i, n, `step ${i}`);
  return `${n} steps`;
});

serveMCP(new ToolRegistry([steps]), new StdioServerTransport(), { progressIntervalMs: Number(process.argv[2]) }).catch(
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
