/**
 * Property-based fuzzing of dispatch (fast-check). Generated assistant messages, in OpenAI and LangChain shapes,
 * carry random, malformed and hostile tool calls: arguments loosened in exactly the ways the repair and coercion
 * rules undo, arguments broken in ways no rule may fix, truncated and garbage text, unknown and hostile tool names,
 * `__proto__` / `constructor` / `prototype` keys, payloads over the size limit and nesting over the depth limit,
 * unreadable call entries, duplicate and missing ids, and tools that throw, refuse, hang past their timeout,
 * return what JSON cannot hold, or return nothing.
 *
 * Each generated call knows its expected outcome, so the properties check, for every message:
 * - dispatch resolves (never rejects under default options) within a bound;
 * - one ToolMessage per call, in call order, each with the id the call came with (`""` when it had none);
 * - the status expected, and for echo tools exactly the arguments meant (what loosening started from);
 * - error texts are non-empty and carry no stack trace; `toJSON()` is `{ role, tool_call_id, content }`;
 * - no object reaching a tool has an unusual prototype, and no built-in prototype gains a property.
 * Further properties run with random maxConcurrency, dispatch timeouts, throwing hooks and caller aborts, and with
 * issue 12's payloads: numbers that overflow to Infinity, leap-second dates, tools that throw secrets, plain objects
 * or revoked Proxies, results at the size limit, ids over the length limit and replies past the cap on calls; and
 * validation-cost payloads (long uniqueItems arrays, strings against a polynomial pattern, deep recursive unions)
 * on both validation paths, the generated validators and ajv for the same schemas given at run time.
 *
 * Runs are random unless FUZZ_SEED is set (fast-check prints the seed and path of any failure); FUZZ_SCALE
 * multiplies the number of runs. The last test asserts that at least 10,000 messages were generated.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as fc from "fast-check";
import { isDeepStrictEqual } from "node:util";
import { compileFixture } from "../support/compile";
import { HANG_MS } from "../support/hang";
import {
  type AIMessage,
  type CompiledToolMeta,
  type JsonSchema,
  type OpenAIAssistantMessage,
  ToolError,
  ToolMessage,
  ToolRegistry,
  tool,
} from "tooltype";

const SCALE = Number(process.env.FUZZ_SCALE ?? "1") || 1;
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));
const params = (numRuns: number): fc.Parameters<unknown> => ({
  numRuns: runs(numRuns),
  includeErrorInReport: true,
  ...(SEED === undefined ? {} : { seed: SEED }),
});

/**
 * Longest a single dispatch may take before the run counts as hung: a liveness bound, not a speed claim, so the
 * hang limit of every test (5 s failed dispatches of big arguments on a loaded machine).
 */
const SETTLE_BOUND_MS = HANG_MS;
const HANG_TIMEOUT_MS = 2;
const MIB = 1_048_576;

let messagesGenerated = 0;
let callsGenerated = 0;
/** Set when the first property starts (uvu imports every suite before running any). */
let startedAt = 0;

// ── Tools ──────────────────────────────────────────────────────────────────────────────────────────────────────

/** Objects a tool received with a prototype other than Object.prototype / Array.prototype, or an own __proto__. */
const oddObjects: string[] = [];

function checkPlain(value: unknown, path: string): void {
  if (typeof value !== "object" || value === null) return;
  const proto: unknown = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    if (proto !== Array.prototype) oddObjects.push(`${path}: array with another prototype`);
    value.forEach((item, i) => {
      checkPlain(item, `${path}/${i}`);
    });
    return;
  }
  if (proto !== Object.prototype) oddObjects.push(`${path}: object with another prototype`);
  if (Object.hasOwn(value, "__proto__")) oddObjects.push(`${path}: own __proto__ key`);
  for (const key of Object.keys(value)) checkPlain((value as Record<string, unknown>)[key], `${path}/${key}`);
}

function echoTool(name: string, parameters: JsonSchema) {
  const properties = (parameters.properties ?? {}) as Record<string, unknown>;
  const meta: CompiledToolMeta = {
    v: 1,
    name,
    description: "",
    parameters,
    params: Object.keys(properties),
    flatten: true,
  };
  return tool(
    (args: Record<string, unknown>) => {
      checkPlain(args, "");
      return args;
    },
    undefined,
    meta,
  );
}

const ITEM: JsonSchema = {
  type: "object",
  properties: { name: { type: "string" }, qty: { type: "integer" }, meta: { $ref: "#/$defs/Meta" } },
  required: ["name", "qty"],
  additionalProperties: false,
};

const SCHEMAS: Record<"echo_simple" | "echo_nested" | "echo_map" | "echo_none", JsonSchema> = {
  echo_simple: {
    type: "object",
    properties: {
      s: { type: "string" },
      n: { type: "integer", minimum: 0, maximum: 1000 },
      f: { type: "number" },
      b: { type: "boolean" },
      tags: { type: "array", items: { type: "string" } },
      opt: { type: ["string", "null"] },
      color: { type: "string", enum: ["red", "green", "blue"] },
    },
    required: ["s"],
    additionalProperties: false,
  },
  echo_nested: {
    type: "object",
    properties: {
      item: { $ref: "#/$defs/Item" },
      items: { type: "array", items: { $ref: "#/$defs/Item" } },
      point: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], minItems: 2, maxItems: 2 },
      choice: { anyOf: [{ $ref: "#/$defs/Item" }, { type: "null" }] },
    },
    required: ["item"],
    additionalProperties: false,
    $defs: {
      Item: ITEM,
      Meta: {
        type: "object",
        properties: { flag: { type: "boolean" }, note: { type: "string" } },
        required: ["flag"],
        additionalProperties: false,
      },
    },
  },
  echo_map: {
    type: "object",
    properties: { data: { type: "object", additionalProperties: {} } },
    required: ["data"],
    additionalProperties: false,
  },
  echo_none: { type: "object", properties: {}, additionalProperties: false },
};

type EchoName = keyof typeof SCHEMAS;

const NO_PARAMS: JsonSchema = { type: "object", properties: {}, additionalProperties: false };
function behaviourTool(name: string, body: () => unknown, timeoutMs?: number) {
  return tool(body, timeoutMs === undefined ? {} : { timeoutMs }, {
    v: 1,
    name,
    description: "",
    parameters: NO_PARAMS,
    params: [],
  });
}

const circular: Record<string, unknown> = {};
circular.self = circular;

