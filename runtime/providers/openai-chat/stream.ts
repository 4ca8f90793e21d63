/**
 * `accumulateToolCalls()`: Chat Completions stream chunks in, complete tool calls out.
 *
 * - `push(chunk)`: reads the first choice's `delta`: text (`content`), `refusal`, and `tool_calls` fragments by
 *   `index` (the id, type and name come first, then the arguments text in pieces). Returns what the chunk changed.
 * - A call is complete when a fragment of a later index arrives (calls stream one after another), when the choice's
 *   `finish_reason` arrives, or at `done()`; `calls` lists the complete ones, ready to dispatch while the rest of
 *   the reply is still streaming.
 * - `partial`: every call seen so far, with its arguments text and `args`, the arguments parsed as far as they go
 *   (by `partial-json`, a maintained parser for incomplete JSON), for progressive UIs. Parsed on first read of
 *   `args` after a change, not on every fragment, so a long argument text is not parsed once per token.
 * - `done()`: the assembled assistant message, in the shape of a non-streamed reply.
 *
 * The partial arguments are for display only: they are copied into plain objects (`__proto__` keys dropped) and
 * never dispatched; a complete call's arguments text goes through dispatch's own reading and validation.
 */
import { Allow, parse as parsePartialJson } from "partial-json";
import type { ChatAssistantMessage, ChatCompletionStreamChunk, ChatFunctionToolCall } from "./client";

/** A tool call as far as it has streamed. */
export interface PartialToolCall {
  /** The call's position in the reply (`delta.tool_calls[].index`). */
  readonly index: number;
  /** `""` until the fragment carrying it arrives. */
  readonly id: string;
  readonly name: string;
  /** The arguments text so far. */
  readonly arguments: string;
  /**
   * The arguments parsed as far as they go, e.g. `{"city": "Par` → `{ city: "Par" }`; `undefined` while nothing
   * parses to an object yet. Strings and numbers at the end may still grow.
   */
  readonly args: Record<string, unknown> | undefined;
  /** No more fragments will come for this call. */
  readonly complete: boolean;
}

/** A streamed reply, assembled: only function tool calls stream, so those are the only calls it holds. */
export interface StreamedAssistantMessage extends ChatAssistantMessage {
  tool_calls?: ChatFunctionToolCall[];
}

/** What one chunk changed. */
export interface AccumulatorUpdate {
  /** Text added to the reply's content by this chunk (`""` if none). */
  readonly text: string;
  /** Text added to the reply's refusal by this chunk (`""` if none). */
  readonly refusal: string;
  /** Each tool call fragment of this chunk: the call it belongs to and the arguments text it added. */
  readonly deltas: readonly { readonly call: PartialToolCall; readonly argumentsDelta: string }[];
  /** Calls this chunk completed, in index order. */
  readonly completed: readonly ChatFunctionToolCall[];
  /** The choice's `finish_reason`, when this chunk carries it. */
  readonly finishReason: string | null;
}

export interface ToolCallAccumulator {
  /** Read one chunk; returns what it changed. Throws if a fragment arrives for a call already complete. */
  push(chunk: ChatCompletionStreamChunk): AccumulatorUpdate;
  /** The reply's text so far (`""` if none). */
  readonly content: string;
  /** The reply's refusal so far, or `null`. */
  readonly refusal: string | null;
  /** The complete tool calls, in index order. */
  readonly calls: readonly ChatFunctionToolCall[];
  /** Every tool call seen so far, in index order. */
  readonly partial: readonly PartialToolCall[];
  /** The last `finish_reason` seen, or `null`. */
  readonly finishReason: string | null;
  /** Completes every call and returns the reply as an assistant message. Further chunks are refused. */
  done(): StreamedAssistantMessage;
}

/** Starts accumulating one streamed reply. */
export function accumulateToolCalls(): ToolCallAccumulator {
  return new Accumulator();
}

class CallState implements PartialToolCall {
  readonly index: number;
  id = "";
  name = "";
  arguments = "";
  complete = false;
  #parsedLength = -1;
  #parsed: Record<string, unknown> | undefined;

  constructor(index: number) {
    this.index = index;
  }

  get args(): Record<string, unknown> | undefined {
    if (this.#parsedLength !== this.arguments.length) {
      this.#parsed = parsePartialArguments(this.arguments) ?? this.#parsed;
      this.#parsedLength = this.arguments.length;
    }
    return this.#parsed;
  }

  toCall(): ChatFunctionToolCall {
    return { id: this.id, type: "function", function: { name: this.name, arguments: this.arguments } };
  }
}

