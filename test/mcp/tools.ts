/**
 * Tools for the MCP server tests, compiled by the transformer during the test build (and bundled into the Workers
 * test's worker): JSDoc `@title`, `@icon` and MCP annotations, options that override them, a tool that reports
 * progress, one that runs until its signal aborts, one that reads `ctx.auth`, failures that carry a secret (an Error,
 * a thrown object) next to a ToolError, and one whose result breaks its own output schema.
 */
import { type Int, type Min, ToolError, ToolRegistry, type ToolContext, tool } from "tooltype";

/** The secret the leaking tools carry; a test asserts it never reaches a client by default. */
export const SECRET = "postgres://admin:hunter2@db.internal:5432/prod";

export interface Sum {
  total: number;
  count: number;
}

/**
 * Add numbers.
 * @title Adder
 * @readOnlyHint
 * @idempotentHint
 * @openWorldHint false
 * @icon https://example.com/add.svg image/svg+xml any
 * @icon data:image/png;base64,iVBORw0KGgo= 16x16 32x32 dark
 * @param values The numbers to add
 */
export const add = tool(function add(values: number[]): Sum {
  return { total: values.reduce((a, b) => a + b, 0), count: values.length };
});

/**
 * Delete a file from the workspace.
 * @destructiveHint
 * @param path Path of the file
 */
export const removeFile = tool(
  function remove_file(path: string): string {
    return `removed ${path}`;
  },
  { title: "Remove a file", annotations: { destructiveHint: true, openWorldHint: false } },
);

/**
 * Count to n, reporting progress at each step.
 * @param n How far to count
 */
export const count = tool(async function count(n: Int & Min<1>, ctx: ToolContext): Promise<string> {
  for (let i = 1; i <= n; i++) {
    ctx.progress(i, n, `step ${i}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return `counted to ${n}`;
});

/** What the `wait` tool saw, for the cancellation tests (one process runs them one at a time). */
export const waits: { started: number; aborted: number; reason: string } = { started: 0, aborted: 0, reason: "" };

/**
 * Wait until cancelled (or 20 seconds).
 * @param label Any text
 */
export const wait = tool(async function wait(label: string, ctx: ToolContext): Promise<string> {
  waits.started++;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 20_000);
    ctx.signal.addEventListener("abort", () => {
      clearTimeout(timer);
      waits.aborted++;
      waits.reason = String((ctx.signal.reason as Error | undefined)?.message ?? ctx.signal.reason);
      resolve();
    });
  });
  return `waited: ${label}`;
});

export interface Caller {
  user: string;
}

/** Say who is calling. */
export const whoami = tool(function whoami(ctx: ToolContext<Caller>): string {
  return ctx.auth ? `you are ${ctx.auth.user}` : "nobody";
});

/**
 * Connect to the database (fails with a driver error that names the connection string).
 * @param table Table to read
 */
export const leak = tool(function leak(table: string): string {
  throw new Error(`connect ECONNREFUSED ${SECRET} while reading ${table}`);
});

/** Fail with an axios-style object carrying a token. */
export const leakObject = tool(function leak_object(): string {
  throw { config: { headers: { Authorization: `Bearer sk-${SECRET}` } }, message: "Request failed" };
});

/**
 * Refuse politely.
 * @param what What to refuse
 */
export const refuse = tool(function refuse(what: string): string {
  throw new ToolError(`I will not ${what}.`);
});

/** Return a sum whose count is not a number (the output schema says it must be). */
export const badSum = tool(function bad_sum(): Sum {
  return { total: 1, count: "one" as unknown as number };
});

export function createMcpRegistry(): ToolRegistry {
  return new ToolRegistry([add, removeFile, count, wait, whoami, leak, leakObject, refuse, badSum]);
}

/** What the approval tool ran, for the approval tests (one process runs them one at a time). */
export const transfers: string[] = [];

/**
 * Move money (needs a human's approval before it runs).
 * @param to Who receives it
 * @param amount How much
 */
export const transfer = tool(
  function transfer(to: string, amount: number): string {
    transfers.push(`${amount} to ${to}`);
    return `sent ${amount} to ${to}`;
  },
  { needsApproval: true },
);

/** The MCP tools plus one that needs approval; `approvalSecret` when given (a service of several instances sets one). */
export function createApprovalRegistry(approvalSecret?: string): ToolRegistry {
  return new ToolRegistry([add, transfer], approvalSecret === undefined ? {} : { approvalSecret });
}
