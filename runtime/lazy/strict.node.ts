/**
 * `#lazy/strict` under Node: the rewrite into OpenAI's strict subset (providers/strict.ts), required on the first
 * export that asks for strict mode, so that an app that never does never loads it.
 */
type Strict = typeof import("../providers/strict");

/** strict.ts's `toStrictSchema`, loaded on its first call. */
export const toStrictSchema: Strict["toStrictSchema"] = (schema, toolName) =>
  (require("../providers/strict") as Strict).toStrictSchema(schema, toolName);
