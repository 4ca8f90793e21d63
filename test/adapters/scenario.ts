/**
 * The conversation every framework adapter test runs through its framework's own loop, against the scripted
 * OpenAI-compatible server, and the checks on what reached the wire:
 * 1. the model makes two parallel calls: `get_weather` (valid) and `search_products` with `limit: 50` (invalid:
 *    at most 20);
 * 2. having read tooltype's error text, it corrects the call (`limit: "5"`, coerced to 5) and, in parallel, calls
 *    `lookup`, a content_and_artifact tool whose artifact ("kept in process") must never be sent;
 * 3. it answers "done".
 * Step 2 is a function of the request: it corrects the call only if tooltype's message reached it.
 */
import * as assert from "uvu/assert";
import type { ChatCompletionCreateParams } from "openai/resources/chat/completions";
import type { ToolRegistry } from "tooltype";
import { type ScriptStep, toolResults } from "../scripted-openai/server";

export const USER_PROMPT = "Weather in Paris, and lamps?";

const INVALID_LIMIT = /^Error: invalid arguments for search_products:\n- \/limit: must be <= 20; got 50/;

export const SCRIPT: ScriptStep[] = [
  {
    tool_calls: [
      { name: "get_weather", arguments: { city: "Paris" } },
      { name: "search_products", arguments: { keyword: "lamp", limit: 50 } },
    ],
  },
  (request) => {
    const results = toolResults(request);
    const failed = results.find((r) => r.name === "search_products");
    if (!failed || !INVALID_LIMIT.test(failed.content)) return { content: `no correction: ${JSON.stringify(results)}` };
    return {
      tool_calls: [
        { name: "search_products", arguments: { keyword: "lamp", limit: "5" } },
        { name: "lookup", arguments: { id: "r7" } },
      ],
    };
  },
  { content: "done" },
];

interface WireMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
}

/** The tool messages of a request, by the id of the call they answer, as the model read them. */
function toolTexts(request: ChatCompletionCreateParams): Map<string, string> {
  const texts = new Map<string, string>();
  for (const message of request.messages as WireMessage[]) {
    if (message.role !== "tool") continue;
    const content = message.content;
    const text =
      typeof content === "string"
        ? content
        : Array.isArray(content)
          ? content.map((p: { text?: string }) => p.text ?? "").join("")
          : "";
    texts.set(message.tool_call_id!, text);
  }
  return texts;
}

/** How the tool definitions of a request must compare with the registry's OpenAI export. */
export interface SchemaCheck {
  /** Compare with the strict export, and expect `strict: true`. */
  strict?: boolean;
  /** The framework rewrites schemas for the provider (Mastra does): compare only the property names. */
  rewritten?: boolean;
}

/**
 * The checks on the three request bodies. The tool definitions must be the registry's own OpenAI export (a
 * framework may add fields of its own beside them).
 */
export function checkRequests(
  requests: readonly ChatCompletionCreateParams[],
  registry: ToolRegistry,
  { strict = false, rewritten = false }: SchemaCheck = {},
): void {
  assert.is(requests.length, 3, "three model calls");
  const expected = new Map(registry.toOpenAITools({ strict }).map((t) => [t.function.name, t.function]));
  for (const request of requests) {
    const sent = (request.tools ?? []) as {
      type: string;
      function: { name: string; description?: string; parameters?: unknown; strict?: boolean };
    }[];
    assert.equal(sent.map((t) => t.function.name).sort(), [...expected.keys()].sort());
    for (const definition of sent) {
      const own = expected.get(definition.function.name)!;
      if (rewritten) {
        const names = (schema: unknown): string[] =>
          Object.keys((schema as { properties?: object }).properties ?? {}).sort();
        assert.equal(
          names(definition.function.parameters),
          names(own.parameters),
          `parameters of ${definition.function.name}`,
        );
      } else assert.equal(definition.function.parameters, own.parameters, `schema of ${definition.function.name}`);
      assert.is(definition.function.description, own.description);
      if (strict) assert.is(definition.function.strict, true);
    }
  }

  const second = toolTexts(requests[1]!);
  assert.equal([...second.values()].length, 2, "both parallel calls answered");
  assert.equal(JSON.parse(second.get("call_1")!), { city: "Paris", temperature: 21, unit: "celsius" });
  assert.match(second.get("call_2")!, INVALID_LIMIT);

  const third = toolTexts(requests[2]!);
  assert.equal(JSON.parse(third.get("call_3")!), { keyword: "lamp", limit: 5, filters: null, maxPriceGiven: false });
  assert.is(third.get("call_4"), "Record r7 found.");
  for (const request of requests) {
    assert.not.ok(JSON.stringify(request).includes("kept in process"), "the artifact never reaches the model");
  }
}
