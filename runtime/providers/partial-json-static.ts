/**
 * How stream.ts reaches `partial-json` in a bundle (the ES module build; package.json `imports`, `#partial-json`,
 * `module` condition): a static import, which bundlers resolve and keep only where the stream accumulators are used.
 */
import * as PartialJson from "partial-json";

export function partialJson(): typeof PartialJson {
  return PartialJson;
}
