/**
 * The answers to a call over one of dispatch's limits (limits.ts has the limits): too many calls in one reply, a call
 * id too long, a result too large to send. Each names the limit and the option that changes it. Part of the
 * stages' continuations, loaded on first need; the fast forms only test the limits and leave every answer over
 * one to them.
 */
import { partLabel, type ToolContentPart } from "../tool/content";
import { ToolResultError, ToolValidationError } from "../tool/errors";
import { utf8Length } from "../tool/utf8";

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
export function checkResultSize(
  toolName: string,
  content: string,
  parts: readonly ToolContentPart[] | undefined,
  limit: number,
): void {
  let mediaChars = 0;
  if (parts !== undefined)
    for (const part of parts) if (part.type !== "text") mediaChars += (part.data ?? part.url).length;
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
