/** Reading the calls of a Gemini response or Content: its `functionCall` parts. */
import type { NormalizedCall } from "../../dispatch/call";
import { argsCall } from "../provider";
import type { GeminiInput } from "./wire";

/** `functionCall` parts of the first candidate's content, or of the Content itself. */
export function readGeminiCalls(message: GeminiInput): NormalizedCall[] {
  const record = message as Record<string, unknown>;
  let parts: unknown = record.parts;
  if (Array.isArray(record.candidates)) {
    const candidate: unknown = record.candidates[0];
    const content =
      typeof candidate === "object" && candidate !== null ? (candidate as { content?: unknown }).content : undefined;
    parts = typeof content === "object" && content !== null ? (content as { parts?: unknown }).parts : undefined;
  }
  const calls: NormalizedCall[] = [];
  if (!Array.isArray(parts)) return calls;
  for (const part of parts) {
    if (typeof part !== "object" || part === null) continue;
    const call: unknown = (part as { functionCall?: unknown }).functionCall;
    if (typeof call !== "object" || call === null) continue;
    const fields = call as Record<string, unknown>;
    calls.push(argsCall(fields, fields.args));
  }
  return calls;
}
