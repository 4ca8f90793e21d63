/**
 * utf8Length (runtime/tool/utf8.ts), what the size limits count in place of Node's Buffer (absent in Workers and
 * browsers): equal to Buffer.byteLength on any string, lone surrogates included.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { utf8Length } from "../../runtime/tool/utf8";

test("the UTF-8 size of every kind of character, pairs and lone surrogates", () => {
  for (const text of [
    "",
    "a",
    "é",
    "€",
    "😀",
    "a😀b",
    "\ud83d",
    "\ude00",
    "\ude00\ud83d",
    "x\ud83d",
    "\u07ff\u0800\uffff",
  ]) {
    assert.is(utf8Length(text), Buffer.byteLength(text, "utf8"), JSON.stringify(text));
  }
});

test("equal to Buffer.byteLength on generated strings", () => {
  const unit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string({ unit: "grapheme" }),
        fc.array(unit).map((units) => units.join("")),
      ),
      (text) => utf8Length(text) === Buffer.byteLength(text, "utf8"),
    ),
    { numRuns: 2000 },
  );
});

test.run();
