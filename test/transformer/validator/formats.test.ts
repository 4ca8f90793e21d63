/**
 * tooltype's own `format` checks (runtime/validation/formats.ts, exported by `tooltype/kit`), which generated
 * validators use instead of
 * ajv-formats, against ajv-formats' full mode with the same length caps (what the kit used before, and what ajv
 * applies to hand-written schemas): the same answer on a corpus of valid and invalid strings per format, written
 * by hand around each rule's edges and grown by fast-check (mutations of the valid ones, strings over each
 * format's alphabet).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { fullFormats } from "ajv-formats/dist/formats";
import { FORMAT_LENGTH_LIMITS } from "../../../runtime/validation/formats";
import * as kit from "../../../runtime/entries/kit";
import { kitFormatExport } from "../../../runtime/tool/meta";
import { KNOWN_FORMATS } from "../../../transformer/schema/keywords";

/**
 * Where tooltype departs from ajv-formats on purpose: a date-time whose seconds are 60 names an instant only at
 * the end of a UTC day that had a leap second (ajv-formats takes `23:59:60` on any date). The departure is
 * computed here independently: from the instant one second earlier, which `Date` can read.
 */
const LEAP_SECOND_DAYS = new Set([
  "1972-06-30",
  "1972-12-31",
  "1973-12-31",
  "1974-12-31",
  "1975-12-31",
  "1976-12-31",
  "1977-12-31",
  "1978-12-31",
  "1979-12-31",
  "1981-06-30",
  "1982-06-30",
  "1983-06-30",
  "1985-06-30",
  "1987-12-31",
  "1989-12-31",
  "1990-12-31",
  "1992-06-30",
  "1993-06-30",
  "1994-06-30",
  "1995-12-31",
  "1997-06-30",
  "1998-12-31",
  "2005-12-31",
  "2008-12-31",
  "2012-06-30",
  "2015-06-30",
  "2016-12-31",
]);
function leapSecondOnAnotherDay(name: string, value: unknown): boolean {
  if ((name !== "date-time" && name !== "iso-date-time") || typeof value !== "string") return false;
  const leap = /^(\d{4}-\d\d-\d\d)[Tt\s](\d\d:\d\d):60(?:\.\d+)?([Zz]|[+-]\d\d(?::?\d\d)?)?$/.exec(value);
  if (!leap) return false;
  const zone =
    leap[3] === undefined || /z/i.test(leap[3])
      ? "Z"
      : leap[3].length === 3
        ? `${leap[3]}:00`
        : leap[3].includes(":")
          ? leap[3]
          : `${leap[3].slice(0, 3)}:${leap[3].slice(3)}`;
  const before = new Date(`${leap[1]}T${leap[2]}:59${zone}`);
  return (
    Number.isNaN(before.getTime()) ||
    !LEAP_SECOND_DAYS.has(before.toISOString().slice(0, 10)) ||
    before.toISOString().slice(11, 19) !== "23:59:59"
  );
}

/** ajv-formats' answer, as ajv applies it (values of another type pass; the length cap first), with the departure above. */
function reference(name: string, value: unknown): boolean {
  if (leapSecondOnAnotherDay(name, value)) return false;
  const format = (fullFormats as Record<string, unknown>)[name];
  const definition = (
    typeof format === "object" && format !== null && !(format instanceof RegExp) ? format : { validate: format }
  ) as { type?: string; validate?: unknown };
  if (typeof value !== (definition.type ?? "string")) return true;
  const limit = FORMAT_LENGTH_LIMITS[name];
  if (limit !== undefined && typeof value === "string" && value.length > limit) return false;
  const check = definition.validate;
  if (check instanceof RegExp) return check.test(value as string);
  return typeof check === "function" ? (check as (v: unknown) => boolean)(value) === true : true;
}

