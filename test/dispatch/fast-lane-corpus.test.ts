/**
 * The dispatch fast lane against the full pipeline over the whole type corpus (test/fixtures/conformance): for every
 * tool, arguments shaped by its schema (mostly valid, often wrong in one place) and hostile variants of them are sent
 * as JSON text, once with the fast lane allowed and once with it switched off, and both answers must be the same:
 * content, status, error kind, artifact, parts, id and name. fast-lane.test.ts covers chosen cases (hooks, async
 * tools, hand-offs mid-batch); this one covers every parameter shape the transformer emits, including the closed
 * schemas whose validator stands in for the lane's walk over parsed arguments.
 *
 * Hostile variants change the text the way the lane's checks must notice: an own `__proto__` key (JSON.parse makes
 * one), a number too large for a double (`1e400`), a key the schema does not know, white space before the text.
 * Each text that parses is sent again as a LangChain ToolCall's parsed `args` (the lane's other reader: a copy by
 * `readArguments`), where the too-large number arrives as Infinity.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import type { RegisteredTool, ToolMessage } from "tooltype";
import * as path from "node:path";
import { corpusRegistries } from "../support/corpus";
import { shaped } from "../support/shaped-values";

const RUNS = 25;

// The corpus is registered with the package's own build ("tooltype", as the compiled fixtures import it), so its
// switches are the ones of that build's dispatch module, not of the runtime sources the other tests compile.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { fastLaneCount, setFastLane } = require(path.join(path.dirname(require.resolve("tooltype/package.json")), "dist", "runtime", "dispatch", "plain.js")) as typeof import("../../runtime/dispatch/plain");

/** What a caller and the model can observe of an answer. */
function observed(message: ToolMessage): Record<string, unknown> {
  return {
    class: message.constructor.name,
    tool_call_id: message.tool_call_id,
    name: message.name,
    content: message.content,
    status: message.status,
    errorKind: message.errorKind,
    artifact: message.artifact,
    parts: message.parts,
  };
}

/** The JSON text of `value` and, for an object, hostile variants of it. */
function texts(value: unknown): string[] {
  const json = JSON.stringify(value) ?? "null";
  const out = [json];
  if (typeof value !== "object" || value === null || Array.isArray(value)) return out;
  const inner = json.slice(1, -1);
  const join = (entry: string): string => `{${entry}${inner ? `,${inner}` : ""}}`;
  out.push(join('"__proto__":{"polluted":true}'), join('"unexpected":1'), ` ${json}`);
  // The first number in the text made too large for a double.
  const huge = json.replace(/([:[,])-?\d+(?:\.\d+)?(?:e[+-]?\d+)?(?=[,}\]])/i, (_, before: string) => `${before}1e400`);
  if (huge !== json) out.push(huge);
  return out;
}

/** A Chat Completions message of one call with `text` as its arguments. */
function chatMessage(tool: RegisteredTool, text: string): object {
  return { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: tool.name, arguments: text } }] };
}

/** A LangChain AIMessage of one call whose `args` came parsed from `text`, or undefined when it does not parse. */
function parsedMessage(tool: RegisteredTool, text: string): object | undefined {
  let args: unknown;
  try {
    args = JSON.parse(text);
  } catch {
    return undefined;
  }
  return { content: "", tool_calls: [{ id: "call_1", name: tool.name, args, type: "tool_call" }], invalid_tool_calls: [] };
}

async function answer(registry: { dispatch(message: object): Promise<ToolMessage[]> }, message: object, fast: boolean): Promise<Record<string, unknown>> {
  const previous = setFastLane(fast);
  try {
    const answers = await registry.dispatch(message);
    assert.is(answers.length, 1);
    return observed(answers[0]!);
  } finally {
    setFastLane(previous);
  }
}

const counts = { tools: 0, texts: 0, fast: 0, success: 0, error: 0 };

for (const { name, registry } of corpusRegistries().entries) {
  for (const tool of registry.list() as RegisteredTool[]) {
    counts.tools++;
    test(`${name} ${tool.name}: the fast lane answers as the full pipeline does`, async () => {
      await fc.assert(
        fc.asyncProperty(shaped(tool.parameters, tool.parameters, 0), async (value) => {
          for (const text of texts(value)) {
            // The text itself, then (but for the variant with white space, the same value) its parsed value.
            const messages: [string, object | undefined][] = [
              [`arguments ${text}`, chatMessage(tool, text)],
              [`parsed args ${text}`, text.startsWith(" ") ? undefined : parsedMessage(tool, text)],
            ];
            for (const [what, message] of messages) {
              if (message === undefined) continue;
              counts.texts++;
              const before = fastLaneCount();
              const fast = await answer(registry, message, true);
              counts.fast += fastLaneCount() - before;
              const full = await answer(registry, message, false);
              assert.equal(fast, full, what);
              if (full.status === "success") counts.success++;
              else counts.error++;
            }
          }
        }),
        { numRuns: RUNS, seed: 11 },
      );
    });
  }
}

test("the comparison covered the lane: many calls taken by it, many answered and many refused", () => {
  assert.ok(counts.tools >= 100, JSON.stringify(counts));
  assert.ok(counts.fast > counts.tools * 5, `the fast lane took too few calls: ${JSON.stringify(counts)}`);
  assert.ok(counts.success > counts.tools * 5 && counts.error > counts.tools * 5, JSON.stringify(counts));
});

test.run();
