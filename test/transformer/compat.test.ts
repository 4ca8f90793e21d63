/**
 * The same fixture compiled by TypeScript 5.5, 5.9 and 6.0 (the others installed under npm aliases) and under
 * both decorator modes gives the same metadata, and the tools run.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type * as ts from "typescript";
import type { ToolRegistry } from "tooltype";
import { compileFixture, metaData } from "../support/compile";

const source = `
import { tool, ToolRegistry, type Int } from "tooltype";
interface Filter {
  /** Lowest price */
  min?: number;
  tags: string[];
}
export class Shop {
  /**
   * Search products from the catalog.
   * @param keyword Search keyword
   * @param limit Maximum number of results
   */
  @tool
  search_products(keyword: string, limit: Int = 10, filter?: Filter | null) { return this.prefix + keyword + limit; }
  /** Count products. */
  @tool({ name: "count_products" })
  static count(category: "books" | "games") { return category.length; }
  prefix = "found:";
}
export const registry = new ToolRegistry([new Shop(), Shop]);
`;

const versions: [string, typeof ts][] = [
  ["5.9", require("typescript")],
  ["5.5", require("typescript-5.5")],
  ["6.0", require("typescript-6")],
];

const reference = compileFixture(source).load<{ registry: ToolRegistry }>().registry;

for (const [label, tsi] of versions) {
  for (const experimentalDecorators of [false, true]) {
    test(`TypeScript ${label} (${tsi.version}), ${experimentalDecorators ? "experimentalDecorators" : "standard decorators"}`, async () => {
      const fixture = compileFixture(source, { ts: tsi, experimentalDecorators });
      assert.equal(fixture.diagnostics, []);
      const registry = fixture.load<{ registry: ToolRegistry }>().registry;
      for (const name of ["search_products", "count_products"]) {
        assert.equal(metaData(registry.get(name)!.meta), metaData(reference.get(name)!.meta), name);
        assert.type(registry.get(name)!.meta.validator, "function", "the validator is compiled at build time");
      }
      const [found, counted] = await registry.dispatch({
        tool_calls: [
          { id: "1", name: "search_products", args: { keyword: "lamp" } },
          { id: "2", name: "count_products", args: { category: "books" } },
        ],
      });
      assert.is(found!.content, "found:lamp10");
      assert.is(counted!.content, "5");
    });
  }
}

test.run();
