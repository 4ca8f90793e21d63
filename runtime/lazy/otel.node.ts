/**
 * `#lazy/otel` under Node: `@opentelemetry/api` (an optional peer), required only once a tracer provider has been
 * registered, which means the app has the package already; an app without it never loads anything.
 */
import type { OTelApi } from "../telemetry/otel-api";

/** Named apart from the `require`, so that a bundler reading this CommonJS build does not pull the package in. */
const API = "@opentelemetry/api";

export function loadOpenTelemetry(): OTelApi | undefined {
  try {
    return require(API) as OTelApi;
  } catch {
    // A provider registered by another copy of the API that this package cannot resolve: no spans, no failure.
    return undefined;
  }
}