/** Tools whose outcome does not depend on their (empty) arguments: the expected status and content test. */
const BEHAVIOURS = {
  thrower: { status: "error", content: (c: string) => c === "Error: boom" },
  refuser: { status: "error", content: (c: string) => c === "I will not do that. Ask the user first." },
  hanger: { status: "error", content: (c: string) => c === `Error: hanger timed out after ${HANG_TIMEOUT_MS}ms.` },
  slowpoke: { status: "success", content: (c: string) => c === "slow but fine" },
  circular: {
    status: "error",
    content: (c: string) => c.startsWith("Error: the result of circular could not be serialised to JSON:"),
  },
  bigint: {
    status: "error",
    content: (c: string) => c.startsWith("Error: the result of bigint could not be serialised to JSON:"),
  },
  undef: { status: "success", content: (c: string) => c === "" },
  odd_throw: { status: "error", content: (c: string) => c.startsWith("Error: ") },
} as const;

type BehaviourName = keyof typeof BEHAVIOURS;

let oddThrowCount = 0;
const ODD_THROWS: unknown[] = ["a string", 42, null, undefined, { code: "E_ODD" }, ["x"], Symbol("odd"), 10n];

const registry = new ToolRegistry([
  ...Object.entries(SCHEMAS).map(([name, schema]) => echoTool(name, schema)),
  behaviourTool("thrower", () => {
    throw new Error("boom");
  }),
  behaviourTool("refuser", async () => {
    throw new ToolError("I will not do that. Ask the user first.");
  }),
  behaviourTool("hanger", () => new Promise(() => {}), HANG_TIMEOUT_MS),
  behaviourTool("slowpoke", () => new Promise((resolve) => setImmediate(() => resolve("slow but fine"))), 2_000),
  behaviourTool("circular", () => circular),
  behaviourTool("bigint", () => ({ total: 10n })),
  behaviourTool("undef", () => undefined),
  behaviourTool("odd_throw", () => {
    throw ODD_THROWS[oddThrowCount++ % ODD_THROWS.length];
  }),
]);
const TOOL_NAMES = new Set(registry.list().map((t) => t.name));

// ── Values: valid arguments, loosened and broken ───────────────────────────────────────────────────────────────

const text = fc.oneof(
  { weight: 6, arbitrary: fc.string({ maxLength: 16 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 8 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "5",
      "-1.5",
      "true",
      "null",
      "{}",
      "[1]",
      '{"a":1}',
      "",
      " ",
      "__proto__",
      "constructor",
      "it's",
      'a"b',
      "\\",
      "\n",
      "// x",
      "/*",
      "```",
    ),
  },
);
const double = fc.double({ noNaN: true, noDefaultInfinity: true });
const item = fc.record(
  {
    name: text,
    qty: fc.integer({ min: -1_000_000, max: 1_000_000 }),
    meta: fc.record({ flag: fc.boolean(), note: text }, { requiredKeys: ["flag"] }),
  },
  { requiredKeys: ["name", "qty"] },
);
const json: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 3 });

const VALID: Record<EchoName, fc.Arbitrary<Record<string, unknown>>> = {
  echo_simple: fc.record(
    {
      s: text,
      n: fc.integer({ min: 0, max: 1000 }),
      f: double,
      b: fc.boolean(),
      tags: fc.array(text, { maxLength: 4 }),
      opt: fc.option(text, { nil: null }),
      color: fc.constantFrom("red", "green", "blue"),
    },
    { requiredKeys: ["s"] },
  ),
  echo_nested: fc.record(
    {
      item,
      items: fc.array(item, { maxLength: 3 }),
      point: fc.tuple(double, double),
      choice: fc.option(item, { nil: null }),
    },
    { requiredKeys: ["item"] },
  ),
  echo_map: fc.record({
    data: fc.dictionary(
      fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom("constructor", "prototype", "toString")),
      json,
      { maxKeys: 5 },
    ),
  }),
  echo_none: fc.constant({}),
};

/** Values that no rule may turn valid, by JSON pointer, per tool. */
const POISON: Record<EchoName, [path: string, value: unknown][]> = {
  echo_simple: [
    ["/s", 5],
    ["/s", true],
    ["/s", null],
    ["/s", ["x"]],
    ["/s", {}],
    ["/n", 1.5],
    ["/n", "1.5"],
    ["/n", -1],
    ["/n", "1001"],
    ["/n", "abc"],
    ["/n", true],
    ["/n", [1, 2]],
    ["/n", "0x10"],
    ["/n", "05"],
    ["/n", " 5"],
    ["/f", "1,5"],
    ["/f", "NaN"],
    ["/f", "Infinity"],
    ["/f", {}],
    ["/f", "+1"],
    // (A null for the optional "b" is not poison: it means "left out", see the null rule of coercion.)
    ["/b", "yes"],
    ["/b", 1],
    ["/b", "1"],
    ["/b", "TRUE"],
    ["/tags", 5],
    ["/tags", [1]],
    ["/tags", { a: 1 }],
    ["/tags", [null]],
    ["/tags", "[1]"],
    ["/opt", 5],
    ["/opt", false],
    ["/color", "purple"],
    ["/color", "Red"],
    ["/color", 1],
    ["/extra", 1],
    ["/constructor", {}],
    ["/prototype", 1],
    ["/toString", "x"],
    ["/hasOwnProperty", 1],
  ],
  echo_nested: [
    ["/item", "not json"],
    ["/item", "[1]"],
    ["/item", []],
    ["/item", 5],
    ["/item", null],
    ["/item", '{"name":"x"}'],
    ["/item/qty", "x"],
    ["/item/qty", 0.5],
    ["/item/name", 7],
    ["/item/meta", { flag: "maybe" }],
    ["/item/extra", 1],
    ["/point", [1]],
    ["/point", [1, 2, 3]],
    ["/point", 5],
    ["/point", ["a", 1]],
    ["/choice", "null"],
    ["/choice", 5],
    ["/items", [5]],
    ["/items", "x"],
    ["/items", { name: "x" }],
  ],
  echo_map: [
    ["/data", 5],
    ["/data", "x"],
    ["/data", []],
    ["/data", null],
    ["/other", 1],
  ],
  echo_none: [
    ["/x", 1],
    ["/constructor", 1],
    ["/s", ""],
  ],
};

type Schema = Record<string, unknown>;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function resolve(schema: unknown, root: Schema): Schema {
  let s = schema as Schema;
  while (typeof s.$ref === "string") s = (root.$defs as Record<string, Schema>)[s.$ref.split("/").pop()!]!;
  return s;
}

