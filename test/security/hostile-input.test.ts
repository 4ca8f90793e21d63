/**
 * Issue 44, "the classes, not only the instances": property-based hostile input over every entry point that reads
 * what a model, a client or a server sends: dispatch in each provider format (text and parsed arguments), `resume`
 * with arbitrary states and decisions, the MCP fetch handler (bodies, batches, headers, requestState strings,
 * subscriptions/listen), `fromMCP` against a scripted hostile server (and what its `authorization` reads: the
 * authorization URL the SDK made from the server's metadata, the redirect back), `search_tools`, `patch_tool_arguments`
 * and `standardSchema`; free-form tools' raw text (OpenAI custom tool calls: huge, pattern-adversarial, not a
 * string). The generated values are JSON-ish and hostile: deep nesting, strings of a few hundred KB,
 * `__proto__` / `constructor` / `prototype` keys as own data, inherited names (`toString`, `hasOwnProperty`), `1e400`
 * in text, lone surrogates, getters that throw, throwing and revoked Proxies, cycles.
 *
 * For every input each property asserts: no throw escapes where the API promises an answer (and where it may refuse,
 * it refuses with the error class it documents); no built-in or prototype changed (a snapshot of their own property
 * descriptors, compared after each run); no unhandled rejection or uncaught exception (recorded, checked at the end of
 * each test); and a loose bound on work per input (an answer within 5 s and heap growth under 256 MiB): guards
 * against a hang or a blow-up, never a speed claim.
 *
 * FUZZ_SCALE multiplies the number of runs (the unit tier sets 0.25; `npm run fuzz` runs 20); FUZZ_SEED replays.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as fc from "fast-check";
import {
  type ApprovalDecision,
  type ToolCallMessage,
  ToolExportError,
  ToolMessage,
  ToolRegistry,
  type Pattern,
  standardSchema,
  tool,
} from "tooltype";
import { type MCPClient, type MCPListedTool, fromMCP, mcpFetchHandler } from "tooltype/mcp";
import { LocalToolSearch } from "../../runtime/agent/tool-search";
import { patchDocument } from "../../runtime/agent/json-patch-apply";
import { type JsonPatchOperation, applyJsonPatch, readPatchCall } from "../../runtime/agent/json-patch";
import type { ToolFormatSource } from "../../runtime/providers/provider";
import { readTraceparent } from "../../runtime/telemetry/trace-context";
import { readFlatObject } from "../../runtime/arguments/read/flat-json";
import { allowedAuthorizationUrl, redirectAnswer } from "../../runtime/mcp/client-authorization";

const SCALE = Number(process.env.FUZZ_SCALE ?? "1") || 1;
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const params = (numRuns: number): fc.Parameters<unknown> => ({
  numRuns: Math.max(1, Math.round(numRuns * SCALE)),
  includeErrorInReport: true,
  ...(SEED === undefined ? {} : { seed: SEED }),
});

/** A guard against a hang or a blow-up, not a speed claim. */
const RUN_BOUND_MS = 5_000;
const HEAP_BOUND_BYTES = 256 * 1024 * 1024;
const SECRET = "a fuzz secret of more than thirty-two bytes, used nowhere else";

// ── Built-ins, unhandled rejections and the per-input bound ───────────────────────────────────────────────────────

const WATCHED: Record<string, object> = {
  "Object.prototype": Object.prototype,
  "Array.prototype": Array.prototype,
  "Function.prototype": Function.prototype,
  "String.prototype": String.prototype,
  "Number.prototype": Number.prototype,
  "Promise.prototype": Promise.prototype,
  "RegExp.prototype": RegExp.prototype,
  Object,
  Array,
  JSON,
  Promise,
  Reflect,
};

/** Well-known methods, by value: a replaced one is caught even if its descriptor were restored to look the same. */
const WELL_KNOWN: [string, unknown][] = [
  ["Object.prototype.toString", Object.prototype.toString],
  ["Object.prototype.hasOwnProperty", Object.prototype.hasOwnProperty],
  ["Object.prototype.valueOf", Object.prototype.valueOf],
  ["Array.prototype.slice", Array.prototype.slice],
  ["Array.prototype.push", Array.prototype.push],
  ["Function.prototype.call", Function.prototype.call],
  ["JSON.parse", JSON.parse],
  ["JSON.stringify", JSON.stringify],
  ["Promise.prototype.then", Promise.prototype.then],
];

type Snapshot = Map<
  string,
  { proto: unknown; keys: (string | symbol)[]; descriptors: Map<string | symbol, PropertyDescriptor> }
>;

function snapshotBuiltins(): Snapshot {
  const snapshot: Snapshot = new Map();
  for (const [name, object] of Object.entries(WATCHED)) {
    const keys = Reflect.ownKeys(object);
    const descriptors = new Map(keys.map((key) => [key, Object.getOwnPropertyDescriptor(object, key)!] as const));
    snapshot.set(name, { proto: Object.getPrototypeOf(object), keys, descriptors });
  }
  return snapshot;
}

const FIELDS = ["value", "get", "set", "writable", "enumerable", "configurable"] as const;

/** What changed in the built-ins since `before`, one line each (empty: nothing). */
function builtinChanges(before: Snapshot): string[] {
  const changes: string[] = [];
  for (const [name, object] of Object.entries(WATCHED)) {
    const was = before.get(name)!;
    if (Object.getPrototypeOf(object) !== was.proto) changes.push(`${name}: prototype replaced`);
    const keys = Reflect.ownKeys(object);
    for (const key of keys) if (!was.descriptors.has(key)) changes.push(`${name}.${String(key)}: added`);
    for (const key of was.keys) {
      const now = Object.getOwnPropertyDescriptor(object, key);
      if (!now) {
        changes.push(`${name}.${String(key)}: removed`);
        continue;
      }
      const old = was.descriptors.get(key)!;
      for (const field of FIELDS)
        if (!Object.is(now[field], old[field])) changes.push(`${name}.${String(key)}: ${field} changed`);
    }
  }
  const current: unknown[] = [
    Object.prototype.toString,
    Object.prototype.hasOwnProperty,
    Object.prototype.valueOf,
    Array.prototype.slice,
    Array.prototype.push,
    Function.prototype.call,
    JSON.parse,
    JSON.stringify,
    Promise.prototype.then,
  ];
  WELL_KNOWN.forEach(([name, value], i) => {
    if (current[i] !== value) changes.push(`${name}: replaced`);
  });
  const probe: Record<string, unknown> = {};
  for (const key of ["polluted", "isAdmin", "x", "a"])
    if (key in probe) changes.push(`Object.prototype now answers ${key}`);
  return changes;
}