const CORPUS: Record<string, string[]> = {
  date: [
    "2025-01-31",
    "2024-02-29",
    "2023-02-29",
    "2000-02-29",
    "1900-02-29",
    "2025-04-31",
    "2025-13-01",
    "2025-00-10",
    "2025-01-00",
    "25-01-01",
    "2025-1-01",
    "2025-01-31 ",
    "２０２５-01-01",
    "2025/01/31",
  ],
  time: [
    "09:30:00Z",
    "09:30:00z",
    "09:30:00.123+02:00",
    "09:30:00+0200",
    "09:30:00+02",
    "09:30:00",
    "25:00:00Z",
    "23:59:60Z",
    "23:59:60.5Z",
    "00:59:60+01:00",
    "22:59:60-01:00",
    "23:59:61Z",
    "12:60:00Z",
    "09:30:00+24:00",
    "09:30:00+02:60",
    "9:30:00Z",
    "09:30Z",
  ],
  "iso-time": ["09:30:00", "09:30:00Z", "23:59:60", "24:00:00", "09:30:00.5-05:30", "09:30"],
  "date-time": [
    "2025-01-31T09:30:00Z",
    "2025-01-31t09:30:00z",
    "2025-01-31 09:30:00Z",
    "2025-01-31\n09:30:00Z",
    "2025-02-30T09:30:00Z",
    "2025-01-31T09:30:00",
    "2016-12-31T23:59:60Z",
    "2017-01-01T00:59:60+01:00",
    "2016-12-30T23:59:60Z",
    "2025-06-30T23:59:60Z",
    "2015-06-30T16:59:60-07:00",
    "2025-01-31T09:30",
    "2025-01-31TT09:30:00Z",
    "2025-01-31",
    "2025-01-31T09:30:00+01:00",
  ],
  "iso-date-time": ["2025-01-31T09:30:00", "2025-01-31 09:30:00.25", "2025-01-31T09:30:00Z", "2025-01-31T25:30:00"],
  duration: [
    "P1Y",
    "P1Y2M3DT4H5M6S",
    "PT1H",
    "PT",
    "P",
    "P1W",
    "P1Y1W",
    "P1DT",
    "PT1H1M",
    "P1M",
    "PT1",
    "P1.5Y",
    "1Y",
    "p1y",
    "P1YT1S",
    "P0D",
  ],
  email: [
    "a@example.com",
    "first.last+tag@sub.example.co",
    "a@b",
    "a..b@example.com",
    ".a@example.com",
    "a.@example.com",
    "a@-example.com",
    "a@example-.com",
    "a@exa_mple.com",
    "a@@example.com",
    "a b@example.com",
    "A@EXAMPLE.COM",
    "a@example.com.",
    "a@1.2",
    "!#$%&'*+/=?^_`{|}~-@x.y",
  ],
  hostname: [
    "example.com",
    "example.com.",
    "a",
    "-bad-.com",
    "a-b.c-d",
    "a..b",
    ".a",
    "a.",
    "1.2.3.4",
    "xn--bcher-kva.example",
    `${"a".repeat(63)}.com`,
    `${"a".repeat(64)}.com`,
    `${"a.".repeat(126)}a`,
    `${"a.".repeat(127)}`,
    "exa_mple.com",
    "a.-b",
  ],
  ipv4: [
    "192.168.0.1",
    "0.0.0.0",
    "255.255.255.255",
    "256.1.1.1",
    "01.1.1.1",
    "1.1.1",
    "1.1.1.1.1",
    "1.1.1.1 ",
    "a.b.c.d",
    "1..1.1",
  ],
  ipv6: [
    "::",
    "::1",
    "1::",
    "1:2:3:4:5:6:7:8",
    "1:2:3:4:5:6:7::",
    "::2:3:4:5:6:7:8",
    "1:2:3:4:5:6:7:8:9",
    "1::2:3:4:5:6:7:8",
    "1:2:3:4:5:6:1.2.3.4",
    "::ffff:192.168.0.1",
    "::ffff:192.168.0.01",
    "1.2.3.4::",
    "1:2:3:4:5:6:7:1.2.3.4",
    "fe80::1%eth0",
    "1:::2",
    ":1::",
    "1::2::3",
    "ABCD:EF01::",
    "12345::",
    "g::",
    "::1.2.3.4",
    "1:2:3:4:5::1.2.3.4",
    "1:2:3:4:5:6::1.2.3.4",
  ],
  uuid: [
    "123e4567-e89b-12d3-a456-426614174000",
    "123E4567-E89B-12D3-A456-426614174000",
    "urn:uuid:123e4567-e89b-12d3-a456-426614174000",
    "URN:UUID:123e4567-e89b-12d3-a456-426614174000",
    "123e4567e89b12d3a456426614174000",
    "123e4567-e89b-12d3-a456-42661417400g",
    "123e4567",
  ],
  uri: [
    "https://example.com/x",
    "https://user:pw@example.com:8080/a/b?q=1#f",
    "example.com",
    "urn:isbn:0451450523",
    "mailto:a@b.c",
    "a:",
    "a:/",
    "a://",
    "a:/b",
    "a:b/c",
    "http://[::1]/",
    "http://[::1]:80/x",
    "http://[v1.x]/",
    "http://[1.2.3.4]/",
    "http://01.02.003.4/",
    "http://ex ample.com/",
    "http://example.com/%zz",
    "http://example.com/%20",
    "http://a@b@c/",
    'http://example.com/"x"',
    "1a:b",
    "a:b#c#d",
    "a:b?c?d",
    "a:b?c#d?e",
    "http://[::1",
    "http://host:port/",
    "http://host:/",
    "a:[x]",
    "file:///etc/hosts",
    "a://b:c@/d",
    "//example.com",
  ],
  "uri-reference": [
    "",
    "#",
    "?q",
    "/a/b",
    "a/b",
    "//example.com/x",
    "../x",
    'http://example.com/"x"',
    "a:b",
    "a:",
    "%zz",
    "%20",
    "a b",
    "http://[::1]/",
    "//[::1",
    '"',
    '//a"b/',
    '//u"@h/',
    'http://x/?"#"',
    ":a",
    "a:/b:c",
  ],
  "uri-template": [
    "http://example.com/{id}",
    "/search{?q,lang}",
    "{+path}/here",
    "{var:3}",
    "{list*}",
    "{a,b:10}",
    "{}",
    "{a",
    "a}",
    "{a:0}",
    "{a:10000}",
    "{%20x}",
    "x y",
    "%zz",
    "%41",
    "{a!b}",
    "<x>",
  ],
  url: [
    "http://example.com",
    "https://example.com:8080/path?x=1",
    "ftp://user:pw@example.com/",
    "http://10.0.0.1/",
    "http://127.0.0.1/",
    "http://192.168.1.1/",
    "http://172.16.0.1/",
    "http://172.32.0.1/",
    "http://169.254.1.1/",
    "http://8.8.8.8/",
    "http://1.2.3.0/",
    "http://1.2.3.255/",
    "http://224.1.1.1/",
    "http://1.02.3.4/",
    "http://1.002.3.4/",
    "http://localhost/",
    "http://example",
    "http://ex-ample.com",
    "http://-example.com",
    "http://ex--ample.com",
    "http://example.c0m",
    "http://bücher.de",
    "http://example.com:1",
    "http://example.com:123456",
    "http://a b.com",
    "http://u@example.com",
    "http://u@p@example.com",
    "http://a/b@example.com",
    "mailto:a@b.c",
    "HTTP://EXAMPLE.COM",
    "http://example.com/ path",
    "http://example.𝒳y",
  ],
  "json-pointer": ["", "/", "/a/b", "/a~0b/c~1d", "/a~2", "a/b", "/~", "//"],
  "relative-json-pointer": ["0", "1#", "2/a/b", "01", "-1", "0/~2", "#", "3/"],
  "json-pointer-uri-fragment": ["#", "#/a/b", "#/a%20b", "#/a%zz", "#/~0~1", "#/~2", "/a", "#a", "#/a b"],
  regex: ["^a+$", "(", "[a-z]", "a\\Z", "\\Z", "(?<n>x)\\k<n>", "a{2,1}", "\\p{L}"],
  byte: ["", "QUJD", "QUI=", "QQ==", "QUJ", "QUJD\nQUJD", "!!!\n", "!!!\nQUJD", "!!!\r\n!!!", "!!!", "Q Q=="],
};

