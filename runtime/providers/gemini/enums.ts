/**
 * Gemini's enums, tooltype's copies of `@google/genai`'s `Type` and `FunctionCallingConfigMode`: public values of
 * the main entry (`GeminiType`, `GeminiFunctionCallingConfigMode`), apart from the provider so that importing
 * them does not load it.
 */
/** Gemini's schema types (the `@google/genai` `Type` enum). */
export enum Type {
  TYPE_UNSPECIFIED = "TYPE_UNSPECIFIED",
  STRING = "STRING",
  NUMBER = "NUMBER",
  INTEGER = "INTEGER",
  BOOLEAN = "BOOLEAN",
  ARRAY = "ARRAY",
  OBJECT = "OBJECT",
  NULL = "NULL",
}

/** Gemini's function calling modes (the `@google/genai` `FunctionCallingConfigMode` enum). */
export enum FunctionCallingConfigMode {
  MODE_UNSPECIFIED = "MODE_UNSPECIFIED",
  AUTO = "AUTO",
  ANY = "ANY",
  NONE = "NONE",
  VALIDATED = "VALIDATED",
}
