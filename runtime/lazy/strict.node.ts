/**
 * `#lazy/strict` under Node: the rewrite into OpenAI's strict subset (strict/openai.ts), required on the first
 * export that asks for strict mode, so that an app that never does never loads it.
 */
type Strict = typeof import("../strict/openai");

/** strict.ts's `toStrictSchema`, loaded on its first call. */
export const toStrictSchema: Strict["toStrictSchema"] = (schema, toolName) =>
  (require("../strict/openai") as Strict).toStrictSchema(schema, toolName);
