/**
 * `#lazy/partial-json` in a bundle: a static import, which bundlers keep only where the stream accumulators are
 * used.
 */
import * as PartialJson from "partial-json";

export function partialJson(): typeof PartialJson {
  return PartialJson;
}
