/**
 * How stream.ts reaches `partial-json` under Node (the CommonJS build; package.json `imports`, `#partial-json`,
 * default condition): loaded the first time a streamed call's partial arguments are read, so that importing
 * tooltype does not load it. Bundlers take partial-json-static.ts instead.
 */
import type * as PartialJson from "partial-json";

let loaded: typeof PartialJson | undefined;

export function partialJson(): typeof PartialJson {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require("partial-json") as typeof PartialJson;
  return loaded;
}
