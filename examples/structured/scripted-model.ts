/** The scripted stand-in for a model in the structured example. */
import type { ScriptStep } from "../../test/scripted-openai/server";

export const QUESTION = "Tell me a joke about cats.";

/**
 * Asked with `response_format` (a strict JSON Schema named "joke"), the model answers with the JSON object, its
 * optional rating given; asked with the format instructions in
 * the prompt instead, it answers the way such models often do: the JSON in a markdown fence, the rating left out.
 * Each step checks the request, so a wrong request fails loudly.
 */
export const structuredScript: ScriptStep[] = [
  (request) => {
    const format = request.response_format;
    if (format?.type !== "json_schema" || format.json_schema.name !== "joke" || format.json_schema.strict !== true) {
      throw new Error(`expected a strict json_schema response format named "joke", got ${JSON.stringify(format)}`);
    }
    return {
      content: JSON.stringify({
        setup: "Why was the cat sitting on the computer?",
        punchline: "To keep an eye on the mouse!",
        rating: 7,
      }),
    };
  },
  (request) => {
    const system = request.messages.find((m) => m.role === "system");
    if (request.response_format || typeof system?.content !== "string" || !system.content.includes('"punchline"')) {
      throw new Error("expected the format instructions in a system message and no response_format");
    }
    return { content: '```json\n{"setup": "What do you call a pile of cats?", "punchline": "A meowtain."}\n```' };
  },
];
