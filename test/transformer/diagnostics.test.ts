/**
 * What cannot be represented is a compile error at the exact node, with a TT code and advice; never a silently
 * wrong schema. Each case checks the code, the category, the position (line and the spanned text) and that the
 * message tells the user what to write instead.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { compileFixture, type FixtureDiagnostic } from "../support/compile";

function only(source: string): FixtureDiagnostic[] {
  const fixture = compileFixture(`import { tool, type ToolContext } from "tooltype";\n${source}`);
  const others = fixture.diagnostics.filter((d) => !d.code.startsWith("TT"));
  assert.equal(others, [], "no TypeScript errors besides tooltype's");
  return fixture.tooltype;
}

test("a function-typed parameter is TT1001 at that parameter", () => {
  const [d, ...rest] = only(`
/** Run later. */
export const later = tool(function later(when: number, callback: () => void) { return when; });
`);
  assert.equal(rest, []);
  assert.is(d!.code, "TT1001");
  assert.is(d!.category, "error");
  assert.is(d!.line, 4);
  assert.is(d!.text, "callback: () => void");
  assert.match(d!.message, /parameter "callback" has type a function/);
  assert.match(d!.message, /only send JSON data/);
});

test("unsupported library types name the fix: Map, Set, Promise, bigint, symbol", () => {
  const ds = only(`
/** Many bad parameters. */
export const bad = tool(function bad(a: Map<string, number>, b: Set<string>, c: Promise<string>, d: bigint, e: symbol) { return 1; });
`);
  assert.equal(
    ds.map((d) => d.code),
    ["TT1001", "TT1001", "TT1001", "TT1001", "TT1001"],
  );
  assert.equal(
    ds.map((d) => d.text.split(":")[0]),
    ["a", "b", "c", "d", "e"],
  );
  assert.match(ds[0]!.message, /Record<string, T>/);
  assert.match(ds[1]!.message, /array/);
  assert.match(ds[2]!.message, /await inside the tool/);
  assert.match(ds[3]!.message, /use number/);
  assert.match(ds[4]!.message, /use a string/);
});

test("a nested function-typed property is reported at that property, with the path and the parameter that uses it", () => {
  const fixture = compileFixture(`import { tool } from "tooltype";
interface Job {
  id: string;
  onDone: (ok: boolean) => void;
}
/** Schedule a job. */
export const schedule = tool(function schedule(job: Job) { return job.id; });
`);
  const [d, ...rest] = fixture.tooltype;
  assert.equal(rest, []);
  assert.is(d!.code, "TT1001");
  assert.is(d!.line, 4);
  assert.is(d!.text, "onDone: (ok: boolean) => void;");
  assert.match(d!.message, /"job\.onDone" \(in parameter "job" of tool "schedule"\)/);
  assert.equal(
    d!.related.map((r) => [r.line, r.text]),
    [[7, "job: Job"]],
  );
});

test("a problem that comes from a type argument stays at the parameter, related to the generic declaration", () => {
  const fixture = compileFixture(`import { tool } from "tooltype";
interface Box<T> {
  value: T;
}
/** Box it. */
export const boxed = tool(function boxed(box: Box<() => void>) { return box; });
`);
  const [d] = fixture.tooltype;
  assert.is(d!.text, "box: Box<() => void>");
  assert.equal(
    d!.related.map((r) => r.text),
    ["value: T;"],
  );
});

test("a tool without any description is TT1002 at its name", () => {
  const [d] = only(`
export class Tools {
  @tool
  undocumented(x: string) { return x; }
}
`);
  assert.is(d!.code, "TT1002");
  assert.is(d!.text, "undocumented");
  assert.match(d!.message, /Write a JSDoc comment/);
});

test("a description in the options satisfies the description rule", () => {
  assert.equal(only(`export const t = tool((x: string) => x, { description: "Echo." });`), []);
});

test("a name OpenAI would reject is TT1003 with a suggestion", () => {
  const [d] = only(`
/** Echo. */
export const t = tool((x: string) => x, { name: "echo text!" });
`);
  assert.is(d!.code, "TT1003");
  assert.match(d!.message, /"echo text!"/);
  assert.match(d!.message, /\{ name: "echo_text_" \}/);
});

test("a method name with $ is TT1003 at the method name", () => {
  const [d] = only(`
export class A {
  /** Price lookup. */
  @tool
  get$price(sku: string) { return 1; }
}
`);
  assert.is(d!.code, "TT1003");
  assert.is(d!.text, "get$price");
});

test("a rest parameter is TT1004 with the array alternative", () => {
  const [d] = only(`
/** Sum numbers. */
export const sum = tool(function sum(...values: number[]) { return values.length; });
`);
  assert.is(d!.code, "TT1004");
  assert.is(d!.text, "...values: number[]");
  assert.match(d!.message, /values: T\[\]/);
});

test("any and unknown are warnings (TT1005) and give {}", () => {
  const ds = only(`
/** Store anything. */
export const store = tool(function store(key: string, value: unknown, extra: any) { return key; });
`);
  assert.equal(
    ds.map((d) => [d.code, d.category, d.text.split(":")[0]]),
    [
      ["TT1005", "warning", "value"],
      ["TT1005", "warning", "extra"],
    ],
  );
});

test("a @param naming no parameter is a warning (TT1010) at the name in the tag", () => {
  const [d] = only(`
/**
 * Greet.
 * @param nmae The name
 */
export const greet = tool(function greet(name: string) { return name; });
`);
  assert.is(d!.code, "TT1010");
  assert.is(d!.category, "warning");
  assert.is(d!.text, "nmae");
  assert.match(d!.message, /@param nmae/);
});

test("a JSDoc tag value that does not parse is TT1009 at the tag", () => {
  const fixture = compileFixture(`import { tool } from "tooltype";
interface Range {
  /** @minimum ten */
  low: number;
}
/** Check a range. */
export const check = tool(function check(range: Range) { return range.low; });
`);
  const [d] = fixture.tooltype;
  assert.is(d!.code, "TT1009");
  assert.is(d!.line, 3);
  assert.is(d!.text, "@minimum ten");
  assert.match(d!.message, /"@minimum ten"/);
  assert.match(d!.message, /expected a number/);
});

test("a ToolContext parameter is injected, not described", () => {
  const fixture = compileFixture(`import { tool, ToolRegistry, type ToolContext } from "tooltype";
/** Slow search. */
export const slow = tool(function slow(query: string, ctx: ToolContext) { return query; });
export const registry = new ToolRegistry([slow]);
`);
  assert.equal(fixture.diagnostics, []);
  const meta = fixture.load<{ registry: import("tooltype").ToolRegistry }>().registry.get("slow")!.meta;
  assert.equal(Object.keys(meta.parameters.properties as object), ["query"]);
  assert.equal(meta.inject, [1]);
});

test.run();
