/**
 * Issue 12, finding 7: stream accumulation stays linear. Reading `call.args` on every fragment of a 100 KB argument
 * streamed 4 characters at a time took 9.5 s (each read parsed the whole text again); accumulating 20,000 calls took
 * 5.0 s (every new call sorted all the calls before it). The work is counted, not timed (a loaded machine must
 * pass as a quiet one does): the characters given to the partial JSON parser, and the elements given to
 * `Array.prototype.sort`; the quadratic costs were thousands of times the bounds. The values read along the way are
 * checked to be right.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { accumulateToolCalls } from "tooltype/loop";
import partialJson = require("partial-json");

/** Runs `work` counting the characters of every text the partial JSON parser is given. */
function countParsed(work: () => void): number {
  const parse = partialJson.parse;
  let chars = 0;
  partialJson.parse = ((text: string, allow?: number) => {
    chars += text.length;
    return parse(text, allow);
  }) as typeof parse;
  try {
    work();
  } finally {
    partialJson.parse = parse;
  }
  return chars;
}

/** Runs `work` counting the elements of every array sorted. */
function countSorted(work: () => void): number {
  const sort = Array.prototype.sort;
  let elements = 0;
  Array.prototype.sort = function (this: unknown[], compare?: (a: unknown, b: unknown) => number) {
    elements += this.length;
    return sort.call(this, compare);
  };
  try {
    work();
  } finally {
    Array.prototype.sort = sort;
  }
  return elements;
}

/**
 * The most characters a stream of `text` may give the parser when `args` is read after every fragment: short texts
 * (up to 4 KB) are parsed on every read, longer ones again after growing by an eighth (at most nine times the
 * length in all), and once more when complete. Re-parsing on every read was about 12,000 times the length here.
 */
const parseBound = (text: string) => (4096 * 4096) / (2 * FRAGMENT) + 10 * text.length;

const NOTE = "abcd".repeat(25_000);
const TEXT = `{"note":"${NOTE}","n":7}`;
const FRAGMENT = 4;

function fragments(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += FRAGMENT) out.push(text.slice(i, i + FRAGMENT));
  return out;
}

/** Reads `args` after every fragment; checks that what it shows is a prefix of the note and never shrinks. */
function readEveryFragment(read: () => Record<string, unknown> | undefined): void {
  let seen = 0;
  for (;;) {
    const args = read();
    if (args === undefined) return;
    const note = args.note;
    // Checked when it changes (checking the whole prefix on every read would itself be quadratic).
    if (typeof note === "string" && note.length !== seen) {
      assert.ok(note.length > seen, "args never go back");
      assert.ok(NOTE.startsWith(note));
      seen = note.length;
    }
  }
}

test("7: Chat Completions: args read on every 4-character fragment of a 100 KB argument, in linear time", () => {
  const acc = accumulateToolCalls();
  acc.push({
    choices: [
      {
        index: 0,
        delta: {
          tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "save", arguments: "" } }],
        },
        finish_reason: null,
      },
    ],
  });
  const pieces = fragments(TEXT);
  let i = 0;
  const parsed = countParsed(() => {
    readEveryFragment(() => {
      if (i === pieces.length) return undefined;
      acc.push({
        choices: [
          {
            index: 0,
            delta: { tool_calls: [{ index: 0, function: { arguments: pieces[i++]! } }] },
            finish_reason: null,
          },
        ],
      });
      return acc.partial[0]!.args ?? {};
    });
    // Once the text is complete, args are exact.
    acc.push({ choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] });
    assert.equal(acc.partial[0]!.args, JSON.parse(TEXT));
  });
  assert.ok(
    parsed > TEXT.length && parsed <= parseBound(TEXT),
    `parsed ${parsed} characters for a text of ${TEXT.length}`,
  );
  // Short texts are parsed on every read, so a progressive UI sees each fragment.
  const small = accumulateToolCalls();
  small.push({
    choices: [
      {
        index: 0,
        delta: {
          tool_calls: [{ index: 0, id: "c", type: "function", function: { name: "f", arguments: '{"city":"Pa' } }],
        },
        finish_reason: null,
      },
    ],
  });
  assert.equal(small.partial[0]!.args, { city: "Pa" });
  small.push({
    choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: "r" } }] }, finish_reason: null }],
  });
  assert.equal(small.partial[0]!.args, { city: "Par" });
});

test("7: Anthropic and Responses share the same linear args", () => {
  const anthropic = accumulateToolCalls("anthropic");
  anthropic.push({
    type: "content_block_start",
    index: 0,
    content_block: { type: "tool_use", id: "toolu_1", name: "save", input: {} },
  });
  const responses = accumulateToolCalls("responses");
  responses.push({
    type: "response.output_item.added",
    output_index: 0,
    item: { type: "function_call", id: "fc_1", call_id: "call_1", name: "save", arguments: "" },
  });
  const pieces = fragments(TEXT);
  for (const [acc, push] of [
    [
      anthropic,
      (piece: string) =>
        anthropic.push({
          type: "content_block_delta",
          index: 0,
          delta: { type: "input_json_delta", partial_json: piece },
        }),
    ],
    [
      responses,
      (piece: string) =>
        responses.push({ type: "response.function_call_arguments.delta", output_index: 0, delta: piece }),
    ],
  ] as const) {
    let i = 0;
    const parsed = countParsed(() =>
      readEveryFragment(() => {
        if (i === pieces.length) return undefined;
        push(pieces[i++]!);
        return acc.partial[0]!.args ?? {};
      }),
    );
    assert.ok(
      parsed > TEXT.length / 2 && parsed <= parseBound(TEXT),
      `parsed ${parsed} characters for a text of ${TEXT.length}`,
    );
  }
  anthropic.push({ type: "content_block_stop", index: 0 });
  assert.equal(anthropic.partial[0]!.args, JSON.parse(TEXT));
});

