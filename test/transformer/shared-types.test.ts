/**
 * A named type used by many tools is read once per program and its reading shared. These
 * cases check that sharing never carries one use's schema or diagnostics over to another: use-site order (mapped
 * keys, unions in type arguments), problems (each tool reports its own), `$defs` (shared, nested, inlined per tool),
 * `@param` texts on nested properties, type tags, and a later program in watch mode after the type changed.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { JsonSchema, ToolRegistry } from "tooltype";
import tooltype from "tooltype/transformer";
import { compileFixture, compileProgram } from "../support/compile";
import { assertAccepts } from "../support/schema";

const source = `
import { tool, ToolRegistry } from "tooltype";
/** A postal address. */
interface Address {
  /** Street and number */
  street: string;
  /** City */
  city: string;
  country: "FR" | "DE";
}
interface LineItem { sku: string; quantity: number }
interface Order { id: string; items: LineItem[]; shipTo: Address }
interface Box<T> { value: T }
type Keyed = Record<"b" | "a", number>;

/**
 * Ship a parcel.
 * @param to.country Where it goes
 */
export const ship = tool(function ship(to: Address) { return to.city; });
/** Bill an address. */
export const bill = tool(function bill(to: Address) { return to.city; });
/** Send an order and its address again. */
export const send = tool(function send(order: Order, to: Address) { return order.id + to.city; });
/** Count an order. */
export const count = tool(function count(order: Order) { return order.items.length; });
/** Keys written b, a. */
export const keysBA = tool(function keysBA(k: Keyed, box: Box<"y" | "x">) { return k.a; });
/** Keys written a, b. */
export const keysAB = tool(function keysAB(k: Record<"a" | "b", number>, box: Box<"x" | "y">) { return k.a; });
export const registry = new ToolRegistry([ship, bill, send, count, keysBA, keysAB]);
`;

const fixture = compileFixture(source);
const registry = fixture.load<{ registry: ToolRegistry }>().registry;
const parameters = (name: string): JsonSchema => registry.get(name)!.parameters;
const prop = (schema: JsonSchema, ...path: string[]): JsonSchema =>
  path.reduce((s, key) => (s.properties as Record<string, JsonSchema>)[key]!, schema);

test("the shared types compile cleanly", () => {
  assert.equal(fixture.diagnostics, []);
});

test("a @param text on a property of a shared type describes it in that tool only", () => {
  assert.is(prop(parameters("ship"), "to", "country").description, "Where it goes");
  assert.is(prop(parameters("bill"), "to", "country").description, undefined);
  assert.is(prop(parameters("bill"), "to", "city").description, "City");
  assert.is(prop(parameters("bill"), "to").description, "A postal address.");
  assertAccepts(
    parameters("bill"),
    [{ to: { street: "s", city: "c", country: "FR" } }],
    [{ to: { street: "s", city: "c", country: "US" } }, { to: { street: "s", country: "DE" } }],
  );
});

test("$defs follow each tool's own uses: shared where used twice, inline where once, nested types too", () => {
  const send = parameters("send");
  assert.equal(Object.keys(send.$defs as object), ["Address"]);
  assert.is(prop(send, "order", "shipTo").$ref, "#/$defs/Address");
  assert.is(prop(send, "to").$ref, "#/$defs/Address");
  const count = parameters("count");
  assert.is(count.$defs, undefined);
  assert.is(prop(count, "order", "shipTo", "city").type, "string");
  const order = { id: "1", items: [{ sku: "a", quantity: 1 }], shipTo: { street: "s", city: "c", country: "DE" } };
  assertAccepts(
    send,
    [{ order, to: order.shipTo }],
    [
      { order, to: { ...order.shipTo, country: "IT" } },
      { order: { ...order, items: [{ sku: "a" }] }, to: order.shipTo },
    ],
  );
  assertAccepts(count, [{ order }], [{ order: { ...order, shipTo: { street: "s" } } }]);
});

test("orders written at the use site stay the use's own: mapped keys and unions in type arguments", () => {
  assert.equal(Object.keys(prop(parameters("keysBA"), "k").properties as object), ["b", "a"]);
  assert.equal(Object.keys(prop(parameters("keysAB"), "k").properties as object), ["a", "b"]);
  assert.equal(prop(parameters("keysBA"), "box", "value").enum, ["y", "x"]);
  assert.equal(prop(parameters("keysAB"), "box", "value").enum, ["x", "y"]);
});

test("a problem inside a shared type is reported for every tool that uses it, naming that tool", () => {
  const broken = compileFixture(`
    import { tool } from "tooltype";
    interface Job { name: string; onDone: () => void }
    /** First. */
    export const first = tool(function first(job: Job) { return job.name; });
    /** Second, with Job twice (one $defs entry, reported once). */
    export const second = tool(function second(job: Job, again: Job) { return job.name + again.name; });
  `);
  const messages = broken.tooltype.map((d) => d.message);
  assert.is(messages.filter((m) => m.includes(`of tool "first"`)).length, 1, messages.join("\n"));
  assert.is(messages.filter((m) => m.includes(`of tool "second"`)).length, 1, messages.join("\n"));
});

test("a type tag shared by tools gives each its keywords, and each use its own problems", () => {
  const tagged = compileFixture(`
    import { tool, ToolRegistry, type Int, type Min, type Max, type MultipleOf } from "tooltype";
    /** Fine. */
    export const fine = tool(function fine(n: Int & Min<5>) { return n; });
    /** Bounds that cannot both hold. */
    export const clash = tool(function clash(n: Int & Min<5> & Max<3>) { return n; });
    /** Fine again. */
    export const again = tool(function again(n: number & Min<5> & Max<9>) { return n; });
    /** A tag value that is wrong, once. */
    export const bad1 = tool(function bad1(n: number & MultipleOf<0>) { return n; });
    /** The same wrong tag, again. */
    export const bad2 = tool(function bad2(m: number & MultipleOf<0>) { return m; });
    export const registry = new ToolRegistry([fine, again]);
  `);
  assert.equal(
    tagged.tooltype.map((d) => `${d.code} ${d.text}`),
    ["TT1009 n: Int & Min<5> & Max<3>", "TT1009 n: number & MultipleOf<0>", "TT1009 m: number & MultipleOf<0>"],
  );
  const tools = tagged.load<{ registry: ToolRegistry }>().registry;
  assertAccepts(tools.get("fine")!.parameters, [{ n: 5 }, { n: 100 }], [{ n: 4 }, { n: 5.5 }]);
  assertAccepts(tools.get("again")!.parameters, [{ n: 5 }, { n: 8.5 }], [{ n: 4 }, { n: 10 }]);
});

test("watch mode: a later program reads the changed type, not the earlier program's reading", () => {
  const tools = `
    import { tool } from "tooltype";
    import type { Address } from "./types";
    /** Ship. */
    export const ship = tool(function ship(to: Address) { return String(to.zip); });
    /** Bill. */
    export const bill = tool(function bill(to: Address) { return String(to.zip); });
  `;
  const first = compileProgram({ "tools.ts": tools, "types.ts": "export interface Address { zip: string }" });
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    strict: true,
    skipLibCheck: true,
    types: [],
    lib: ["lib.es2022.d.ts"],
    outDir: first.dir,
    rootDir: first.dir,
  };
  const files = ["tools.ts", "types.ts"].map((f) => path.join(first.dir, f));
  // As a watch host does: a file whose text is unchanged keeps its SourceFile (and so its nodes) in the next program.
  const host = ts.createCompilerHost(options);
  const sources = new Map<string, { text: string; file: ts.SourceFile | undefined }>();
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language, ...rest) => {
    const text = ts.sys.readFile(fileName) ?? "";
    const known = sources.get(fileName);
    if (known?.text === text) return known.file;
    const file = read(fileName, language, ...rest);
    sources.set(fileName, { text, file });
    return file;
  };
  const zipType = (program: ts.Program): unknown[] => {
    const types: unknown[] = [];
    const onToolMeta = (meta: { parameters: JsonSchema }): void =>
      void types.push(prop(meta.parameters, "to", "zip").type);
    program.emit(program.getSourceFile(files[0]!), () => {}, undefined, false, {
      before: [tooltype(program, {}, { ts, onToolMeta })],
    });
    return types;
  };
  const one = ts.createProgram(files, options, host);
  assert.equal(zipType(one), ["string", "string"]);
  fs.writeFileSync(files[1]!, "export interface Address { zip: number }");
  const two = ts.createProgram(files, options, host, one);
  assert.ok(
    two.getSourceFile(files[0]!) === one.getSourceFile(files[0]!),
    "the unchanged tool file is reused, as in watch mode",
  );
  assert.equal(zipType(two), ["number", "number"]);
  assert.equal(zipType(one), ["string", "string"]);
});

test.run();
