/**
 * Text a model or a client sends, shaped to stall the event loop (hostile input, round two): each case is sized so
 * that the old code would run for minutes or hours, so a regression is a hang that the runner's process limit
 * reports. Where the cost can be counted, the test counts it instead of timing it.
 */
import fc from "fast-check";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ToolRegistry, type UniqueItems, redactSecrets, tool } from "tooltype";
import { repairJson, unfence } from "../../runtime/arguments/repair/repair-json";
import { shortJson } from "../../runtime/arguments/explain/show";
import { firstDuplicate } from "../../runtime/validation/unique";

/**
 * Echo a value.
 * @param value The value
 */
const echo = tool(function echo(value: string) {
  return value;
});

/** The regular expression the fence scan replaced: the oracle on short texts, where its cost does not matter. */
const OLD_FENCE = /^\s*```[A-Za-z0-9_+.-]*[ \t]*(?:\r?\n)?([\s\S]*?)\r?\n?[ \t]*```\s*$/;

test("fence repair: the scan takes exactly the texts the old regular expression took, with the same body", () => {
  const piece = fc.constantFrom(
    "```",
    "`",
    "json",
    "js-x",
    " ",
    "\t",
    "\n",
    "\r",
    "\r\n",
    "\u00a0",
    "{",
    "}",
    '"a"',
    ":",
    "1",
    "x",
  );
  fc.assert(
    fc.property(
      fc.array(piece, { maxLength: 12 }).map((parts) => parts.join("")),
      (text) => {
        const old = OLD_FENCE.exec(text);
        assert.equal(unfence(text), old ? old[1] : undefined, JSON.stringify(text));
      },
    ),
    { numRuns: 5000, seed: 5 },
  );
  assert.is(unfence('```json\n{"a": 1}\n```'), '{"a": 1}');
  assert.is(unfence('  ```\r\n{"a": 1}  \r\n\t```  \n'), '{"a": 1}  ');
  assert.is(unfence("``````"), "");
  assert.is(unfence("`````"), undefined);
  assert.is(unfence('{"a": 1}'), undefined);
});

test("fence repair: a MiB of white space after a fence is read in one pass (the old expression: about 50 minutes)", async () => {
  for (const filler of [" ", "\t", "\n", "\r\n"]) {
    const text = `\`\`\`json${filler.repeat(2 ** 20 / filler.length)}`;
    assert.is(unfence(text), undefined);
    const repaired = repairJson(text, "Unexpected token", 64);
    assert.is(repaired.ok, false);
  }
  // Through dispatch: arguments that JSON.parse refuses go to the repair path.
  const registry = new ToolRegistry([echo]);
  const [answer] = await registry.dispatch({
    role: "assistant",
    content: null,
    tool_calls: [
      { id: "c1", type: "function", function: { name: "echo", arguments: `\`\`\`${" ".repeat(1_000_000)}` } },
    ],
  });
  assert.is(answer!.status, "error");
  const [fenced] = await registry.dispatch({
    role: "assistant",
    content: null,
    tool_calls: [
      {
        id: "c2",
        type: "function",
        function: { name: "echo", arguments: `\`\`\`json\n{"value": "ok"}\n\`\`\`${" ".repeat(100_000)}` },
      },
    ],
  });
  assert.is(fenced!.status, "success", fenced!.content);
  assert.is(fenced!.content, "ok");
});

