/**
 * `#lazy/strict` under Node: the strict rewrites (strict/rewrites.ts), required the first time a schema with no
 * strict form from the build is exported in strict mode, so that an app that never does never loads them.
 */
import type { STRICT_REWRITES } from "../strict/rewrites";

export function strictRewritesNow(): typeof STRICT_REWRITES | undefined {
  return (require("../strict/rewrites") as typeof import("../strict/rewrites")).STRICT_REWRITES;
}
