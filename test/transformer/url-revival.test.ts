/**
 * `URL` is revived like `Date` wherever dispatch or a structured answer reads it (the tool path is also in fixture
 * 177): a structured output type with URLs gets `meta.urls`, and `parse()` hands back URL instances.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { StructuredOutput } from "tooltype/loop";
import { compileFixture } from "../support/compile";

test("structuredOutput<T>() revives the URLs in T, next to its Dates", () => {
  const compiled = compileFixture(`
/// <reference types="node" />
import { structuredOutput } from "tooltype/loop";
/** A link found on a page. */
interface Found {
  page: URL;
  links: { href: URL; seen: Date }[];
}
export const found = structuredOutput<Found>();
`);
  assert.equal(compiled.tooltype, []);
  const { found } = compiled.load<{ found: StructuredOutput<{ page: URL; links: { href: URL; seen: Date }[] }> }>();
  const answer = found.parse(
    JSON.stringify({
      page: "https://a.example/x",
      links: [{ href: "http://b.example/y?q=1", seen: "2024-05-01T10:00:00Z" }],
    }),
  );
  assert.ok(answer.page instanceof URL, "page is a URL");
  assert.is(answer.page.pathname, "/x");
  assert.ok(answer.links[0]!.href instanceof URL, "links[].href is a URL");
  assert.is(answer.links[0]!.href.searchParams.get("q"), "1");
  assert.ok(answer.links[0]!.seen instanceof Date, "links[].seen is still a Date");
  assert.throws(() => found.parse(JSON.stringify({ page: "not a url", links: [] })), /page/);
});

test.run();