test("7: accumulating 20,000 streamed calls is linear; calls complete in index order, also when one arrives late", () => {
  const acc = accumulateToolCalls();
  let completed = 0;
  let reply!: ReturnType<typeof acc.done>;
  const sorted = countSorted(() => {
    for (let index = 0; index < 20_000; index++) {
      const update = acc.push({
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [
                { index, id: `call_${index}`, type: "function", function: { name: "f", arguments: `{"i":${index}}` } },
              ],
            },
            finish_reason: null,
          },
        ],
      });
      completed += update.completed.length;
    }
    reply = acc.done();
  });
  // Sorting every call on each new one sorted 200 million elements.
  assert.ok(sorted <= 4 * 20_000, `sorted ${sorted} elements`);
  assert.is(completed, 19_999, "each call completes when the next one starts");
  assert.is(reply.tool_calls!.length, 20_000);
  assert.equal(
    reply.tool_calls!.slice(0, 2).map((c) => c.id),
    ["call_0", "call_1"],
  );

  // Out of order: index 2 starts, then index 1 arrives; 0 completes when 2 starts, 1 stays open until the end.
  const odd = accumulateToolCalls();
  const start = (index: number) =>
    odd.push({
      choices: [
        {
          index: 0,
          delta: {
            tool_calls: [{ index, id: `c${index}`, type: "function", function: { name: "f", arguments: "{}" } }],
          },
          finish_reason: null,
        },
      ],
    });
  start(0);
  assert.equal(
    start(2).completed.map((c) => c.id),
    ["c0"],
  );
  assert.equal(
    start(1).completed.map((c) => c.id),
    [],
  );
  assert.equal(
    odd.partial.map((c) => [c.index, c.complete]),
    [
      [0, true],
      [1, false],
      [2, false],
    ],
  );
  assert.equal(
    odd.push({ choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] }).completed.map((c) => c.id),
    ["c1", "c2"],
  );
  assert.equal(
    odd.calls.map((c) => c.id),
    ["c0", "c1", "c2"],
  );
});

test("reading calls and partial on every chunk of 20,000 calls is no copy: the same array, growing, in index order", () => {
  for (const provider of ["openai", "responses", "anthropic", "gemini"] as const) {
    const acc = accumulateToolCalls(provider as "openai");
    const first = { calls: acc.calls, partial: acc.partial };
    let reads = 0;
    for (let i = 0; i < 20_000; i++) {
      for (const event of callEvents(provider, i)) acc.push(event as never);
      // What a UI does on every chunk: both lists are the arrays it read first, so each read costs nothing.
      assert.ok(acc.calls === first.calls && acc.partial === first.partial, `${provider}: a new array at call ${i}`);
      reads++;
    }
    acc.done();
    assert.is(reads, 20_000);
    assert.is(acc.calls.length, 20_000, provider);
    assert.is(acc.partial.length, 20_000, provider);
  }
});

/** The events of call `i`, whole, in each provider's stream form. */
function callEvents(provider: string, i: number): object[] {
  const args = `{"n":${i}}`;
  switch (provider) {
    case "openai":
      return [
        {
          choices: [
            {
              index: 0,
              delta: {
                tool_calls: [{ index: i, id: `c${i}`, type: "function", function: { name: "f", arguments: args } }],
              },
            },
          ],
        },
      ];
    case "responses":
      return [
        {
          type: "response.output_item.added",
          output_index: i,
          item: { type: "function_call", id: `fc${i}`, call_id: `c${i}`, name: "f", arguments: "" },
        },
        {
          type: "response.output_item.done",
          output_index: i,
          item: { type: "function_call", id: `fc${i}`, call_id: `c${i}`, name: "f", arguments: args },
        },
      ];
    case "anthropic":
      return [
        {
          type: "content_block_start",
          index: i,
          content_block: { type: "tool_use", id: `t${i}`, name: "f", input: {} },
        },
        { type: "content_block_delta", index: i, delta: { type: "input_json_delta", partial_json: args } },
        { type: "content_block_stop", index: i },
      ];
    default:
      return [
        { candidates: [{ content: { role: "model", parts: [{ functionCall: { name: "f", args: { n: i } } }] } }] },
      ];
  }
}

test("a fragment whose index is not a whole number is refused, not merged with another (two NaN indexes were one call)", () => {
  for (const index of [Number.NaN, -1, 1.5, "0" as unknown as number]) {
    const acc = accumulateToolCalls("openai");
    assert.throws(
      () =>
        acc.push({
          choices: [
            {
              index: 0,
              delta: { tool_calls: [{ index, id: "a", type: "function", function: { name: "f", arguments: "{}" } }] },
            },
          ],
        } as never),
      /index must be a whole number of 0 or more/,
    );
  }
  const anthropic = accumulateToolCalls("anthropic");
  assert.throws(
    () =>
      anthropic.push({
        type: "content_block_start",
        index: Number.NaN,
        content_block: { type: "tool_use", id: "t", name: "f", input: {} },
      } as never),
    /index must be a whole number/,
  );
});

test.run();
