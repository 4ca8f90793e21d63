/**
 * The transformer's list of known formats (no TT1014 warning) is exactly the list the validator checks: each one
 * is compiled into a real tool and must reject a bad value and accept a good one through dispatch; the formats
 * ajv-formats defines but never checks, and JSON Schema's internationalised ones it does not define, are not in it
 * (fixture 175 shows they are warned about).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { fullFormats } from "ajv-formats/dist/formats";
import type { ToolRegistry } from "tooltype";
import { KNOWN_FORMATS } from "../../transformer/schema/keywords";
import { compileFixture } from "../support/compile";

/** A value each format must reject and one it must accept (numbers for the numeric formats). */
const PROBES: Record<string, { bad: string | number; good: string | number }> = {
  "date-time": { bad: "2024-05-01 10:00", good: "2024-05-01T10:00:00Z" },
  date: { bad: "2024-13-01", good: "2024-05-01" },
  time: { bad: "25:00:00Z", good: "10:00:00Z" },
  duration: { bad: "5 minutes", good: "PT5M" },
  email: { bad: "not an email", good: "a@example.com" },
  hostname: { bad: "-bad-.example", good: "api.example.com" },
  ipv4: { bad: "256.1.1.1", good: "10.0.0.1" },
  ipv6: { bad: "1::2::3", good: "::1" },
  uri: { bad: "no scheme", good: "https://example.com/x" },
  "uri-reference": { bad: "\\\\bad", good: "../x?y=1" },
  "uri-template": { bad: "/users/{id", good: "/users/{id}" },
  uuid: { bad: "1234", good: "123e4567-e89b-12d3-a456-426614174000" },
  "json-pointer": { bad: "a/b", good: "/a/b" },
  "relative-json-pointer": { bad: "/a", good: "1/a" },
  regex: { bad: "([", good: "^a+$" },
  url: { bad: "example.com", good: "https://example.com" },
  "iso-time": { bad: "25:00", good: "10:00:00" },
  "iso-date-time": { bad: "2024-05-01X10:00", good: "2024-05-01T10:00:00" },
  "json-pointer-uri-fragment": { bad: "a", good: "#/a" },
  byte: { bad: "@@@", good: "aGVsbG8=" },
  int32: { bad: 2 ** 40, good: 7 },
  int64: { bad: 1.5, good: 2 ** 40 },
};
/** Defined by ajv-formats, but accepting every value of their type: annotations, not checks. */
const ANNOTATION_ONLY = ["float", "double", "password", "binary"];

test("the known formats are ajv-formats' checking ones, and each has a probe", () => {
  const checking = Object.keys(fullFormats).filter((f) => !ANNOTATION_ONLY.includes(f));
  assert.equal([...KNOWN_FORMATS].sort(), checking.sort());
  assert.equal(Object.keys(PROBES).sort(), [...KNOWN_FORMATS].sort());
  for (const f of ["idn-email", "idn-hostname", "iri", "iri-reference"]) assert.not.ok(KNOWN_FORMATS.has(f), f);
});

test("the formats left out check nothing: every probe passes them", () => {
  const ajv = new Ajv2020({ strict: false, logger: false });
  addFormats(ajv);
  for (const format of [...ANNOTATION_ONLY, "idn-email", "idn-hostname", "iri", "iri-reference"]) {
    for (const value of ["", "@@@ not anything", "\u0000", "1::2::3", 1e308, -0.5]) {
      assert.ok(ajv.validate({ format }, value), `${format} rejected ${JSON.stringify(value)}`);
    }
  }
});

test("every known format rejects its bad value and accepts its good one in a compiled tool", async () => {
  const formats = [...KNOWN_FORMATS];
  const params = formats.map(
    (f, i) => `f${i}?: ${typeof PROBES[f]!.good === "number" ? "number" : "string"} & Format<${JSON.stringify(f)}>`,
  );
  const compiled = compileFixture(`
import { tool, ToolRegistry, type Format } from "tooltype";
/** Every known format. */
export const formats = tool(function formats(${params.join(", ")}) { return "ok"; });
export const registry = new ToolRegistry([formats]);
`);
  assert.equal(
    compiled.diagnostics.map((d) => d.message),
    [],
  );
  const { registry } = compiled.load<{ registry: ToolRegistry }>();
  for (const [i, format] of formats.entries()) {
    const probe = PROBES[format]!;
    assert.is(
      await registry.invoke("formats", { [`f${i}`]: probe.good }),
      "ok",
      `${format} should accept ${JSON.stringify(probe.good)}`,
    );
    let rejected = false;
    try {
      await registry.invoke("formats", { [`f${i}`]: probe.bad });
    } catch (error) {
      rejected = /invalid arguments/.test((error as Error).message);
    }
    assert.ok(rejected, `${format} should reject ${JSON.stringify(probe.bad)}`);
  }
});

test.run();
