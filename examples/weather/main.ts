/** The weather example: one full tool-calling loop with the `openai` SDK (`npm run example`). */
import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { startScriptedServer, type ScriptedServer } from "../../test/scripted-openai/server";
import { QUESTION, weatherScript } from "./scripted-model";
import { createRegistry } from "./tools";

const MAX_STEPS = 5;

/**
 * The user asks about the weather and for some umbrellas; the model answers with (parallel) tool calls;
 * `registry.dispatch(reply)` runs them and returns one ToolMessage per call, which go straight back into the message
 * list; the loop ends when the model answers in text, or after MAX_STEPS model turns.
 */
async function main(): Promise<void> {
  const registry = createRegistry();
  const tools = registry.toOpenAITools();
  console.log("Tools sent to the model:");
  console.log(JSON.stringify(tools, null, 2));

  const live = Boolean(process.env.OPENAI_API_KEY);
  let server: ScriptedServer | undefined;
  let client: OpenAI;
  let model: string;
  if (live) {
    client = new OpenAI({ baseURL: process.env.OPENAI_BASE_URL || undefined });
    model = process.env.OPENAI_MODEL || "gpt-4o-mini";
    console.log(`\nModel: ${model} at ${client.baseURL}`);
  } else {
    server = await startScriptedServer(weatherScript);
    client = new OpenAI({ baseURL: server.baseURL, apiKey: "scripted" });
    model = "scripted-weather-model";
    console.log(`\nNo OPENAI_API_KEY: using the scripted model at ${server.baseURL}`);
  }

  try {
    const messages: ChatCompletionMessageParam[] = [{ role: "user", content: QUESTION }];
    console.log(`\nUser: ${QUESTION}`);
    for (let step = 1; step <= MAX_STEPS; step++) {
      const completion = await client.chat.completions.create({ model, messages, tools });
      const reply = completion.choices[0].message;
      messages.push(reply);
      if (!reply.tool_calls || reply.tool_calls.length === 0) {
        console.log(`\nAssistant: ${reply.content ?? ""}`);
        return;
      }

      const results = await registry.dispatch(reply);
      console.log(`\nStep ${step}: ${reply.tool_calls.length} tool call(s)`);
      reply.tool_calls.forEach((call, i) => {
        const [name, args] =
          call.type === "function"
            ? [call.function.name, call.function.arguments]
            : [call.custom.name, call.custom.input];
        const result = results[i];
        console.log(`  → ${name}(${args})  [${call.id}]`);
        console.log(`  ← ${result.status}: ${result.content}`);
      });
      messages.push(...results);
    }
    console.error(`\nNo final answer after ${MAX_STEPS} model turns; giving up.`);
    process.exitCode = 1;
  } finally {
    await server?.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