let builtins: Snapshot | undefined;

/** Everything that escaped the promise chains: unhandled rejections and uncaught exceptions. */
const escaped: string[] = [];
process.on("unhandledRejection", (reason) => escaped.push(`unhandledRejection: ${describe(reason)}`));
process.on("uncaughtException", (error) => escaped.push(`uncaughtException: ${describe(error)}`));

function describe(value: unknown): string {
  try {
    return value instanceof Error
      ? `${value.name}: ${value.message}\n${(value.stack ?? "").split("\n").slice(1, 6).join("\n")}`
      : String(value);
  } catch {
    return "(a value that cannot be shown)";
  }
}

/** Each test ends here: the escapes its runs left behind (given a turn of the loop to surface), then none stay. */
async function noEscapes(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 10));
  const seen = escaped.splice(0);
  assert.equal(seen, [], `escaped the promise chains:\n${seen.join("\n")}`);
}

/** Runs one input: answers within the bound, grows the heap within the bound, and leaves the built-ins as they were. */
async function bounded<T>(label: string, run: () => T | Promise<T>): Promise<T> {
  builtins ??= snapshotBuiltins();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${label}: no answer within ${RUN_BOUND_MS} ms`)), RUN_BOUND_MS);
  });
  try {
    return await Promise.race([Promise.resolve().then(run), hang]);
  } finally {
    clearTimeout(timer);
    const elapsed = performance.now() - started;
    assert.ok(elapsed < RUN_BOUND_MS, `${label}: took ${Math.round(elapsed)} ms`);
    const grown = process.memoryUsage().heapUsed - heapBefore;
    assert.ok(grown < HEAP_BOUND_BYTES, `${label}: the heap grew by ${Math.round(grown / 1048576)} MiB`);
    const changes = builtinChanges(builtins);
    assert.equal(changes, [], `${label}: built-ins changed:\n${changes.join("\n")}`);
  }
}

/** A refusal the API documents (a TypeError), as opposed to anything else escaping. */
function isDocumentedRefusal(error: unknown): boolean {
  return error instanceof TypeError && typeof error.message === "string" && error.message.length > 0;
}

/**
 * A refusal, or the error a caller's own object threw when read (a getter or a Proxy trap of a value the caller
 * built: never in what a model or a client sends as JSON), passed on unchanged rather than swallowed.
 */
function isRefusalOrOwnError(error: unknown): boolean {
  return isDocumentedRefusal(error) || error instanceof HostileValueError;
}

// ── Hostile values ────────────────────────────────────────────────────────────────────────────────────────────────

const KEYS = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "isPrototypeOf",
  "toJSON",
  "then",
  "length",
  "a",
  "b",
  "query",
  "amount",
  "to",
  "text",
  "n",
  "tool_call_id",
  "patch",
  "op",
  "path",
  "from",
  "value",
  "id",
  "approved",
  "args",
  "type",
  "properties",
  "items",
  "$ref",
  "$defs",
  "anyOf",
  "required",
  "enum",
  "pattern",
];

const LONE = ["\uD800", "\uDFFF", "a\uD83D", "\uDE00b", "\u0000", "\u2028", "\uFEFF"];

const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.constantFrom(
    ...LONE,
    "1e400",
    "__proto__",
    "constructor",
    "",
    " ",
    "NaN",
    "Infinity",
    "#/$defs/x",
    "(a+)+$",
    "/__proto__/x",
  ),
  fc.integer({ min: 1_000, max: 300_000 }).map((n) => "x".repeat(n)),
  fc.integer({ min: 100, max: 20_000 }).map((n) => "\uD800".repeat(n)),
);

const key: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...KEYS) },
  { weight: 1, arbitrary: hostileString.filter((s) => s.length < 64) },
);

const number: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(-0, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, Number.MIN_VALUE, NaN, Infinity, -Infinity),
);

const jsonLeaf: fc.Arbitrary<unknown> = fc.oneof(hostileString, number, fc.boolean(), fc.constant(null));

/** An object whose keys are own data properties, even `__proto__`: what JSON.parse would make of the same text. */
function objectOf(entries: [string, unknown][]): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [k, v] of entries)
    Object.defineProperty(object, k, { value: v, enumerable: true, writable: true, configurable: true });
  return object;
}

/** What a hostile value's own getter or Proxy trap throws: the caller's object failing, which may reach the caller as is. */
class HostileValueError extends Error {}

/**
 * A hostile value fast-check must not walk (it reads, clones and prints what it generates: a Proxy or a getter would
 * throw in its hands, and 5,000 levels of nesting overflow its printer): generated as a recipe, built inside the run
 * by `materialize`, and printed by the recipe's `toString` when a property fails.
 */
class Recipe {
  constructor(
    readonly kind: "deep-array" | "deep-object" | "getter" | "proxy-object" | "proxy-array" | "revoked" | "cycle",
    readonly n = 0,
    readonly key = "",
  ) {}
  toString(): string {
    return `<${this.kind}${this.n ? ` ${this.n}` : ""}${this.key ? ` ${JSON.stringify(this.key)}` : ""}>`;
  }
  build(): unknown {
    switch (this.kind) {
      case "deep-array":
      case "deep-object": {
        let value: unknown = 1;
        for (let i = 0; i < this.n; i++) value = this.kind === "deep-object" ? { a: value } : [value];
        return value;
      }
      case "getter": {
        const object: Record<string, unknown> = { ok: 1 };
        const key = this.key;
        Object.defineProperty(object, key, {
          enumerable: true,
          configurable: true,
          get: () => {
            throw new HostileValueError(`getter ${key} throws`);
          },
        });
        return object;
      }
      case "proxy-object":
      case "proxy-array": {
        const trap = () => {
          throw new HostileValueError("a hostile Proxy");
        };
        return new Proxy(this.kind === "proxy-array" ? [] : {}, {
          get: trap,
          has: trap,
          ownKeys: trap,
          getOwnPropertyDescriptor: trap,
          getPrototypeOf: trap,
          defineProperty: trap,
          set: trap,
          deleteProperty: trap,
        });
      }
      case "revoked": {
        const { proxy, revoke } = Proxy.revocable({}, {});
        revoke();
        return proxy;
      }
      case "cycle": {
        const object: Record<string, unknown> = { a: 1 };
        object.self = object;
        return object;
      }
    }
  }
}

/** The value a generated one stands for: recipes built, arrays and objects copied (own keys, `__proto__` as data). */
function materialize(value: unknown): unknown {
  if (value instanceof Recipe) return value.build();
  if (Array.isArray(value)) return value.map(materialize);
  if (typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    return objectOf(Object.keys(value).map((k) => [k, materialize((value as Record<string, unknown>)[k])]));
  }
  return value;
}

const deepRecipe = fc
  .tuple(fc.integer({ min: 10, max: 5_000 }), fc.boolean())
  .map(([n, inObjects]) => new Recipe(inObjects ? "deep-object" : "deep-array", n));

/** JSON-ish values that JSON.stringify can write once materialized (no getters, Proxies or cycles). */
const { jsonish } = fc.letrec<{ jsonish: unknown; array: unknown[]; object: Record<string, unknown> }>((tie) => ({
  jsonish: fc.oneof({ depthSize: "small", withCrossShrink: true }, jsonLeaf, tie("array"), tie("object"), deepRecipe),
  array: fc.array(tie("jsonish"), { maxLength: 5 }),
  object: fc.array(fc.tuple(key, tie("jsonish")), { maxLength: 5 }).map(objectOf),
}));

const special: fc.Arbitrary<unknown> = fc.oneof(
  key.map((k) => new Recipe("getter", 0, k)),
  fc.constantFrom(new Recipe("proxy-object"), new Recipe("proxy-array"), new Recipe("revoked"), new Recipe("cycle")),
  fc.constantFrom<unknown>(undefined, 10n, Symbol.for("hostile")),
);

/** Any hostile value, JSON or not (materialize it in the run): what a parsed message or a caller's object may hold. */
const { hostile } = fc.letrec<{ hostile: unknown; array: unknown[]; object: Record<string, unknown> }>((tie) => ({
  hostile: fc.oneof({ depthSize: "small", withCrossShrink: true }, jsonish, tie("array"), tie("object"), special),
  array: fc.array(tie("hostile"), { maxLength: 4 }),
  object: fc.array(fc.tuple(key, tie("hostile")), { maxLength: 4 }).map(objectOf),
}));

/** JSON text of a generated value (materialized), or `otherwise` when JSON cannot write it. */
function textOf(value: unknown, otherwise: string): string {
  try {
    return JSON.stringify(materialize(value)) ?? otherwise;
  } catch {
    return otherwise;
  }
}

/** Arguments text: JSON, mangled JSON and text that only looks like JSON. */
const hostileText: fc.Arbitrary<string> = fc.oneof(
  jsonish.map((value) => textOf(value, "")),
  fc.tuple(jsonish, fc.nat()).map(([value, at]) => {
    const text = textOf(value, "");
    return text.slice(0, text.length === 0 ? 0 : at % text.length);
  }),
  fc
    .tuple(jsonish, fc.constantFrom("1e400", "-1e400", "NaN", ...LONE, '"\uD800"', "//", "'", ",", "}", "]", "\\u"))
    .map(([value, insert]) => {
      const text = textOf(value, "");
      return text.replace(/\d+|"[^"]*"/, insert);
    }),
  fc.constantFrom(
    '{"__proto__":{"polluted":1}}',
    '{"constructor":{"prototype":{"polluted":1}}}',
    '{"a":1e400,"n":1e400}',
    '{"toString":1,"hasOwnProperty":"x"}',
    '{"a":"\uD800"}',
    "{'a': 1,}",
    '```json\n{"a":1}\n```',
    "",
    "null",
  ),
  fc
    .tuple(fc.integer({ min: 10, max: 100_000 }), fc.constantFrom("[", '{"a":', "[{", '"'))
    .map(([n, open]) => open.repeat(n)),
  hostileString,
);

// ── Tools ─────────────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Search the catalogue.
 * @param query Words to look for
 * @param limit At most this many
 */
const search = tool(function search(query: string, limit?: number) {
  return `found ${query.length} ${limit ?? 0}`;
});

interface Item {
  name: string;
  qty: number;
  tags?: string[];
  child?: Item;
}

/**
 * Order items.
 * @param items What to order
 * @param note A note
 */
const order = tool(function order(items: Item[], note: string | null) {
  return { count: items.length, note };
});

/**
 * Transfer money.
 * @param amount Amount in euros
 * @param to Recipient
 */
const transfer = tool(
  function transfer(amount: number, to: string) {
    return `sent ${amount} to ${to}`;
  },
  { needsApproval: true },
);

const NAMES = ["search", "order", "transfer", "nope", "__proto__", "constructor", "toString", "hasOwnProperty", ""];
const toolName: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NAMES) },
  { weight: 1, arbitrary: hostileString },
);
const callId: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: hostile },
);

/**
 * Set a code of a's: its pattern backtracks exponentially in JavaScript's engine on a long run of a's that fails.
 * @freeform
 */
const code = tool(function code(text: string & Pattern<"^(?:a|aa)+$">) {
  return text.length;
});

function registry(): ToolRegistry {
  return new ToolRegistry([search, order, transfer, code], { approvalSecret: SECRET });
}

// ── Dispatch in every provider format ─────────────────────────────────────────────────────────────────────────────

type Format = "chat" | "responses" | "anthropic" | "gemini" | "any";

const textCall = fc.record({ id: callId, name: toolName, text: hostileText });
/** A custom tool call's input: text (of any size, or a run of a's against `code`'s pattern), or any value at all. */
const customCall = fc.record({
  id: callId,
  name: fc.oneof(fc.constant("code"), toolName),
  input: fc.oneof(
    { weight: 3, arbitrary: hostileString },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 200_000 }).map((n) => `${"a".repeat(n)}b`) },
    { weight: 1, arbitrary: hostile },
  ),
});
const parsedCall = fc.record({ id: callId, name: toolName, args: hostile });

const message: fc.Arbitrary<{ format: Format; message: unknown }> = fc.oneof(
  fc.array(textCall, { minLength: 1, maxLength: 4 }).map((calls) => ({
    format: "chat" as const,
    message: {
      role: "assistant",
      content: null,
      tool_calls: calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.text } })),
    },
  })),
  fc.array(textCall, { minLength: 1, maxLength: 4 }).map((calls) => ({
    format: "responses" as const,
    message: { output: calls.map((c) => ({ type: "function_call", call_id: c.id, name: c.name, arguments: c.text })) },
  })),
  fc.array(customCall, { minLength: 1, maxLength: 4 }).map((calls) => ({
    format: "responses" as const,
    message: { output: calls.map((c) => ({ type: "custom_tool_call", call_id: c.id, name: c.name, input: c.input })) },
  })),
  fc.array(customCall, { minLength: 1, maxLength: 4 }).map((calls) => ({
    format: "chat" as const,
    message: {
      role: "assistant",
      content: null,
      tool_calls: calls.map((c) => ({ id: c.id, type: "custom", custom: { name: c.name, input: c.input } })),
    },
  })),
  fc.array(parsedCall, { minLength: 1, maxLength: 4 }).map((calls) => ({
    format: "anthropic" as const,
    message: {
      role: "assistant",
      content: calls.map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: c.args })),
    },
  })),
  fc.array(parsedCall, { minLength: 1, maxLength: 4 }).map((calls) => ({
    format: "gemini" as const,
    message: {
      candidates: [
        {
          content: {
            role: "model",
            parts: calls.map((c) => ({ functionCall: { id: c.id, name: c.name, args: c.args } })),
          },
        },
      ],
    },
  })),
  hostile.map((value) => ({ format: "any" as const, message: value })),
);

/** The number of calls a generated message of a format holds (unknown for any other value). */
function callCount(format: Format, message: unknown): number | undefined {
  const m = message as {
    tool_calls?: unknown[];
    output?: unknown[];
    content?: unknown[];
    candidates?: { content: { parts: unknown[] } }[];
  };
  if (format === "chat") return m.tool_calls!.length;
  if (format === "responses") return m.output!.length;
  if (format === "anthropic") return m.content!.length;
  if (format === "gemini") return m.candidates![0]!.content.parts.length;
  return undefined;
}

function checkAnswers(answers: unknown, count: number | undefined): void {
  assert.ok(Array.isArray(answers), "resolves to an array");
  if (count !== undefined) assert.is(answers.length, count, "one answer per call");
  for (const answer of answers as unknown[]) {
    assert.instance(answer, ToolMessage);
    const { content, status } = answer as ToolMessage;
    assert.type(content, "string");
    assert.ok(status === "success" || status === "error", String(status));
    assert.not.match(content, /\n\s+at .+:\d+:\d+/, "no stack trace in an answer");
  }
}

test("dispatch and runCalls, in every provider format, answer every hostile message", async () => {
  const tools = registry();
  await fc.assert(
    fc.asyncProperty(message, async ({ format, message: generated }) => {
      const message = materialize(generated);
      await bounded(`runCalls (${format})`, async () => {
        let answers: unknown;
        try {
          answers = await tools.runCalls(message as ToolCallMessage);
        } catch (error) {
          // A value that is no assistant message at all may be refused, as a TypeError; a message of a format never is.
          if (format === "any" && isRefusalOrOwnError(error)) return;
          throw error;
        }
        checkAnswers(answers, callCount(format, message));
      });
      await bounded(`dispatch (${format})`, async () => {
        let answer: unknown;
        try {
          answer = await tools.dispatch(message as ToolCallMessage);
        } catch (error) {
          if (format === "any" && isRefusalOrOwnError(error)) return;
          throw error;
        }
        // The format's own answer: plain data the caller sends back to the model.
        const text = JSON.stringify(answer);
        assert.type(text, "string");
        assert.not.match(text, /\\n\s+at .+:\d+:\d+/, "no stack trace in an answer");
      });
    }),
    params(400),
  );
  await noEscapes();
});

test("a free-form tool's raw text: huge, pattern-adversarial or not text, each answered with a clear error", async () => {
  const tools = registry();
  const call = (call_id: string, input: unknown) => ({ type: "custom_tool_call", call_id, name: "code", input });
  const answers = await bounded("custom tool calls", () =>
    tools.dispatch({
      output: [
        call("huge", "a".repeat(2 * 1024 * 1024)),
        call("adversarial", `${"a".repeat(100_000)}b`),
        call("number", 42),
        call("fine", "aaaa"),
      ],
    }),
  );
  assert.equal(
    answers.map((answer) => answer.type),
    ["custom_tool_call_output", "custom_tool_call_output", "custom_tool_call_output", "custom_tool_call_output"],
  );
  const [huge, adversarial, number, fine] = answers.map((answer) => answer.output as string);
  assert.match(huge!, /^Error.*code.*(bytes|long)/is);
  assert.match(adversarial!, /^Error/);
  assert.ok(adversarial!.includes("^(?:a|aa)+$"), adversarial);
  assert.match(number!, /^Error.*not text/s);
  assert.is(fine, "4");
  await noEscapes();
});

// ── resume with arbitrary states and decisions ────────────────────────────────────────────────────────────────────

const CHAT: ToolCallMessage = {
  role: "assistant",
  content: null,
  tool_calls: [
    { id: "call_0", type: "function", function: { name: "transfer", arguments: '{"amount":100,"to":"alice"}' } },
    { id: "call_1", type: "function", function: { name: "search", arguments: '{"query":"x"}' } },
  ],
};

const STATE_FIELDS = ["type", "v", "provider", "calls", "pending", "nonce", "options", "expiresAt", "seal"];

/** How a run's state is made: a hostile value, or a fresh real pause (as JSON) with some fields replaced. */
const stateRecipe = fc.oneof(
  hostile.map((value) => ({ whole: value, edits: [] as [string, unknown][] })),
  fc
    .array(fc.tuple(fc.constantFrom(...STATE_FIELDS, ...KEYS), hostile), { maxLength: 3 })
    .map((edits) => ({ whole: undefined, edits })),
);

const decision: fc.Arbitrary<unknown> = fc.oneof(
  fc.record(
    {
      id: fc.oneof(fc.constantFrom("call_0", "call_1"), callId),
      approved: fc.oneof(fc.boolean(), hostile),
      args: hostile,
      reason: hostile,
    },
    { requiredKeys: ["id", "approved"] },
  ),
  hostile,
);

test("resume with arbitrary states and decisions answers or refuses with a TypeError, nothing else", async () => {
  const tools = registry();
  await fc.assert(
    fc.asyncProperty(
      stateRecipe,
      fc.oneof(fc.array(decision, { maxLength: 4 }), hostile),
      async (recipe, generatedDecisions) => {
        let candidate: unknown;
        if (recipe.edits.length === 0 && recipe.whole !== undefined) {
          candidate = materialize(recipe.whole);
        } else {
          // A fresh pause each run: a state runs once, so a shared one would be refused as resumed before.
          const paused = await tools.dispatchWithApproval(CHAT);
          assert.is(paused.status, "paused");
          const state = objectOf(
            Object.entries(JSON.parse(JSON.stringify((paused as { state: unknown }).state)) as Record<string, unknown>),
          );
          for (const [field, value] of recipe.edits)
            Object.defineProperty(state, field, {
              value: materialize(value),
              enumerable: true,
              writable: true,
              configurable: true,
            });
          candidate = state;
        }
        const decisions = materialize(generatedDecisions);
        await bounded("resume", async () => {
          let done: { results: unknown };
          try {
            done = await tools.resume(candidate as never, decisions as ApprovalDecision[]);
          } catch (error) {
            assert.ok(
              isRefusalOrOwnError(error),
              `resume rejected with something other than a TypeError: ${describe(error)}`,
            );
            return;
          }
          checkAnswers(done.results, CHAT.tool_calls!.length);
        });
      },
    ),
    params(300),
  );
  await noEscapes();
});

// ── The MCP fetch handler ─────────────────────────────────────────────────────────────────────────────────────────

const METHODS = [
  "initialize",
  "notifications/initialized",
  "server/discover",
  "tools/list",
  "tools/call",
  "subscriptions/listen",
  "ping",
  "notifications/cancelled",
  "resources/list",
  "completion/complete",
  "__proto__",
  "constructor",
  "",
];
const VERSIONS = ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "", "9999-99-99", "__proto__"];
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "fuzz", version: "1" },
};

/** Header values a fetch Request can carry (Latin-1 without controls); the rest never reach a handler. */
const headerValue: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 40 }),
  fc.constantFrom(
    ...VERSIONS,
    ...METHODS,
    "add",
    "transfer",
    "application/json",
    "text/event-stream",
    "application/json, text/event-stream",
    "*/*",
  ),
  fc.integer({ min: 1_000, max: 20_000 }).map((n) => "a".repeat(n)),
);

const requestState: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.string({
    unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~"),
    maxLength: 400,
  }),
  fc.integer({ min: 10_000, max: 2_000_000 }).map((n) => "A".repeat(n)),
  hostile,
);

const rpcParams: fc.Arbitrary<unknown> = fc.oneof(
  fc.record(
    {
      name: fc.oneof(fc.constantFrom("search", "order", "transfer", "nope", "__proto__"), hostile),
      arguments: hostile,
      requestState,
      inputResponses: hostile,
      _meta: fc.oneof(fc.constant(META), hostile),
      protocolVersion: fc.oneof(fc.constantFrom(...VERSIONS), hostile),
      notifications: fc.oneof(fc.constant({ toolsListChanged: true }), hostile),
      cursor: hostile,
    },
    { requiredKeys: [] },
  ),
  hostile,
);

const rpc = fc.record(
  {
    jsonrpc: fc.oneof({ weight: 5, arbitrary: fc.constant("2.0") }, { weight: 1, arbitrary: hostile }),
    id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null), hostile),
    method: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...METHODS) }, { weight: 1, arbitrary: hostile }),
    params: rpcParams,
  },
  { requiredKeys: [] },
);

const HEADER_NAMES = [
  "content-type",
  "accept",
  "mcp-protocol-version",
  "mcp-method",
  "mcp-name",
  "mcp-session-id",
  "last-event-id",
  "origin",
  "authorization",
];

const mcpRequest = fc.record({
  method: fc.constantFrom("POST", "POST", "POST", "POST", "GET", "DELETE", "PUT", "OPTIONS"),
  body: fc.oneof(
    fc.tuple(rpc, hostileText).map(([message, otherwise]) => ({ message, text: textOf(message, otherwise) })),
    fc
      .tuple(fc.array(rpc, { maxLength: 6 }), hostileText)
      .map(([batch, otherwise]) => ({ message: batch[0], text: textOf(batch, otherwise) })),
    hostileText.map((text) => ({ message: undefined, text })),
  ),
  /** Headers that agree with the body (so the request reaches the method) or that the generator chose. */
  agree: fc.boolean(),
  headers: fc.array(fc.tuple(fc.constantFrom(...HEADER_NAMES), headerValue), { maxLength: 6 }),
});

function headersFor(request: { agree: boolean; headers: [string, string][]; body: { message: unknown } }): Headers {
  const headers = new Headers({ "content-type": "application/json", accept: "application/json, text/event-stream" });
  if (request.agree) {
    const message = request.body.message as { method?: unknown; params?: { name?: unknown } } | undefined;
    headers.set("mcp-protocol-version", "2026-07-28");
    try {
      if (typeof message?.method === "string") headers.set("mcp-method", message.method);
      if (typeof message?.params?.name === "string") headers.set("mcp-name", message.params.name);
    } catch {
      // A name a header cannot hold, or a Proxy: the headers stay as they are.
    }
  }
  for (const [name, value] of request.headers) headers.set(name, value);
  return headers;
}

test("the MCP fetch handler answers every hostile request with a Response (streams cancelled)", async () => {
  const handler = mcpFetchHandler(registry(), { listenIdleMs: 20, listenLifetimeMs: 50, timeoutMs: 2_000 });
  await fc.assert(
    fc.asyncProperty(mcpRequest, async (generated) => {
      await bounded(`MCP ${generated.method}`, async () => {
        const hasBody = generated.method !== "GET" && generated.method !== "OPTIONS";
        const request = new Request("http://127.0.0.1/mcp", {
          method: generated.method,
          headers: headersFor(generated),
          ...(hasBody ? { body: generated.body.text } : {}),
        });
        const response = await handler(request);
        assert.instance(response, Response);
        assert.ok(response.status >= 200 && response.status < 600, String(response.status));
        if ((response.headers.get("content-type") ?? "").includes("text/event-stream")) {
          await response.body?.cancel();
          return;
        }
        const text = await response.text();
        assert.not.match(text, /\n\s+at .+:\d+:\d+/, "no stack trace in an answer");
      });
    }),
    params(400),
  );
  await noEscapes();
});

// ── fromMCP against a hostile server ──────────────────────────────────────────────────────────────────────────────

const SCHEMA_KEYS = [
  "type",
  "properties",
  "items",
  "$ref",
  "$defs",
  "definitions",
  "anyOf",
  "oneOf",
  "allOf",
  "not",
  "enum",
  "const",
  "required",
  "additionalProperties",
  "pattern",
  "minimum",
  "maxLength",
  "format",
  "__proto__",
  "constructor",
];
const SCHEMA_STRINGS = [
  "object",
  "string",
  "integer",
  "array",
  "#",
  "#/$defs/a",
  "#/properties/a",
  "#/$defs/__proto__",
  "https://evil.example/s.json",
  "(a+)+$",
  "[",
  "date-time",
  "__proto__",
];

const { schema } = fc.letrec<{ schema: unknown; schemaObject: Record<string, unknown> }>((tie) => ({
  schema: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom<unknown>(...SCHEMA_STRINGS, true, false, 0, -1, Number.POSITIVE_INFINITY),
    tie("schemaObject"),
    fc.array(tie("schema"), { maxLength: 3 }),
    hostile,
  ),
  schemaObject: fc
    .array(fc.tuple(fc.constantFrom(...SCHEMA_KEYS, ...KEYS), tie("schema")), { maxLength: 5 })
    .map(objectOf),
}));

const listedTool = fc.record(
  {
    name: fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom("a", "b", "search", "__proto__", "toString", "") },
      { weight: 1, arbitrary: hostile },
    ),
    description: fc.oneof(hostileString, hostile),
    inputSchema: fc.oneof(
      {
        weight: 3,
        arbitrary: schema.map((s) =>
          objectOf([
            ["type", "object"],
            ["properties", s],
          ]),
        ),
      },
      { weight: 1, arbitrary: schema },
    ),
    annotations: hostile,
  },
  { requiredKeys: ["name"] },
);

const hostileServer = fc.record({
  pages: fc.array(
    fc.record({
      tools: fc.oneof(fc.array(listedTool, { maxLength: 4 }), hostile),
      nextCursor: fc.oneof(fc.constant(undefined), fc.constantFrom("1", "2"), hostile),
    }),
    { minLength: 1, maxLength: 3 },
  ),
  serverVersion: fc.oneof(fc.constant({ name: "evil" }), hostile),
  result: hostile,
  listThrows: fc.boolean(),
});

test("fromMCP imports from a hostile server or refuses with an Error; what it imports answers hostile calls", async () => {
  await fc.assert(
    fc.asyncProperty(
      hostileServer,
      fc.array(fc.tuple(toolName, hostile), { maxLength: 3 }),
      async (generatedServer, generatedCalls) => {
        const server = materialize(generatedServer) as typeof generatedServer;
        const calls = materialize(generatedCalls) as typeof generatedCalls;
        await bounded("fromMCP", async () => {
          let page = 0;
          const client: MCPClient = {
            transport: {},
            getServerVersion: () => server.serverVersion as { name: string },
            listTools: async () => {
              if (server.listThrows && page === server.pages.length - 1) throw new Error("the server hung up");
              return server.pages[page++ % server.pages.length] as { tools: MCPListedTool[]; nextCursor?: string };
            },
            callTool: async () => server.result as never,
            close: async () => undefined,
          };
          let imported: Awaited<ReturnType<typeof fromMCP>>;
          try {
            imported = await fromMCP(client, { connectTimeoutMs: 2_000, maxTools: 50 });
          } catch (error) {
            assert.instance(error, Error, `fromMCP rejected with a non-Error: ${describe(error)}`);
            return;
          }
          assert.ok(Array.isArray(imported.tools) && Array.isArray(imported.refused));
          const names = new Set<string>();
          const unique = imported.tools.filter((t) => {
            const name = registryName(t);
            if (names.has(name)) return false;
            names.add(name);
            return true;
          });
          const tools = new ToolRegistry(unique);
          for (const write of [
            () => tools.toOpenAITools(),
            () => tools.toAnthropicTools(),
            () => tools.toGeminiTools(),
          ]) {
            try {
              write();
            } catch (error) {
              // An export refuses, by name, a tool its API cannot take (Gemini's parameter names): documented.
              assert.instance(error, ToolExportError, `an export threw something else: ${describe(error)}`);
            }
          }
          const message = {
            role: "assistant",
            content: [...calls, ...[...names].map((n) => [n, {}] as const)].map(([name, input], i) => ({
              type: "tool_use",
              id: `c${i}`,
              name,
              input,
            })),
          };
          const answers = await tools.runCalls(message as unknown as ToolCallMessage);
          for (const answer of answers) assert.instance(answer, ToolMessage);
        });
      },
    ),
    params(200),
  );
  await noEscapes();
});

/** The name a tool registers under (the registry refuses two of the same name: that is its contract, not a hazard). */
function registryName(fn: unknown): string {
  return new ToolRegistry([fn as never]).list()[0]!.name;
}

// ── fromMCP's authorization: the URL the SDK made from the server's metadata, the redirect back ──────────────────

test("fromMCP's authorization: only an https (or loopback http) authorization URL is opened; a hostile redirect gives a code or an Error without its text", async () => {
  const endpoint = fc.oneof(
    hostileString,
    fc.webUrl(),
    fc.constantFrom(
      "javascript:alert(1)",
      "file:///etc/passwd",
      "data:text/html,<script>1</script>",
      "http://evil.example/authorize",
      "http://localhost.evil.example/a",
      "http://127.0.0.1.evil.example/a",
      "https://auth.example/authorize",
      "http://127.0.0.1:9/authorize",
      "http://[::1]:9/authorize",
      "vbscript:x",
      "HTTPS://AUTH.EXAMPLE/x",
    ),
  );
  await fc.assert(
    fc.asyncProperty(endpoint, async (text) => {
      await bounded("authorization URL", () => {
        let url: URL;
        try {
          url = new URL(text);
        } catch {
          return;
        }
        const opened = allowedAuthorizationUrl(url);
        if (opened)
          assert.ok(
            url.protocol === "https:" || ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname),
            `opened ${url.href}`,
          );
      });
    }),
    params(300),
  );
  const MARK = "SERVER-TEXT-MARK";
  const query = fc.dictionary(
    fc.constantFrom("code", "state", "iss", "error", "error_description", "error_uri", "__proto__", "constructor"),
    fc.oneof(hostileString, fc.constant(MARK), fc.constant("s1")),
  );
  await fc.assert(
    fc.asyncProperty(query, fc.boolean(), async (entries, asUrl) => {
      await bounded("authorization redirect", () => {
        const params = new URLSearchParams();
        for (const [name, value] of Object.entries(entries)) params.append(name, value);
        const back = asUrl ? new URL(`http://localhost:3000/callback?${params}`) : params;
        const sent = new URL("https://auth.example/authorize?state=s1");
        try {
          const { code } = redirectAnswer(back, sent, "fromMCP: test");
          assert.is(params.get("state"), "s1", "a code is taken only with the request's state");
          assert.is(params.get("error"), null, "no code is taken from an error redirect");
          assert.is(code, params.get("code"));
        } catch (error) {
          assert.instance(error, Error);
          const message = (error as Error).message;
          assert.ok(message.length < 400, "a bounded message");
          assert.not.ok(message.includes(MARK), "the authorization server's own text is not repeated");
        }
      });
    }),
    params(300),
  );
  await noEscapes();
});

