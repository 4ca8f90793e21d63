/**
 * Validators compiled at build time: emitted next to the schema, used by dispatch without compiling anything, and
 * written in ES5 so that they run unchanged for every target.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as ts from "typescript";
import type { ToolRegistry } from "tooltype";
import { compileFixture } from "../../support/compile";

const source = `
import { tool, ToolRegistry, type Int, type Min } from "tooltype";
/**
 * Book seats.
 * @param seats How many
 * @param names Who sits there
 */
export const book = tool(function book(seats: Int & Min<1>, names: string[]) { return seats + ":" + names.join(","); });
export const registry = new ToolRegistry([book]);
`;

async function exercise(registry: ToolRegistry): Promise<void> {
  const [ok, bad] = await registry.dispatch({
    tool_calls: [
      { id: "1", name: "book", args: { seats: 2, names: ["a", "b"] } },
      { id: "2", name: "book", args: { seats: 0, names: "a" } },
    ],
  });
  assert.is(ok!.content, "2:a,b");
  assert.is(bad!.status, "error");
  assert.match(bad!.content, /\/seats: must be >= 1/);
}

test("ES2022: the generated validator is emitted as text, small, and validates", async () => {
  const fixture = compileFixture(source);
  assert.equal(fixture.diagnostics, []);
  const js = fixture.js["main.js"]!;
  const start = js.indexOf("validator: function (require)");
  assert.ok(start > 0, "a validator is emitted");
  const validator = js.slice(start, js.indexOf("return k.v(v);", start));
  assert.match(validator, /require\("tooltype\/validator@3"\)/);
  // Yes/no checks only: the kit explains an invalid value from the schema, so no error path is emitted.
  assert.match(validator, /\|\| (d\.seats|d\d+) < 1\) return 1;/);
  assert.not.match(validator, /minimum|\/seats/);
  assert.ok(validator.length < 1200, `${validator.length} bytes`);
  const registry = fixture.load<{ registry: ToolRegistry }>().registry;
  assert.type(registry.get("book")!.meta.validator, "function");
  await exercise(registry);
});

test("ES5: the generated validator needs no down-levelling, and validates", async () => {
  const fixture = compileFixture(source, { target: ts.ScriptTarget.ES5 });
  assert.equal(
    fixture.diagnostics.filter((d) => d.category === "error"),
    [],
  );
  const js = fixture.js["main.js"]!;
  const validator = js.slice(js.indexOf("validator: function (require)"), js.indexOf("return k.v(v);"));
  assert.ok(validator.length > 0, "a validator is emitted");
  assert.not.match(validator, /\bconst |\blet |=>/, "no ES2015 syntax left");
  await exercise(fixture.load<{ registry: ToolRegistry }>().registry);
});

test("{ validators: false } leaves them out; dispatch compiles lazily instead", async () => {
  const fixture = compileFixture(source, { pluginConfig: { validators: false } });
  assert.not.match(fixture.js["main.js"]!, /validator:/);
  const registry = fixture.load<{ registry: ToolRegistry }>().registry;
  assert.is(registry.get("book")!.meta.validator, undefined);
  await exercise(registry);
});

test.run();
