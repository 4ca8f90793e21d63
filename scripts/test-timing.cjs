// Preloaded (`node -r`) into each uvu process by `scripts/run-tests.mjs --slowest`: every test registered through
// uvu's `test` or a `suite()` is timed, and one JSON line per test ({ file, name, ms }) is appended to the file
// TOOLTYPE_TEST_TIMING names. The test files are left as they are: this wraps the handlers they register.
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
      try {
        return await handler(context);
      } finally {
        fs.appendFileSync(out, `${JSON.stringify({ file, name, ms: performance.now() - started })}\n`);
      }
    });
  };
  return Object.assign(wrapped, register);
}

if (out) {
  uvu.test = timed(uvu.test);
  const suite = uvu.suite;
  uvu.suite = (...args) => timed(suite(...args));
}
