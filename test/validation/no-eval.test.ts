/**
 * Dispatch where run-time code generation is forbidden: validators compiled at build time need no `new Function`,
 * so valid calls run, invalid ones get their messages, and only a schema written by hand (compiled lazily) fails,
 * as a clear error message rather than a crash.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { HANG_MS } from "../support/hang";

interface Answer {
  id: string;
  status: string;
  content: string;
}

test("dispatch with code generation disallowed (--disallow-code-generation-from-strings)", () => {
  const out = execFileSync(
    process.execPath,
    ["--disallow-code-generation-from-strings", path.join(__dirname, "no-eval-child.js")],
    {
      encoding: "utf8",
      timeout: HANG_MS,
    },
  );
  const { codegen, answers } = JSON.parse(out) as { codegen: string; answers: Answer[] };
  assert.is(codegen, "EvalError", "the child really runs without code generation");
  const byId = Object.fromEntries(answers.map((a) => [a.id, a]));
  assert.equal(byId.ok, { id: "ok", status: "success", content: '{"area":12,"when":"2025-01-31T09:30:00.000Z"}' });
  assert.equal(byId.coerced!.status, "success");
  assert.match(byId.coerced!.content, /"area":6\.28/);
  assert.is(byId.invalid!.status, "error");
  assert.match(byId.invalid!.content, /\/scale: must be >= 1/);
  assert.match(byId.invalid!.content, /Call area again with corrected arguments/);
  assert.is(byId.union!.status, "error");
  assert.match(byId.union!.content, /\/shape: must be/);
  assert.is(byId.hand!.status, "error", "a hand-written schema needs run-time compilation");
  assert.match(byId.hand!.content, /Code generation from strings disallowed/);
});

test.run();