test("redaction: the secrets the review found sent whole or in part are redacted", () => {
  const cases: [text: string, secret: string][] = [
    ["connect failed: DB_PASSWORD=hunter2hunter2 rejected", "hunter2"],
    ["GITHUB_TOKEN=ghx_notaprefixbutsecret123 in env", "notaprefixbutsecret"],
    ["AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMI"],
    ["request had Authorization: Token 9f8e7d6c5b4a3f2e1d0c", "9f8e7d6c5b4a"],
    ["Cookie: session=abc123def456; theme=dark", "abc123def456"],
    [
      "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA1234567890abcdef\nqwertyuiop==\n-----END RSA PRIVATE KEY-----",
      "MIIEpAIBAAKCAQEA",
    ],
    ["-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA (cut here", "b3BlbnNzaC1rZXktdjEAAAAA"],
    ["passphrase=correct-horse-battery", "correct-horse"],
    ["private_key=AAAABBBBCCCCDDDD", "AAAABBBBCCCC"],
    ["credentials=alice:s3cr3tpass", "s3cr3tpass"],
    [
      "sendgrid said no to SG.abcdefghijklmnopqrstuv.ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopq",
      "abcdefghijklmnopqrstuv",
    ],
    ["google: ya29.a0AfH6SMBx3kL9mN2pQ7rS", "a0AfH6SMBx3kL9"],
    ['body {"password": "p@ss,word;1", "user": "bob"}', "word;1"],
    ["password = 'two words here' was refused", "words here"],
    ["postgres://user:pa@ss@db.internal:5432/app refused", "ss@db"],
    ["X-Api-Key: 0123456789abcdef0123", "0123456789abcdef"],
  ];
  for (const [text, secret] of cases) {
    const out = redactSecrets(text);
    assert.not.ok(out.includes(secret), `${JSON.stringify(text)} → ${JSON.stringify(out)}`);
    assert.ok(out.includes("[redacted]"), out);
  }
  // What is no secret stays readable.
  assert.is(redactSecrets('{"user": "bob", "count": 3}'), '{"user": "bob", "count": 3}');
  assert.is(redactSecrets("a=password=x"), "a=password=[redacted]");
  assert.is(redactSecrets("postgres://db.internal:5432/app"), "postgres://db.internal:5432/app");
});

/**
 * A tool whose error message carries an API key right across the 2,000-character cut.
 * @param at Where the key starts
 */
const leaky = tool(function leaky(at: number) {
  throw new Error(`${"x ".repeat(at / 2)}sk-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 trailing`);
});

test("redaction runs before the cut: a key across the 2,000-character boundary sends none of its characters", async () => {
  const registry = new ToolRegistry([leaky]);
  for (const at of [1984, 1990, 1996, 2000]) {
    const [answer] = await registry.dispatch({
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c", type: "function", function: { name: "leaky", arguments: JSON.stringify({ at }) } }],
    });
    assert.is(answer!.status, "error");
    assert.not.match(answer!.content, /ABCDEFGH|sk-[A-Z]/, `key at ${at}`);
    assert.match(answer!.content, /more characters\)$|\[redacted\]/);
  }
});

test("redaction stays linear on hostile shapes (each a hang if it were quadratic)", () => {
  const shapes = [
    "a-".repeat(1_000_000),
    "password".repeat(500_000),
    `password="${"x".repeat(2_000_000)}`,
    "postgres://u:".repeat(200_000),
    "-----BEGIN X PRIVATE KEY-----".repeat(100_000),
    "Cookie:".repeat(300_000),
    "a=".repeat(1_000_000),
  ];
  for (const shape of shapes) assert.ok(redactSecrets(shape).length > 0);
});

/** What JSON.parse or JSON.stringify was asked to do while `body` ran: how many calls, and the texts' lengths. */
async function watched(
  method: "parse" | "stringify",
  body: () => Promise<void>,
): Promise<{ calls: number; lengths: number[]; chars: number }> {
  const original = JSON[method] as (...args: unknown[]) => unknown;
  const seen = { calls: 0, lengths: [] as number[], chars: 0 };
  (JSON as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
    const result = original.apply(JSON, args);
    const text = method === "parse" ? String(args[0]) : result;
    seen.calls++;
    if (typeof text === "string") {
      seen.lengths.push(text.length);
      seen.chars += text.length;
    }
    return result;
  };
  try {
    await body();
  } finally {
    (JSON as unknown as Record<string, unknown>)[method] = original;
  }
  return seen;
}