/** A small deterministic PRNG, seeded from a generated integer, for the many per-token choices. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A valid value loosened in the ways the coercion rules undo, guided by the schema: numbers and booleans as
 * strings, objects and arrays as JSON strings, one-item arrays as the lone item. `p` is the chance of each.
 */
function loosen(value: unknown, schema: unknown, root: Schema, rnd: () => number, p: number): unknown {
  const s = resolve(schema, root);
  if (Array.isArray(s.anyOf)) {
    if (value === null) return null;
    return loosen(value, (s.anyOf as unknown[])[0], root, rnd, p);
  }
  const type = s.type;
  if ((type === "integer" || type === "number" || type === "boolean") && rnd() < p) return String(value);
  if (type === "array" && Array.isArray(value)) {
    const prefix = (s.prefixItems ?? []) as unknown[];
    const loose = value.map((v, i) => loosen(v, i < prefix.length ? prefix[i] : s.items, root, rnd, p));
    const lone = loose[0];
    const admitsOne = typeof s.minItems !== "number" || s.minItems <= 1;
    if (
      loose.length === 1 &&
      admitsOne &&
      rnd() < p &&
      !Array.isArray(lone) &&
      lone !== null &&
      !(typeof lone === "string" && lone.trim().startsWith("["))
    ) {
      return lone;
    }
    return rnd() < p ? JSON.stringify(loose) : loose;
  }
  if (type === "object" && isRecord(value)) {
    const properties = (s.properties ?? {}) as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      out[key] = properties[key] === undefined ? value[key] : loosen(value[key], properties[key], root, rnd, p);
    }
    return rnd() < p ? JSON.stringify(out) : out;
  }
  return value;
}

/** `value` with `poison` set at a JSON pointer (on a deep copy). */
function poisoned(value: Record<string, unknown>, path: string, poison: unknown): Record<string, unknown> {
  const copy = structuredClone(value);
  const keys = path.split("/").slice(1);
  let node: Record<string, unknown> = copy;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
  Object.defineProperty(node, keys[keys.length - 1]!, {
    value: poison,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return copy;
}

/** A copy of `value` with an own `__proto__` key (as JSON.parse makes them), which dispatch must drop. */
function withProtoKey(value: Record<string, unknown>, payload: unknown): Record<string, unknown> {
  const copy = { ...value };
  Object.defineProperty(copy, "__proto__", { value: payload, enumerable: true, writable: true, configurable: true });
  return copy;
}

interface Style {
  unquoted: number;
  single: number;
  trailing: number;
  comments: number;
  spaces: number;
}

const STRICT: Style = { unquoted: 0, single: 0, trailing: 0, comments: 0, spaces: 0 };
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** JSON text with the slips the repair rules accept, at the style's rates. */
function sloppy(value: unknown, style: Style, rnd: () => number): string {
  const gap = (): string => {
    const r = rnd();
    if (r < style.comments / 2) return " /* note */ ";
    if (r < style.comments) return " // note\n";
    return rnd() < style.spaces ? (rnd() < 0.5 ? " " : "\n  ") : "";
  };
  const str = (s: string): string =>
    rnd() < style.single ? `'${JSON.stringify(s).slice(1, -1).replace(/'/g, "\\'")}'` : JSON.stringify(s);
  const write = (v: unknown): string => {
    if (typeof v === "string") return str(v);
    if (Array.isArray(v)) {
      const items = v.map((x) => `${gap()}${write(x)}${gap()}`);
      return `[${items.join(",")}${items.length > 0 && rnd() < style.trailing ? "," : ""}${gap()}]`;
    }
    if (isRecord(v)) {
      const entries = Object.keys(v).map((key) => {
        const name = IDENTIFIER.test(key) && rnd() < style.unquoted ? key : str(key);
        return `${gap()}${name}${gap()}:${gap()}${write(v[key])}${gap()}`;
      });
      return `{${entries.join(",")}${entries.length > 0 && rnd() < style.trailing ? "," : ""}${gap()}}`;
    }
    return JSON.stringify(v);
  };
  return write(value);
}

const style: fc.Arbitrary<Style> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(STRICT) },
  {
    weight: 4,
    arbitrary: fc.record({
      unquoted: fc.constantFrom(0, 0.5, 1),
      single: fc.constantFrom(0, 0.5, 1),
      trailing: fc.constantFrom(0, 0.3, 1),
      comments: fc.constantFrom(0, 0.1, 0.3),
      spaces: fc.constantFrom(0, 0.5),
    }),
  },
);

function fence(body: string, kind: number): string {
  switch (kind) {
    case 1:
      return `\`\`\`json\n${body}\n\`\`\``;
    case 2:
      return `\n\`\`\`\n${body}\n\`\`\`\n`;
    default:
      return body;
  }
}

/** Strip own `__proto__` keys everywhere, and round-trip through JSON (-0 → 0), as the tool receives it. */
function meant(value: unknown): unknown {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (isRecord(v)) {
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(v)) if (key !== "__proto__") out[key] = strip(v[key]);
      return out;
    }
    return v;
  };
  return JSON.parse(JSON.stringify(strip(value)) ?? "null");
}

// ── Calls ──────────────────────────────────────────────────────────────────────────────────────────────────────

/** What a generated call should produce. `args`: an echo tool must receive exactly these. */
interface Expected {
  status: "success" | "error";
  args?: unknown;
  content?: (content: string) => boolean;
}

/** A call's arguments: as text (OpenAI) and, where they have an object form, as an object (LangChain). */
interface Arguments {
  text: string;
  object?: unknown;
  expected: Expected;
}

const seed = fc.integer({ min: 0, max: 2 ** 31 - 1 });

/** Valid arguments for an echo tool, loosened and written sloppily: the tool must get exactly the valid value. */
function goodArguments(name: EchoName): fc.Arbitrary<Arguments> {
  return fc
    .record({
      value: VALID[name],
      seed,
      p: fc.constantFrom(0, 0.3, 1),
      style,
      fence: fc.constantFrom(0, 0, 0, 1, 2),
      proto: fc.option(json, { freq: 6 }),
    })
    .map(({ value, seed: s, p, style: st, fence: f, proto }) => {
      const rnd = prng(s);
      const root = SCHEMAS[name] as Schema;
      let loose = loosen(value, root, root, rnd, p);
      if (proto !== null && isRecord(loose)) loose = withProtoKey(loose, proto);
      // A parameterless tool may also be sent "" (not fenced: an empty fence is no JSON at all).
      const body = name === "echo_none" && p === 1 && st === STRICT && f === 0 ? "" : sloppy(loose, st, rnd);
      return { text: fence(body, f), object: loose, expected: { status: "success", args: meant(value) } };
    });
}

