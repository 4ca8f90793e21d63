/**
 * structuredOutput<T>(): T's schema compiled in, the response format for OpenAI (strict by default), parse() with
 * the same reading and coercion rules as tool arguments, and errors that list every violation.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { Int, Max, Min } from "tooltype";
import { structuredOutput, StructuredOutputError } from "tooltype/loop";

/** A joke to tell the user. */
interface Joke {
  /** The setup of the joke */
  setup: string;
  /** The punchline of the joke */
  punchline: string;
  /** How funny the joke is, from 1 to 10 */
  rating?: Int & Min<1> & Max<10>;
}

interface Meeting {
  title: string;
  start: Date;
  attendees: { name: string; since?: Date }[];
}

const joke = structuredOutput<Joke>();
const meeting = structuredOutput<Meeting>("meeting", { strict: false });

test("name, description and schema come from the type", () => {
  assert.is(joke.name, "joke");
  assert.is(joke.description, "A joke to tell the user.");
  assert.equal(joke.schema, {
    type: "object",
    properties: {
      setup: { type: "string", description: "The setup of the joke" },
      punchline: { type: "string", description: "The punchline of the joke" },
      rating: { type: "integer", minimum: 1, maximum: 10, description: "How funny the joke is, from 1 to 10" },
    },
    required: ["setup", "punchline"],
    additionalProperties: false,
  });
});

test("responseFormat is OpenAI's json_schema format, strict: optional made nullable and required", () => {
  const format = joke.responseFormat;
  assert.is(format.type, "json_schema");
  assert.is(format.json_schema.name, "joke");
  assert.is(format.json_schema.strict, true);
  const schema = format.json_schema.schema as { required: string[]; properties: Record<string, { type: unknown }> };
  assert.equal(schema.required, ["setup", "punchline", "rating"]);
  assert.equal(schema.properties.rating!.type, ["integer", "null"]);
  assert.equal(meeting.responseFormat.json_schema.schema, meeting.schema, "strict: false sends the schema as written");
});

test("parse: valid answers, strict-mode nulls undone, fences and slips repaired, strings coerced", () => {
  assert.equal(joke.parse('{"setup":"Why?","punchline":"Because."}'), { setup: "Why?", punchline: "Because." });
  assert.equal(joke.parse('{"setup":"Why?","punchline":"Because.","rating":null}'), {
    setup: "Why?",
    punchline: "Because.",
  });
  assert.equal(joke.parse('```json\n{setup: "a", punchline: "b", rating: "7",}\n```'), {
    setup: "a",
    punchline: "b",
    rating: 7,
  });
});

test("parse revives Dates, also inside arrays", () => {
  const m = meeting.parse(
    '{"title":"Sync","start":"2025-01-31T09:30:00Z","attendees":[{"name":"A","since":"2024-05-01T00:00:00Z"},{"name":"B"}]}',
  );
  assert.instance(m.start, Date);
  assert.is(m.start.toISOString(), "2025-01-31T09:30:00.000Z");
  assert.instance(m.attendees[0]!.since, Date);
  assert.is(m.attendees[1]!.since, undefined);
});

test("parse throws StructuredOutputError listing every violation", () => {
  try {
    joke.parse('{"setup":1,"rating":11}');
    assert.unreachable();
  } catch (error) {
    assert.instance(error, StructuredOutputError);
    const e = error as StructuredOutputError;
    assert.is(e.outputName, "joke");
    assert.ok(e.issues.length >= 3, e.issues.join("\n"));
    assert.match(e.message, /\/setup: must be a string; got 1/);
    assert.match(e.message, /\/rating: must be <= 10/);
    assert.match(e.message, /missing required property "punchline"/);
  }
  const bad = joke.safeParse("not json at all");
  assert.is(bad.success, false);
  if (!bad.success) assert.match(bad.error.message, /could not be read/);
});

test("formatInstructions gives the schema and how to answer", () => {
  const text = joke.formatInstructions();
  assert.match(text, /A joke to tell the user\./);
  assert.match(text, /matches this JSON Schema/);
  assert.ok(text.includes(JSON.stringify(joke.schema)));
});

test("without the transformer's metadata it throws and says how to add the plugin", () => {
  const untransformed = structuredOutput as unknown as (name?: string) => unknown;
  assert.throws(
    () => untransformed("x"),
    /has no compiled schema[\s\S]*not compiled by a tooltype-aware step[\s\S]*tooltype\/transformer[\s\S]*node --import tooltype\/register/,
  );
});

test.run();
