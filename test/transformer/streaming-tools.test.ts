/**
 * Tools that stream, compiled by the transformer from fixture sources: a decorated `async *method()`, a generator
 * typed `AsyncIterable<T>` (no TReturn, so no result schema), a sync `function*` (no stream), and a build that
 * lowers `async function*` (target ES2017, TypeScript's `__asyncGenerator` helper), which dispatch still drives
 * because the metadata marks the tool as streaming.
 */
import * as ts from "typescript";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { ToolRegistry } from "tooltype";
import { compileFixture } from "../support/compile";

const SOURCE = `
  import { tool, ToolRegistry } from "tooltype";

  export class Files {
    /**
     * Copy files one by one.
     * @param count How many files
     */
    @tool
    async *copy(count: number): AsyncGenerator<number, { copied: number }> {
      for (let i = 1; i <= count; i++) yield i;
      return { copied: count };
    }
  }

  /**
   * Read lines.
   * @param n How many
   */
  export const lines = tool(async function* lines(n: number): AsyncIterable<string> {
    for (let i = 0; i < n; i++) yield "line " + i;
  });

  /**
   * Numbers, synchronously.
   * @param n How many
   */
  export const numbers = tool(function* numbers(n: number) {
    for (let i = 0; i < n; i++) yield i;
    return n;
  });

  export const registry = new ToolRegistry([new Files(), lines, numbers]);
`;

async function copied(registry: ToolRegistry): Promise<[string, number[]]> {
  const progress: number[] = [];
  const [answer] = await registry.runCalls(
    { tool_calls: [{ id: "a", name: "copy", args: { count: 3 } }] },
    { onProgress: (update) => progress.push(update.progress) },
  );
  return [answer!.content, progress];
}

test("a decorated async generator method streams: TReturn is its result's schema, TYield its progress", async () => {
  const fixture = compileFixture(SOURCE);
  assert.equal(
    fixture.tooltype.filter((d) => d.category === "error"),
    [],
  );
  const registry = fixture.load<{ registry: ToolRegistry }>().registry;
  const copy = registry.get("copy")!.meta;
  assert.is(copy.streams, true);
  assert.equal(copy.params, ["count"]);
  assert.equal(copy.returns, {
    type: "object",
    properties: { copied: { type: "number" } },
    required: ["copied"],
    additionalProperties: false,
  });
  assert.equal(copy.yields, { type: "number" });
  assert.equal(await copied(registry), ['{"copied":3}', [1, 2, 3]]);

  const lines = registry.get("lines")!.meta;
  assert.is(lines.streams, true);
  assert.is(lines.returns, undefined, "AsyncIterable<T> has no TReturn");
  assert.equal(lines.yields, { type: "string" });

  // A sync generator is no stream: not marked.
  assert.is(registry.get("numbers")!.meta.streams, undefined);
});

test("a build that lowers async generators (ES2017) still streams: the metadata marks the tool", async () => {
  const fixture = compileFixture(SOURCE, { target: ts.ScriptTarget.ES2017 });
  assert.match(fixture.js["main.js"]!, /__asyncGenerator/);
  const registry = fixture.load<{ registry: ToolRegistry }>().registry;
  assert.is(registry.get("copy")!.meta.streams, true);
  assert.equal(await copied(registry), ['{"copied":3}', [1, 2, 3]]);
});

test.run();