/** Valid arguments broken by one poison value; the call must fail whatever repair and coercion do. */
function badArguments(name: EchoName): fc.Arbitrary<Arguments> {
  return fc
    .record({ value: VALID[name], poison: fc.constantFrom(...POISON[name]), seed, style, fence: fc.constantFrom(0, 1) })
    .filter(({ value, poison: [path] }) => {
      // The poisoned path's parent must exist (an optional nested object may be absent).
      const keys = path.split("/").slice(1, -1);
      let node: unknown = value;
      for (const key of keys) node = isRecord(node) ? node[key] : undefined;
      return keys.length === 0 || isRecord(node);
    })
    .map(({ value, poison: [path, poison], seed: s, style: st, fence: f }) => {
      const broken = poisoned(value, path, poison);
      return { text: fence(sloppy(broken, st, prng(s)), f), object: broken, expected: { status: "error" } };
    });
}

/** Arguments text that is not a usable JSON object, whatever the tool. */
function unusableText(name: EchoName): fc.Arbitrary<Arguments> {
  const error: Expected = { status: "error" };
  // Any proper prefix of one JSON object's text is incomplete ("{}" has only "{").
  const truncated = VALID[name]
    .map((value) => JSON.stringify(value))
    .chain((t) => fc.integer({ min: 1, max: t.length - 1 }).map((cut) => t.slice(0, cut)));
  const garbage = fc
    .string({
      unit: fc.constantFrom(..."abcxyzTFN0123456789 -+.:,;=()!?<>|&%#@~\\\t".split("")),
      minLength: 1,
      maxLength: 30,
    })
    .filter((t) => t.trim() !== "");
  const notObject = fc.oneof(
    json.filter((v) => !isRecord(v)).map((v) => JSON.stringify(v)),
    fc.constantFrom(
      '"hello"',
      '"[1,2]"',
      "[]",
      "null",
      "0",
      "true",
      "```json\n```",
      "// only a comment",
      "/* */",
      "{",
      "}",
      "[",
      "{,}",
      "{'a'}",
      "{a}",
    ),
  );
  // Over the depth limit (the arguments object is level 1): in strict JSON and in text that needs repair.
  const deep = fc
    .tuple(fc.integer({ min: 64, max: 3_000 }), fc.boolean())
    .map(([depth, sloppyKey]) => `{${sloppyKey ? "data" : '"data"'}:${"[".repeat(depth)}${"]".repeat(depth)}}`);
  // Over the 1 MiB limit, counted in UTF-8 bytes.
  const huge = fc
    .tuple(fc.integer({ min: 0, max: 4_096 }), fc.constantFrom("x", "é", "€"))
    .map(([extra, ch]) => `{"s":"${ch.repeat(Math.ceil(MIB / Buffer.byteLength(ch)) + extra)}"}`);
  return fc
    .oneof(
      { weight: 4, arbitrary: truncated },
      { weight: 3, arbitrary: garbage },
      { weight: 3, arbitrary: notObject },
      { weight: 1, arbitrary: deep },
      { weight: 1, arbitrary: huge },
    )
    .filter((t) => !(name === "echo_none" && t.trim() === ""))
    .map((t) => ({ text: t, expected: error }));
}

/** Deep but within the limit, for the map tool (its values may be anything). */
const deepButFine: fc.Arbitrary<Arguments> = fc.integer({ min: 1, max: 62 }).map((depth) => {
  let data: unknown = "bottom";
  for (let i = 0; i < depth; i++) data = [data];
  const value = { data: { nested: data } };
  return { text: JSON.stringify(value), object: value, expected: { status: "success", args: value } };
});

const echoName = fc.constantFrom(...(Object.keys(SCHEMAS) as EchoName[]));

const echoCall: fc.Arbitrary<{ name: string; args: Arguments }> = echoName.chain((name) =>
  fc
    .oneof(
      { weight: 5, arbitrary: goodArguments(name) },
      { weight: 3, arbitrary: badArguments(name) },
      { weight: 2, arbitrary: unusableText(name) },
      { weight: name === "echo_map" ? 1 : 0, arbitrary: deepButFine },
    )
    .map((args) => ({ name, args })),
);

const behaviourCall: fc.Arbitrary<{ name: string; args: Arguments }> = fc
  .tuple(
    fc.constantFrom(...(Object.keys(BEHAVIOURS) as BehaviourName[])),
    fc.constantFrom("", "{}", " { } ", "```json\n{}\n```", "{/* nothing */}", '"{}"'),
  )
  .map(([name, text]) => ({ name, args: { text, object: {}, expected: { ...BEHAVIOURS[name] } } }));

const unknownCall: fc.Arbitrary<{ name: string; args: Arguments }> = fc
  .tuple(
    fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.string({ unit: "binary", maxLength: 200 }),
      fc.constantFrom(
        "",
        "__proto__",
        "constructor",
        "toString",
        "hasOwnProperty",
        "valueOf",
        "echo simple",
        "ECHO_SIMPLE",
        "echo_simple ",
      ),
    ),
    fc.constantFrom("{}", '{"s":"x"}', "", "{"),
  )
  .filter(([name]) => !TOOL_NAMES.has(name))
  .map(([name, text]) => ({
    name,
    args: {
      text,
      object: {},
      expected: {
        status: "error",
        content: (c) =>
          (c.startsWith("Error: ") && c.includes("not a valid tool")) || c.startsWith("Error: The call names no tool."),
      } as Expected,
    },
  }));

const anyCall = fc.oneof(
  { weight: 8, arbitrary: echoCall },
  { weight: 3, arbitrary: behaviourCall },
  { weight: 1, arbitrary: unknownCall },
);

/** An id as models and hand-built messages have them: usual, duplicated, empty, missing or not a string. */
const id = fc.oneof(
  { weight: 8, arbitrary: fc.string({ minLength: 1, maxLength: 12 }).map((s) => `call_${s}`) },
  { weight: 2, arbitrary: fc.constantFrom("dup", "dup", "same") },
  { weight: 1, arbitrary: fc.constantFrom("", undefined, 7, null, { id: "x" }) },
);

interface GeneratedCall {
  entry: unknown;
  expectedId: string;
  expected: Expected;
}

