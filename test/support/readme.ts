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

/** The block of `lang` right after `<!-- marker -->` in README.md (`readme` is its text). */
export function readmeMarkedBlock(readme: string, marker: string, lang: string): string {
  const at = readme.indexOf(`<!-- ${marker} -->\n\`\`\`${lang}\n`);
  assert.ok(at >= 0, `README.md has a ${lang} block marked ${marker}`);
  const body = readme.indexOf("\n", readme.indexOf("```", at)) + 1;
  return readme.slice(body, readme.indexOf("```", body));
}

/** What the README's quick start says its program prints: the two tools in OpenAI's format, then `5`. */
export function assertQuickStartOutput(stdout: string): void {
  const [tools, answer] = stdout.trim().split("\n");
  const exported = JSON.parse(tools!) as {
    function: { name: string; description: string; parameters: { required: string[] } };
  }[];
  assert.equal(
    exported.map((t) => [t.function.name, t.function.description, t.function.parameters.required]),
    [
      ["price", "Price of an item, in euros.", ["item"]],
      ["add", "Add two numbers.", ["a", "b"]],
    ],
  );
  assert.is(answer, "5");
}
