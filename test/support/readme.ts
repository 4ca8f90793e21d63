/** README code blocks for the tests that compile them: the ```ts block that follows `<!-- readme-compile: name -->`. */
import * as fs from "node:fs";
import * as path from "node:path";
import * as assert from "uvu/assert";

const readme = fs.readFileSync(path.resolve(__dirname, "../../../README.md"), "utf8");

/** The code block that follows `<!-- readme-compile: name -->`. */
export function readmeBlock(name: string): string {
  const marker = `<!-- readme-compile: ${name} -->`;
  const at = readme.indexOf(marker);
  assert.ok(at >= 0, `README has the marker ${marker}`);
  const found = /```ts\n([\s\S]*?)```/.exec(readme.slice(at));
  assert.ok(found, `a ts code block follows ${marker}`);
  return found![1]!;
}
