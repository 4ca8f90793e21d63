/**
 * Keywords a strict grammar does not take, written as sentences of the description (OpenAI's strict mode,
 * Anthropic's strict tool use): the model still reads the constraint, and dispatch still enforces it.
 */
import type { JsonValue } from "../tool/meta";
import { json } from "../validation/json-schema";

/** A keyword strict mode does not take, as a sentence for the description. */
export function note(keyword: string, value: JsonValue | undefined): string {
  const count = (n: unknown, one: string, many: string): string => `${String(n)} ${n === 1 ? one : many}`;
  switch (keyword) {
    case "default":
      return `Default: ${json(value)}.`;
    case "examples":
      if (Array.isArray(value) && value.length === 1) return `Example: ${json(value[0])}.`;
      return `Examples: ${Array.isArray(value) ? value.map(json).join(", ") : json(value)}.`;
    case "format":
      return `Format: ${typeof value === "string" ? value : json(value)}.`;
    case "minLength":
      return `At least ${count(value, "character", "characters")}.`;
    case "maxLength":
      return `At most ${count(value, "character", "characters")}.`;
    case "minItems":
      return `At least ${count(value, "item", "items")}.`;
    case "maxItems":
      return `At most ${count(value, "item", "items")}.`;
    case "minimum":
      return `Minimum: ${json(value)}.`;
    case "maximum":
      return `Maximum: ${json(value)}.`;
    case "exclusiveMinimum":
      return `Greater than ${json(value)}.`;
    case "exclusiveMaximum":
      return `Less than ${json(value)}.`;
    case "multipleOf":
      return `A multiple of ${json(value)}.`;
    case "pattern":
      return `Pattern: ${typeof value === "string" ? `/${value}/` : json(value)}.`;
    case "minProperties":
      return `At least ${count(value, "property", "properties")}.`;
    case "maxProperties":
      return `At most ${count(value, "property", "properties")}.`;
    case "uniqueItems":
      return value === true ? "Items must be unique." : "";
    case "deprecated":
      if (value === false) return "";
      return typeof value === "string" && value !== "" ? `Deprecated: ${value}` : "Deprecated.";
    case "readOnly":
    case "writeOnly":
      return "";
    default:
      return `${keyword}: ${json(value)}.`;
  }
}

/** The description followed by the notes, as sentences. */
export function withNotes(description: JsonValue | undefined, notes: string[]): string {
  const text = notes.join(" ");
  if (typeof description !== "string" || description.trim() === "") return text;
  const trimmed = description.trimEnd();
  return /[.!?:)]$/.test(trimmed) ? `${trimmed} ${text}` : `${trimmed}. ${text}`;
}
