/**
 * The extraction example: nested data pulled out of a text with a tool call, recovered by validation retries.
 * `npm run example:extraction`, or `npm run example:extraction -- --jsonpatch`.
 */
import { ToolRetryError, runTools, type RunStep } from "tooltype/loop";
import { connect } from "../shared/connect";
import { TEXT, extractionScript } from "./scripted-model";
import { createRegistry, recorded } from "./tools";

function printStep(step: RunStep): void {
  if (step.calls.length === 0) return;
  console.log(`\nStep ${step.index}:`);
  step.calls.forEach((call, i) => {
    const [name, args] =
      call.type === "function" ? [call.function.name, call.function.arguments] : [call.custom.name, call.custom.input];
    const result = step.results[i]!;
    console.log(`  → ${name}(${args})`);
    console.log(`  ← ${result.status}: ${result.content.split("\n").join("\n      ")}`);
  });
}

/**
 * The model calls `record_people` with a list of people. When its arguments break the schema (an age in words, an
 * email that is not one, a country name where a two-letter code belongs), dispatch does not run the tool: the error,
 * one line per failing path, goes back to the model as the call's answer, and `runTools` lets it try again, up to
 * `maxAttempts` failures in a row. By default the model sends all the arguments again; with `--jsonpatch` it may
 * instead patch just the wrong values of its failed call (RFC 6902), which helps when the arguments are large.
 */
async function main(): Promise<void> {
  const repair = process.argv.includes("--jsonpatch") ? "jsonpatch" : "regenerate";
  const registry = createRegistry();
  const { client, model, close } = await connect(extractionScript, "scripted-extraction-model");
  try {
    console.log(`\nRepair mode: ${repair}`);
    console.log(`Text: ${TEXT}`);
    const result = await runTools(
      client,
      {
        model,
        messages: [
          {
            role: "system",
            content: "Extract every person the text mentions by calling record_people once with all of them.",
          },
          { role: "user", content: TEXT },
        ],
      },
      registry,
      { repair, maxAttempts: 3, onStep: printStep },
    );
    console.log(`\nAssistant: ${result.content ?? ""}`);
    const failures = result.steps.flatMap((step) => step.failures);
    console.log(`\n${failures.length} failed attempt(s) before the valid call:`);
    for (const failure of failures) {
      console.log(`  step ${failure.step}, ${failure.toolName}:`);
      for (const issue of failure.issues) console.log(`    - ${issue}`);
    }
    console.log("\nRecorded people:");
    for (const person of recorded) {
      console.log(
        `  ${person.name}, ${person.age}, ${person.address.city} (${person.address.country})${person.email ? `, ${person.email}` : ""}`,
      );
    }
  } catch (error) {
    if (error instanceof ToolRetryError) {
      console.error(`\nGave up: ${error.message}`);
      for (const attempt of error.attempts)
        console.error(`  attempt at step ${attempt.step}: ${attempt.issues.join("; ")}`);
      process.exitCode = 1;
      return;
    }
    throw error;
  } finally {
    await close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
