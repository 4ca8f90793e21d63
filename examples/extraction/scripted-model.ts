/**
 * The scripted stand-in for a model in the extraction example: a first call with nested details wrong, then its
 * repair.
 */
import type { ChatCompletionCreateParams } from "openai/resources/chat/completions";
import { toolResults, type ScriptStep } from "../../test/scripted-openai/server";

export const TEXT =
  "Ada Lovelace (thirty-six) lives in London, United Kingdom; write to her at ada-at-example.org. " +
  "Her friend Charles Babbage, 79, lives in London too, and Grace Hopper, 85, in Arlington, USA (grace@example.com).";

const address = (city: string, country: string) => ({ city, country });

/**
 * The first call gets three nested details wrong, as small models do: an age in words, a malformed email, a country
 * name instead of its code.
 */
const FIRST_TRY = {
  people: [
    {
      name: "Ada Lovelace",
      age: "thirty-six",
      email: "ada-at-example.org",
      address: address("London", "United Kingdom"),
    },
    { name: "Charles Babbage", age: 79, address: address("London", "GB") },
    { name: "Grace Hopper", age: 85, email: "grace@example.com", address: address("Arlington", "US") },
  ],
};

const CORRECTED = {
  people: [
    { name: "Ada Lovelace", age: 36, email: "ada@example.org", address: address("London", "GB") },
    FIRST_TRY.people[1],
    FIRST_TRY.people[2],
  ],
};

const PATCH = [
  { op: "replace", path: "/people/0/age", value: 36 },
  { op: "replace", path: "/people/0/email", value: "ada@example.org" },
  { op: "replace", path: "/people/0/address/country", value: "GB" },
];

function offers(request: ChatCompletionCreateParams, name: string): boolean {
  return (request.tools ?? []).some((t) => t.type === "function" && t.function.name === name);
}

/**
 * Shown the validation errors of its first call, the model repairs it: with a JSON Patch of just the three wrong
 * values when `patch_tool_arguments` is offered, otherwise by calling `record_people` again with all the arguments.
 * Then it answers from the tool's result.
 */
export const extractionScript: ScriptStep[] = [
  (request) => {
    if (!offers(request, "record_people")) throw new Error("the request does not offer record_people");
    return { tool_calls: [{ name: "record_people", arguments: FIRST_TRY }] };
  },
  (request) => {
    const [failed] = toolResults(request);
    if (!failed?.content.startsWith("Error: invalid arguments for record_people")) {
      throw new Error(`expected the validation error of record_people, got ${JSON.stringify(failed)}`);
    }
    if (offers(request, "patch_tool_arguments")) {
      return {
        tool_calls: [{ name: "patch_tool_arguments", arguments: { tool_call_id: failed.tool_call_id, patch: PATCH } }],
      };
    }
    return { tool_calls: [{ name: "record_people", arguments: CORRECTED }] };
  },
  (request) => {
    const [recorded] = toolResults(request);
    if (!recorded || recorded.content.startsWith("Error"))
      throw new Error(`expected the people to be recorded, got ${JSON.stringify(recorded)}`);
    return { content: `Done. ${recorded.content}` };
  },
];
