/**
 * Run by no-eval.test.ts under `node --disallow-code-generation-from-strings` (what a Content Security Policy
 * without `unsafe-eval` does to `new Function`/`eval`): dispatches compiled tools and prints what came back.
 */
import { tool, ToolRegistry, type Int, type Min } from "tooltype";

interface Circle {
  kind: "circle";
  radius: number;
}
interface Square {
  kind: "square";
  side: number;
}

/**
 * Area of a shape.
 * @param shape The shape
 * @param scale How many times bigger
 */
const area = tool(function area(shape: Circle | Square, scale: Int & Min<1> = 1, when?: Date) {
  const base = shape.kind === "circle" ? Math.PI * shape.radius ** 2 : shape.side ** 2;
  return { area: Math.round(base * scale * 100) / 100, when: when?.toISOString() ?? null };
});

/** Echo text, with a schema written by hand (no compiled validator). */
const handWritten = tool(
  (text: string) => text,
  { name: "hand_written" },
  {
    v: 1,
    name: "hand_written",
    description: "Echo text.",
    params: ["text"],
    parameters: {
      type: "object",
      properties: { text: { type: "string" } },
      required: ["text"],
      additionalProperties: false,
    },
  },
);

async function main(): Promise<void> {
  let codegen = "allowed";
  try {
    new Function("return 1");
  } catch (error) {
    codegen = (error as Error).constructor.name;
  }
  const registry = new ToolRegistry([area, handWritten]);
  const call = (id: string, name: string, args: string) => ({
    id,
    type: "function" as const,
    function: { name, arguments: args },
  });
  const answers = await registry.dispatch({
    role: "assistant",
    content: null,
    tool_calls: [
      call("ok", "area", '{"shape":{"kind":"square","side":2},"scale":3,"when":"2025-01-31T09:30:00Z"}'),
      call("coerced", "area", '{"shape":{"kind":"circle","radius":"1"},"scale":"2"}'),
      call("invalid", "area", '{"shape":{"kind":"circle"},"scale":0}'),
      call("union", "area", '{"shape":{"kind":"triangle"}}'),
      call("hand", "hand_written", '{"text":"hi"}'),
    ],
  });
  console.log(
    JSON.stringify({
      codegen,
      answers: answers.map((m) => ({ id: m.tool_call_id, status: m.status, content: m.content })),
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
