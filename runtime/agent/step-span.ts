/**
 * A span per model request of `runTools` when a tracer provider is registered, after OpenTelemetry's GenAI
 * conventions: `chat {model}` (client), with `gen_ai.operation.name`, `gen_ai.provider.name` and
 * `gen_ai.request.model`; the calls of the reply get their `execute_tool` spans under it.
 */
import type { OTelContext, OTelSpan } from "../telemetry/otel-api";
import { SPAN_KIND, STATUS_ERROR } from "../telemetry/otel-api";
import { activeTracing } from "../telemetry/tracing";
import { entryOf, isMessageFormat } from "../providers/catalog";

export interface StepSpan {
  /** The context the step's tool calls are traced under. */
  readonly context: OTelContext;
  fail(error: unknown): void;
  end(): void;
}

/** The span of step `index`'s request, or undefined when nothing is traced. */
export function startStepSpan(
  providerName: string,
  params: Record<string, unknown>,
  index: number,
): StepSpan | undefined {
  const tracing = activeTracing();
  if (tracing === undefined) return undefined;
  const { api, tracer } = tracing;
  const model = typeof params.model === "string" ? params.model.slice(0, 200) : undefined;
  const parent = api.context.active();
  const span: OTelSpan = tracer.startSpan(
    model === undefined ? "chat" : `chat ${model}`,
    {
      kind: SPAN_KIND.client,
      attributes: {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name":
          (isMessageFormat(providerName) ? entryOf(providerName).genAiName : undefined) ?? providerName,
        ...(model === undefined ? {} : { "gen_ai.request.model": model }),
        "tooltype.step": index,
      },
    },
    parent,
  );
  let ended = false;
  return {
    context: api.trace.setSpan(parent, span),
    fail(error) {
      span.setAttribute("error.type", error instanceof Error && error.name ? error.name : "error");
      span.setStatus({
        code: STATUS_ERROR,
        ...(error instanceof Error ? { message: error.message.slice(0, 500) } : {}),
      });
    },
    end() {
      if (ended) return;
      ended = true;
      span.end();
    },
  };
}