// ── search_tools ──────────────────────────────────────────────────────────────────────────────────────────────────

const DEFERRED: ToolFormatSource[] = [
  {
    name: "get_forecast",
    description: "Weather forecast for a city.",
    parameters: { type: "object", properties: { city: { type: "string" } } },
    options: { deferred: true },
  },
  {
    name: "convert_currency",
    description: "Convert an amount between currencies.",
    parameters: { type: "object", properties: { amount: { type: "number" } } },
    options: { deferred: true },
  },
  {
    name: "toString",
    description: "constructor prototype __proto__",
    parameters: { type: "object", properties: {} },
    options: { deferred: true },
  },
];

const searchCall = fc.oneof(
  fc
    .record({ id: fc.string({ maxLength: 8 }), text: hostileText })
    .map(({ id, text }) => ({ kind: "text" as const, id, name: "search_tools", text })),
  fc
    .record({ id: fc.string({ maxLength: 8 }), query: fc.oneof(hostileString, hostile) })
    .map(({ id, query }) => ({ kind: "args" as const, id, name: "search_tools", args: objectOf([["query", query]]) })),
  fc.record({ id: fc.string({ maxLength: 8 }), args: hostile }).map(({ id, args }) => ({
    kind: "args" as const,
    id,
    name: "search_tools",
    args: args as Record<string, unknown>,
  })),
  fc
    .record({ id: fc.string({ maxLength: 8 }), error: hostileString })
    .map(({ id, error }) => ({ kind: "invalid" as const, id, name: "search_tools", error })),
);

