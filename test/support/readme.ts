/**
 * The documentation's code blocks, for the tests that compile (and run) them: a block is found by the marker comment
 * `<!-- readme-compile: name -->` right above it, on whichever page holds it (README.md or a guide under docs/).
 */
import * as assert from "uvu/assert";
import { pages, read } from "../docs/markdown";

/** The ts code block that follows `<!-- readme-compile: name -->`. */
export function readmeBlock(name: string): string {
  const marker = `<!-- readme-compile: ${name} -->`;
  const page = pages().find((p) => read(p).includes(marker));
  assert.ok(page, `no page of README.md or docs/ has the marker ${marker}`);
  const text = read(page!);
  const found = /```ts\n([\s\S]*?)```/.exec(text.slice(text.indexOf(marker)));
  assert.ok(found, `a ts code block follows ${marker} in ${page}`);
  return found![1]!;
}
