/**
 * Run by ajv-prepared.test.ts in a process of its own, so that nothing else has loaded ajv before: registers a tool
 * with a schema written at run time, then counts the functions compiled (`new Function`, how ajv builds validators)
 * during its first two calls, one invalid and one valid, and prints the counts and answers.
 */
import { tool, ToolRegistry } from "tooltype";

const echo = tool.fromSchema(
  {
    name: "echo",
    description: "Echo a word.",
    parameters: { type: "object", properties: { word: { type: "string", pattern: "^[a-z]+$" } }, required: ["word"] },
  },
  (args: { word: string }) => args.word,
);
const registry = new ToolRegistry([echo]);
const ajvLoaded = Object.keys(require.cache).some((file) => /[\\/]ajv[\\/]dist[\\/]2020\.js$/.test(file));

const Original = globalThis.Function;
let compiled = 0;
globalThis.Function = new Proxy(Original, {
  construct(target, args) {
    compiled++;
    return Reflect.construct(target, args) as object;
  },
  apply(target, thisArg, args) {
    compiled++;
    return Reflect.apply(target, thisArg, args) as unknown;
  },
});

const call = (id: string, word: string) => ({
  id,
  type: "function" as const,
  function: { name: "echo", arguments: JSON.stringify({ word }) },
});
void (async () => {
  const invalid = await registry.dispatch({
    role: "assistant",
    content: null,
    tool_calls: [call("bad", "Not a word!")],
  });
  const onInvalid = compiled;
  const valid = await registry.dispatch({ role: "assistant", content: null, tool_calls: [call("good", "word")] });
  globalThis.Function = Original;
  process.stdout.write(
    JSON.stringify({
      ajvLoaded,
      onInvalid,
      total: compiled,
      answers: [...invalid, ...valid].map((m) => ({ status: m.status, content: m.content })),
    }),
  );
})();
