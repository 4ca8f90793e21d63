/**
 * `#lazy/settle` in a bundle: the lenient reader, coercion and the words of error messages (arguments/settle.ts) in
 * a chunk of their own, loaded the first time a call's arguments are not right.
 */
import type * as Settle from "../arguments/settle";
import { chunk } from "./chunk";

const settle = chunk<typeof Settle>(() => import("../arguments/settle.js"));

/** `use(settle.ts)`: right away when it is loaded, else once its chunk has. */
export function withSettle<T>(use: (settle: typeof Settle) => T): T | Promise<T> {
  return settle.use(use);
}
