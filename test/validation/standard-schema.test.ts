/**
 * `standardSchema(tool)` and `StructuredOutput["~standard"]`: Standard Schema V1 and Standard JSON Schema V1 with the
 * build-time validator, read and conformed as dispatch reads arguments (lenient text, coercion, revived Dates), the
 * issues with their paths, and the JSON Schema for draft 2020-12 and draft-07. The types are checked against
 * @standard-schema/spec's own by the compiler.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { StandardJSONSchemaV1, StandardSchemaV1 } from "@standard-schema/spec";
import { ToolRegistry, standardSchema, tool, type Min } from "tooltype";
import { structuredOutput } from "tooltype/loop";

interface Stop {
  /** Where */
  city: string;
  nights: number & Min<1>;
}

/**
 * Plan a trip.
 * @param stops The stops in order
 * @param start When it starts
 * @param pace How busy the days are
 */
const planTrip = tool(function plan_trip(
  stops: Stop[],
  start: Date,
  pace: "slow" | "busy" = "slow",
  span?: [number, string],
) {
  return `${stops.length} stops from ${start.toISOString()} (${pace}${span ? "" : ""})`;
});

/** A short summary. */
interface Summary {
  title: string;
  words: number;
}

type TripArgs = { stops: Stop[]; start: Date; pace?: "slow" | "busy" };

// Checked by the compiler: tooltype's copies of the spec's interfaces are assignable to the spec's own.
const asSpec: StandardSchemaV1<TripArgs> & StandardJSONSchemaV1<TripArgs> = standardSchema<TripArgs>(planTrip);
const outputAsSpec: StandardSchemaV1<Summary> & StandardJSONSchemaV1<Summary> = structuredOutput<Summary>();

test("~standard: version 1, vendor tooltype; one schema per tool", () => {
  const props = asSpec["~standard"];
  assert.is(props.version, 1);
  assert.is(props.vendor, "tooltype");
  assert.is(standardSchema(planTrip), standardSchema(planTrip));
});

test("validate: valid arguments come back as the tool receives them (a copy, Dates revived)", () => {
  const input = { stops: [{ city: "Lyon", nights: 2 }], start: "2026-05-01T09:00:00Z" };
  const result = standardSchema<TripArgs>(planTrip)["~standard"].validate(input);
  if (result.issues) throw new Error(`unexpected issues: ${JSON.stringify(result.issues)}`);
  assert.ok(result.value.start instanceof Date);
  assert.is(result.value.start.toISOString(), "2026-05-01T09:00:00.000Z");
  assert.equal(result.value.stops, [{ city: "Lyon", nights: 2 }]);
  assert.is(input.start, "2026-05-01T09:00:00Z", "the caller's value is not changed");
});

test("validate: coercion and lenient text, as dispatch does", () => {
  const validate = standardSchema<TripArgs>(planTrip)["~standard"].validate;
  const coerced = validate({ stops: [{ city: "Lyon", nights: "2" }], start: "2026-05-01T09:00:00Z" });
  assert.equal(coerced.issues, undefined);
  assert.is((coerced as { value: TripArgs }).value.stops[0]!.nights, 2);
  const text = validate(`{stops: [{'city': 'Lyon', 'nights': 2},], 'start': '2026-05-01T09:00:00Z',}`);
  assert.equal(text.issues, undefined);
});

test("validate: a value whose getter or proxy throws is answered with issues, never a throw, and without the error's text", () => {
  const validate = standardSchema<TripArgs>(planTrip)["~standard"].validate;
  const getter = { start: "2026-05-01T09:00:00Z" } as Record<string, unknown>;
  Object.defineProperty(getter, "stops", {
    enumerable: true,
    get: () => {
      throw new Error("token sk-secret-123 rejected");
    },
  });
  const proxy = new Proxy(
    {},
    {
      ownKeys: () => {
        throw new Error("sk-secret-456");
      },
    },
  );
  const revocable = Proxy.revocable({}, {});
  revocable.revoke();
  for (const value of [getter, proxy, revocable.proxy]) {
    const result = validate(value);
    assert.ok(result.issues && result.issues.length === 1);
    assert.match(result.issues[0]!.message, /could not be read: reading the value threw an error/);
    assert.not.match(JSON.stringify(result), /sk-secret/);
  }
});