/** An OpenAI `tool_calls` entry; sometimes an unreadable one. */
const openaiEntry: fc.Arbitrary<GeneratedCall> = fc.oneof(
  {
    weight: 20,
    arbitrary: fc.tuple(anyCall, id).map(([call, callId]) => ({
      entry: {
        ...(callId === undefined ? {} : { id: callId }),
        type: "function",
        function: { name: call.name, arguments: call.args.text },
      },
      expectedId: typeof callId === "string" ? callId : "",
      expected: call.args.expected,
    })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom<unknown>(
          null,
          42,
          "get_weather",
          [],
          {},
          { id: "c" },
          { id: "c2", function: null },
          { id: "cx", type: "custom", custom: { name: "echo_none", input: "hi" } },
        ),
        id,
      )
      .map(([entry]) => ({
        entry,
        expectedId: isRecord(entry) && typeof entry.id === "string" ? entry.id : "",
        expected: { status: "error" as const },
      })),
  },
);

/** A LangChain `tool_calls` entry (args as an object, or the text where there is none) or an `invalid_tool_calls` one. */
const langchainEntry: fc.Arbitrary<GeneratedCall & { invalid: boolean }> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.tuple(anyCall, id, fc.boolean()).map(([call, callId, asText]) => ({
      entry: {
        name: call.name,
        args: call.args.object === undefined || asText ? call.args.text : call.args.object,
        ...(callId === undefined ? {} : { id: callId }),
        type: "tool_call",
      },
      expectedId: typeof callId === "string" ? callId : "",
      expected: call.args.expected,
      invalid: false,
    })),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(anyCall, id, fc.option(fc.string({ maxLength: 30 }))).map(([call, callId, error]) => ({
      entry: {
        name: call.name,
        args: call.args.text,
        ...(callId === undefined ? {} : { id: callId }),
        ...(error === null ? {} : { error }),
        type: "invalid_tool_call",
      },
      expectedId: typeof callId === "string" ? callId : "",
      // The provider already refused these: never run, always an error.
      expected: { status: "error" as const },
      invalid: true,
    })),
  },
);

const openaiMessage = fc.array(openaiEntry, { minLength: 0, maxLength: 6 }).map((calls) => ({
  message: {
    role: "assistant",
    content: null,
    tool_calls: calls.map((c) => c.entry),
  } as unknown as OpenAIAssistantMessage,
  calls,
}));

const langchainMessage = fc.array(langchainEntry, { minLength: 0, maxLength: 6 }).map((entries) => {
  const valid = entries.filter((e) => !e.invalid);
  const invalid = entries.filter((e) => e.invalid);
  return {
    message: {
      content: "",
      tool_calls: valid.map((e) => e.entry),
      invalid_tool_calls: invalid.map((e) => e.entry),
    } as unknown as AIMessage,
    // Answers come for tool_calls first, then invalid_tool_calls.
    calls: [...valid, ...invalid] as GeneratedCall[],
  };
});

// ── Checks ─────────────────────────────────────────────────────────────────────────────────────────────────────

const PROTOTYPES = [Object.prototype, Array.prototype, Function.prototype, String.prototype, Number.prototype];
const protoSnapshot = PROTOTYPES.map((p) => Reflect.ownKeys(p).length);

function assertNoPollution(): void {
  PROTOTYPES.forEach((p, i) => {
    if (Reflect.ownKeys(p).length !== protoSnapshot[i])
      throw new Error(`a built-in prototype gained a property: ${String(Reflect.ownKeys(p))}`);
  });
  const probe = {} as Record<string, unknown>;
  for (const key of ["polluted", "admin", "isAdmin", "x", "a"]) {
    if (probe[key] !== undefined) throw new Error(`Object.prototype.${key} is set`);
  }
  if (oddObjects.length > 0) throw new Error(`a tool received odd objects: ${oddObjects.slice(0, 5).join("; ")}`);
}

/** dispatch, bounded: rejects if it neither resolves nor rejects in time. */
async function bounded<T>(promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`dispatch did not settle within ${SETTLE_BOUND_MS}ms`)), SETTLE_BOUND_MS);
  });
  try {
    return await Promise.race([promise, limit]);
  } finally {
    clearTimeout(timer);
  }
}

function describe(call: GeneratedCall, message: ToolMessage | undefined): string {
  return `call ${JSON.stringify(call.entry, (_, v: unknown) => (typeof v === "string" && v.length > 300 ? `${v.slice(0, 300)}…(${v.length})` : v))}\n→ ${message ? `${message.status}: ${message.content.slice(0, 500)}` : "no message"}`;
}

/** Every check of one dispatched message against what its calls expect. */
function checkAnswers(calls: GeneratedCall[], answers: ToolMessage[], exact: boolean): void {
  if (answers.length !== calls.length) throw new Error(`${calls.length} calls, ${answers.length} messages`);
  calls.forEach((call, i) => {
    const message = answers[i]!;
    const fail = (why: string): never => {
      throw new Error(`${why}\n${describe(call, message)}`);
    };
    if (!(message instanceof ToolMessage)) fail("not a ToolMessage");
    if (message.tool_call_id !== call.expectedId)
      fail(`tool_call_id ${JSON.stringify(message.tool_call_id)}, expected ${JSON.stringify(call.expectedId)}`);
    if (message.role !== "tool" || message.type !== "tool") fail("wrong role or type");
    if (typeof message.content !== "string" || typeof message.name !== "string")
      fail("content and name must be strings");
    if (message.status !== "success" && message.status !== "error") fail(`status ${String(message.status)}`);
    if (!isDeepStrictEqual(Object.keys(message.toJSON()), ["role", "tool_call_id", "content"])) fail("toJSON shape");
    if (message.status === "error") {
      if (message.content === "") fail("an empty error message");
      if (/\n\s+at .+:\d+:\d+/.test(message.content)) fail("a stack trace in the message");
    }
    if (!exact) return;
    if (message.status !== call.expected.status) fail(`status ${message.status}, expected ${call.expected.status}`);
    if (call.expected.args !== undefined && !isDeepStrictEqual(JSON.parse(message.content), call.expected.args)) {
      fail(`the tool received other arguments than meant: ${JSON.stringify(call.expected.args).slice(0, 500)}`);
    }
    if (call.expected.content && !call.expected.content(message.content)) fail("unexpected content");
  });
}

// ── Properties ─────────────────────────────────────────────────────────────────────────────────────────────────

test("fuzz: OpenAI messages — never rejects, one answer per call in order with its id, the expected status and arguments", async () => {
  startedAt = performance.now();
  await fc.assert(
    fc.asyncProperty(openaiMessage, async ({ message, calls }) => {
      messagesGenerated++;
      callsGenerated += calls.length;
      const answers = await bounded(registry.dispatch(message));
      checkAnswers(calls, answers, true);
      assertNoPollution();
    }),
    params(5_000),
  );
});