class Accumulator implements ToolCallAccumulator {
  readonly #calls = new Map<number, CallState>();
  #content: string | null = null;
  #refusal: string | null = null;
  #finishReason: string | null = null;
  #finished = false;

  push(chunk: ChatCompletionStreamChunk): AccumulatorUpdate {
    if (this.#finished) throw new Error("accumulateToolCalls: push() after done(); start a new accumulator for the next reply.");
    const choice = chunk.choices?.find((c) => c.index === 0);
    const update = { text: "", refusal: "", deltas: [] as { call: PartialToolCall; argumentsDelta: string }[], completed: [] as ChatFunctionToolCall[], finishReason: null as string | null };
    // Chunks of other choices (n > 1) and the usage chunk (no choices) change nothing here.
    if (!choice) return update;
    const delta = choice.delta ?? {};
    if (typeof delta.content === "string" && delta.content !== "") {
      this.#content = (this.#content ?? "") + delta.content;
      update.text = delta.content;
    } else if (typeof delta.content === "string" && this.#content === null) {
      this.#content = "";
    }
    if (typeof delta.refusal === "string" && delta.refusal !== "") {
      this.#refusal = (this.#refusal ?? "") + delta.refusal;
      update.refusal = delta.refusal;
    }
    for (const fragment of delta.tool_calls ?? []) {
      const index = fragment.index;
      let state = this.#calls.get(index);
      if (!state) {
        // A later call has started, so the earlier ones are finished.
        for (const earlier of this.#ordered()) {
          if (earlier.index < index && !earlier.complete) {
            earlier.complete = true;
            update.completed.push(earlier.toCall());
          }
        }
        state = new CallState(index);
        this.#calls.set(index, state);
      } else if (state.complete) {
        throw new Error(
          `accumulateToolCalls: a fragment for tool call ${index} arrived after the call was complete (calls are expected to stream one after another).`,
        );
      }
      if (fragment.id) state.id = fragment.id;
      if (fragment.function?.name) state.name = fragment.function.name;
      const piece = fragment.function?.arguments ?? "";
      state.arguments += piece;
      update.deltas.push({ call: state, argumentsDelta: piece });
    }
    if (choice.finish_reason) {
      this.#finishReason = choice.finish_reason;
      update.finishReason = choice.finish_reason;
      update.completed.push(...this.#completeAll());
    }
    return update;
  }

  get content(): string {
    return this.#content ?? "";
  }

  get refusal(): string | null {
    return this.#refusal;
  }

  get calls(): ChatFunctionToolCall[] {
    return this.#ordered()
      .filter((state) => state.complete)
      .map((state) => state.toCall());
  }

  get partial(): PartialToolCall[] {
    return this.#ordered();
  }

  get finishReason(): string | null {
    return this.#finishReason;
  }

  done(): StreamedAssistantMessage {
    this.#completeAll();
    this.#finished = true;
    const calls = this.#ordered().map((state) => state.toCall());
    const message: StreamedAssistantMessage = { role: "assistant", content: this.#content, refusal: this.#refusal };
    if (calls.length > 0) message.tool_calls = calls;
    return message;
  }

  #completeAll(): ChatFunctionToolCall[] {
    const completed: ChatFunctionToolCall[] = [];
    for (const state of this.#ordered()) {
      if (state.complete) continue;
      state.complete = true;
      completed.push(state.toCall());
    }
    return completed;
  }

  #ordered(): CallState[] {
    return [...this.#calls.values()].sort((a, b) => a.index - b.index);
  }
}

/**
 * The object an incomplete arguments text parses to so far, or `undefined`. Partial atoms (`tr`, `nu`, `-Inf`)
 * are not guessed at; strings, numbers, arrays and objects cut short are.
 */
export function parsePartialArguments(text: string): Record<string, unknown> | undefined {
  if (text.trim() === "") return undefined;
  let value: unknown;
  try {
    value = parsePartialJson(text, Allow.STR | Allow.NUM | Allow.ARR | Allow.OBJ);
  } catch {
    return undefined;
  }
  const copy = plainCopy(value, 0);
  return typeof copy === "object" && copy !== null && !Array.isArray(copy) ? (copy as Record<string, unknown>) : undefined;
}

/** A copy made of plain objects and arrays only: the parser assigns keys with `=`, so `__proto__` must not survive. */
function plainCopy(value: unknown, depth: number): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (depth > 64) return undefined;
  if (Array.isArray(value)) return value.map((item) => plainCopy(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key === "__proto__") continue;
    out[key] = plainCopy((value as Record<string, unknown>)[key], depth + 1);
  }
  return out;
}
