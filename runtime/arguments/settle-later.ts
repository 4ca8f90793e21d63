/**
 * How settle-load.ts reaches settle.ts in a bundle (the ES module build; package.json `imports`, `#settle`,
 * `module` condition): by a dynamic `import()`, which bundlers put in a chunk of its own, so an app ships the lenient
 * reader, coercion and the words of error messages in a chunk it loads only when a call's arguments first fail.
 * Once loaded, the module is kept and used at once.
 */
import type * as Settle from "./settle";

let loaded: typeof Settle | undefined;

export function loadSettle(): typeof Settle | Promise<typeof Settle> {
  return loaded ?? import("./settle.js").then((settle) => (loaded = settle));
}
