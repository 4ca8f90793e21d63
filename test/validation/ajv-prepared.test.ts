/**
 * ajv is made ready when a tool with a run-time schema is registered, not on its first call: requiring it and
 * compiling the meta-schema every schema is checked against blocked the event loop for about 150 ms on the first
 * request of such a tool (issue 36, the hostile-input bench). Counted, not timed: the functions ajv compiles during
 * the first calls are the tool's own validators only (before, the meta-schema's, twice: once per ajv instance).
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { HANG_MS } from "../support/hang";

test("registering a tool.fromSchema tool loads ajv and its meta-schema; its first calls compile only its own schema", () => {
  const out = execFileSync(process.execPath, [path.join(__dirname, "ajv-prepared-child.js")], {
    encoding: "utf8",
    timeout: HANG_MS,
  });
  const result = JSON.parse(out) as {
    ajvLoaded: boolean;
    onInvalid: number;
    total: number;
    answers: { status: string; content: string }[];
  };
  assert.ok(result.ajvLoaded, "ajv is required at registration");
  assert.is(result.answers[0]!.status, "error");
  assert.match(result.answers[0]!.content, /\/word: must match the pattern/);
  assert.equal(result.answers[1], { status: "success", content: "word" });
  // The tool's schema, compiled once for "valid or not" and once by the failure path that collects every error.
  assert.ok(result.onInvalid <= 2, `${result.onInvalid} functions compiled by the first, invalid call`);
  assert.is(result.total, result.onInvalid, "the second call compiles nothing");
});

test.run();
