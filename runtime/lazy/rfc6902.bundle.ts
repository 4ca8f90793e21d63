/**
 * `#lazy/rfc6902` in a bundle: a static import, which bundlers keep only where JSON Patch repair is used.
 */
import * as Rfc6902 from "rfc6902";

export function rfc6902(): typeof Rfc6902 {
  return Rfc6902;
}
