/**
 * Free-form tools from types (issue 48, item 5): `@freeform` or the literal option `freeform: true` on a tool with
 * one string parameter; its pattern (`Pattern<…>` or `@pattern`) becomes OpenAI's `regex` grammar, checked at build
 * time against Rust's regex syntax. One fixture holds every case: the tools that compile, and the ones refused with
 * TT1027 (not one required string) and TT1028 (a pattern the grammar cannot hold), each at its tag or option.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { type RegisteredTool, ToolExportError, ToolRegistry, tool } from "tooltype";
import { compileFixture } from "../support/compile";

const fixture = compileFixture(`import { tool, ToolRegistry, type Pattern } from "tooltype";

/**
 * Run a read-only SQL query.
 * @freeform
 */
export const sql = tool(function sql(query: string) { return query; });

type Timestamp = string & Pattern<"^\\\\d{4}-\\\\d{2}-\\\\d{2}$">;
/**
 * Schedule a run on a day.
 * @freeform
 */
export const schedule = tool(function schedule(day: Timestamp) { return day; });

/** Tag a record: the tag is a word. */
export const label = tool(function label({ tag }: Tagging) { return tag; }, { freeform: true });

/**
 * Two parameters.
 * @freeform
 */
export const pair = tool(function pair(a: string, b: string) { return a + b; });

/** A number. */
export const count = tool(function count(n: number) { return n; }, { freeform: true });

/**
 * Looks ahead.
 * @freeform
 */
export const ahead = tool(function ahead(text: string & Pattern<"^foo(?=bar)">) { return text; });

/**
 * Refers back.
 * @freeform
 */
export const back = tool(function back(text: string & Pattern<"^(a)\\\\1$">) { return text; });

export const registry = new ToolRegistry([sql, schedule, label]);

interface Tagging {
  /**
   * The tag.
   * @pattern ^[a-z]+(?:-[a-z]+)*$
   */
  tag: string;
}
`);

function at(line: number) {
  return fixture.tooltype.filter((d) => d.line === line);
}

test("free-form tools with one string compile without a diagnostic; the others are refused where they were marked", () => {
  assert.equal(
    fixture.tooltype.map((d) => [d.code, d.line]),
    [
      ["TT1027", 21],
      ["TT1027", 26],
      ["TT1028", 30],
      ["TT1028", 36],
    ],
  );
});

test("TT1027: more than one parameter, or one that is not a string, says what to write", () => {
  const [pair] = at(21);
  assert.is(pair!.category, "error");
  assert.is(pair!.text, "@freeform");
  assert.match(pair!.message, /Tool "pair" is free-form/);
  assert.match(pair!.message, /it has 2 parameters \(a, b\)/);
  assert.match(pair!.message, /exactly one required string parameter/);
  const [count] = at(26);
  assert.is(count!.text, "freeform: true");
  assert.match(count!.message, /its parameter "n" is not a string/);
});

test("TT1028: look-around and backreferences cannot be OpenAI's regex grammar", () => {
  const [ahead] = at(30);
  assert.match(ahead!.message, /The pattern of free-form tool "ahead" \("\^foo\(\?=bar\)"\)/);
  assert.match(ahead!.message, /look-around/);
  assert.match(ahead!.message, /Rust's regex syntax/);
  assert.match(ahead!.message, /Rewrite the pattern/);
  const [back] = at(36);
  assert.match(back!.message, /backreference/);
});

test("the metadata marks a @freeform tool; the option stays an option; export writes custom tools and grammars", () => {
  const { registry } = fixture.load<{
    registry: {
      list(): RegisteredTool[];
      toResponsesTools(options: { customTools: true }): unknown[];
      toOpenAITools(options?: { customTools?: boolean }): unknown[];
    };
  }>();
  const [sql, schedule, label] = registry.list();
  assert.is(sql!.meta.freeform, true);
  assert.is(schedule!.meta.freeform, true);
  assert.is(label!.meta.freeform, undefined);
  assert.is(label!.options.freeform, true);
  assert.equal(registry.toResponsesTools({ customTools: true }), [
    { type: "custom", name: "sql", description: "Run a read-only SQL query." },
    {
      type: "custom",
      name: "schedule",
      description: "Schedule a run on a day.",
      format: { type: "grammar", syntax: "regex", definition: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$" },
    },
    {
      type: "custom",
      name: "label",
      description: "Tag a record: the tag is a word.",
      format: { type: "grammar", syntax: "regex", definition: "^[a-z]+(?:-[a-z]+)*$" },
    },
  ]);
  assert.equal((registry.toOpenAITools({ customTools: true })[1] as { custom: unknown }).custom, {
    name: "schedule",
    description: "Schedule a run on a day.",
    format: { type: "grammar", grammar: { syntax: "regex", definition: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$" } },
  });
  // Without customTools, every tool is a function tool: the free-form one with its one string parameter.
  const [plain] = registry.toOpenAITools() as { type: string; function: { parameters: unknown } }[];
  assert.is(plain!.type, "function");
  assert.equal(plain!.function.parameters, {
    type: "object",
    properties: { query: { type: "string" } },
    required: ["query"],
    additionalProperties: false,
  });
});

test("the build writes each grammar into the metadata, a refused one as its reason; an export reads it as it would translate", () => {
  const loaded = fixture.load<Record<"schedule" | "ahead" | "back", object>>();
  const exported = (registry: ToolRegistry): unknown => {
    try {
      return registry.toOpenAITools({ customTools: true })[0];
    } catch (error) {
      if (!(error instanceof ToolExportError)) throw error;
      return { message: error.message, format: error.format, toolName: error.toolName, path: error.path };
    }
  };
  const grammars: unknown[] = [];
  for (const name of ["schedule", "ahead", "back"] as const) {
    const [registered] = new ToolRegistry([loaded[name]]).list();
    grammars.push(registered!.meta.grammar);
    const runTime = new ToolRegistry([
      tool.fromSchema(
        { name, description: registered!.description, parameters: registered!.parameters, freeform: true },
        (args) => args,
      ),
    ]);
    assert.equal(exported(new ToolRegistry([loaded[name]])), exported(runTime), name);
  }
  assert.is(grammars[0], "^[0-9]{4}-[0-9]{2}-[0-9]{2}$");
  assert.match((grammars[1] as { refused: string }).refused, /look-around/);
  assert.match((grammars[2] as { refused: string }).refused, /backreference/);
});

test.run();
