/**
 * Run by check-results.test.ts in a process of its own, where nothing has loaded ajv: tools whose options say
 * `checkResults: true` carry their return type's validator compiled at build time (`meta.resultValidator`), so
 * checking their results, a right one and a wrong one, loads no ajv. Prints whether each tool carries the compiled
 * validator, whether ajv was loaded, and the answers.
 */
import { tool, ToolRegistry } from "tooltype";

interface Reading {
  temp: number;
  unit: "c" | "f";
}

/** A correct reading. */
const good = tool(
  function good_reading(): Reading {
    return { temp: 21, unit: "c" };
  },
  { checkResults: true },
);

/** The bug: a string where the type says number. */
const bad = tool(
  async function bad_reading(): Promise<Reading> {
    return { temp: "21" as unknown as number, unit: "c" };
  },
  { checkResults: true },
);

const registry = new ToolRegistry([good, bad]);
const ajvLoaded = (): boolean => Object.keys(require.cache).some((file) => /[\\/]node_modules[\\/]ajv[\\/]/.test(file));

void (async () => {
  const messages = await registry.dispatch({
    role: "assistant",
    content: null,
    tool_calls: ["good_reading", "bad_reading"].map((name, i) => ({
      id: `c${i}`,
      type: "function" as const,
      function: { name, arguments: "{}" },
    })),
  });
  process.stdout.write(
    JSON.stringify({
      compiled: registry.list().map((t) => typeof t.meta.resultValidator),
      ajvLoaded: ajvLoaded(),
      answers: messages.map((m) => ({ status: m.status, content: m.content })),
    }),
  );
})();
