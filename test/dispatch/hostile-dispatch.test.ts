/**
 * Issue 12, the dispatch side: each finding reproduced with its numbers, then the safe default that answers it.
 * - 5: error texts carry no serialised objects and no secrets (ToolError and validation texts stay verbatim);
 *   `redact` at each level; `errorKind` tells a server which kind of failure a message is.
 * - 6: `number` / `Int` refuse `1e400` (Infinity after JSON parsing), in dispatch and in parseToolCalls.
 * - 8: a leap-second date-time (`…T23:59:60Z`) reaches a `Date` parameter as a Date (the following second).
 * - 9: a tool that throws a revoked Proxy gets an error message; the other answers of the batch survive.
 * - 10: bounds by default: a per-call timeout, calls per message, result size and `tool_call_id` length, each
 *   answered with a message that names the limit and its option.
 * Time bounds are loose guards against hangs, not speed claims.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  type Int,
  type OpenAIAssistantMessage,
  type ToolContext,
  DEFAULT_TOOL_TIMEOUT_MS,
  MAX_CALLS_PER_MESSAGE,
  MAX_CALL_ID_LENGTH,
  MAX_RESULT_BYTES,
  ToolError,
  ToolRegistry,
  parseToolCalls,
  redactSecrets,
  tool,
  toolErrorKind,
} from "tooltype";

function openai(...calls: [name: string, args: string, id?: string][]): OpenAIAssistantMessage {
  return {
    role: "assistant",
    content: null,
    tool_calls: calls.map(([name, args, id], i) => ({
      id: id ?? `call_${i}`,
      type: "function",
      function: { name, arguments: args },
    })),
  };
}

// ── 5: error texts ────────────────────────────────────────────────────────────────────────────────────────────

/** What an HTTP client's error looks like when thrown as a plain object (as `error.toJSON()` or a rethrown response). */
const axiosLike = {
  message: "Request failed with status code 401",
  config: {
    url: "https://api.example.com/v1/items",
    headers: { Authorization: "Bearer sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c" },
  },
  response: { status: 401 },
};

/** A database driver's error: an Error whose message names the connection string, password included. */
class DatabaseError extends Error {
  constructor() {
    super("connect ECONNREFUSED for postgres://app:hunter2-S3cret@db.internal:5432/orders");
    this.name = "DatabaseError";
  }
}

const leaky = {
  /** A tool of this test. */
  http: tool(function http_fetch(path: string) {
    throw axiosLike;
  }),
  /** A tool of this test. */
  db: tool(function query(sql: string) {
    throw new DatabaseError();
  }),
  /** A tool of this test. */
  file: tool(function read_report(name: string) {
    throw new Error(`ENOENT: no such file or directory, open '/home/alice/projects/acme/reports/${name}'`);
  }),
  /** A tool of this test. */
  key: tool(function call_api(q: string) {
    throw new Error("401 Incorrect API key provided: sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789");
  }),
  /** A tool of this test. */
  refuse: tool(function refuse(q: string) {
    throw new ToolError("No order named sk-this-is-not-redacted; ask the user for the order number.");
  }),
};

test("5: a thrown non-Error object is never serialised; an Error's message is sent with its secrets redacted", async () => {
  const registry = new ToolRegistry(Object.values(leaky));
  const messages = await registry.dispatch(
    openai(
      ["http_fetch", '{"path":"/items"}'],
      ["query", '{"sql":"select 1"}'],
      ["read_report", '{"name":"q3.csv"}'],
      ["call_api", '{"q":"x"}'],
      ["refuse", '{"q":"x"}'],
    ),
  );
  const [http, db, file, key, refuse] = messages.map((m) => m.content);
  // Today: `Error: {"message":"Request failed…","config":{…"Authorization":"Bearer sk-live-…"}}`.
  assert.not.match(http!, /sk-live|Bearer|Authorization|api\.example\.com/);
  assert.is(http, "Error: the tool failed: it threw an object, not an Error, so nothing of it is sent.");
  assert.not.match(db!, /hunter2/);
  assert.match(
    db!,
    /^Error: DatabaseError: connect ECONNREFUSED for postgres:\/\/app:\[redacted\]@db\.internal:5432\/orders$/,
  );
  assert.not.match(file!, /alice|projects/);
  assert.match(file!, /open '…\/q3\.csv'/);
  assert.not.match(key!, /AbCdEfGh/);
  assert.match(key!, /sk-\[redacted\]/);
  // A ToolError is written for the model on purpose: verbatim, never redacted.
  assert.is(refuse, "No order named sk-this-is-not-redacted; ask the user for the order number.");
  assert.equal(
    messages.map((m) => m.errorKind),
    ["exception", "exception", "exception", "exception", "tool_error"],
  );
});