// ── traceparent (an MCP request's _meta, read when a tracer provider is registered) ───────────────────────────────

test("traceparent: any value in _meta is read as a valid remote parent or ignored, never thrown on", async () => {
  const near = fc
    .tuple(
      fc.constantFrom("00", "01", "ff", "0", "zz"),
      fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEF-"), maxLength: 40 }),
      fc.string({ unit: fc.constantFrom(..."0123456789abcdef-"), maxLength: 20 }),
      fc.string({ maxLength: 600 }),
    )
    .map(([version, trace, span, rest]) => `${version}-${trace}-${span}-01${rest}`);
  await fc.assert(
    fc.asyncProperty(fc.oneof(hostile, hostileString, near), async (generated) => {
      const value = materialize(generated);
      await bounded("traceparent", () => {
        const read = readTraceparent(value);
        if (read !== undefined) {
          assert.match(read.traceId, /^[0-9a-f]{32}$/);
          assert.match(read.spanId, /^[0-9a-f]{16}$/);
          assert.ok(read.traceId !== "0".repeat(32) && read.spanId !== "0".repeat(16));
        }
      });
    }),
    params(300),
  );
  await noEscapes();
});

test("search_tools answers every hostile query with a ToolMessage", async () => {
  await fc.assert(
    fc.asyncProperty(searchCall, async (generated) => {
      const call = materialize(generated);
      await bounded("search_tools", () => {
        const index = new LocalToolSearch();
        index.offer(DEFERRED);
        const { result } = index.answer(call as never);
        assert.instance(result, ToolMessage);
        assert.type(result.content, "string");
        for (const name of index.found)
          assert.ok(
            DEFERRED.some((t) => t.name === name),
            `found a tool that was never offered: ${name}`,
          );
      });
    }),
    params(400),
  );
  await noEscapes();
});