test("deeply nested arguments are refused before they are parsed (1 MiB of [ took 1.5 s to parse)", async () => {
  const registry = new ToolRegistry([echo]);
  for (const text of [
    "[".repeat(2 ** 20),
    `{"value":${"[".repeat(500_000)}${"]".repeat(500_000)}}`,
    `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`,
  ]) {
    let answer: { status: string; content: string } | undefined;
    const { lengths } = await watched("parse", async () => {
      [answer] = await registry.dispatch({
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c", type: "function", function: { name: "echo", arguments: text } }],
      });
    });
    assert.is(answer!.status, "error");
    assert.match(answer!.content, /nested too deeply|deeper than/);
    assert.not.ok(lengths.includes(text.length), "the deep text never reached JSON.parse");
  }
  // Brackets inside strings are no nesting: a long string full of them is read as usual.
  const [inString] = await registry.dispatch({
    role: "assistant",
    content: null,
    tool_calls: [
      {
        id: "c",
        type: "function",
        function: { name: "echo", arguments: JSON.stringify({ value: "[{".repeat(10_000) }) },
      },
    ],
  });
  assert.is(inString!.status, "success", inString!.content.slice(0, 200));
});

test("error texts quote values in time proportional to what they show: the same text as JSON.stringify, cut", () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 4 }), fc.integer({ min: 1, max: 120 }), (value, max) => {
      const whole = JSON.stringify(value);
      assert.is(shortJson(value, max), whole.length <= max ? whole : `${whole.slice(0, max)}…`);
    }),
    { numRuns: 3000, seed: 7 },
  );
  for (const text of ["😀😀😀😀", 'a\u0000b"c\\d\n', "é".repeat(100)]) {
    for (let max = 1; max < 16; max++)
      assert.is(
        shortJson(text, max),
        JSON.stringify(text).length <= max ? JSON.stringify(text) : `${JSON.stringify(text).slice(0, max)}…`,
      );
  }
  assert.is(shortJson(new Date(0)), JSON.stringify(new Date(0)));
  assert.is(shortJson({ toJSON: () => "x" }), '"x"');
});

/**
 * Take a record.
 * @param record The record
 */
const closed = tool(function closed(record: { id: string }) {
  return record.id;
});

test("an invalid call with 1,990 unknown keys of 500 characters is explained without writing the object 1,990 times", async () => {
  const record: Record<string, string> = { id: "x" };
  for (let i = 0; i < 1_990; i++) record[`k${i}_${"k".repeat(490)}`] = "v";
  const text = JSON.stringify({ record });
  assert.ok(text.length > 990_000, `${text.length} characters`);
  const generated = new ToolRegistry([closed]);
  // The same schema without its generated validator: ajv, which reports every one of the 1,990 errors.
  const byAjv = new ToolRegistry([
    tool((r: unknown) => String(r), undefined, { ...generated.list()[0]!.meta, validator: undefined }),
  ]);
  for (const registry of [generated, byAjv]) {
    let content = "";
    const { chars: written } = await watched("stringify", async () => {
      const [answer] = await registry.dispatch({
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c", type: "function", function: { name: "closed", arguments: text } }],
      });
      assert.is(answer!.status, "error");
      content = answer!.content;
    });
    assert.match(content, /unexpected property/);
    // The old explanation wrote the whole object for each error it described: about 2 billion characters by ajv.
    assert.ok(
      written < 20 * text.length,
      `${written} characters written by JSON.stringify for ${text.length} of arguments`,
    );
  }
});

/** JSON Schema's equality of two JSON values, pairwise: the slow oracle. */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a))
    return a.length === (b as unknown[]).length && a.every((x, i) => jsonEqual(x, (b as unknown[])[i]));
  const ka = Object.keys(a);
  return (
    ka.length === Object.keys(b).length &&
    ka.every(
      (k) => Object.hasOwn(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
    )
  );
}

