/**
 * How the tool exports reach the strict rewrite (strict.ts) under Node (the CommonJS build; package.json `imports`,
 * `#strict`, default condition): required on the first export that asks for strict mode, so an app that never does
 * never loads it. Bundlers take strict-static.ts, a static import: `toOpenAITools` is synchronous, so a bundle that
 * can export tools must carry the rewrite from the start.
 */
import type { JsonSchema } from "../tool/meta";

/** strict.ts's `toStrictSchema`, loaded on its first call. */
export function toStrictSchema(schema: JsonSchema, toolName: string): JsonSchema {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require("./strict") as typeof import("./strict")).toStrictSchema(schema, toolName);
}
