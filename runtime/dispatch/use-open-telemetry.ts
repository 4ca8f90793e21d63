/** The public switch of tracing in a bundle: the API, and with it the span wrapper a traced dispatch uses. */
import { giveOpenTelemetry } from "../telemetry/tracing";
import { withToolSpans } from "./tool-spans";
import { giveToolSpans } from "./traced";

/**
 * Give tooltype the OpenTelemetry API (the `@opentelemetry/api` module: `useOpenTelemetry(await import("@opentelemetry/api"))`):
 * needed in a bundle, which loads no optional package by itself; under Node the API is found on its own once a
 * tracer provider is registered. `undefined` takes it back.
 */
export function useOpenTelemetry(api: object | undefined): void {
  giveOpenTelemetry(api);
  giveToolSpans(withToolSpans);
}
