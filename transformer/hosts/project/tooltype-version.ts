/** tooltype's own version, from its package.json, read on first need, and the build's identity for cache keys. */
import * as fs from "node:fs";
import * as path from "node:path";

let version: string | undefined;
let build: string | undefined;

export function tooltypeVersion(): string {
  version ??= (require("../../../../package.json") as { version: string }).version;
  return version;
}

/**
 * The version and the build's id (build-id beside the compiled transformer, scripts/build-id.mjs: a hash of its
 * sources), for the keys of caches whose entries the transformer wrote (the persistent schema cache, incremental
 * builds, ts-jest): a build of other sources under the same version must not answer from an earlier build's entries.
 * Where a build wrote no id, the version alone.
 */
export function tooltypeBuild(): string {
  if (build === undefined) {
    let id = "";
    try {
      id = fs.readFileSync(path.join(__dirname, "..", "..", "build-id"), "utf8").trim();
    } catch {
      // No build id beside this file: the version alone.
    }
    build = id ? `${tooltypeVersion()}+${id}` : tooltypeVersion();
  }
  return build;
}
