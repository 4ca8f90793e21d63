/**
 * A calendar date alone ("2025-01-02") where a `Date` is expected: coerced to midnight UTC, then revived, at the top
 * level, in a nullable union, in arrays and in nested objects; days that do not exist and other spellings stay
 * validation errors. The tool is compiled by the real transformer, so the schema (format date-time) and the Date
 * paths are the ones a user gets.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { ToolEvent, ToolRegistry } from "tooltype";
import { compileFixture } from "../support/compile";

const fixture = compileFixture(`
  import { tool, ToolRegistry } from "tooltype";
  interface Trip { leave: Date; back?: Date }
  /**
   * Plan a meeting.
   * @param when The day
   */
  export const plan = tool(function plan(when: Date, until: Date | null, holidays: Date[], trip?: Trip) {
    const iso = (d: Date) => (d instanceof Date ? d.toISOString() : "not a Date: " + typeof d);
    return { when: iso(when), until: until && iso(until), holidays: holidays.map(iso), trip: trip && { leave: iso(trip.leave), back: trip.back && iso(trip.back) } };
  });
  export const seen: unknown[] = [];
  export const registry = new ToolRegistry([plan], { onToolStart: (e) => void seen.push(e.coercions.map((c) => c.path + " " + c.rule + " " + JSON.stringify(c.from))) });
`);

const { registry, seen } = fixture.load<{ registry: ToolRegistry; seen: ToolEvent["coercions"][] }>();

async function plan(args: Record<string, unknown>): Promise<{ status: string; content: string }> {
  const [message] = await registry.dispatch({
    role: "assistant",
    content: null,
    tool_calls: [{ id: "c1", type: "function", function: { name: "plan", arguments: JSON.stringify(args) } }],
  });
  return { status: message!.status, content: message!.content };
}

test("the fixture compiles cleanly", () => {
  assert.equal(fixture.diagnostics, []);
});

test("date-only strings become Dates at midnight UTC everywhere a Date is expected; the coercions are reported", async () => {
  const result = await plan({
    when: "2025-01-02",
    until: "2025-02-28",
    holidays: ["2025-01-06", "2025-01-07T12:30:00Z"],
    trip: { leave: "2024-02-29" },
  });
  assert.is(result.status, "success", result.content);
  assert.equal(JSON.parse(result.content), {
    when: "2025-01-02T00:00:00.000Z",
    until: "2025-02-28T00:00:00.000Z",
    holidays: ["2025-01-06T00:00:00.000Z", "2025-01-07T12:30:00.000Z"],
    trip: { leave: "2024-02-29T00:00:00.000Z" },
  });
  assert.equal(seen.at(-1), [
    '/when date "2025-01-02"',
    '/until date "2025-02-28"',
    '/holidays/0 date "2025-01-06"',
    '/trip/leave date "2024-02-29"',
  ]);
  const nullable = await plan({ when: "2025-01-02T09:00:00+02:00", until: null, holidays: [] });
  assert.equal(JSON.parse(nullable.content), { when: "2025-01-02T07:00:00.000Z", until: null, holidays: [] });
});

test("days that do not exist and other spellings stay validation errors", async () => {
  for (const when of ["2025-02-30", "2025-13-01", "2025-1-2", "02/01/2025", "2025-01-02 ", "20250102"]) {
    const result = await plan({ when, until: null, holidays: [] });
    assert.is(result.status, "error", `${when}: ${result.content}`);
    assert.match(result.content, "- /when: must be", when);
  }
});

test.run();
