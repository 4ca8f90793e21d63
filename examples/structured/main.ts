/** The structured output example: a typed answer from a type alone (`npm run example:structured`). */
import { connect } from "../shared/connect";
import { joke, type Joke } from "./joke";
import { QUESTION, structuredScript } from "./scripted-model";

function show(label: string, value: Joke): void {
  console.log(`\n${label}:`);
  console.log(`  setup:     ${value.setup}`);
  console.log(`  punchline: ${value.punchline}`);
  console.log(`  rating:    ${value.rating === undefined ? "(not given)" : `${value.rating}/10`}`);
}

/**
 * A typed answer from a type alone, in two ways:
 * 1. `response_format`: `joke.responseFormat` is OpenAI's `{ type: "json_schema", json_schema: { name, schema,
 *    strict: true } }` with the Joke type's schema; `joke.parse(text)` validates the answer and returns a `Joke`.
 * 2. For models without a response format: `joke.formatInstructions()` goes into the prompt, and the same `parse`
 *    reads the answer (a markdown fence around the JSON is accepted).
 */
async function main(): Promise<void> {
  console.log("response_format sent to the model:");
  console.log(JSON.stringify(joke.responseFormat, null, 2));
  const { client, model, close } = await connect(structuredScript, "scripted-joke-model");
  try {
    console.log(`\nUser: ${QUESTION}`);
    const withFormat = await client.chat.completions.create({
      model,
      messages: [{ role: "user", content: QUESTION }],
      response_format: joke.responseFormat,
    });
    show("With response_format", joke.parse(withFormat.choices[0]!.message.content ?? ""));

    const withInstructions = await client.chat.completions.create({
      model,
      messages: [
        { role: "system", content: joke.formatInstructions() },
        { role: "user", content: "Tell me another one." },
      ],
    });
    show("With format instructions in the prompt", joke.parse(withInstructions.choices[0]!.message.content ?? ""));
  } finally {
    await close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
