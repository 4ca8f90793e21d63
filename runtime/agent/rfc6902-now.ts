/**
 * How json-patch.ts reaches `rfc6902` under Node (the CommonJS build; package.json `imports`, `#rfc6902`, default
 * condition): loaded the first time a patch is applied, so that importing tooltype does not load it. Bundlers take
 * rfc6902-static.ts instead (a static import, kept only where JSON Patch repair is used).
 */
import type * as Rfc6902 from "rfc6902";

let loaded: typeof Rfc6902 | undefined;

export function rfc6902(): typeof Rfc6902 {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require("rfc6902") as typeof Rfc6902;
  return loaded;
}
