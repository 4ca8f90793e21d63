/**
 * W3C Trace Context's `traceparent` (version-traceid-parentid-flags), read from what a remote peer sent (an MCP
 * request's `_meta`) and written for one. What a peer sends is untrusted: anything but a well-formed header of at
 * most a few hundred characters is ignored, and the trace starts here instead.
 */
import type { OTelApi, OTelContext, OTelSpanContext } from "./otel-api";

const HEADER = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = "0".repeat(32);
const ZERO_SPAN = "0".repeat(16);

/** The remote span context `value` names, or undefined when it is not a valid `traceparent`. */
export function readTraceparent(value: unknown): OTelSpanContext | undefined {
  if (typeof value !== "string" || value.length > 512) return undefined;
  const match = HEADER.exec(value.trim());
  if (match === null) return undefined;
  const [, version, traceId, spanId, flags, rest] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string?,
  ];
  // Version ff is forbidden; version 00 has exactly four fields; a later version may add fields after a dash.
  if (version === "ff" || (version === "00" && rest !== undefined)) return undefined;
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return undefined;
  return { traceId, spanId, traceFlags: Number.parseInt(flags, 16) & 0xff, isRemote: true };
}

/** The `traceparent` of a span context (version 00). */
export function writeTraceparent(context: OTelSpanContext): string {
  return `00-${context.traceId}-${context.spanId}-${(context.traceFlags & 0xff).toString(16).padStart(2, "0")}`;
}

/** The context a remote `traceparent` continues, or `fallback` when there is none (or it is not valid). */
export function remoteContext(api: OTelApi, traceparent: unknown, fallback: OTelContext): OTelContext {
  const remote = readTraceparent(traceparent);
  return remote === undefined ? fallback : api.trace.setSpanContext(fallback, remote);
}
