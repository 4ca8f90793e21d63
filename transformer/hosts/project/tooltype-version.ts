/** tooltype's own version, from its package.json, read on first need: part of the cache keys of incremental builds and of ts-jest. */
let version: string | undefined;

export function tooltypeVersion(): string {
  version ??= (require("../../../../package.json") as { version: string }).version;
  return version;
}
