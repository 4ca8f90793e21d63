/**
 * How the tool exports reach the strict rewrite (strict.ts) in a bundle (the ES module build; package.json
 * `imports`, `#strict`, `module` condition): a static import, since `toOpenAITools` is synchronous and cannot wait
 * for a chunk. Node takes strict-now.ts instead.
 */
export { toStrictSchema } from "./strict";
