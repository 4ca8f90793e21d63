/**
 * Every tool of the type corpus (test/fixtures/conformance) answers as it did before dispatch became one pipeline:
 * for each tool, arguments shaped by its schema (mostly valid, often wrong in one place) and hostile variants of
 * them are dispatched as JSON text (a Chat Completions call) and as parsed `args` (a LangChain ToolCall), and what a
 * caller and the model can observe of each answer (content, status, error kind, artifact, parts, id, name) is
 * folded into one digest per tool, compared with corpus-answers.json. That file was written by this test run against
 * the build that still had two implementations of a call (a fast lane beside the full pipeline, whose agreement the
 * test it replaces checked), so a difference here is a change of an answer. Written again since for two meant changes
 * only: type lists in words (`must be a string or a number`, issue 33) and the new fixtures 191, 192 and 193, after
 * checking that
 * with the old wording put back every other digest was unchanged.
 *
 * Hostile variants change the text the way reading must notice: an own `__proto__` key (JSON.parse makes one), a
 * number too large for a double (`1e400`), a key the schema does not know, white space before the text. Each text
 * that parses is sent again as parsed `args`, where the too-large number arrives as Infinity.
 *
 * To write the file again (only when an answer is meant to change): TOOLTYPE_WRITE_CORPUS_ANSWERS=1.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import type { RegisteredTool, ToolMessage } from "tooltype";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { corpusRegistries } from "../support/corpus";
import { shaped } from "../support/shaped-values";

const RUNS = 25;
const FILE = path.resolve(__dirname, "../../../test/dispatch/corpus-answers.json");
const WRITE = process.env.TOOLTYPE_WRITE_CORPUS_ANSWERS === "1";

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
  return {
    role: "assistant",
    content: null,
    tool_calls: [{ id: "call_1", type: "function", function: { name: tool.name, arguments: text } }],
  };
}

/** A LangChain AIMessage of one call whose `args` came parsed from `text`, or undefined when it does not parse. */
function parsedMessage(tool: RegisteredTool, text: string): object | undefined {
  let args: unknown;
  try {
    args = JSON.parse(text);
  } catch {
    return undefined;
  }
  return {
    content: "",
    tool_calls: [{ id: "call_1", name: tool.name, args, type: "tool_call" }],
    invalid_tool_calls: [],
  };
}

/** JSON of an observed answer, with what JSON leaves out (undefined, Infinity, dates) kept apart. */
function stable(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (item === undefined) return "<undefined>";
    if (typeof item === "number" && !Number.isFinite(item)) return `<${String(item)}>`;
    return item;
  });
}

const expected: Record<string, string> =
  WRITE || !fs.existsSync(FILE) ? {} : (JSON.parse(fs.readFileSync(FILE, "utf8")) as Record<string, string>);
const written: Record<string, string> = {};
const counts = { tools: 0, texts: 0, success: 0, error: 0 };

for (const { name, registry } of corpusRegistries().entries) {
  for (const tool of registry.list() as RegisteredTool[]) {
    counts.tools++;
    const key = `${name} ${tool.name}`;
    test(`${key}: every answer as before`, async () => {
      const digest = createHash("sha256");
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
              const answers = (await registry.dispatch(message as never)) as ToolMessage[];
              assert.is(answers.length, 1, what);
              const one = observed(answers[0]!);
              if (one.status === "success") counts.success++;
              else counts.error++;
              digest.update(`${what}\n${stable(one)}\n`);
            }
          }
        }),
        { numRuns: RUNS, seed: 11 },
      );
      const got = digest.digest("hex");
      written[key] = got;
      if (!WRITE)
        assert.is(got, expected[key], `${key}: an answer changed (or the tool is new: see this file's header)`);
    });
  }
}

test("the corpus covered many answers, accepted and refused", () => {
  assert.ok(counts.tools >= 100, JSON.stringify(counts));
  assert.ok(counts.success > counts.tools * 5 && counts.error > counts.tools * 5, JSON.stringify(counts));
  if (WRITE) fs.writeFileSync(FILE, `${JSON.stringify(written, null, 1)}\n`);
  else
    assert.is(
      Object.keys(written).length,
      Object.keys(expected).length,
      "every tool of corpus-answers.json was answered",
    );
});

test.run();
