/**
 * Whether calls are traced, decided per dispatch: only when an OpenTelemetry tracer provider is registered (the API
 * keeps it on a global object under a well-known symbol, which is read without loading anything). Then the API is
 * loaded (#lazy/otel, or the one `useOpenTelemetry` gave) and tooltype's tracer made, once per provider.
 */
import { loadOpenTelemetry } from "#lazy/otel";
import type { OTelApi, OTelTracer } from "./otel-api";

/** Where `@opentelemetry/api` 1.x keeps its registered globals (the tracer provider under `trace`). */
const GLOBALS = Symbol.for("opentelemetry.js.api.1");

export interface Tracing {
  readonly api: OTelApi;
  readonly tracer: OTelTracer;
}

let given: OTelApi | undefined;
let loaded: OTelApi | null | undefined;
let made: { provider: unknown; tracing: Tracing | undefined } | undefined;

/**
 * Give tooltype the OpenTelemetry API: needed in a bundle (which loads no optional package by itself); under Node
 * the API is found on its own once a tracer provider is registered.
 */
export function useOpenTelemetry(api: OTelApi | undefined): void {
  given = api;
  made = undefined;
}

/** The tracer of this moment, or undefined when no tracer provider is registered (the common, untraced case). */
export function activeTracing(): Tracing | undefined {
  const globals = (globalThis as Record<symbol, { trace?: unknown } | undefined>)[GLOBALS];
  const provider = globals?.trace;
  if (provider === undefined) return undefined;
  if (made !== undefined && made.provider === provider) return made.tracing;
  const api = given ?? loadedApi();
  made = { provider, tracing: api === undefined ? undefined : { api, tracer: api.trace.getTracer("tooltype") } };
  return made.tracing;
}

function loadedApi(): OTelApi | undefined {
  if (loaded === undefined) loaded = loadOpenTelemetry() ?? null;
  return loaded ?? undefined;
}
