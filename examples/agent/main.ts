/**
 * The agent example: `runTools` runs the whole loop. `npm run example:agent`, or `npm run example:agent -- --stream`.
 */
import { runTools, type RunStep } from "tooltype/loop";
import { connect } from "../shared/connect";
import { QUESTION, agentScript } from "./scripted-model";
import { createRegistry } from "./tools";

function printStep(step: RunStep): void {
  if (step.calls.length === 0) return;
  console.log(`\nStep ${step.index}: ${step.calls.length} tool call(s)`);
  step.calls.forEach((call, i) => {
    const [name, args] =
      call.type === "function" ? [call.function.name, call.function.arguments] : [call.custom.name, call.custom.input];
    console.log(`  → ${name}(${args})  [${call.id}]`);
    console.log(`  ← ${step.results[i]!.status}: ${step.results[i]!.content}`);
  });
}

/**
 * The model answers "What is 2 times 3, and 6 plus 6?" with two parallel tool calls; the loop dispatches both, sends
 * the results back and returns once the model answers in text. `onStep` prints each step. With `--stream`, the same
 * loop streams: text as it arrives, each tool call's arguments as they grow, and each call run as soon as it is
 * complete.
 */
async function main(): Promise<void> {
  const stream = process.argv.includes("--stream");
  const registry = createRegistry();
  const { client, model, close } = await connect(agentScript, "scripted-agent-model");
  try {
    const params = { model, messages: [{ role: "user" as const, content: QUESTION }] };
    console.log(`\nUser: ${QUESTION}`);
    if (!stream) {
      const result = await runTools(client, params, registry, { onStep: printStep });
      console.log(`\nAssistant: ${result.content ?? ""}`);
      console.log(`(${result.steps.length} steps, ${result.messages.length} messages)`);
      return;
    }
    const run = runTools(client, params, registry, { stream: true });
    let writing = false;
    let shown = "";
    for await (const event of run) {
      if (event.type === "text") {
        if (!writing) process.stdout.write("\nAssistant: ");
        writing = true;
        process.stdout.write(event.delta);
        continue;
      }
      if (writing) process.stdout.write("\n");
      writing = false;
      if (event.type === "tool_call") {
        const call = event.call;
        if (call.type === "function")
          console.log(`  → ${call.function.name}(${call.function.arguments})  [${call.id}] complete, running`);
      } else if (event.type === "tool_call_delta") {
        // The arguments parsed so far, printed when they change.
        const progress = `  … ${event.call.name} ${JSON.stringify(event.call.args ?? {})}`;
        if (progress !== shown) console.log(progress);
        shown = progress;
      } else if (event.type === "tool_result") {
        console.log(`  ← ${event.result.status}: ${event.result.content}`);
      }
    }
    const result = await run.finalResult();
    console.log(`(${result.steps.length} steps, ${result.messages.length} messages)`);
  } finally {
    await close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
