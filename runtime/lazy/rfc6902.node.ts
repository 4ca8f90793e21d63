/**
 * `#lazy/rfc6902` under Node: `rfc6902`, required the first time a JSON Patch is applied (agent/json-patch.ts), so
 * that importing tooltype does not load it.
 */
import type * as Rfc6902 from "rfc6902";

let loaded: typeof Rfc6902 | undefined;

export function rfc6902(): typeof Rfc6902 {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require("rfc6902") as typeof Rfc6902;
  return loaded;
}
