/**
 * How settle-load.ts reaches settle.ts under Node (the CommonJS build; package.json `imports`, `#settle`, default
 * condition): loaded on the spot the first time arguments need it, so dispatch under Node answers exactly when it
 * always did. Bundlers take settle-later.ts instead.
 */
import type * as Settle from "./settle";

export function loadSettle(): typeof Settle | Promise<typeof Settle> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require("./settle") as typeof Settle;
}
