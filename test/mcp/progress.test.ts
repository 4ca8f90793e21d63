/**
 * The progress throttle of one MCP call (runtime/mcp/progress.ts): increasing values only, at most one send per
 * interval with the newest report of an interval sent at its end, the waiting report sent when the call ends, and
 * nothing after that. On a fake clock (node:test's mock timers): the intervals are the subject, and a loaded
 * machine's late timers must not change what is sent.
 */
import { mock } from "node:test";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { ToolProgress } from "../../runtime/dispatch/options";
import { throttleProgress } from "../../runtime/mcp/progress";

test.before.each(() => mock.timers.enable({ apis: ["setTimeout", "Date"], now: 1_000_000 }));
test.after.each(() => mock.timers.reset());

test("interval 0: every increasing report goes out at once; repeated or falling values are dropped", () => {
  const sent: ToolProgress[] = [];
  const throttle = throttleProgress((u) => sent.push(u), 0);
  for (const progress of [1, 1, 0.5, 2, NaN, 3]) throttle.report({ progress });
  assert.equal(
    sent.map((u) => u.progress),
    [1, 2, 3],
  );
  throttle.finish(true);
  throttle.report({ progress: 4 });
  assert.equal(
    sent.map((u) => u.progress),
    [1, 2, 3],
    "nothing after the call ended",
  );
});

test("a burst: the first at once, the newest of the interval at its end, none in between", () => {
  const sent: ToolProgress[] = [];
  const throttle = throttleProgress((u) => sent.push(u), 40);
  for (let i = 1; i <= 10_000; i++) throttle.report({ progress: i, total: 10_000 });
  assert.equal(sent, [{ progress: 1, total: 10_000 }]);
  mock.timers.tick(39);
  assert.equal(sent, [{ progress: 1, total: 10_000 }], "not before the interval's end");
  mock.timers.tick(1);
  assert.equal(sent, [
    { progress: 1, total: 10_000 },
    { progress: 10_000, total: 10_000 },
  ]);
  throttle.finish(true);
  assert.is(sent.length, 2, "nothing was waiting");
});

test("finish sends the waiting report (a completed call) or drops it (a cancelled one), and stops the timer", () => {
  const completed: number[] = [];
  const done = throttleProgress((u) => completed.push(u.progress), 1_000);
  done.report({ progress: 1 });
  done.report({ progress: 2, message: "almost" });
  done.finish(true);
  assert.equal(completed, [1, 2]);

  const cancelled: number[] = [];
  const gone = throttleProgress((u) => cancelled.push(u.progress), 30);
  gone.report({ progress: 1 });
  gone.report({ progress: 2 });
  gone.finish(false);
  mock.timers.tick(1_000);
  assert.equal(cancelled, [1]);
});

test.run();
