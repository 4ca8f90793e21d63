/**
 * Dispatch in each model API's format: the dispatch benchmark's call as one message of each format a registry answers.
 */
import { ToolRegistry } from "tooltype";
import { getForecast } from "./dispatch";
import { type InterleaveOptions, type InterleaveResult, interleave, type Variant } from "./harness";

export const CHAT = "Chat Completions message";
export const RESPONSES = "Responses API response";
export const ANTHROPIC = "Anthropic message";
export const GEMINI = "Gemini response";
export const LANGCHAIN_AI = "LangChain AIMessage";

/** The formats in the order the report lists them; the first is every ratio's base. */
export const FORMATS = [CHAT, RESPONSES, ANTHROPIC, GEMINI, LANGCHAIN_AI] as const;

const ARGS = { city: "Paris", days: 3, unit: "celsius" };
const TEXT = JSON.stringify(ARGS);

/** One message of each format with one call of `get_forecast`. */
function messages(): Record<(typeof FORMATS)[number], object> {
  return {
    [CHAT]: {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_0", type: "function", function: { name: "get_forecast", arguments: TEXT } }],
    },
    [RESPONSES]: {
      output: [{ type: "function_call", id: "fc_0", call_id: "call_0", name: "get_forecast", arguments: TEXT }],
    },
    [ANTHROPIC]: {
      role: "assistant",
      content: [{ type: "tool_use", id: "toolu_0", name: "get_forecast", input: ARGS }],
    },
    [GEMINI]: {
      candidates: [
        { content: { role: "model", parts: [{ functionCall: { id: "g_0", name: "get_forecast", args: ARGS } }] } },
      ],
    },
    [LANGCHAIN_AI]: {
      content: "",
      tool_calls: [{ id: "call_0", name: "get_forecast", args: ARGS, type: "tool_call" }],
      invalid_tool_calls: [],
    },
  };
}

const registry = new ToolRegistry([getForecast]);
const expected = "3-day forecast for Paris: sunny, 21 degrees celsius";

/** Throws unless every format's answer carries the tool's result, as text, exactly once. */
export async function checkFormats(): Promise<string[]> {
  for (const [format, message] of Object.entries(messages())) {
    const answer = JSON.stringify(await registry.dispatch(message as never));
    if (answer.split(expected).length !== 2)
      throw new Error(`formats: the ${format} answer does not carry the result once: ${answer}`);
  }
  return [`formats: the ${FORMATS.length} formats' answers each carry the tool's result ("${expected}")`];
}

/**
 * The same call of the dispatch benchmark's tool (same arguments, validation on) as one message of each format,
 * dispatched by one `ToolRegistry`, interleaved like dispatch.ts's variants. Chat Completions and the Responses API
 * carry the arguments as JSON text; Anthropic, Gemini and a
 * LangChain `AIMessage` carry them parsed. Ratios are to the Chat Completions message, per round. `checkFormats`
 * proves first that every format's answer carries the same result text.
 */
export async function benchFormats(options: InterleaveOptions): Promise<InterleaveResult> {
  const all = messages();
  const variants: Variant[] = FORMATS.map((format) => {
    const message = all[format];
    return { label: format, batch: (n) => loop(n, message) };
  });
  return interleave(variants, options);
}

async function loop(n: number, message: object): Promise<number> {
  let total = 0;
  for (let i = 0; i < n; i++) if ((await registry.dispatch(message as never)) !== undefined) total++;
  return total;
}
