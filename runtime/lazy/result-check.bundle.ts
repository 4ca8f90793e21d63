/**
 * `#lazy/result-check` in a bundle: checking a tool's result against its return type (results/check.ts) in a chunk of
 * its own, loaded the first time a registry with `checkResults` checks one (most apps never do).
 */
import type * as Check from "../results/check";
import { chunk } from "./chunk";

const check = chunk<typeof Check>(() => import("../results/check.js"));

/** `use(check.ts)`: right away when it is loaded, else once its chunk has. */
export function withResultCheck<T>(use: (check: typeof Check) => T): T | Promise<T> {
  return check.use(use);
}
