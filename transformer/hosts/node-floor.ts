/**
 * Imported first by the tooltype command and tooltype/register: on a Node older than the package supports (its
 * `engines`), one line naming the Node needed and exit status 1, before anything loads that would fail on it with a
 * stack. 20.6 brought `module.register`, which tooltype/register needs, and 20.10 the loading of extensionless ES
 * modules, without which TypeScript 7's own `tsc` (npm's default `typescript`) does not start; Node 18 is past its
 * end of life.
 */

/** The oldest Node release tooltype runs on, as package.json's `engines` states it. */
export const OLDEST_NODE = "20.10.0";

/** Whether Node `version` ("20.18.3", as `process.versions.node`) is `OLDEST_NODE` or later. */
export function isSupportedNode(version: string): boolean {
  const [major = 0, minor = 0] = version.split(".").map((part) => Number.parseInt(part, 10));
  const [floorMajor = 0, floorMinor = 0] = OLDEST_NODE.split(".").map(Number);
  return major > floorMajor || (major === floorMajor && minor >= floorMinor);
}

if (!isSupportedNode(process.versions.node)) {
  process.stderr.write(`tooltype needs Node ${OLDEST_NODE} or later; this is Node ${process.versions.node}.\n`);
  process.exit(1);
}
