/**
 * Free-form tools for the custom tool tests (issue 48, item 5), compiled by the transformer during the test build:
 * `run_sql` takes any text; `set_date` takes text its pattern (a `regex` grammar on OpenAI) holds to a date; `search`
 * is an ordinary function tool beside them.
 */
import { type Pattern, ToolRegistry, tool } from "tooltype";

/**
 * Run a read-only SQL query.
 * @freeform
 */
export const runSql = tool(function run_sql(query: string) {
  return `rows for ${query}`;
});

/** An ISO calendar date. */
export type IsoDate = string & Pattern<"^\\d{4}-\\d{2}-\\d{2}$">;

/**
 * Set the report's date.
 * @freeform
 */
export const setDate = tool(function set_date(date: IsoDate) {
  return `date set to ${date}`;
});

/**
 * Search the catalog.
 * @param keyword What to look for
 */
export const search = tool(function search(keyword: string, limit = 3) {
  return `${limit} results for ${keyword}`;
});

/** A registry with the three tools. */
export function createFreeformRegistry(): ToolRegistry {
  return new ToolRegistry([runSql, setDate, search]);
}
