/** `accumulateToolCalls("gemini")`: a streamed Gemini reply read chunk by chunk (each holds whole `functionCall` parts). */
import { CallState, StreamAccumulator, type UpdateDraft } from "../stream";
import type { GeminiContent, GeminiFunctionCall, GeminiPart, GeminiResponse } from "./wire";

/**
 * Gemini stream chunks in, complete `functionCall` parts out: each chunk is a response whose first candidate holds
 * some parts; a call arrives whole in one part, so it is complete as soon as it is read. `done()` is the model's
 * Content, its parts in the order they came.
 */
export class GeminiAccumulator extends StreamAccumulator<GeminiResponse, GeminiFunctionCall, GeminiContent> {
  readonly #parts: GeminiPart[] = [];
  readonly #calls: CallState[] = [];
  readonly #complete: GeminiFunctionCall[] = [];

  constructor() {
    super("gemini");
  }

  protected read(chunk: GeminiResponse, update: UpdateDraft<GeminiFunctionCall>): void {
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) {
      this.#parts.push(part);
      if (typeof part.text === "string" && part.thought !== true && part.text !== "") {
        this.text += part.text;
        update.text += part.text;
      }
      const call = part.functionCall;
      if (typeof call === "object" && call !== null) {
        const state = new CallState(this.#calls.length);
        state.id = typeof call.id === "string" ? call.id : "";
        state.name = typeof call.name === "string" ? call.name : "";
        state.arguments = JSON.stringify(call.args ?? {});
        state.complete = true;
        this.#calls.push(state);
        this.#complete.push(call);
        update.deltas.push({ call: state, argumentsDelta: state.arguments });
        update.completed.push(call);
      }
    }
    if (typeof candidate?.finishReason === "string") {
      this.finish = candidate.finishReason;
      update.finishReason = candidate.finishReason;
    }
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
    return { role: "model", parts: [...this.#parts] };
  }
}
