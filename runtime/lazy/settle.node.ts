/**
 * `#lazy/settle` under Node: dispatch's failure path for arguments (arguments/settle.ts), required on the spot the
 * first time a call's arguments are not right, so that dispatch answers exactly when it always did.
 */
import type * as Settle from "../arguments/settle";

let loaded: typeof Settle | undefined;

/** `use(settle.ts)`: right away when it is loaded (always under Node), else once it is. */
export function withSettle<T>(use: (settle: typeof Settle) => T): T | Promise<T> {
  loaded ??= require("../arguments/settle") as typeof Settle;
  return use(loaded);
}
