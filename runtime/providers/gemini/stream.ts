/**
 * `accumulateToolCalls("gemini")`: a streamed Gemini reply read chunk by chunk. A call comes whole in one part, or,
 * with streamed function-call arguments (Gemini 3), in several: assembled here into one call (streamed-args.ts).
 */
import { CallState, StreamAccumulator, type UpdateDraft } from "../stream";
import { StreamedArguments } from "./streamed-args";
import type { GeminiContent, GeminiFunctionCall, GeminiPart, GeminiResponse } from "./wire";

/** A call whose arguments are still streaming: its state, its pieces' value, and its place among the reply's parts. */
interface Streaming {
  readonly state: CallState;
  readonly args: StreamedArguments;
  readonly part: number;
  /** The first part's other fields (a thought signature), kept on the assembled part. */
  readonly extra: Omit<GeminiPart, "functionCall">;
}

/**
 * Gemini stream chunks in, complete `functionCall` parts out: each chunk is a response whose first candidate holds
 * some parts. A part with a whole call (no `willContinue`, no `partialArgs`) completes at once. A call that
 * streams starts with a part that has its name and `willContinue: true`; parts without a name add `partialArgs`
 * pieces to it, and the first of them without `willContinue` completes it (so does a new named call, the reply's
 * finish reason, or `done()`). `done()` is the model's Content, its parts in the order they came, a streamed call
 * as one part with its `args`, as the API's non-streamed reply holds it.
 */
export class GeminiAccumulator extends StreamAccumulator<GeminiResponse, GeminiFunctionCall, GeminiContent> {
  readonly #parts: GeminiPart[] = [];
  readonly #calls: CallState[] = [];
  readonly #complete: GeminiFunctionCall[] = [];
  #streaming: Streaming | undefined;

  constructor() {
    super("gemini");
  }

  protected read(chunk: GeminiResponse, update: UpdateDraft<GeminiFunctionCall>): void {
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) {
      const call = part.functionCall;
      if (typeof call === "object" && call !== null) {
        this.#readCall(part, call, update);
        continue;
      }
      this.#parts.push(part);
      if (typeof part.text === "string" && part.thought !== true && part.text !== "") {
        this.text += part.text;
        update.text += part.text;
      }
    }
    if (typeof candidate?.finishReason === "string") {
      this.#finishStreaming(update);
      this.finish = candidate.finishReason;
      update.finishReason = candidate.finishReason;
    }
  }

  #readCall(part: GeminiPart, call: GeminiFunctionCall, update: UpdateDraft<GeminiFunctionCall>): void {
    const named = typeof call.name === "string" && call.name !== "";
    const pieces = Array.isArray(call.partialArgs) ? call.partialArgs : [];
    let streaming = this.#streaming;
    // A new named call ends the one still streaming (which then had no closing part).
    if (streaming && named && streaming.state.name !== "") {
      this.#finishStreaming(update);
      streaming = undefined;
    }
    if (!streaming && call.willContinue !== true && pieces.length === 0) {
      const state = new CallState(this.#calls.length);
      state.id = typeof call.id === "string" ? call.id : "";
      state.name = named ? call.name! : "";
      state.arguments = JSON.stringify(call.args ?? {});
      state.complete = true;
      this.#calls.push(state);
      this.#parts.push(part);
      this.#complete.push(call);
      update.deltas.push({ call: state, argumentsDelta: state.arguments });
      update.completed.push(call);
      return;
    }
    if (!streaming) {
      const { functionCall: _call, ...extra } = part;
      streaming = {
        state: new CallState(this.#calls.length),
        args: new StreamedArguments(),
        part: this.#parts.length,
        extra,
      };
      this.#calls.push(streaming.state);
      // Its place among the parts, filled with the assembled call when it completes.
      this.#parts.push({ ...extra, functionCall: {} });
      this.#streaming = streaming;
    } else if (part.thoughtSignature !== undefined && streaming.extra.thoughtSignature === undefined) {
      (streaming.extra as GeminiPart).thoughtSignature = part.thoughtSignature;
    }
    const state = streaming.state;
    if (named && state.name === "") state.name = call.name!;
    if (typeof call.id === "string" && state.id === "") state.id = call.id;
    let added = streaming.args.merge(call.args);
    for (const piece of pieces) added += streaming.args.apply(piece);
    state.arguments = streaming.args.text;
    // The closing part's fragment comes before the call's completion, as one fragment of this event.
    const last = call.willContinue !== true;
    if (last) added += this.#close(streaming);
    if (added !== "" || last) update.deltas.push({ call: state, argumentsDelta: added });
    if (last) this.#finishStreaming(update);
  }

  /** Closes a streaming call's arguments text; returns what that added ("" when the text was written again whole). */
  #close(streaming: Streaming): string {
    const added = streaming.args.finish();
    streaming.state.arguments = streaming.args.text;
    return added ?? "";
  }

  /** Completes the call still streaming, if any (its text closed already, or closed here without a fragment). */
  #finishStreaming(update: UpdateDraft<GeminiFunctionCall> | undefined): void {
    const streaming = this.#streaming;
    if (!streaming) return;
    this.#streaming = undefined;
    const { state, args } = streaming;
    if (!args.finished) this.#close(streaming);
    state.complete = true;
    const call: GeminiFunctionCall = {
      ...(state.id === "" ? {} : { id: state.id }),
      name: state.name,
      args: args.value,
    };
    this.#parts[streaming.part] = { ...streaming.extra, functionCall: call };
    this.#complete.push(call);
    update?.completed.push(call);
  }

  get refusal(): null {
    return null;
  }

  /** The same array each time, growing as calls complete (read it on every chunk at no cost). */
  get calls(): readonly GeminiFunctionCall[] {
    return this.#complete;
  }

  /** The same array each time, growing as calls arrive. */
  get partial(): readonly CallState[] {
    return this.#calls;
  }

  protected reply(): GeminiContent {
    this.#finishStreaming(undefined);
    return { role: "model", parts: [...this.#parts] };
  }
}