test("5: validation texts stay verbatim and are kind `validation`; a plain Error keeps `Error: <message>`", async () => {
  /** A tool of this test. */
  const plain = tool(function plain(n: number) {
    throw new Error("database unreachable");
  });
  const registry = new ToolRegistry([plain]);
  const [bad, unknown, thrown] = await registry.dispatch(
    openai(["plain", '{"n":"sk-abcdefghijklmnopqrstuvwx"}'], ["nope", "{}"], ["plain", '{"n":1}']),
  );
  assert.match(bad!.content, /sk-abcdefghijklmnopqrstuvwx/, "the model's own arguments are echoed as sent");
  assert.is(bad!.errorKind, "validation");
  assert.is(unknown!.errorKind, "validation");
  assert.is(thrown!.content, "Error: database unreachable");
  assert.is(thrown!.errorKind, "exception");
  const ok = await registry.dispatch(openai(["plain", "{}"]));
  assert.is(ok[0]!.toJSON().content, ok[0]!.content);
  assert.equal(Object.keys(ok[0]!.toJSON()), ["role", "tool_call_id", "content"], "errorKind never reaches the model");
});

test("5: redact at registry, dispatch and tool level: false sends the message as is, a function replaces the patterns", async () => {
  /** A tool of this test. */
  const secret = tool(function secret(q: string) {
    throw new Error("token=abc123secret at /srv/app/index.js");
  });
  /** A tool with its own redaction. */
  const mine = tool(
    function mine(q: string) {
      throw new Error("customer 4711 not found");
    },
    { redact: (text) => text.replace(/\d+/g, "#") },
  );
  const message = openai(["secret", '{"q":"x"}'], ["mine", '{"q":"x"}']);
  const byDefault = await new ToolRegistry([secret, mine]).dispatch(message);
  assert.is(byDefault[0]!.content, "Error: token=[redacted] at …/index.js");
  assert.is(byDefault[1]!.content, "Error: customer # not found");
  const off = await new ToolRegistry([secret, mine], { redact: false }).dispatch(message);
  assert.is(off[0]!.content, "Error: token=abc123secret at /srv/app/index.js");
  assert.is(off[1]!.content, "Error: customer # not found", "the tool's own option wins");
  const perDispatch = await new ToolRegistry([secret]).dispatch(message, { redact: (text) => text.toUpperCase() });
  assert.is(perDispatch[0]!.content, "Error: TOKEN=ABC123SECRET AT /SRV/APP/INDEX.JS");
});

test("5: toolErrorKind and redactSecrets are usable on their own; a huge message is cut before redaction", () => {
  assert.is(toolErrorKind(new ToolError("x")), "tool_error");
  assert.is(toolErrorKind(new TypeError("x")), "exception");
  assert.is(toolErrorKind({ message: "x" }), "exception");
  assert.is(
    redactSecrets("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig"),
    "Authorization: Bearer [redacted]",
  );
  assert.is(redactSecrets("see C:\\Users\\bob\\secrets\\keys.txt"), "see …\\keys.txt");
  assert.is(
    redactSecrets("GET https://api.example.com/v1/users/7 failed"),
    "GET https://api.example.com/v1/users/7 failed",
  );
  // 7 MB: a pattern that backtracks (quadratic or worse) would not finish, and the runner stops a hang.
  const long = redactSecrets(`${"/a".repeat(2_000_000)} sk-${"x".repeat(5_000_000)}`);
  assert.ok(long.length < 10_000);
});