test("fuzz: LangChain messages — args objects, text, invalid_tool_calls; the same guarantees", async () => {
  await fc.assert(
    fc.asyncProperty(langchainMessage, async ({ message, calls }) => {
      messagesGenerated++;
      callsGenerated += calls.length;
      const answers = await bounded(registry.dispatch(message));
      checkAnswers(calls, answers, true);
      assertNoPollution();
    }),
    params(2_500),
  );
});

/** Text mutated at random from JSON: a character dropped, doubled, replaced, or the quotes swapped. */
const mutatedText = fc
  .tuple(
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(isRecord(v) ? v : { data: v })),
    seed,
    fc.integer({ min: 1, max: 4 }),
  )
  .map(([t, s, n]) => {
    const rnd = prng(s);
    let out = t;
    for (let k = 0; k < n; k++) {
      const at = Math.floor(rnd() * Math.max(1, out.length));
      const op = rnd();
      const chars = `{}[]:,"'\`/*\\ \nax01-_$`;
      if (op < 0.25) out = out.slice(0, at) + out.slice(at + 1);
      else if (op < 0.5) out = out.slice(0, at) + out[at] + out.slice(at);
      else if (op < 0.75) out = out.slice(0, at) + chars[Math.floor(rnd() * chars.length)] + out.slice(at + 1);
      else out = out.replace(/"/g, "'");
    }
    return out;
  });

const hostileText = fc.oneof(
  mutatedText,
  fc.string({ unit: "binary", maxLength: 60 }),
  fc.string({ unit: fc.constantFrom(..."{}[]:,\"'`/*\\ \n\tabtrue0-1e_$".split("")), maxLength: 60 }),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.constantFrom(
    '{"__proto__":{"polluted":true}}',
    '{"data":{"__proto__":{"polluted":true}}}',
    '{"data":{"constructor":{"prototype":{"polluted":true}}}}',
    "{data:{__proto__:{polluted:true}}}",
    "{'data':{'constructor':{'prototype':{'polluted':true}}}}",
    '"{\\"data\\":{\\"__proto__\\":{\\"polluted\\":true}}}"',
    '{"data":{"toString":"x","valueOf":1,"hasOwnProperty":null}}',
  ),
);

test("fuzz: hostile and mutated text — never rejects, answers match calls, a success is only ever a plain object", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(fc.constantFrom("echo_map", "echo_none", "echo_simple"), hostileText, id), {
        minLength: 1,
        maxLength: 6,
      }),
      async (entries) => {
        messagesGenerated++;
        callsGenerated += entries.length;
        const calls: GeneratedCall[] = entries.map(([name, text, callId]) => ({
          entry: { id: callId, type: "function", function: { name, arguments: text } },
          expectedId: typeof callId === "string" ? callId : "",
          expected: { status: "error" },
        }));
        const answers = await bounded(
          registry.dispatch({ tool_calls: calls.map((c) => c.entry) } as unknown as OpenAIAssistantMessage),
        );
        checkAnswers(calls, answers, false);
        answers.forEach((answer, i) => {
          const text = entries[i]![1];
          if (answer.status === "success") {
            const received: unknown = JSON.parse(answer.content);
            if (!isRecord(received)) throw new Error(`success with a non-object: ${answer.content}`);
            // Strict JSON that is an object is received as it is, minus __proto__ keys.
            let strict: unknown;
            try {
              strict = JSON.parse(text);
            } catch {
              return;
            }
            if (isRecord(strict) && !isDeepStrictEqual(received, meant(strict))) {
              throw new Error(`strict JSON was changed: ${text} → ${answer.content}`);
            }
          }
        });
        assertNoPollution();
      },
    ),
    params(2_000),
  );
});

test("fuzz: maxConcurrency, dispatch timeouts and throwing hooks — still one answer per call, every hook pair fired", async () => {
  await fc.assert(
    fc.asyncProperty(
      openaiMessage,
      fc.option(fc.integer({ min: 1, max: 4 })),
      fc.option(fc.integer({ min: 1, max: 15 })),
      fc.boolean(),
      async ({ message, calls }, maxConcurrency, timeoutMs, throwing) => {
        messagesGenerated++;
        callsGenerated += calls.length;
        const starts: string[] = [];
        const ends: string[] = [];
        const answers = await bounded(
          registry.dispatch(message, {
            ...(maxConcurrency === null ? {} : { maxConcurrency }),
            ...(timeoutMs === null ? {} : { timeoutMs }),
            onToolStart: (e) => {
              starts.push(e.call.id);
              if (throwing) throw new Error("hook failure");
            },
            onToolEnd: async (e) => {
              ends.push(e.call.id);
              if (throwing) throw new Error("async hook failure");
            },
          }),
        );
        // Timing decides whether a slow call makes the deadline, so statuses are checked only where timing
        // cannot change them: what was an error without a deadline is still one.
        checkAnswers(calls, answers, false);
        calls.forEach((call, i) => {
          if (call.expected.status === "error" && answers[i]!.status !== "error")
            throw new Error(`a failing call succeeded\n${describe(call, answers[i])}`);
          if (
            answers[i]!.status === "success" &&
            call.expected.args !== undefined &&
            !isDeepStrictEqual(JSON.parse(answers[i]!.content), call.expected.args)
          ) {
            throw new Error(`other arguments than meant\n${describe(call, answers[i])}`);
          }
        });
        const sorted = (ids: string[]) => [...ids].sort();
        if (!isDeepStrictEqual(sorted(starts), sorted(calls.map((c) => c.expectedId))))
          throw new Error("onToolStart not once per call");
        if (!isDeepStrictEqual(sorted(ends), sorted(calls.map((c) => c.expectedId))))
          throw new Error("onToolEnd not once per call");
        assertNoPollution();
      },
    ),
    params(700),
  );
});

test("fuzz: a caller's abort at a random moment — dispatch rejects with its reason or has answered every call", async () => {
  await fc.assert(
    fc.asyncProperty(openaiMessage, fc.integer({ min: 0, max: 4 }), async ({ message, calls }, abortAfterMs) => {
      messagesGenerated++;
      callsGenerated += calls.length;
      const controller = new AbortController();
      const reason = new Error("caller stopped");
      const timer = setTimeout(() => controller.abort(reason), abortAfterMs);
      try {
        const answers = await bounded(registry.dispatch(message, { signal: controller.signal }));
        checkAnswers(calls, answers, true);
      } catch (error) {
        if (error !== reason) throw error;
      } finally {
        clearTimeout(timer);
      }
      assertNoPollution();
    }),
    params(300),
  );
});