// ── patch_tool_arguments ──────────────────────────────────────────────────────────────────────────────────────────

const pointer: fc.Arbitrary<string> = fc.oneof(
  fc
    .array(
      fc.oneof(fc.constantFrom(...KEYS, "0", "1", "-", "~0", "~1", "a~1b", "99999999999"), fc.string({ maxLength: 4 })),
      { minLength: 1, maxLength: 5 },
    )
    .map((tokens) => `/${tokens.join("/")}`),
  fc.constantFrom("", "/", "a", "/__proto__/polluted", "/constructor/prototype/polluted", "/a/-", "~", "/~2"),
);

/** Operations of the type patchDocument takes (what readPatchCall lets through), with hostile paths and values. */
const operation: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({ op: fc.constantFrom("add", "replace", "test"), path: pointer, value: jsonish }),
  fc.record({ op: fc.constant("remove"), path: pointer }),
  fc.record({ op: fc.constantFrom("move", "copy"), from: pointer, path: pointer }),
);

/** Anything in an operation's place, for readPatchCall to read. */
const looseOperation: fc.Arbitrary<unknown> = fc.oneof(
  operation,
  fc.record(
    {
      op: fc.oneof(fc.constantFrom("add", "copy", "_get", "__proto__"), jsonish),
      path: fc.oneof(pointer, jsonish),
      from: fc.oneof(pointer, jsonish),
      value: jsonish,
    },
    { requiredKeys: [] },
  ),
);

