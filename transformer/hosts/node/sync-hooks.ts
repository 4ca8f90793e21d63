/**
 * Which Node releases tooltype/register trusts with `module.registerHooks`. The API exists from 22.15 and 23.5, but
 * a load hook registered with it broke `require` inside CommonJS modules loaded through it before 24.11.1
 * (nodejs/node#61801). tsx moves to these hooks at the releases below, and tooltype/register must move with it:
 * once tsx's synchronous hooks load a CommonJS file, tooltype's require hook never sees it. On older releases
 * tooltype/register keeps `module.register` (deprecated at run time from Node 26, DEP0205), which they all have.
 */

/** The first release of each line whose synchronous hooks serve `import` and `require` correctly. */
const FIRST_GOOD: readonly (readonly [major: number, minor: number, patch: number])[] = [
  [22, 22, 3],
  [24, 11, 1],
  [25, 1, 0],
];

/** Whether Node `version` ("24.11.1", as `process.versions.node`) runs tooltype/register's synchronous hooks. */
export function syncHooksWork(version: string): boolean {
  const [major = 0, minor = 0, patch = 0] = version.split(".").map((part) => Number.parseInt(part, 10));
  if (major >= 26) return true;
  const first = FIRST_GOOD.find(([line]) => line === major);
  if (first === undefined) return false;
  return minor > first[1] || (minor === first[1] && patch >= first[2]);
}

/**
 * Whether Node `version` asks the require hook for a CommonJS module that an `import` loaded through the synchronous
 * hooks, so that the source `loadSync` compiled is worth keeping for that request: from Node 23 on (seen on 24 and
 * 26; 23 never takes the synchronous hooks, see `syncHooksWork`). Node 22 runs such a module (and what it requires)
 * from the hook's source and never asks, so a kept source stayed in memory for the life of the process.
 */
export function requireFollowsSyncLoad(version: string): boolean {
  return Number.parseInt(version, 10) >= 23;
}