test("uniqueItems finds the first pair of equal items, as a pairwise comparison does", () => {
  const small = fc.oneof(fc.constantFrom(0, -0, 1, "1", "", true, null, [], {}), fc.jsonValue({ maxDepth: 2 }));
  fc.assert(
    fc.property(fc.array(small, { maxLength: 8 }), (items) => {
      let expected: [number, number] | undefined;
      for (let j = 0; j < items.length && !expected; j++)
        for (let i = 0; i < j && !expected; i++) if (jsonEqual(items[i], items[j])) expected = [i, j];
      assert.equal(firstDuplicate(items), expected, JSON.stringify(items));
    }),
    { numRuns: 4000, seed: 8 },
  );
  assert.equal(
    firstDuplicate([
      { a: 1, b: [2, { c: 3 }] },
      { b: [2, { c: 3 }], a: 1 },
    ]),
    [0, 1],
  );
  assert.equal(firstDuplicate([-1, {}, [], "#0", 0]), undefined);
  // Keys and values numbered alike never meet: a key is always followed by its value.
  assert.equal(
    firstDuplicate([{ a: "b" }, { b: "a" }, ["a", "b"], ["b", "a"], { a: { b: 1 } }, { a: 1, b: 1 }]),
    undefined,
  );
  // Objects of many keys (put in order another way), in any order of their keys.
  const keys = Array.from({ length: 100 }, (_, i) => `k${(i * 37) % 100}`);
  const forward = Object.fromEntries(keys.map((k) => [k, k.length]));
  const backward = Object.fromEntries([...keys].reverse().map((k) => [k, k.length]));
  assert.equal(firstDuplicate([forward, { ...forward, k5: 0 }, backward]), [0, 2]);
});

test("uniqueItems stays right when its tables are emptied between checks (after about 260,000 numbers)", () => {
  for (let round = 0; round < 3; round++) {
    assert.is(firstDuplicate(Array.from({ length: 150_000 }, (_, i) => ({ n: i, round }))), undefined);
    assert.equal(firstDuplicate([{ a: [1, 2] }, { a: [2, 1] }, { a: [1, 2] }]), [0, 2]);
    assert.equal(firstDuplicate([[{ x: round }], [{ x: round + 1 }], [{ x: round }]]), [0, 2]);
  }
});

test("uniqueItems writes no text and lists no keys to number values (a large tree's cost was mostly garbage)", async () => {
  let node: Folder = { name: "bottom", children: [] };
  for (let level = 0; level < 10; level++) {
    const leaves = Array.from({ length: 50 }, (_, i) => ({
      name: `leaf ${level}.${i}`,
      children: [{ name: "x", children: [] }],
    }));
    node = { name: `level ${level}`, children: [node, ...leaves] as Folder["children"] };
  }
  const tree = JSON.parse(JSON.stringify(node)) as Folder;
  const keys = Object.keys;
  let listed = 0;
  Object.keys = (value: object) => {
    listed++;
    return keys(value);
  };
  let duplicate: [number, number] | undefined;
  const { calls } = await watched("stringify", async () => {
    try {
      for (let at: Folder | undefined = tree; at; at = at.children[0]) duplicate ??= firstDuplicate(at.children);
    } finally {
      Object.keys = keys;
    }
  });
  assert.is(duplicate, undefined);
  // The first version wrote each object's entries as JSON text and sorted a list of its keys.
  assert.is(calls, 0, "JSON.stringify calls");
  assert.is(listed, 0, "Object.keys calls");
});

interface Folder {
  name: string;
  children: Folder[] & UniqueItems;
}

/**
 * Count a tree of folders whose children are unique at every level.
 * @param root The top folder
 */
const countFolders = tool(function count_folders(root: Folder) {
  return "counted";
});

test("UniqueItems nested at every level of a tree costs the tree's size, not its size times its depth", async () => {
  // A chain 30 deep (an object and an array a level: 60 of the 64 levels allowed), each level with 300 leaves.
  let node: Folder = { name: "bottom", children: [] };
  for (let level = 0; level < 30; level++) {
    const leaves = Array.from({ length: 300 }, (_, i) => ({ name: `leaf ${level}.${i}`, children: [] }));
    node = { name: `level ${level}`, children: [node, ...leaves] as Folder["children"] };
  }
  const registry = new ToolRegistry([countFolders]);
  const size = 30 * 301;
  let status = "";
  const { calls } = await watched("stringify", async () => {
    const [answer] = await registry.dispatch({
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "c", type: "function", function: { name: "count_folders", arguments: JSON.stringify({ root: node }) } },
      ],
    });
    status = answer!.status === "success" ? "success" : answer!.content.slice(0, 300);
  });
  assert.is(status, "success");
  // About four calls per node here (its keys, its name); the old keys wrote each node once per level above it.
  assert.ok(calls < 10 * size, `${calls} JSON.stringify calls for ${size} nodes`);
});

test.run();
