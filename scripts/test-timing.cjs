// Preloaded (`node -r`) into each uvu process by `scripts/run-tests.mjs --slowest`: times every test the files
// register, without changing them, into the file TOOLTYPE_TEST_TIMING names.
const fs = require("node:fs");
const uvu = require("uvu");

const out = process.env.TOOLTYPE_TEST_TIMING;

/** The test file that registers a test: the first frame of the stack in a *.test.js file. */
function callerFile() {
  const frame = /([^\s(]+\.test\.js):\d+:\d+/.exec(new Error().stack ?? "");
  return frame ? frame[1] : "?";
}

/**
 * `register` (uvu's `test` or a suite), with each handler timed; its `run`, `only`, `skip` and hooks as they were.
 * Each test appends one JSON line, `{ file, name, ms, cpuMs }`: CPU time is what a test costs whatever else the
 * machine runs; wall time is what it took this time.
 */
function timed(register) {
  const wrapped = (name, handler) => {
    const file = callerFile();
    return register(name, async (context) => {
      const started = performance.now();
      const cpu = process.cpuUsage();
      try {
        return await handler(context);
      } finally {
        const used = process.cpuUsage(cpu);
        const cpuMs = (used.user + used.system) / 1000;
        fs.appendFileSync(out, `${JSON.stringify({ file, name, ms: performance.now() - started, cpuMs })}\n`);
      }
    });
  };
  return Object.assign(wrapped, register);
}

if (out) {
  // At exit, the process's own CPU time, loading the files included.
  process.on("exit", () => {
    const used = process.cpuUsage();
    fs.appendFileSync(out, `${JSON.stringify({ process: true, cpuMs: (used.user + used.system) / 1000 })}\n`);
  });
  uvu.test = timed(uvu.test);
  const suite = uvu.suite;
  uvu.suite = (...args) => timed(suite(...args));
}
