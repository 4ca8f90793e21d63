/**
 * The forms the build writes into a tool's metadata (runtime/strict/forms.ts: `meta.strict`, and `meta.grammar` for a
 * tool of one required string with a pattern) against what an export computes at run time from the same schema, over
 * the type corpus: every compiled tool exported in OpenAI's and Anthropic's strict subsets and as a custom tool, once
 * with its metadata and once as a `tool.fromSchema` tool of the same name and schema, must give the same schema (key
 * order included) or the same ToolExportError. Grammars the build refuses are compared in
 * test/transformer/freeform.test.ts, whose fixture has them.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { type RegisteredTool, ToolExportError, ToolRegistry, tool } from "tooltype";
import { corpusRegistries } from "../support/corpus";

type Outcome = { json: string } | { error: { message: string; format: string; toolName?: string; path?: string } };

function outcome(write: () => unknown): Outcome {
  try {
    return { json: JSON.stringify(write()) };
  } catch (error) {
    if (!(error instanceof ToolExportError)) throw error;
    const { message, format, toolName, path } = error;
    return { error: { message, format, toolName, path } };
  }
}

const fn = (args: unknown): unknown => args;

/** `registered` as a compiled tool (its metadata) and as a run-time schema tool, each in a registry of its own. */
function bothWays(registered: RegisteredTool, options: { strict?: boolean; freeform?: boolean }) {
  const compiled = new ToolRegistry([tool(fn, { name: registered.name, ...options }, registered.meta)]);
  const runTime = new ToolRegistry([
    tool.fromSchema(
      {
        name: registered.name,
        description: registered.description,
        parameters: registered.parameters,
        ...(registered.meta.examples ? { examples: registered.meta.examples } : {}),
        ...options,
      },
      fn,
    ),
  ]);
  return { compiled, runTime };
}

const tools = corpusRegistries().entries.flatMap((entry) =>
  entry.registry.list().map((registered) => ({ fixture: entry.name, registered })),
);

test("every compiled tool carries its strict forms", () => {
  assert.ok(tools.length >= 100, `only ${tools.length} tools`);
  const missing = tools.filter(({ registered }) => registered.meta.strict === undefined);
  assert.equal(
    missing.map(({ fixture, registered }) => `${fixture} ${registered.name}`),
    [],
  );
  // Not a vacuous comparison: the corpus has forms that differ from the schema and schemas a subset refuses.
  const count = (has: (forms: NonNullable<RegisteredTool["meta"]["strict"]>) => unknown) =>
    tools.filter(({ registered }) => has(registered.meta.strict!)).length;
  assert.ok(count((forms) => forms["openai-strict"]) > 20, "few OpenAI forms differ from their schema");
  assert.ok(count((forms) => forms["anthropic-strict"]) > 20, "few Anthropic forms differ from their schema");
  assert.ok(count((forms) => forms.refused?.["openai-strict"]) > 5, "few schemas OpenAI strict mode refuses");
  assert.ok(count((forms) => forms.refused?.["anthropic-strict"]) > 5, "few schemas Anthropic strict tool use refuses");
});

test("OpenAI strict mode: the build's form is the run-time rewrite, refusals included", () => {
  for (const { fixture, registered } of tools) {
    const { compiled, runTime } = bothWays(registered, { strict: true });
    for (const [label, write] of [
      ["Chat Completions", (registry: ToolRegistry) => registry.toOpenAITools()[0]!.function.parameters],
      ["Responses", (registry: ToolRegistry) => (registry.toResponsesTools()[0] as { parameters: unknown }).parameters],
    ] as const) {
      assert.equal(
        outcome(() => write(compiled)),
        outcome(() => write(runTime)),
        `${fixture} ${registered.name} (${label})`,
      );
    }
  }
});

test("Anthropic strict tool use: the build's form is the run-time rewrite, refusals included", () => {
  for (const { fixture, registered } of tools) {
    const { compiled, runTime } = bothWays(registered, { strict: true });
    const write = (registry: ToolRegistry) => registry.toAnthropicTools()[0]!.input_schema;
    assert.equal(
      outcome(() => write(compiled)),
      outcome(() => write(runTime)),
      `${fixture} ${registered.name}`,
    );
  }
});

test("a custom tool's grammar: the build's is the run-time translation, refusals included", () => {
  const withGrammar = tools.filter(({ registered }) => registered.meta.grammar !== undefined);
  // The corpus has no refused one (a free-form tool's is a build error): test/transformer/freeform.test.ts has those.
  assert.ok(withGrammar.length >= 2, `only ${withGrammar.length} tools of one string with a pattern`);
  for (const { fixture, registered } of withGrammar) {
    const { compiled, runTime } = bothWays(registered, { freeform: true });
    const write = (registry: ToolRegistry) => registry.toOpenAITools({ customTools: true })[0];
    assert.equal(
      outcome(() => write(compiled)),
      outcome(() => write(runTime)),
      `${fixture} ${registered.name}`,
    );
  }
});

test("a refusal written at build time names the tool by the name it is registered under", () => {
  const refused = tools.find(
    ({ registered }) => registered.meta.strict?.refused?.["openai-strict"] !== undefined,
  )!.registered;
  const renamed = new ToolRegistry([tool(fn, { name: "renamed_tool" }, refused.meta)]);
  const error = outcome(() => renamed.toOpenAITools({ strict: true }));
  assert.ok("error" in error, "the export did not fail");
  assert.ok(error.error.message.startsWith('Tool "renamed_tool" '), error.error.message);
  assert.is(error.error.toolName, "renamed_tool");
  assert.is(error.error.format, "openai-strict");
});

test.run();