const ALPHABETS: Record<string, string> = {
  date: "0123456789-",
  time: "0123456789:.Zz+-",
  "iso-time": "0123456789:.Z+-",
  "date-time": "0123456789:-.TtZ +",
  "iso-date-time": "0123456789:-.TtZ +",
  duration: "PYMDTHWS0123.",
  email: "ab1.@-_+",
  hostname: "ab1.-_",
  ipv4: "0125.",
  ipv6: "0af:.1g",
  uuid: "0af-9g",
  uri: 'ab1:/@?#[]%.-" ',
  "uri-reference": 'ab1:/@?#[]%.-" ',
  "uri-template": "ab{}:,*+%2 ",
  url: "ab1:/@.-ü ",
  "json-pointer": "a/~01",
  "relative-json-pointer": "01/#~a",
  "json-pointer-uri-fragment": "#/a%2~01 ",
  regex: "a()[]\\Z{}?+*",
  byte: "QUJD=+/\n!",
};

test("every format the transformer accepts has a corpus here", () => {
  const strings = [...KNOWN_FORMATS].filter((name) => name !== "int32" && name !== "int64");
  assert.equal(
    strings.filter((name) => !CORPUS[name] || !ALPHABETS[name]),
    [],
  );
});

for (const name of [...KNOWN_FORMATS]) {
  test(`format ${name}: the same answer as ajv-formats on its corpus`, () => {
    // The check generated validators import (`tooltype/kit`), by the name they read it under.
    const mine = (kit as unknown as Record<string, (value: unknown) => boolean>)[kitFormatExport(name)]!;
    const check = (value: unknown): void => {
      const expected = reference(name, value);
      assert.is(
        mine(value),
        expected,
        `${name} ${JSON.stringify(value)}: ajv-formats says ${expected ? "valid" : "invalid"}`,
      );
    };
    // Values of other types pass every format (JSON Schema applies a format to its own type only).
    for (const other of [1, 2.5, 2 ** 40, -(2 ** 31), 2 ** 31, true, null, {}, [], "x"]) check(other);
    if (name === "int32" || name === "int64") return;
    const samples = CORPUS[name]!;
    let valid = 0;
    for (const sample of samples) {
      check(sample);
      if (reference(name, sample)) valid++;
    }
    assert.ok(valid > 0 && valid < samples.length, `${name}: the corpus holds valid and invalid strings`);
    const alphabet = ALPHABETS[name]!.split("");
    // Mutations of the samples (a character dropped, doubled, replaced, inserted) and strings over the alphabet.
    const mutated = fc
      .tuple(
        fc.constantFrom(...samples),
        fc.nat(),
        fc.constantFrom(...alphabet),
        fc.constantFrom("drop", "double", "replace", "insert"),
      )
      .map(([text, at, c, how]) => {
        const i = text.length === 0 ? 0 : at % text.length;
        if (how === "drop") return text.slice(0, i) + text.slice(i + 1);
        if (how === "double") return text.slice(0, i + 1) + text.slice(i);
        if (how === "replace") return text.slice(0, i) + c + text.slice(i + 1);
        return text.slice(0, i) + c + text.slice(i);
      });
    const spelled = fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 40 });
    fc.assert(
      fc.property(fc.oneof(mutated, spelled, fc.string({ maxLength: 12 })), (value) => {
        check(value);
      }),
      { numRuns: 3000, seed: 7 },
    );
  });
}

test.run();
