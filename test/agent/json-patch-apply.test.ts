/**
 * The JSON Patch engine of `repair: "jsonpatch"` on its own: RFC 6902's operations as its appendix shows them, and
 * what an untrusted patch must never do (reach a built-in through an inherited name, grow the document past the
 * arguments' byte limit or depth, or walk more than its work budget).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { type JsonPatchOperation, patchDocument } from "../../runtime/agent/json-patch-apply";

const LIMITS = { maxBytes: 1_048_576, maxDepth: 64 };

function apply(document: Record<string, unknown>, patch: unknown[], limits = LIMITS) {
  return patchDocument(document, patch as JsonPatchOperation[], limits);
}

function patched(document: Record<string, unknown>, patch: unknown[]): unknown {
  const result = apply(document, patch);
  if (!result.ok) throw new Error(`the patch stopped: ${JSON.stringify(result.stop)}`);
  return result.value;
}

test("RFC 6902 appendix A: add, remove, replace, move, copy, test, escapes, append", () => {
  assert.equal(patched({ foo: "bar" }, [{ op: "add", path: "/baz", value: "qux" }]), { foo: "bar", baz: "qux" });
  assert.equal(patched({ foo: ["bar", "baz"] }, [{ op: "add", path: "/foo/1", value: "qux" }]), {
    foo: ["bar", "qux", "baz"],
  });
  assert.equal(patched({ baz: "qux", foo: "bar" }, [{ op: "remove", path: "/baz" }]), { foo: "bar" });
  assert.equal(patched({ foo: ["bar", "qux", "baz"] }, [{ op: "remove", path: "/foo/1" }]), { foo: ["bar", "baz"] });
  assert.equal(patched({ baz: "qux", foo: "bar" }, [{ op: "replace", path: "/baz", value: "boo" }]), {
    baz: "boo",
    foo: "bar",
  });
  assert.equal(
    patched({ foo: { bar: "baz", waldo: "fred" }, qux: { corge: "grault" } }, [
      { op: "move", from: "/foo/waldo", path: "/qux/thud" },
    ]),
    { foo: { bar: "baz" }, qux: { corge: "grault", thud: "fred" } },
  );
  assert.equal(patched({ foo: ["all", "grass", "cows", "eat"] }, [{ op: "move", from: "/foo/1", path: "/foo/3" }]), {
    foo: ["all", "cows", "eat", "grass"],
  });
  assert.equal(
    patched({ baz: "qux", foo: ["a", 2, "c"] }, [
      { op: "test", path: "/baz", value: "qux" },
      { op: "test", path: "/foo/1", value: 2 },
    ]),
    { baz: "qux", foo: ["a", 2, "c"] },
  );
  const failedTest = apply({ baz: "qux" }, [{ op: "test", path: "/baz", value: "bar" }]);
  assert.equal(failedTest.ok ? undefined : failedTest.stop, {
    message: "the test failed",
    test: { actual: "qux", expected: "bar" },
    operation: 0,
  });
  assert.equal(patched({ foo: "bar" }, [{ op: "add", path: "/child", value: { grandchild: {} } }]), {
    foo: "bar",
    child: { grandchild: {} },
  });
  assert.equal(
    patched({ "/": 9, "~1": 10 }, [
      { op: "test", path: "/~01", value: 10 },
      { op: "replace", path: "/~1", value: 8 },
    ]),
    { "/": 8, "~1": 10 },
  );
  const numberNotString = apply({ "/": 9, "~1": 10 }, [{ op: "test", path: "/~01", value: "10" }]);
  assert.is(numberNotString.ok, false);
  assert.equal(patched({ foo: ["bar"] }, [{ op: "add", path: "/foo/-", value: ["abc", "def"] }]), {
    foo: ["bar", ["abc", "def"]],
  });
  assert.equal(patched({ a: { b: 1 } }, [{ op: "copy", from: "/a", path: "/c" }]), { a: { b: 1 }, c: { b: 1 } });
});

test("all or nothing: a failing operation leaves the document as it was, and the document given is never changed", () => {
  const document = { a: [1, 2], b: { c: true } };
  const before = JSON.stringify(document);
  const result = apply(document, [
    { op: "remove", path: "/a/0" },
    { op: "remove", path: "/nothing" },
  ]);
  assert.is(result.ok, false);
  assert.is(result.ok ? -1 : result.stop.operation, 1);
  assert.match(result.ok ? "" : result.stop.message, /nothing at \/nothing/);
  const done = apply(document, [
    { op: "remove", path: "/a/0" },
    { op: "add", path: "/b/d", value: [1] },
    { op: "copy", from: "/b", path: "/e" },
  ]);
  assert.is(JSON.stringify(document), before);
  if (!done.ok) throw new Error("the patch should apply");
  const value = done.value as { b: unknown; e: { d: number[] } };
  value.e.d.push(2);
  assert.equal(value.b, { c: true, d: [1] }, "a copy shares nothing with its source");
});

test("paths reach own properties of the arguments only: inherited names, functions and strings are nothing", () => {
  const snapshot = [
    Object.prototype.toString,
    Array.prototype.slice,
    Object.prototype.hasOwnProperty,
    String.prototype.trim,
  ];
  const hostile = [
    { op: "add", path: "/toString/call", value: 0 },
    { op: "add", path: "/tags/slice/call", value: 0 },
    { op: "add", path: "/hasOwnProperty/call", value: 0 },
    { op: "add", path: "/name/trim/call", value: 0 },
    { op: "replace", path: "/tags/length", value: 0 },
    { op: "add", path: "/tags/length", value: 0 },
    { op: "remove", path: "/valueOf" },
    { op: "copy", from: "/toString", path: "/x" },
    { op: "move", from: "/tags/push", path: "/x" },
    { op: "test", path: "/constructor", value: {} },
    { op: "add", path: "/tags/01", value: "x" },
    { op: "add", path: "/tags/1e0", value: "x" },
    { op: "add", path: "/tags/~2", value: "x" },
  ];
  for (const operation of hostile) {
    const result = apply({ name: "n", tags: ["a"] }, [operation]);
    assert.is(result.ok, false, JSON.stringify(operation));
  }
  assert.equal(
    [Object.prototype.toString, Array.prototype.slice, Object.prototype.hasOwnProperty, String.prototype.trim],
    snapshot,
  );
  assert.is(Object.prototype.toString.call([]), "[object Array]");
  assert.is(Object.hasOwn(Function.prototype, "0"), false);
});

test("a __proto__ key written by a patch stays an own data property", () => {
  const result = apply({}, [{ op: "add", path: "/__proto__", value: { polluted: true } }]);
  assert.ok(result.ok);
  const value = (result as { value: Record<string, unknown> }).value;
  assert.is(Object.getPrototypeOf(value), Object.prototype);
  assert.equal(Object.keys(value), ["__proto__"]);
  assert.is(({} as Record<string, unknown>).polluted, undefined);
});

test("the patch bomb: doubling copies stop at the byte limit, the moment it is passed", () => {
  const bomb = [
    { op: "add", path: "/x", value: [0] },
    ...Array.from({ length: 31 }, () => ({ op: "copy", from: "/x", path: "/x/-" })),
  ];
  assert.ok(JSON.stringify(bomb).length < 1400);
  const result = apply({}, bomb);
  assert.is(result.ok, false);
  const stop = (result as { stop: { operation: number; message: string } }).stop;
  // Whichever bound it meets first: the document's size, or the work of copying its many small arrays.
  assert.match(stop.message, /larger than the limit of 1048576 bytes|walks more than 2097152 bytes of values/);
  assert.ok(stop.operation < 22, `stopped at operation ${stop.operation}`);
  // A smaller tool limit stops it sooner.
  const small = apply({}, bomb, { maxBytes: 1000, maxDepth: 64 });
  assert.ok(!small.ok && small.stop.operation! < 10);
});

test("nesting is counted as values are placed, moved or copied", () => {
  const deep = (n: number): unknown => (n === 0 ? 1 : [deep(n - 1)]);
  const tooDeep = apply({}, [{ op: "add", path: "/a", value: deep(8) }], { maxBytes: 1_000_000, maxDepth: 8 });
  assert.match(tooDeep.ok ? "" : tooDeep.stop.message, /deeper than the limit of 8 levels/);
  const fits = apply({}, [{ op: "add", path: "/a", value: deep(6) }], { maxBytes: 1_000_000, maxDepth: 8 });
  assert.ok(fits.ok);
  // Moving one deep branch under another would double the depth.
  const twoBranches = { a: deep(6), b: deep(6) };
  const moved = apply(twoBranches, [{ op: "move", from: "/a", path: "/b/0/0/0/0/0/x" }], {
    maxBytes: 1_000_000,
    maxDepth: 8,
  });
  assert.is(moved.ok, false);
});

test("the work of a patch is bounded: copies and removes repeated cannot walk more than the budget", () => {
  const big = { a: "x".repeat(30_000) };
  const churn = Array.from({ length: 100 }, (_, i) =>
    i % 2 === 0 ? { op: "copy", from: "/a", path: "/b" } : { op: "remove", path: "/b" },
  );
  const result = apply(big, churn, { maxBytes: 100_000, maxDepth: 64 });
  assert.is(result.ok, false);
  assert.match(result.ok ? "" : result.stop.message, /walks more than 200000 bytes/);
});

test("a document that is not plain JSON is refused before any operation", () => {
  const result = apply({ f: () => 1 } as Record<string, unknown>, [{ op: "remove", path: "/f" }]);
  assert.is(result.ok, false);
  assert.is(result.ok ? 0 : result.stop.operation, undefined);
});

test.run();