test("validate: issues say what is wrong, with the path as keys and array indexes", () => {
  const result = standardSchema(planTrip)["~standard"].validate({
    stops: [
      { city: "Lyon", nights: 2 },
      { city: 7, nights: 0 },
    ],
    start: "soon",
    pace: "lazy",
  });
  const issues = (result.issues ?? []).map((issue) => ({ path: issue.path, message: issue.message }));
  assert.equal(issues, [
    { path: ["stops", 1, "city"], message: "must be a string; got 7" },
    { path: ["stops", 1, "nights"], message: "must be >= 1; got 0" },
    {
      path: ["start"],
      message: 'must be a string in the date-time format, such as "2025-01-31T09:30:00Z"; got "soon"',
    },
    { path: ["pace"], message: 'must be one of "slow", "busy"; got "lazy"' },
  ]);
  const missing = standardSchema(planTrip)["~standard"].validate({});
  assert.equal(
    missing.issues?.map((issue) => [issue.path, issue.message]),
    [
      [["stops"], 'missing required property "stops"'],
      [["start"], 'missing required property "start"'],
    ],
  );
  const unreadable = standardSchema(planTrip)["~standard"].validate("[1, 2]");
  assert.is(unreadable.issues?.length, 1);
  assert.match(unreadable.issues![0]!.message, /plan_trip/);
  assert.is(unreadable.issues![0]!.path, undefined);
});

test("jsonSchema: the parameters for draft 2020-12, a fresh copy each time; draft-07's spelling; other targets refused", () => {
  const registry = new ToolRegistry([planTrip]);
  const parameters = registry.get("plan_trip")!.parameters;
  const converter = standardSchema(planTrip)["~standard"].jsonSchema;
  const modern = converter.input({ target: "draft-2020-12" });
  assert.equal(modern, parameters);
  assert.is.not(modern, parameters);
  assert.equal(converter.output({ target: "draft-2020-12" }), parameters);
  const draft07 = converter.input({ target: "draft-07" }) as { properties: Record<string, Record<string, unknown>> };
  assert.equal(draft07.properties.span, {
    type: "array",
    items: [{ type: "number" }, { type: "string" }],
    minItems: 2,
    maxItems: 2,
  });
  assert.ok(!JSON.stringify(draft07).includes("prefixItems"));
  assert.throws(() => converter.input({ target: "openapi-3.0" }), /"draft-2020-12" and "draft-07", not "openapi-3.0"/);
});

test("a registered tool works as well as the function, with its registry options' name", () => {
  const registry = new ToolRegistry([planTrip]);
  const schema = standardSchema(registry.get("plan_trip")!);
  assert.equal(schema["~standard"].validate({ stops: [], start: "2026-05-01T09:00:00Z" }).issues, undefined);
});

test("a function that is no tool is a TypeError that says what to pass", () => {
  assert.throws(() => standardSchema(function plain() {}), /standardSchema\(plain\): the function is not a tool/);
});

test("structuredOutput<T>() is a Standard Schema itself", () => {
  assert.is(outputAsSpec["~standard"].vendor, "tooltype");
  const props = structuredOutput<Summary>()["~standard"];
  const ok = props.validate('{"title": "Trip", "words": "120"}');
  assert.equal(ok, { value: { title: "Trip", words: 120 } });
  const bad = props.validate({ title: "Trip" });
  assert.equal(
    bad.issues?.map((issue) => [issue.path, issue.message]),
    [[["words"], 'missing required property "words"']],
  );
  assert.equal(props.jsonSchema.input({ target: "draft-07" }), structuredOutput<Summary>().schema);
});

test.run();
