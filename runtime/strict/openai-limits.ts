/**
 * OpenAI's documented limits for function tools and strict schemas, and the one every export checks: at most 128
 * tools in one request. Apart from openai.ts so that exporting tools without strict mode needs none of the strict
 * rewrite (under Node, openai.ts is then never loaded).
 */
import { ToolExportError } from "../tool/errors";

/** OpenAI's documented limits for function tools and strict schemas. */
export const OPENAI_LIMITS = {
  /** Tools in one request. */
  tools: 128,
  /** Levels of object nesting in one schema. */
  depth: 10,
  /** Object properties in one schema, in total. */
  properties: 5000,
  /** Characters across property names, definition names, enum and const values. */
  stringLength: 120_000,
  /** Enum values across all enums of one schema. */
  enumValues: 1000,
  /** A string enum with more values than this … */
  largeEnum: 250,
  /** … may total at most this many characters. */
  largeEnumLength: 15_000,
} as const;

/** OpenAI takes at most 128 tools in one request. */
export function checkToolCount(count: number, format: string): void {
  if (count > OPENAI_LIMITS.tools) {
    throw new ToolExportError(
      `OpenAI accepts at most ${OPENAI_LIMITS.tools} tools in one request; this registry exports ${count}. Register fewer tools in the registry you export (OpenAI advises fewer than about 20 per turn).`,
      { format },
    );
  }
}
