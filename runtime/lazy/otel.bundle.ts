/**
 * `#lazy/otel` in a bundle: nothing loaded on its own (a bundler cannot know the app traces, and a synchronous
 * dispatch cannot wait for a chunk); a bundled app hands tooltype the API with `useOpenTelemetry(api)`.
 */
import type { OTelApi } from "../telemetry/otel-api";

export function loadOpenTelemetry(): OTelApi | undefined {
  return undefined;
}
