/**
 * The answer stage's continuation: what one call keeps while it is answered beyond the fast forms (its hook event,
 * its arguments as a ToolCall), and how it ends: the message of a result (result-message.ts), checked for size and
 * against the return type; a failure written for the model, by kind of error (error-text.ts, redacted), through
 * `handleToolError` / `handleValidationError` (tool first, then registry), which may rethrow instead; and the hooks
 * told of each. A thrown value is only ever inspected inside a try, so even a revoked Proxy gets its answer.
 */
import type { Coercion } from "../arguments/repair/coerce";
import type { RepairKind } from "../arguments/repair/repair-json";
import { withResultCheck } from "#lazy/result-check";
import type { ToolCall } from "../tool/call";
import { type ToolResultError, toolErrorKind } from "../tool/errors";
import type { ErrorHandler } from "../tool/options";
import type { ArgsObject } from "../arguments/read/read-arguments";
import type { NormalizedCall } from "./call";
import { type DispatchRun, isCallerAbort } from "./dispatch-run";
import type { DispatchTool } from "./environment";
import { failureText } from "./error-text";
import type { ToolEvent, ToolHooks } from "./hooks";
import { checkResultSize } from "./limit-errors";
import { ToolMessage } from "./messages";
import { successMessage } from "./result-message";
import type { ToolSettings } from "./settings";

/** What one call keeps while it is answered; methods rather than per-call closures keep the common path lean. */
export class CallState {
  /** Set once the arguments are read. */
  args: ArgsObject | undefined;
  #toolCall: ToolCall | undefined;
  #event: ToolEvent | undefined;
  readonly #started: number;

  constructor(
    readonly call: NormalizedCall,
    readonly tool: DispatchTool | undefined,
    readonly run: DispatchRun,
    readonly hooks: Required<ToolHooks> | undefined,
  ) {
    this.#started = hooks ? performance.now() : 0;
  }

  /** The call as a LangChain ToolCall (for ToolContext, handlers and hooks), made when first needed. */
  get toolCall(): ToolCall {
    this.#toolCall ??= { name: this.call.name, args: this.args ?? {}, id: this.call.id, type: "tool_call" };
    return this.#toolCall;
  }

  begin(repairs: readonly RepairKind[] = [], coercions: readonly Coercion[] = []): void {
    if (!this.hooks) return;
    const tool = this.tool;
    this.#event = {
      call: this.toolCall,
      tool,
      tags: tool?.options.tags ?? [],
      metadata: { ...tool?.options.metadata, ...this.run.options.metadata },
      repairs,
      coercions,
    };
    this.hooks.onToolStart(this.#event);
  }

  end(message: ToolMessage): ToolMessage {
    if (this.hooks && this.#event)
      this.hooks.onToolEnd({ ...this.#event, durationMs: this.#elapsed(), status: message.status, message });
    return message;
  }

  /** The error message for a failed call, or the error itself rethrown when the handler is `false`. */
  failure(
    kind: "validation" | "tool",
    handler: ErrorHandler | undefined,
    error: unknown,
    text: (error: unknown) => string,
  ): ToolMessage {
    if (this.hooks && this.#event) this.hooks.onToolError({ ...this.#event, durationMs: this.#elapsed(), kind, error });
    let content: string;
    if (handler === undefined || handler === true) content = text(error);
    else if (handler === false) throw error;
    else if (typeof handler === "string") content = handler;
    else content = String(handler(error, this.toolCall));
    const errorKind = kind === "validation" ? "validation" : toolErrorKind(error);
    return this.end(
      new ToolMessage({
        tool_call_id: this.call.id,
        name: this.tool?.name ?? this.call.name,
        content,
        status: "error",
        errorKind,
      }),
    );
  }

  succeeded(tool: DispatchTool, settings: ToolSettings, value: unknown): ToolMessage | Promise<ToolMessage> {
    let message: ToolMessage;
    try {
      message = successMessage(tool, this.call.id, value);
      checkResultSize(tool.name, message.content, message.parts, settings.maxResultBytes);
    } catch (error) {
      return this.caught(settings, error);
    }
    // Content parts and `[content, artifact]` pairs are tooltype's shapes, not the value the return type describes.
    if (
      !settings.checkResults ||
      message.parts !== undefined ||
      value === undefined ||
      tool.options.responseFormat === "content_and_artifact"
    )
      return this.end(message);
    const returns = tool.meta.returns!;
    const sent = typeof value === "string" ? value : (JSON.parse(message.content) as unknown);
    let checked: ToolResultError | undefined | Promise<ToolResultError | undefined>;
    try {
      checked = withResultCheck((check) => check.resultProblem(tool.name, returns, sent, tool.meta.resultValidator));
    } catch (error) {
      // No validator for the return type (a bundle without ajv): said in the answer, as for any tool failure.
      return this.caught(settings, error);
    }
    const answer = (problem: ToolResultError | undefined): ToolMessage =>
      problem ? this.caught(settings, problem) : this.end(message);
    return checked instanceof Promise
      ? checked.then(answer, (error: unknown) => this.caught(settings, error))
      : answer(checked);
  }

  /** A failure after the arguments were accepted: the caller's abort is passed on, anything else answered. */
  caught(settings: ToolSettings, error: unknown): ToolMessage {
    if (isCallerAbort(error)) {
      if (this.hooks && this.#event)
        this.hooks.onToolError({ ...this.#event, durationMs: this.#elapsed(), kind: "aborted", error: error.reason });
      throw error.reason;
    }
    return this.failure("tool", settings.toolHandler, error, (e) => failureText(e, settings.redact));
  }

  #elapsed(): number {
    return performance.now() - this.#started;
  }
}
