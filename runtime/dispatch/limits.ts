/**
 * The bounds dispatch applies by default, and the errors that answer a call over one of them. Each error names the
 * limit and the option that changes it, so a developer reading the transcript knows what to set.
 *
 * | limit | default | option (where) |
 * |---|---|---|
 * | time of one call | 60 s ({@link DEFAULT_TOOL_TIMEOUT_MS}) | `timeoutMs` (tool, registry; `false` or `Infinity`: none) |
 * | calls run per reply | 64 ({@link MAX_CALLS_PER_MESSAGE}) | `maxCallsPerMessage` (registry, dispatch) |
 * | result sent to the model | 1 MiB: UTF-8 text + base64 of media parts ({@link MAX_RESULT_BYTES}) | `maxResultBytes` (tool, registry) |
 * | `tool_call_id` length | 256 characters ({@link MAX_CALL_ID_LENGTH}) | `maxCallIdLength` (registry, dispatch) |
 *
 * The arguments' own size and depth limits are arguments/args.ts's.
 */
import { partLabel, type ToolContentPart } from "../tool/content";
import { ToolResultError, ToolValidationError } from "../tool/errors";
import { utf8Length } from "../tool/utf8";

/**
 * Default time limit of one call: the MCP SDK's default request timeout, so a tool served over MCP is answered
 * before the client gives up on it; long enough for a slow HTTP call, short enough that a hung tool frees its slot.
 */
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;
/** Default cap on the calls of one reply that are run; models make a handful, rarely more than 20. */
export const MAX_CALLS_PER_MESSAGE = 64;
/** Default cap on what a result sends, in bytes (UTF-8 text, base64 media): text of about 250,000 tokens. */
export const MAX_RESULT_BYTES = 1_048_576;
/** Default cap on a call id's length: OpenAI refuses ids over 64 (40 on some models); 256 leaves room for gateways. */
export const MAX_CALL_ID_LENGTH = 256;

/** The answer to each call past the first `limit` of a reply of `total` calls. */
export function tooManyCallsError(toolName: string, total: number, limit: number): ToolValidationError {
  return new ToolValidationError(
    `this reply made ${total} tool calls and at most ${limit} are run per reply (maxCallsPerMessage); call ${limit + 1} and the ones after it were not run. Make at most ${limit} calls at a time and call the rest in your next turn.`,
    { reason: "too_many_calls", toolName },
  );
}

export function callIdTooLongError(toolName: string, length: number, limit: number): ToolValidationError {
  return new ToolValidationError(
    `the id of this tool call is ${length} characters long; the limit is ${limit} (maxCallIdLength). The call was not run.`,
    { reason: "call_id_too_long", toolName },
  );
}

/**
 * Throws a ToolResultError when what a result sends to the model is over `limit` bytes: its text (UTF-8) plus, for
 * each image or file part, its data as the base64 text that goes over the wire (or its URL, which may be a `data:`
 * URL). The artifact stays in process and is not counted. Measures the UTF-8 only when the lengths cannot decide.
 */
export function checkResultSize(toolName: string, content: string, parts: readonly ToolContentPart[] | undefined, limit: number): void {
  let mediaChars = 0;
  if (parts !== undefined) for (const part of parts) if (part.type !== "text") mediaChars += (part.data ?? part.url).length;
  if ((content.length + mediaChars) * 3 <= limit) return;
  const textBytes = utf8Length(content);
  if (parts === undefined || mediaChars === 0) {
    if (textBytes <= limit) return;
    throw new ToolResultError(
      toolName,
      `the result of ${toolName} is too large to send (${textBytes} bytes; the limit is ${limit} bytes of text, maxResultBytes). Ask for less, e.g. a narrower query or a page of the results.`,
    );
  }
  let mediaBytes = 0;
  let count = 0;
  let largest: { label: string; bytes: number } | undefined;
  for (const part of parts) {
    if (part.type === "text") continue;
    const bytes = utf8Length(part.data ?? part.url);
    mediaBytes += bytes;
    count++;
    if (largest === undefined || bytes > largest.bytes) largest = { label: partLabel(part, count), bytes };
  }
  if (textBytes + mediaBytes <= limit) return;
  throw new ToolResultError(
    toolName,
    `the result of ${toolName} is too large to send (${textBytes + mediaBytes} bytes: ${textBytes} of text and ${mediaBytes} of base64 data in ${count} image/file part${count === 1 ? "" : "s"}, the largest ${largest!.label} with ${largest!.bytes}; the limit is ${limit} bytes, maxResultBytes). Ask for less: fewer or smaller images or files (e.g. a lower resolution, a crop, one page at a time); a tool that needs more can raise maxResultBytes.`,
  );
}

/** A usable count limit: a positive integer, or Infinity for none. */
export function countLimit(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (value === Infinity || (Number.isInteger(value) && value >= 1)) return value;
  throw new RangeError(`${name} must be a positive integer (or Infinity); got ${String(value)}.`);
}
