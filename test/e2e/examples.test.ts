/**
 * End to end: the agent, structured and extraction examples, compiled with the transformer as part of the test
 * build, each run as a program offline (no OPENAI_API_KEY: the scripted server on 127.0.0.1), in each of its modes.
 * What they print is what a user sees: the calls, the results, the validation errors and repairs, the answers.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { execFile } from "node:child_process";
import * as path from "node:path";
import { HANG_MS } from "../support/hang";

async function runExample(name: string, args: string[] = []): Promise<string> {
  const main = path.join(__dirname, `../../examples/${name}/main.js`);
  const env = { ...process.env };
  delete env.OPENAI_API_KEY;
  delete env.OPENAI_BASE_URL;
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
    (resolve) => {
      const child = execFile(process.execPath, [main, ...args], { env, timeout: HANG_MS }, (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
      child.stdin?.end();
    },
  );
  assert.is(code, 0, `example ${name} ${args.join(" ")} failed:\n${stderr}\n${stdout}`);
  return stdout;
}

test("examples/agent: two parallel calls, their results, the final answer", async () => {
  const out = await runExample("agent");
  assert.match(out, "User: What is 2 times 3, and 6 plus 6?");
  assert.match(
    out,
    'Step 1: 2 tool call(s)\n  → multiply({"a":2,"b":3})  [call_1]\n  ← success: 6\n  → add({"a":6,"b":6})  [call_2]\n  ← success: 12',
  );
  assert.match(out, "Assistant: 2 times 3 is 6, and 6 plus 6 is 12.\n(2 steps, 5 messages)");
});

test("examples/agent --stream: arguments as they grow, each call run when complete, the streamed answer", async () => {
  const out = await runExample("agent", ["--stream"]);
  assert.match(out, '  … multiply {"a":2}\n');
  assert.match(out, '  → multiply({"a":2,"b":3})  [call_1] complete, running');
  assert.match(out, '  → add({"a":6,"b":6})  [call_2] complete, running');
  assert.ok(
    out.indexOf("[call_1] complete") < out.indexOf("… add"),
    "the first call completes before the second streams",
  );
  assert.match(out, "  ← success: 6\n  ← success: 12");
  assert.match(out, "Assistant: 2 times 3 is 6, and 6 plus 6 is 12.\n(2 steps, 5 messages)");
});

test("examples/structured: the strict response format, and a typed joke both ways", async () => {
  const out = await runExample("structured");
  assert.match(out, '"name": "joke"');
  assert.match(out, '"strict": true');
  assert.match(
    out,
    "With response_format:\n  setup:     Why was the cat sitting on the computer?\n  punchline: To keep an eye on the mouse!\n  rating:    7/10",
  );
  assert.match(
    out,
    "With format instructions in the prompt:\n  setup:     What do you call a pile of cats?\n  punchline: A meowtain.\n  rating:    (not given)",
  );
});

for (const mode of ["regenerate", "jsonpatch"]) {
  test(`examples/extraction (${mode}): invalid nested arguments, the errors, the repair, the recorded people`, async () => {
    const out = await runExample("extraction", mode === "jsonpatch" ? ["--jsonpatch"] : []);
    assert.match(out, `Repair mode: ${mode}`);
    assert.match(out, "← error: Error: invalid arguments for record_people:");
    assert.match(out, '- /people/0/age: must be an integer; got "thirty-six"');
    assert.match(out, '- /people/0/address/country: must match the pattern /^[A-Z]{2}$/; got "United Kingdom"');
    if (mode === "jsonpatch") {
      assert.match(out, 'call patch_tool_arguments with tool_call_id "call_1"');
      assert.match(
        out,
        '→ patch_tool_arguments({"tool_call_id":"call_1","patch":[{"op":"replace","path":"/people/0/age","value":36}',
      );
    } else {
      assert.not.match(out, "patch_tool_arguments");
    }
    assert.match(out, "← success: Recorded 3 people: Ada Lovelace, Charles Babbage, Grace Hopper.");
    assert.match(out, "1 failed attempt(s) before the valid call:\n  step 1, record_people:\n    - /people/0/age");
    assert.match(
      out,
      "Recorded people:\n  Ada Lovelace, 36, London (GB), ada@example.org\n  Charles Babbage, 79, London (GB)\n  Grace Hopper, 85, Arlington (US), grace@example.com",
    );
  });
}

test.run();
