/**
 * The bounds dispatch applies by default. Each error that answers a call over one of them (limit-errors.ts) names
 * the limit and the option that changes it, so a developer reading the transcript knows what to set.
 *
 * | limit | default | option (where) |
 * |---|---|---|
 * | time of one call | 60 s ({@link DEFAULT_TOOL_TIMEOUT_MS}) | `timeoutMs` (tool, registry; `false` or `Infinity`:
 * none) |
 * | calls run per reply | 64 ({@link MAX_CALLS_PER_MESSAGE}) | `maxCallsPerMessage` (registry, dispatch) |
 * | result sent to the model | 1 MiB: UTF-8 text + base64 of media parts ({@link MAX_RESULT_BYTES}) | `maxResultBytes`
 * (tool, registry) |
 * | `tool_call_id` length | 256 characters ({@link MAX_CALL_ID_LENGTH}) | `maxCallIdLength` (registry, dispatch) |
 *
 * The arguments' own size and depth limits are arguments/read/read-arguments.ts's. The errors that answer a call over a
 * limit are
 * limit-errors.ts's (loaded on first need); which option applies is settings.ts's. Every call needs this file, so it
 * stays small.
 */

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

/** A usable count limit: a positive integer, or Infinity for none. */
export function countLimit(name: string, value: number | undefined, fallback: number): number {
  const limit = limitOf(value, fallback);
  if (!Number.isNaN(limit)) return limit;
  throw new RangeError(`${name} must be a positive integer (or Infinity); got ${String(value)}.`);
}

/** Like countLimit, without throwing: NaN for a value countLimit refuses (dispatch.ts then leaves the batch to batch.ts, which throws it). */
export function limitOf(value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  return value === Infinity || (Number.isInteger(value) && value >= 1) ? value : NaN;
}
