/**
 * `#lazy/result-check` under Node: checking a tool's result against its return type (results/check.ts), required on
 * the spot the first time a registry with `checkResults` checks one, so that dispatch answers exactly when it did.
 */
import type * as Check from "../results/check";

let loaded: typeof Check | undefined;

/** `use(check.ts)`: right away when it is loaded (always under Node), else once it is. */
export function withResultCheck<T>(use: (check: typeof Check) => T): T | Promise<T> {
  loaded ??= require("../results/check") as typeof Check;
  return use(loaded);
}
