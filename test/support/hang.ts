/**
 * How long a child process, a server's start or a polled condition may take before a test calls it a hang. It is
 * never a speed claim: on a machine loaded by other work, a build that takes seconds on a quiet one can take
 * minutes, and a test failing for that tells nothing. The test runner also stops a whole test process that runs
 * past its own, longer limit.
 */
export const HANG_MS = 10 * 60_000;