// ── 6: non-finite numbers ─────────────────────────────────────────────────────────────────────────────────────

let received: unknown[] = [];
/** A tool of this test. */
const measure = tool(function measure(x: number, n: Int) {
  received.push(x, n);
  return `${x} ${n}`;
});

test("6: number and Int refuse 1e400 (Infinity after parsing), in dispatch and in parseToolCalls", async () => {
  received = [];
  const registry = new ToolRegistry([measure]);
  const messages = await registry.dispatch(
    openai(
      ["measure", '{"x":1e400,"n":1}'],
      ["measure", '{"x":1,"n":-1e400}'],
      ["measure", `{"x":${"9".repeat(400)},"n":2}`],
      ["measure", '{"x":1.5e3,"n":2}'],
    ),
  );
  assert.equal(received, [1500, 2], "only the finite call ran");
  assert.equal(
    messages.map((m) => m.status),
    ["error", "error", "error", "success"],
  );
  assert.match(
    messages[0]!.content,
    /^Error: the arguments for measure hold a number too large for a 64-bit float at \/x/,
  );
  assert.match(messages[1]!.content, /at \/n/);
  const parsed = parseToolCalls(registry, openai(["measure", '{"x":1e400,"n":1}'], ["measure", '{"x":2,"n":3}']));
  assert.equal(parsed.calls, [{ name: "measure", args: { x: 2, n: 3 } }]);
  assert.is(parsed.invalid[0]!.reason, "malformed_arguments");
  // Already-parsed arguments (a LangChain ToolCall) holding Infinity or NaN are refused as well.
  const lc = await registry.dispatch({
    content: "",
    tool_calls: [
      { name: "measure", args: { x: Infinity, n: 1 }, id: "a" },
      { name: "measure", args: { x: NaN, n: 1 }, id: "b" },
    ],
  });
  assert.equal(
    lc.map((m) => m.status),
    ["error", "error"],
  );
});

// ── 8: leap seconds ───────────────────────────────────────────────────────────────────────────────────────────

test("8: a leap-second date-time is revived as the following second", async () => {
  const seen: unknown[] = [];
  /** A tool of this test. */
  const at = tool(function at(when: Date) {
    seen.push(when);
    return "ok";
  });
  const registry = new ToolRegistry([at]);
  const messages = await registry.dispatch(
    openai(
      ["at", '{"when":"2016-12-31T23:59:60Z"}'],
      ["at", '{"when":"2016-12-31T23:59:60.25Z"}'],
      ["at", '{"when":"2017-01-01T00:59:60+01:00"}'],
    ),
  );
  assert.equal(
    messages.map((m) => m.status),
    ["success", "success", "success"],
  );
  assert.ok(seen.every((d) => d instanceof Date));
  assert.equal(
    seen.map((d) => (d as Date).toISOString()),
    ["2017-01-01T00:00:00.000Z", "2017-01-01T00:00:00.250Z", "2017-01-01T00:00:00.000Z"],
  );
});

// ── 9: a revoked Proxy ────────────────────────────────────────────────────────────────────────────────────────