// ── Issue 12: overflowing numbers, leap seconds, leaking and unreadable throws, limits ────────────────────────────

const SECRET_KEY = "sk-live-0a1b2c3d4e5f6a7b8c9d";
const PASSWORD = "hunter2-S3cret";

function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

const NUMBERS: JsonSchema = {
  type: "object",
  properties: { f: { type: "number" }, n: { type: "integer" } },
  required: ["f"],
  additionalProperties: false,
};
const WHEN: JsonSchema = {
  type: "object",
  properties: { at: { type: "string", format: "date-time" } },
  required: ["at"],
  additionalProperties: false,
};
const SIZE: JsonSchema = {
  type: "object",
  properties: { size: { type: "integer" } },
  required: ["size"],
  additionalProperties: false,
};

/** Throws what leaks in real code: an HTTP client's request object, a driver's error, a file error. */
const LEAKS: unknown[] = [
  { message: "Request failed", config: { headers: { Authorization: `Bearer ${SECRET_KEY}` } } },
  new Error(`connect ECONNREFUSED postgres://app:${PASSWORD}@db.internal:5432/orders`),
  new Error(`401 Incorrect API key provided: ${SECRET_KEY}`),
  new Error("ENOENT: no such file or directory, open '/home/alice/acme/secret-plans/q3.csv'"),
  `token=${SECRET_KEY}`,
  revokedProxy(),
];
let leakCount = 0;

const hostileRegistry = new ToolRegistry(
  [
    tool((args: Record<string, unknown>) => args, undefined, {
      v: 1,
      name: "numbers",
      description: "",
      parameters: NUMBERS,
      params: ["f", "n"],
      flatten: true,
    }),
    tool((at: Date) => (at instanceof Date ? at.toISOString() : `not a Date: ${typeof at}`), undefined, {
      v: 1,
      name: "when",
      description: "",
      parameters: WHEN,
      params: ["at"],
      dates: ["/at"],
    }),
    tool((size: number) => "x".repeat(size), undefined, {
      v: 1,
      name: "sized",
      description: "",
      parameters: SIZE,
      params: ["size"],
    }),
    behaviourTool("leaky", () => {
      throw LEAKS[leakCount++ % LEAKS.length];
    }),
    behaviourTool("leaky_async", async () => {
      throw LEAKS[leakCount++ % LEAKS.length];
    }),
    behaviourTool("proxy_result", () => revokedProxy()),
  ],
  // Short enough that a generated hang would show; these tools never hang.
  { timeoutMs: 1_000 },
);

/** One generated call of this property: its name, arguments text, and what must come back (before the limits). */
const overflowCall = fc
  .tuple(
    fc.constantFrom("f", "n"),
    fc.oneof(
      fc.constantFrom("1e400", "-1e400", "1E309", "2e+308", `${"9".repeat(309)}`, `-${"1".repeat(400)}.5`, "1.8e308"),
      fc.integer({ min: 309, max: 100_000 }).map((e) => `1e${e}`),
    ),
  )
  .map(([key, literal]) => ({
    name: "numbers",
    text: `{"f":1,${key === "n" ? "" : '"n":1,'}"${key}":${literal}}`.replace('{"f":1,"f":', '{"f":'),
    expected: { status: "error" } as Expected,
  }));
const finiteCall = fc
  .oneof(
    fc.constantFrom("1e300", "-1.7976931348623157e308", "123456789012345678901234567890", "1e-400", "0.5e2"),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  )
  .map((literal) => ({
    name: "numbers",
    text: `{"f":${literal}}`,
    expected: {
      status: "success",
      content: (c: string) => Number.isFinite((JSON.parse(c) as { f: number }).f),
    } as Expected,
  }));
/** Years whose 31 December ended with a leap second: the only ones where `23:59:60` on that day is a time. */
const LEAP_DECEMBERS = new Set([
  1972, 1973, 1974, 1975, 1976, 1977, 1978, 1979, 1987, 1989, 1990, 1995, 1998, 2005, 2008, 2016,
]);
const leapCall = fc
  .tuple(fc.integer({ min: 1972, max: 2100 }), fc.constantFrom("", ".5", ".125"), fc.constantFrom("Z", "+00:00"))
  .map(([year, fraction, zone]) => ({
    name: "when",
    text: JSON.stringify({ at: `${year}-12-31T23:59:60${fraction}${zone}` }),
    expected: (LEAP_DECEMBERS.has(year)
      ? {
          status: "success",
          content: (c: string) =>
            c === `${year + 1}-01-01T00:00:00${fraction === "" ? ".000" : fraction.padEnd(4, "0")}Z`,
        }
      : { status: "error", content: (c: string) => c.includes("date-time") }) as Expected,
  }));
const leakCall = fc.constantFrom("leaky", "leaky_async").map((name) => ({
  name,
  text: "{}",
  expected: {
    status: "error",
    content: (c: string) =>
      c.startsWith("Error: ") &&
      !c.includes(SECRET_KEY) &&
      !c.includes(PASSWORD) &&
      !c.includes("alice") &&
      !c.includes("{"),
  } as Expected,
}));
const proxyCall = fc.constant({
  name: "proxy_result",
  text: "{}",
  expected: { status: "error", content: (c: string) => c.startsWith("Error: ") } as Expected,
});
const sizedCall = fc.integer({ min: -16, max: 16 }).map((delta) => ({
  name: "sized",
  text: JSON.stringify({ size: MIB + delta }),
  expected: (delta > 0
    ? { status: "error", content: (c: string) => c.includes("maxResultBytes") && c.includes(String(MIB)) }
    : { status: "success", content: (c: string) => c.length === MIB + delta }) as Expected,
}));
const issue12Call = fc.oneof(
  { weight: 3, arbitrary: overflowCall },
  { weight: 3, arbitrary: finiteCall },
  { weight: 2, arbitrary: leapCall },
  { weight: 3, arbitrary: leakCall },
  { weight: 1, arbitrary: proxyCall },
  { weight: 1, arbitrary: sizedCall },
);
/** Ids: usual ones, and now and then one over the 256-character limit. */
const issue12Id = fc.oneof(
  { weight: 12, arbitrary: fc.string({ minLength: 1, maxLength: 12 }).map((s) => `call_${s}`) },
  { weight: 1, arbitrary: fc.integer({ min: 257, max: 100_000 }).map((n) => "i".repeat(n)) },
);

