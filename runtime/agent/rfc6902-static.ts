/**
 * How json-patch.ts reaches `rfc6902` in a bundle (the ES module build; package.json `imports`, `#rfc6902`,
 * `module` condition): a static import, which bundlers keep only where JSON Patch repair is used.
 */
import * as Rfc6902 from "rfc6902";

export function rfc6902(): typeof Rfc6902 {
  return Rfc6902;
}
