/**
 * Where dispatch gets its failure path for arguments (settle.ts): under Node at once (settle-now.ts), in a bundle
 * from a chunk loaded the first time a call's arguments are not right (settle-later.ts).
 */
import { loadSettle } from "#settle";
import type * as Settle from "./settle";

/** `use(settle.ts)`: right away when it is loaded (always under Node), else once it is. */
export function withSettle<T>(use: (settle: typeof Settle) => T): T | Promise<T> {
  const settle = loadSettle();
  return settle instanceof Promise ? settle.then(use) : use(settle);
}
