/**
 * `#lazy/tool-spans` in a bundle: nothing. A bundle traces only with the API `useOpenTelemetry` gave, and that call
 * brings the wrapper itself (dispatch/traced.ts), so no dispatch asks for it here; should one, calls run untraced.
 */
import type { SpanWrapper } from "../dispatch/trace-parent";

export function loadToolSpans(): SpanWrapper {
  return (options) => options;
}
