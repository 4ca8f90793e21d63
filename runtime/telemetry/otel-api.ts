/**
 * The part of `@opentelemetry/api` tooltype uses, written structurally: the package is an optional peer, so neither
 * tooltype's declarations nor its modules may name it. Numbers are the specification's (SpanKind, SpanStatusCode).
 */

export type AttributeValue = string | number | boolean | string[];
export type Attributes = Record<string, AttributeValue>;

export interface OTelContext {
  getValue(key: symbol): unknown;
  setValue(key: symbol, value: unknown): OTelContext;
  deleteValue(key: symbol): OTelContext;
}

export interface OTelSpanContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
  isRemote?: boolean;
}

export interface OTelSpan {
  spanContext(): OTelSpanContext;
  setAttribute(key: string, value: AttributeValue): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  recordException(exception: unknown): void;
  end(): void;
}

export interface OTelTracer {
  startSpan(name: string, options?: { kind?: number; attributes?: Attributes }, context?: OTelContext): OTelSpan;
}

export interface OTelApi {
  readonly trace: {
    getTracer(name: string, version?: string): OTelTracer;
    getSpan(context: OTelContext): OTelSpan | undefined;
    setSpan(context: OTelContext, span: OTelSpan): OTelContext;
    setSpanContext(context: OTelContext, spanContext: OTelSpanContext): OTelContext;
  };
  readonly context: {
    active(): OTelContext;
    with<R>(context: OTelContext, fn: () => R): R;
  };
  readonly ROOT_CONTEXT: OTelContext;
}

export const SPAN_KIND = { internal: 0, server: 1, client: 2 } as const;
export const STATUS_ERROR = 2;