/**
 * A JSON value written without recursion. The document may be nested thousands deep; JSON.stringify (and a recursive
 * walk) reach the stack's end there or not depending on how warm the code is, which made the comparison flaky.
 */
function fingerprint(value: unknown): string {
  const out: string[] = [];
  const pending: unknown[] = [value];
  const CLOSE = Symbol("close");
  while (pending.length > 0) {
    const next = pending.pop();
    if (next === CLOSE) out.push(")");
    else if (Array.isArray(next)) {
      out.push("[(");
      pending.push(CLOSE);
      for (let i = next.length - 1; i >= 0; i--) pending.push(next[i]);
    } else if (typeof next === "object" && next !== null) {
      out.push("{(");
      pending.push(CLOSE);
      const keys = Object.keys(next);
      for (let i = keys.length - 1; i >= 0; i--)
        pending.push((next as Record<string, unknown>)[keys[i]!], `key:${JSON.stringify(keys[i])}`);
    } else out.push(typeof next === "string" ? JSON.stringify(next) : String(next));
  }
  return out.join(",");
}

/** Deepest nesting of arrays and objects, the value itself being level 1. */
function depthOf(value: unknown): number {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [next, level] = pending.pop()!;
    if (typeof next !== "object" || next === null) continue;
    deepest = Math.max(deepest, level);
    for (const item of Object.values(next)) pending.push([item, level + 1]);
  }
  return deepest;
}