test("9: a tool that throws (or returns) a revoked Proxy is answered; the other answers of the batch survive", async () => {
  const revoked = (): object => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  };
  /** A tool of this test. */
  const throwsSync = tool(function throws_sync(q: string) {
    throw revoked();
  });
  /** A tool of this test. */
  const throwsAsync = tool(async function throws_async(q: string) {
    throw revoked();
  });
  /** A tool of this test. */
  const returns = tool(function returns(q: string) {
    return revoked();
  });
  /** A tool of this test. */
  const fine = tool(async function fine(q: string) {
    return "fine";
  });
  const registry = new ToolRegistry([throwsSync, throwsAsync, returns, fine]);
  const messages = await registry.dispatch(
    openai(
      ["throws_sync", '{"q":"a"}'],
      ["throws_async", '{"q":"a"}'],
      ["returns", '{"q":"a"}'],
      ["fine", '{"q":"a"}'],
    ),
  );
  assert.equal(
    messages.map((m) => m.status),
    ["error", "error", "error", "success"],
  );
  assert.is(messages[3]!.content, "fine");
  for (const m of messages.slice(0, 3)) assert.ok(m.content.startsWith("Error: "), m.content);
});

// ── 10: bounds by default ─────────────────────────────────────────────────────────────────────────────────────

test("10: a default per-call timeout answers a hung tool; timeoutMs: false (or Infinity) opts out", async () => {
  assert.is(DEFAULT_TOOL_TIMEOUT_MS, 60_000);
  let signal: AbortSignal | undefined;
  /** A tool of this test. */
  const hang = tool(function hang(context: ToolContext) {
    signal = context.signal;
    return new Promise(() => {});
  });
  // The default is 60 s; the test shortens it through the registry's default to keep the run short and shows the
  // fallback applies when neither the tool nor the registry sets one, by reading the timer the call armed.
  const armed: number[] = [];
  const realSetTimeout = globalThis.setTimeout;
  globalThis.setTimeout = ((fn: () => void, ms?: number) => {
    armed.push(ms ?? 0);
    return realSetTimeout(fn, ms === DEFAULT_TOOL_TIMEOUT_MS ? 5 : ms);
  }) as typeof setTimeout;
  try {
    const [message] = await new ToolRegistry([hang]).dispatch(openai(["hang", "{}"]));
    assert.ok(armed.includes(DEFAULT_TOOL_TIMEOUT_MS));
    assert.is(message!.content, "Error: hang timed out after 60000ms (the default timeoutMs).");
    assert.is(message!.errorKind, "timeout");
    assert.ok(signal?.aborted);
    armed.length = 0;
    /** Waits forever, with no time limit. */
    const hang2 = tool(
      function hang2(context: ToolContext) {
        return new Promise(() => {});
      },
      { timeoutMs: false },
    );
    const none = new ToolRegistry([hang2]);
    const pending = none.dispatch(openai(["hang2", "{}"]));
    await new Promise((resolve) => realSetTimeout(resolve, 20));
    assert.not.ok(armed.includes(DEFAULT_TOOL_TIMEOUT_MS), "no timer armed");
    void pending;
    const infinite = new ToolRegistry([hang], { timeoutMs: Infinity });
    void infinite.dispatch(openai(["hang", "{}"]));
    assert.not.ok(armed.includes(DEFAULT_TOOL_TIMEOUT_MS));
  } finally {
    globalThis.setTimeout = realSetTimeout;
  }
});

/** How many times `counted` ran (each test resets it). */
let runs = 0;
/** Echoes `q`, counting its runs. */
const counted = tool(function counted(q: string) {
  runs++;
  return q;
});

