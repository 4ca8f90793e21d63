/**
 * `#lazy/partial-json` under Node: `partial-json`, required the first time a streamed call's partial arguments are
 * read (providers/stream.ts), so that importing tooltype does not load it.
 */
import type * as PartialJson from "partial-json";

let loaded: typeof PartialJson | undefined;

export function partialJson(): typeof PartialJson {
  loaded ??= require("partial-json") as typeof PartialJson;
  return loaded;
}
