/**
 * `#lazy/strict` in a bundle: the strict rewrite by static import. `toOpenAITools` is synchronous and cannot wait
 * for a chunk, so a bundle that exports tools carries the rewrite from the start.
 */
export { toStrictSchema } from "../strict/openai";