test("10: at most 64 calls of one message run; the rest are answered with the limit and its option", async () => {
  assert.is(MAX_CALLS_PER_MESSAGE, 64);
  runs = 0;
  const registry = new ToolRegistry([counted]);
  const calls = Array.from({ length: 20_000 }, (_, i): [string, string] => ["counted", `{"q":"${i}"}`]);
  // Each call's `function` counted as it is read: a dispatch that went over every call for each call read it
  // 20,000 times per call.
  let reads = 0;
  const message = openai(...calls);
  for (const call of message.tool_calls!) {
    const fn = (call as { function: unknown }).function;
    Object.defineProperty(call, "function", {
      enumerable: true,
      get: () => {
        reads++;
        return fn;
      },
    });
  }
  const messages = await registry.dispatch(message);
  assert.ok(reads <= 2 * calls.length, `${reads} reads of ${calls.length} calls`);
  assert.is(messages.length, 20_000, "one answer per call");
  assert.is(runs, 64);
  assert.is(messages[63]!.status, "success");
  assert.is(messages[64]!.status, "error");
  assert.is(messages[64]!.tool_call_id, "call_64");
  assert.is(messages[64]!.errorKind, "validation");
  assert.is(
    messages[64]!.content,
    "Error: this reply made 20000 tool calls and at most 64 are run per reply (maxCallsPerMessage); call 65 and the ones after it were not run. Make at most 64 calls at a time and call the rest in your next turn.",
  );
  runs = 0;
  const more = await new ToolRegistry([counted], { maxCallsPerMessage: 100 }).dispatch(openai(...calls.slice(0, 100)));
  assert.is(runs, 100);
  assert.ok(more.every((m) => m.status === "success"));
  runs = 0;
  await registry.dispatch(openai(...calls.slice(0, 5)), { maxCallsPerMessage: 2 });
  assert.is(runs, 2);
});

test("10: a result over 1 MiB of text is refused with the limit; maxResultBytes raises it", async () => {
  assert.is(MAX_RESULT_BYTES, 1_048_576);
  /** A tool of this test. */
  const big = tool(function big(size: number) {
    return "x".repeat(size);
  });
  /** A tool of this test. */
  const bigJson = tool(function big_json(size: number) {
    return { rows: Array.from({ length: size }, (_, i) => i) };
  });
  const registry = new ToolRegistry([big, bigJson]);
  const [huge, ok, json] = await registry.dispatch(
    openai(["big", '{"size":50000000}'], ["big", '{"size":1048576}'], ["big_json", '{"size":300000}']),
  );
  assert.is(huge!.status, "error");
  assert.is(huge!.errorKind, "result");
  assert.is(
    huge!.content,
    "Error: the result of big is too large to send (50000000 bytes; the limit is 1048576 bytes of text, maxResultBytes). Ask for less, e.g. a narrower query or a page of the results.",
  );
  assert.is(ok!.status, "success");
  assert.is(json!.status, "error");
  const raised = await new ToolRegistry([big], { maxResultBytes: 60_000_000 }).dispatch(
    openai(["big", '{"size":50000000}']),
  );
  assert.is(raised[0]!.status, "success");
  /** A string of `size` characters, limited to 10 bytes. */
  const big2 = tool(
    function big2(size: number) {
      return "x".repeat(size);
    },
    { maxResultBytes: 10 },
  );
  const perTool = await new ToolRegistry([big2]).dispatch(openai(["big2", '{"size":11}']));
  assert.match(perTool[0]!.content, /limit is 10 bytes/);
});

test("10: a tool_call_id over 256 characters is refused without running the tool; maxCallIdLength changes it", async () => {
  assert.is(MAX_CALL_ID_LENGTH, 256);
  runs = 0;
  const registry = new ToolRegistry([counted]);
  const hugeId = "i".repeat(100 * 1_048_576);
  const [refused, fine] = await registry.dispatch(
    openai(["counted", '{"q":"a"}', hugeId], ["counted", '{"q":"b"}', "i".repeat(256)]),
  );
  assert.is(runs, 1);
  assert.is(refused!.status, "error");
  assert.is(refused!.errorKind, "validation");
  assert.is(refused!.tool_call_id, hugeId, "answered under the id it came with, so the reply stays paired");
  assert.is(
    refused!.content,
    "Error: the id of this tool call is 104857600 characters long; the limit is 256 (maxCallIdLength). The call was not run.",
  );
  assert.is(fine!.status, "success");
  runs = 0;
  await new ToolRegistry([counted], { maxCallIdLength: 1000 }).dispatch(
    openai(["counted", '{"q":"a"}', "i".repeat(999)]),
  );
  assert.is(runs, 1);
});

test.run();
