/**
 * The contract every provider keeps, run against each one by its own test file (`providerContract(case)`), as Hono
 * runs every router through one case file. A case says only how its format writes a message, reads an answer and
 * shows an exported tool; the checks are the same for all:
 * - every call of a message is read and answered in kind, one answer per call, ids and order kept;
 * - invalid calls (unknown tool, invalid arguments, unreadable arguments text) are answered as errors, not thrown;
 * - `parseToolCalls` reads the same calls; `formatAnswer` over `runCalls` gives what `dispatch` gives;
 * - the provider entry's preset (`tooltype/<entry>`) answers as the main registry does and exports the same tools;
 * - the export shape: each tool with its name, description and parameter schema.
 * The tools come from the transformer, as a user's would.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { type BaseToolRegistry, ToolRegistry, formatAnswer, parseToolCalls, tool } from "tooltype";

/** One call of a message, as a case writes it: its arguments object, or (`raw`) arguments text that may not parse. */
export interface ContractCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
  raw?: string;
}

/** The arguments text of a call, for formats that send text. */
export function argumentsText(call: ContractCall): string {
  return call.raw ?? JSON.stringify(call.args);
}

/** One answer entry, as a case reads it: the id it answers (where the format has ids), its text, and failure. */
export interface ContractAnswer {
  id?: string;
  text: string;
  /** Where the format marks failures (undefined where it does not: the text says so). */
  error?: boolean;
}

/** One exported tool, as a case reads it. */
export interface ContractTool {
  name: string;
  description?: string;
  parameters: unknown;
}

/** What a provider's test file tells the contract about its format. */
export interface ProviderCase {
  /** The format's name in the catalogue (`ToolProvider.name`). */
  format: string;
  /** A message of this format with `calls`, in order. */
  message(calls: readonly ContractCall[]): object;
  /** The entries of an answer, in order. */
  answers(answer: unknown): ContractAnswer[];
  /** The tools as the main registry exports them in this format. */
  exportFrom(registry: ToolRegistry): unknown[];
  /** The same, from the preset of the provider's own entry (undefined where it has none). */
  entry?: {
    load: () => Promise<{ ToolRegistry: new (sources: object[]) => BaseToolRegistry }>;
    exportFrom(registry: BaseToolRegistry): unknown[];
  };
  /** One exported tool, read. */
  exported(tool: unknown): ContractTool;
  /** At most this many calls per message (the legacy functions API has one). */
  maxCalls?: number;
  /** Whether answers carry the call ids. */
  ids: boolean;
  /** Whether arguments can arrive as text (and so be unreadable). */
  textArguments: boolean;
}

/**
 * Add two numbers.
 * @param a The first number
 * @param b The second number
 */
const add = tool(function add(a: number, b: number) {
  return a + b;
});

/**
 * Say a word back.
 * @param word The word
 */
const echo = tool(function echo(word: string) {
  return `said ${word}`;
});

const tools = [add, echo];

/** Registers the contract's tests for `c` and runs them. */
export function providerContract(c: ProviderCase): void {
  const test = suite(`provider contract: ${c.format}`);
  const max = c.maxCalls ?? Infinity;
  const take = (calls: ContractCall[]): ContractCall[] => calls.slice(0, max);

  test("reads every call and answers in kind, one answer per call, ids and order kept", async () => {
    const registry = new ToolRegistry(tools);
    const calls = take([
      { id: "call_1", name: "echo", args: { word: "first" } },
      { id: "call_2", name: "add", args: { a: 2, b: 3 } },
      { id: "call_3", name: "echo", args: { word: "third" } },
    ]);
    const answers = c.answers(await registry.dispatch(c.message(calls) as never));
    assert.is(answers.length, calls.length);
    const expected = ["said first", "5", "said third"];
    answers.forEach((answer, i) => {
      if (c.ids) assert.is(answer.id, calls[i]!.id, `answer ${i} keeps its call's id`);
      assert.is(answer.text, expected[i], `answer ${i} is its call's result`);
      if (answer.error !== undefined) assert.is(answer.error, false);
    });
  });

  test("invalid calls are answered as errors, each in its place", async () => {
    const registry = new ToolRegistry(tools);
    const calls: ContractCall[] = [
      { id: "bad_1", name: "nope", args: {} },
      { id: "bad_2", name: "add", args: { a: "two", b: 3 } },
      { id: "ok_3", name: "add", args: { a: 1, b: 1 } },
    ];
    if (c.textArguments) calls.push({ id: "bad_4", name: "echo", args: {}, raw: '{"word": ' });
    for (const call of calls) {
      const answers = c.answers(await registry.dispatch(c.message([call]) as never));
      assert.is(answers.length, 1, `one answer for ${call.id}`);
      const answer = answers[0]!;
      if (c.ids) assert.is(answer.id, call.id);
      const failed = call.id.startsWith("bad");
      if (answer.error !== undefined)
        assert.is(answer.error, failed, `${call.id} is answered as ${failed ? "an error" : "a result"}`);
      if (failed)
        assert.ok(
          answer.text.length > 0 && answer.text !== "2",
          `${call.id} tells the model what was wrong: ${answer.text}`,
        );
      else assert.is(answer.text, "2");
    }
    if (max > 1) {
      const answers = c.answers(await registry.dispatch(c.message(calls) as never));
      assert.is(answers.length, calls.length, "a batch with invalid calls is answered whole");
      if (c.ids)
        assert.equal(
          answers.map((answer) => answer.id),
          calls.map((call) => call.id),
        );
    }
  });

  test("parseToolCalls reads the same calls; formatAnswer over runCalls is dispatch's answer", async () => {
    const registry = new ToolRegistry(tools);
    const calls = take([
      { id: "p_1", name: "add", args: { a: 4, b: 5 } },
      { id: "p_2", name: "echo", args: { word: "w" } },
    ]);
    const message = c.message(calls);
    const parsed = parseToolCalls(registry, message as never, { returnId: true });
    assert.equal(
      parsed.calls.map((call) => ({ name: call.name, args: call.args })),
      calls.map((call) => ({ name: call.name, args: call.args })),
    );
    assert.equal(parsed.invalid, []);
    const results = await registry.runCalls(message as never);
    assert.equal(formatAnswer(message as never, results), await registry.dispatch(message as never));
  });

  test("the export shape: each tool with its name, description and parameters", () => {
    const registry = new ToolRegistry(tools);
    const exported = c.exportFrom(registry).map(c.exported);
    assert.equal(
      exported.map((entry) => entry.name),
      ["add", "echo"],
    );
    assert.is(exported[0]!.description, "Add two numbers.");
    const parameters = exported[0]!.parameters as {
      type?: unknown;
      properties?: Record<string, unknown>;
      required?: unknown;
    };
    assert.is(String(parameters.type).toLowerCase(), "object");
    assert.equal(Object.keys(parameters.properties ?? {}), ["a", "b"]);
  });

  if (c.entry) {
    const entry = c.entry;
    test("the provider entry's preset answers and exports as the main registry does", async () => {
      const { ToolRegistry: Preset } = await entry.load();
      const preset = new Preset(tools);
      const main = new ToolRegistry(tools);
      const message = c.message(
        take([
          { id: "e_1", name: "add", args: { a: 1, b: 2 } },
          { id: "e_2", name: "nope", args: {} },
        ]),
      );
      assert.equal(await preset.dispatch(message as never), await main.dispatch(message as never));
      assert.equal(entry.exportFrom(preset), c.exportFrom(main));
    });
  }

  test.run();
}