test("fuzz: issue 12 — Infinity refused, leap seconds revived, no leaks, revoked Proxies answered, limits on calls, ids and results", async () => {
  await fc.assert(
    fc.asyncProperty(
      // Up to 80 calls: past the default cap of 64 now and then.
      fc.oneof(
        { weight: 5, arbitrary: fc.array(fc.tuple(issue12Call, issue12Id), { minLength: 1, maxLength: 6 }) },
        { weight: 1, arbitrary: fc.array(fc.tuple(issue12Call, issue12Id), { minLength: 60, maxLength: 80 }) },
      ),
      async (entries) => {
        messagesGenerated++;
        callsGenerated += entries.length;
        const calls: GeneratedCall[] = entries.map(([call, callId], i) => {
          let expected = call.expected;
          if (i >= 64)
            expected = {
              status: "error",
              content: (c) => c.includes("maxCallsPerMessage") && c.includes(`${entries.length} tool calls`),
            };
          else if (callId.length > 256)
            expected = {
              status: "error",
              content: (c) => c.includes("maxCallIdLength") && c.includes(String(callId.length)),
            };
          return {
            entry: { id: callId, type: "function", function: { name: call.name, arguments: call.text } },
            expectedId: callId,
            expected,
          };
        });
        const answers = await bounded(
          hostileRegistry.dispatch({
            role: "assistant",
            content: null,
            tool_calls: calls.map((c) => c.entry),
          } as unknown as OpenAIAssistantMessage),
        );
        checkAnswers(calls, answers, true);
        answers.forEach((answer, i) => {
          if (answer.status === "error" && answer.errorKind === undefined)
            throw new Error(`an error answer without errorKind\n${describe(calls[i]!, answer)}`);
        });
        assertNoPollution();
      },
    ),
    params(400),
  );
});

// ── Validation cost (issue 12): valid-sized calls that used to block the process, on both validation paths ──────

const costSource = `
import { tool, type UniqueItems, type Pattern } from "tooltype";
interface Pt { x: number; y: number }
/**
 * Count distinct points.
 * @param pts The points
 */
export const uniq = tool(function uniq(pts: Pt[] & UniqueItems) { return String(pts.length); });
/**
 * Tag something.
 * @param tag A tag
 */
export const cubic = tool(function cubic(tag: string & Pattern<"^a*a*a*b$">) { return tag.length + " chars"; });
/**
 * A tree of any depth.
 * @param node The root
 */
export const tree = tool(function tree(node: Node) { return "ok"; });
type Node = { leaf: string } | { kids: Node[] };
`;
const costModule =
  compileFixture(costSource).load<Record<"uniq" | "cubic" | "tree", Parameters<ToolRegistry["register"]>[0]>>();
const generatedPath = new ToolRegistry([costModule.uniq, costModule.cubic, costModule.tree]);
/** The same schemas without their generated validators: checked by ajv at run time. */
const ajvPath = new ToolRegistry(
  generatedPath
    .list()
    .map((t) =>
      tool(
        (...args: unknown[]) =>
          t.name === "tree"
            ? "ok"
            : t.name === "uniq"
              ? String((args[0] as unknown[]).length)
              : `${(args[0] as string).length} chars`,
        undefined,
        { ...t.meta, validator: undefined },
      ),
    ),
);

/** A call whose arguments are big but under the size limit, with the status it must get. */
const costCall: fc.Arbitrary<{ name: string; text: string; expected: Expected }> = fc.oneof(
  fc.tuple(fc.integer({ min: 1, max: 40_000 }), fc.boolean()).map(([n, duplicate]) => {
    const pts = Array.from({ length: n }, (_, i) => ({ x: i, y: -i }));
    if (duplicate && n > 1) pts[n - 1] = { ...pts[0]! };
    return {
      name: "uniq",
      text: JSON.stringify({ pts }),
      expected: { status: duplicate && n > 1 ? "error" : "success" } as Expected,
    };
  }),
  // A pattern JavaScript would backtrack on cubically is matched in linear time at any length: a string ending in b
  // passes, any other is an error that names the pattern.
  fc
    .tuple(
      fc.oneof(fc.integer({ min: 0, max: 120 }), fc.integer({ min: 1_000, max: 200_000 })),
      fc.constantFrom("b", "c", "ab", ""),
    )
    .map(([n, end]) => ({
      name: "cubic",
      text: JSON.stringify({ tag: "a".repeat(n) + end }),
      expected: (end.endsWith("b")
        ? { status: "success" }
        : { status: "error", content: (c: string) => c.includes("must match the pattern") }) as Expected,
    })),
  // Each level is an object and an array: 30 levels fit under the 64-level nesting limit, 33 and more do not.
  fc
    .tuple(fc.oneof(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 33, max: 60 })), fc.boolean())
    .map(([depth, broken]) => {
      let node: unknown = broken ? { leaf: 1 } : { leaf: "x" };
      for (let i = 0; i < depth; i++) node = { kids: [node, { leaf: String(i) }] };
      const expected: Expected =
        depth > 30
          ? { status: "error", content: (c) => c.includes("nested too deeply") }
          : { status: broken ? "error" : "success" };
      return { name: "tree", text: JSON.stringify({ node }), expected };
    }),
);

test("fuzz: validation cost — big valid-sized arguments settle on both validation paths with the right status", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(costCall, { minLength: 1, maxLength: 3 }), fc.boolean(), async (entries, viaAjv) => {
      messagesGenerated++;
      callsGenerated += entries.length;
      const calls: GeneratedCall[] = entries.map((call, i) => ({
        entry: { id: `cost_${i}`, type: "function", function: { name: call.name, arguments: call.text } },
        expectedId: `cost_${i}`,
        expected: call.expected,
      }));
      const registry = viaAjv ? ajvPath : generatedPath;
      const answers = await bounded(
        registry.dispatch({
          role: "assistant",
          content: null,
          tool_calls: calls.map((c) => c.entry),
        } as unknown as OpenAIAssistantMessage),
      );
      checkAnswers(calls, answers, true);
    }),
    params(60),
  );
});

test(`fuzz: at least 10,000 messages were generated`, () => {
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  console.log(
    `  fuzz: ${messagesGenerated} messages, ${callsGenerated} tool calls, ${seconds} s${SEED === undefined ? "" : ` (seed ${SEED})`}`,
  );
  assert.ok(messagesGenerated >= Math.min(10_000, runs(10_000)), `only ${messagesGenerated} messages`);
});

test.run();
