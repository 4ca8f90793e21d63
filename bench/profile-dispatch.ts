/** tooltype's dispatch alone, in a loop, for a profiler. */
import { message, tooltypeDispatch } from "./dispatch";

/**
 *
 *   node --cpu-prof --cpu-prof-dir=.bench-build/profiles .bench-build/bench/profile-dispatch.js [calls] [seconds]
 *
 * Runs the same message as the dispatch benchmark (`calls` parallel calls, default 1) for `seconds` (default 5)
 * after a warm-up, then prints ns per message. Open the .cpuprofile in Chrome DevTools, or summarise it with
 * `node .bench-build/bench/profile-summary.js <file>`.
 */
async function main(): Promise<void> {
  const calls = Number(process.argv[2] ?? 1);
  const seconds = Number(process.argv[3] ?? 5);
  const m = message(calls);
  for (let i = 0; i < 20_000; i++) await tooltypeDispatch(m);
  let n = 0;
  const start = process.hrtime.bigint();
  const end = start + BigInt(Math.round(seconds * 1e9));
  while (process.hrtime.bigint() < end) {
    for (let i = 0; i < 1000; i++) await tooltypeDispatch(m);
    n += 1000;
  }
  const nsPerMessage = Number(process.hrtime.bigint() - start) / n;
  process.stdout.write(
    `tooltype dispatch, ${calls} call(s): ${nsPerMessage.toFixed(0)} ns per message over ${n} messages\n`,
  );
}

void main();
