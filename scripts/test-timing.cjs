// Preloaded (`node -r`) into each uvu process by `scripts/run-tests.mjs --slowest`: every test registered through
// uvu's `test` or a `suite()` is timed, and one JSON line per test ({ file, name, ms, cpuMs }) is appended to the
// file TOOLTYPE_TEST_TIMING names; at exit, one more line gives the process's own CPU time ({ process: true, cpuMs },
// loading the files included). CPU time is what a test costs whatever else the machine runs; wall time is what it
// took this time. The test files are left as they are: this wraps the handlers they register.
const fs = require("node:fs");
const uvu = require("uvu");

const out = process.env.TOOLTYPE_TEST_TIMING;

/** The test file that registers a test: the first frame of the stack in a *.test.js file. */
function callerFile() {
  const frame = /([^\s(]+\.test\.js):\d+:\d+/.exec(new Error().stack ?? "");
  return frame ? frame[1] : "?";
}

/** `register` (uvu's `test` or a suite), with each handler timed; its `run`, `only`, `skip` and hooks as they were. */
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
  process.on("exit", () => {
    const used = process.cpuUsage();
    fs.appendFileSync(out, `${JSON.stringify({ process: true, cpuMs: (used.user + used.system) / 1000 })}\n`);
  });
  uvu.test = timed(uvu.test);
  const suite = uvu.suite;
  uvu.suite = (...args) => timed(suite(...args));
}