test("patch_tool_arguments: readPatchCall reads any text; patches apply within the limits or stop, never throw", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(
        hostileText,
        fc
          .tuple(fc.string({ maxLength: 8 }), fc.array(looseOperation, { maxLength: 30 }))
          .map(([id, patch]) => textOf({ tool_call_id: id, patch }, "")),
      ),
      fc.array(fc.tuple(key, jsonish), { maxLength: 5 }).map(objectOf) as fc.Arbitrary<Record<string, unknown>>,
      fc.array(operation, { maxLength: 30 }),
      fc.record({ maxBytes: fc.integer({ min: 1, max: 4_000 }), maxDepth: fc.integer({ min: 1, max: 8 }) }),
      async (text, generatedDocument, generatedOperations, limits) => {
        const document = materialize(generatedDocument) as Record<string, unknown>;
        const operations = materialize(generatedOperations);
        await bounded("patch", () => {
          const before = fingerprint(document);
          const read = readPatchCall(text);
          assert.type(read.ok, "boolean");
          if (read.ok) {
            const applied = applyJsonPatch(document, read.patch, limits);
            if (applied.ok)
              assert.ok(
                depthOf(applied.value) <= limits.maxDepth,
                `depth ${depthOf(applied.value)} over ${limits.maxDepth}`,
              );
            else assert.ok(applied.issues.length > 0);
          } else {
            assert.ok(read.issues.length > 0);
          }
          const patched = patchDocument(document, operations as JsonPatchOperation[], limits);
          if (patched.ok) {
            assert.ok(
              depthOf(patched.value) <= limits.maxDepth,
              `depth ${depthOf(patched.value)} over ${limits.maxDepth}`,
            );
            assert.ok(Object.getPrototypeOf(patched.value) === Object.prototype);
          } else {
            assert.type(patched.stop.message, "string");
          }
          assert.is(fingerprint(document), before, "the document given is never changed");
        });
      },
    ),
    params(400),
  );
  await noEscapes();
});

