/**
 * `parseArguments`: arguments text read as dispatch reads it, strict JSON first (args.ts) and the text `JSON.parse`
 * refuses by the lenient reader (repair.ts), in one synchronous call. For code that needs the answer at once
 * (`parseToolCalls`, structured output, JSON Patch calls); dispatch reads strictly and loads the lenient reader on
 * first need (settle.ts).
 */
import { type ReadOptions, type ReadResult, parseText } from "./args";
import { repairJson } from "./repair";

export function parseArguments(text: string, options: ReadOptions = {}): ReadResult {
  return parseText(text, options, repairJson)!;
}
