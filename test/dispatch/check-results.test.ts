/**
 * Results checked against the declared return type (`checkResults`): a tool that returns what its own type does not
 * allow is answered as a tool error that names the place (a JSON pointer) and what differs, before the model sees
 * it; the check reads the result's JSON form (a Date as its text), skips content parts, is off by default outside
 * tests, and a tool's own option wins over the registry's. The return schemas come from the transformer, and so does
 * the return type's validator where results may be checked (a tool's `checkResults: true`, a build under
 * `NODE_ENV=test`): then the check loads no ajv (issue 45: ajv compiled at run time made Vitest's first dispatch slow).
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ToolRegistry, type RegistryOptions, type ToolSource, image, tool } from "tooltype";
import { compileFixture } from "../support/compile";
import { HANG_MS } from "../support/hang";

interface Reading {
  temp: number;
  unit: "c" | "f";
  at: Date;
}

/** The current reading; the bug: a string where the type says number. */
const reading = tool(function reading(): Reading {
  return { temp: "21" as unknown as number, unit: "c", at: new Date("2026-01-01T00:00:00Z") };
});

/** A correct reading, with a Date (sent as its ISO text). */
const goodReading = tool(function good_reading(): Reading {
  return { temp: 21, unit: "c", at: new Date("2026-01-01T00:00:00Z") };
});

/** A status word; the bug: a word outside the union. */
const status = tool(function status(): "ok" | "failing" {
  return "maybe" as "ok";
});

/** A picture: content parts are tooltype's shapes, not checked against the type. */
const picture = tool(function picture(): { caption: string } {
  return image({ base64: "aGk=", mediaType: "image/png" }) as unknown as { caption: string };
});

/** Opted in on its own. */
const ownOption = tool(
  function own_option(): { n: number } {
    return { n: "one" as unknown as number };
  },
  { checkResults: true },
);

async function answer(options: RegistryOptions, ...tools: ToolSource[]): Promise<Record<string, [string, string]>> {
  const registry = new ToolRegistry(tools, options);
  const names = registry.list().map((t) => t.name);
  const messages = await registry.dispatch({
    role: "assistant",
    content: null,
    tool_calls: names.map((name, i) => ({
      id: `c${i}`,
      type: "function" as const,
      function: { name, arguments: "{}" },
    })),
  });
  return Object.fromEntries(messages.map((m, i) => [names[i]!, [m.status, m.content]]));
}

test("a result its type does not allow is a tool error naming the place and what differs", async () => {
  const got = await answer({ checkResults: true }, reading, goodReading, status, picture);
  assert.is(got.reading![0], "error");
  assert.match(
    got.reading![1],
    /the result of reading does not match its declared return type:\n- \/temp: must be a number; got "21"\n/,
  );
  assert.match(got.reading![1], /This is a bug in the tool, not in the call/);
  assert.equal(got.good_reading, ["success", '{"temp":21,"unit":"c","at":"2026-01-01T00:00:00.000Z"}']);
  assert.is(got.status![0], "error");
  assert.match(got.status![1], /- \(result\): must be one of "ok", "failing"; got "maybe"/);
  assert.is(got.picture![0], "success");
});

test("off unless asked: the registry's option, a tool's own option, NODE_ENV=test", async () => {
  const previous = process.env.NODE_ENV;
  delete process.env.NODE_ENV;
  try {
    const off = await answer({}, reading, ownOption);
    assert.is(off.reading![0], "success");
    assert.is(off.own_option![0], "error", "the tool's own option wins");
    assert.is((await answer({ checkResults: false }, ownOption)).own_option![0], "error");
    process.env.NODE_ENV = "test";
    assert.is((await answer({}, reading)).reading![0], "error", "on under NODE_ENV=test");
    assert.is(
      (await answer({ checkResults: false }, reading)).reading![0],
      "success",
      "the registry's option wins over NODE_ENV",
    );
  } finally {
    if (previous === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = previous;
  }
});

test("a promise's value is checked as well", async () => {
  /** Async, wrong. */
  const later = tool(async function later(): Promise<{ ids: number[] }> {
    return { ids: [1, "2" as unknown as number] };
  });
  const got = await answer({ checkResults: true }, later);
  assert.match(got.later![1], /- \/ids\/1: must be a number; got "2"/);
});

test("a tool whose results may be checked carries its return type's validator: the check, right or wrong, loads no ajv", () => {
  const out = execFileSync(process.execPath, [path.join(__dirname, "check-results-compiled-child.js")], {
    encoding: "utf8",
    timeout: HANG_MS,
  });
  const result = JSON.parse(out) as {
    compiled: string[];
    ajvLoaded: boolean;
    answers: { status: string; content: string }[];
  };
  assert.equal(result.compiled, ["function", "function"], "each tool's metadata has its result validator");
  assert.equal(result.answers[0], { status: "success", content: '{"temp":21,"unit":"c"}' });
  assert.is(result.answers[1]!.status, "error");
  assert.match(
    result.answers[1]!.content,
    /the result of bad_reading does not match its declared return type:\n- \/temp: must be a number; got "21"\n/,
  );
  assert.not.ok(result.ajvLoaded, "no ajv loaded to check the results");
});

test("the result validator is compiled under NODE_ENV=test (Vitest, Jest) or with checkResults: true, else left out", () => {
  const source = `import { tool } from "tooltype";
/** Reads. */
export const plain = tool(function plain(): { n: number } { return { n: 1 }; });
/** Opted out. */
export const off = tool(function off(): { n: number } { return { n: 1 }; }, { checkResults: false });
/** Opted in. */
export const on = tool(function on(): { n: number } { return { n: 1 }; }, { checkResults: true });
/** Nothing to check. */
export const nothing = tool(function nothing(): void {});
`;
  const compiledUnder = (env: string | undefined, pluginConfig?: Record<string, unknown>): Record<string, string> => {
    const previous = process.env.NODE_ENV;
    if (env === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = env;
    try {
      const registry = new ToolRegistry(
        Object.values(compileFixture(source, pluginConfig ? { pluginConfig } : {}).load<Record<string, ToolSource>>()),
      );
      return Object.fromEntries(registry.list().map((t) => [t.name, typeof t.meta.resultValidator]));
    } finally {
      if (previous === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = previous;
    }
  };
  assert.equal(compiledUnder(undefined), {
    plain: "undefined",
    off: "undefined",
    on: "function",
    nothing: "undefined",
  });
  assert.equal(compiledUnder("test"), { plain: "function", off: "undefined", on: "function", nothing: "undefined" });
  assert.equal(
    compiledUnder("production", { resultValidators: true }),
    { plain: "function", off: "function", on: "function", nothing: "undefined" },
    "the plugin's option wins",
  );
});

test.run();