// ── standardSchema ────────────────────────────────────────────────────────────────────────────────────────────────

// ── Arguments text read without JSON.parse ─────────────────────────────────────────────────────────────────────────

const FLAT_KEYS = ["city", "days", "unit", "c", "ci", "", "é", "two words"];
const jsonSpace = fc.stringMatching(/^[ \t\r\n]{0,3}$/);
const lone = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
/** A value's text: JSON's own, or number texts at the edges of what JSON and the reader accept. */
const flatValueText = fc.oneof(
  fc
    .oneof(fc.string(), fc.string({ unit: "binary" }), fc.string({ unit: lone }), fc.constantFrom("\\", '"', "\u0000"))
    .map((text) => JSON.stringify(text)),
  fc.oneof(fc.string(), fc.string({ unit: "binary" })).map((text) => `"${text}"`), // raw: quotes, controls unescaped
  fc.integer().map(String),
  fc.maxSafeInteger().map(String),
  fc.double().map((n) => JSON.stringify(n)),
  fc.constantFrom("0", "-0", "01", "-01", "1.0", "1e3", "1E3", "-", "--1", "123456789012345", "1234567890123456"),
  fc.constantFrom("9007199254740993", "-9007199254740993", "12345678901234567890", "98765432109876543210987"),
  fc.bigInt().map(String),
  fc.constantFrom("true", "false", "null", "tru", "nulll", "True", "[]", "{}", '{"city":1}', "[1,2]"),
);
const flatKeyText = fc.oneof(
  fc.constantFrom(...FLAT_KEYS).map((key) => JSON.stringify(key)),
  fc.constantFrom("__proto__", "cit", "cityy", "ci\\u0074y", "unit ").map((key) => JSON.stringify(key)),
  fc.string().map((key) => JSON.stringify(key)),
);
/** Values of the kind the reader takes, so that mutations of them land near its edges. */
const plainValueText = fc.oneof(
  fc.string().map((text) => JSON.stringify(text)),
  fc.integer().map(String),
  fc.constantFrom("true", "false", "null", "0"),
);
const flatText = fc
  .record({
    members: fc.oneof(
      fc.array(fc.tuple(jsonSpace, flatKeyText, jsonSpace, jsonSpace, flatValueText, jsonSpace), { maxLength: 6 }),
      fc
        .uniqueArray(fc.constantFrom(...FLAT_KEYS), { maxLength: 5 })
        .chain((keys) =>
          fc.tuple(
            ...keys.map((key) =>
              fc.tuple(jsonSpace, fc.constant(JSON.stringify(key)), jsonSpace, jsonSpace, plainValueText, jsonSpace),
            ),
          ),
        ),
    ),
    tail: jsonSpace,
    mutations: fc.array(
      fc.tuple(fc.nat(), fc.constantFrom("delete", "insert", "replace"), fc.string({ maxLength: 1 })),
      {
        maxLength: 2,
      },
    ),
  })
  .map(({ members, tail, mutations }) => {
    let text = `{${members.map(([a, key, b, c, value, d]) => `${a}${key}${b}:${c}${value}${d}`).join(",")}}${tail}`;
    for (const [at, kind, char] of mutations) {
      const i = 1 + (at % Math.max(1, text.length - 1)); // the leading "{" stays: the reader's caller checked it
      text =
        kind === "delete"
          ? text.slice(0, i) + text.slice(i + 1)
          : kind === "insert"
            ? text.slice(0, i) + char + text.slice(i)
            : text.slice(0, i) + char + text.slice(i + 1);
    }
    return text;
  });

test("arguments text read without JSON.parse: JSON.parse's own value (keys in order) or left to it", () => {
  let read = 0;
  let runs = 0;
  fc.assert(
    fc.property(flatText, (text) => {
      runs++;
      const value = readFlatObject(text, FLAT_KEYS);
      if (value === undefined) return;
      read++;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        assert.unreachable(`read ${JSON.stringify(text)}, which JSON.parse refuses: ${describe(error)}`);
      }
      assert.is(Object.getPrototypeOf(value), Object.prototype);
      assert.equal(Object.keys(value), Object.keys(parsed as object), `key order of ${JSON.stringify(text)}`);
      assert.equal(value, parsed, JSON.stringify(text));
      for (const key of Object.keys(value)) assert.ok(FLAT_KEYS.includes(key), `only the tool's keys: ${key}`);
    }),
    params(3000),
  );
  // Not vacuous: a good share of the generated text is of the kind the reader takes.
  assert.ok(read > runs / 10, `read ${read} of ${runs} texts without JSON.parse`);
});

test("standardSchema's validate returns issues or a value for every hostile input", async () => {
  const schemas = [standardSchema(search), standardSchema(order), standardSchema(transfer)];
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(0, 1, 2), hostile, async (which, generated) => {
      const value = materialize(generated);
      await bounded("standardSchema", async () => {
        const result = await schemas[which]!["~standard"].validate(value);
        assert.ok(typeof result === "object" && result !== null);
        const issues = (result as { issues?: readonly { message: unknown }[] }).issues;
        if (issues !== undefined) {
          assert.ok(Array.isArray(issues) && issues.length > 0);
          for (const issue of issues) assert.type(issue.message, "string");
        } else {
          assert.ok("value" in result);
        }
      });
    }),
    params(400),
  );
  await noEscapes();
});

test.run();
