/**
 * Type tags beside brands of any shape (issue 45, item 16): a brand is a type-only member of an intersection, an
 * object of optional properties that hold no data, whatever its properties are named and typed. typia's tags are
 * one: `{ "typia.tag"?: { target: "array"; kind: "uniqueItems"; ...; schema: {...} } }`, a quoted dotted name whose
 * type is an object. Every tooltype tag beside such a brand must reach the schema and the validator; where a member
 * might hold data, a TT diagnostic says the schema leaves it out. typia's declarations are written here by hand (in
 * the shape typia publishes them), not installed. One compiled fixture for the file.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { RegisteredTool, ToolRegistry } from "tooltype";
import { compileFixture } from "../support/compile";

const typia = `
export namespace TagBase {
  export interface IProps<Target, Kind, Value, Validate, Exclusive, Schema> {
    target: Target;
    kind: Kind;
    value: Value;
    validate?: Validate;
    exclusive?: Exclusive | string[];
    schema?: Schema;
  }
}
/** typia's phantom property: compile time only. */
export type TagBase<Props extends TagBase.IProps<any, any, any, any, any, any>> = {
  "typia.tag"?: Props;
};
export namespace tags {
  export type UniqueItems<Value extends boolean = true> = TagBase<{
    target: "array";
    kind: "uniqueItems";
    value: Value;
    validate: Value extends true ? "$input.length <= 1 || new Set($input).size === $input.length" : undefined;
    exclusive: true;
    schema: { uniqueItems: true };
  }>;
  export type MinLength<Value extends number> = TagBase<{
    target: "string";
    kind: "minLength";
    value: Value;
    validate: \`\${Value} <= $input.length\`;
    exclusive: true;
    schema: { minLength: Value };
  }>;
}
`;

const source = `
import { tool, ToolRegistry, type UniqueItems, type MaxLength, type MinItems } from "tooltype";
import type { tags } from "./typia";
declare const meta: unique symbol;
/** Lists. */
const lists = tool(function lists(
  unique: Array<string> & tags.UniqueItems & UniqueItems,
  first: Array<string> & UniqueItems & tags.UniqueItems,
  both: string[] & tags.UniqueItems & MinItems<1> & { readonly [meta]?: { kind: "meta"; nested: { deep: true } } },
  code: string & tags.MinLength<2> & MaxLength<4>,
  described: Array<string> & UniqueItems & { readonly "x.y"?: () => void; readonly z?: never },
) {
  return [unique, first, both, code, described];
});
/** A member that may hold data beside a tag: the schema cannot carry it. */
const loose = tool(function loose(values: string[] & UniqueItems & { readonly count: number }) {
  return values;
});
export const registry = new ToolRegistry([lists, loose]);
`;

const fixture = compileFixture(source, { files: { "typia.ts": typia } });
const registry = fixture.load<{ registry: ToolRegistry }>().registry;
const lists = registry.get("lists") as RegisteredTool;

test("the build reports no error", () => {
  assert.equal(
    fixture.diagnostics.filter((d) => d.category === "error"),
    [],
    JSON.stringify(fixture.diagnostics),
  );
});

test("UniqueItems beside typia's tag is in the schema, whichever comes first", () => {
  const properties = lists.parameters.properties as Record<string, unknown>;
  const array = { type: "array", items: { type: "string" }, uniqueItems: true };
  assert.equal(properties.unique, array);
  assert.equal(properties.first, array);
  // typia's own tag is typia's: tooltype reads its own tags only, beside it.
  assert.equal(properties.both, { type: "array", items: { type: "string" }, minItems: 1 });
  assert.equal(properties.code, { type: "string", maxLength: 4 });
  assert.equal(properties.described, array);
});

test("the validator refuses repeated items and accepts distinct ones", async () => {
  const ok = { unique: ["one", "two"], first: ["a"], both: ["x"], code: "abc", described: [] };
  const answer = (args: unknown) =>
    registry.dispatch({
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c1", type: "function", function: { name: "lists", arguments: JSON.stringify(args) } }],
    } as never);
  const good = (await answer(ok)) as { content: string }[];
  assert.not.match(good[0]!.content, /error|invalid/i, good[0]!.content);
  for (const bad of [
    { ...ok, unique: ["one", "one", "two"] },
    { ...ok, first: ["a", "a"] },
    { ...ok, described: ["d", "d"] },
    { ...ok, code: "abcde" },
  ]) {
    const [reply] = (await answer(bad)) as { content: string }[];
    assert.match(reply!.content, /invalid|must|not/i, `${JSON.stringify(bad)}: ${reply!.content}`);
  }
});

test("a member that may hold data beside a tag is reported, not dropped in silence", () => {
  const reported = fixture.tooltype.filter((d) => d.message.includes('"count"'));
  assert.equal(
    reported.map((d) => [d.code, d.category, d.text]),
    [["TT1001", "warning", "values: string[] & UniqueItems & { readonly count: number }"]],
    JSON.stringify(fixture.tooltype),
  );
  assert.equal(
    (registry.get("loose") as RegisteredTool).parameters.properties,
    { values: { type: "array", items: { type: "string" }, uniqueItems: true } },
    "the tag still counts",
  );
  assert.equal(
    fixture.tooltype.filter((d) => d.category !== "warning" || d.code === "TT1001").length,
    1,
    "no other brand is reported",
  );
});

test.run();
