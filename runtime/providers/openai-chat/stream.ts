/**
 * `accumulateToolCalls()`: Chat Completions stream chunks in, complete tool calls out.
 *
 * - `push(chunk)`: reads the first choice's `delta`: text (`content`), `refusal`, and `tool_calls` fragments by
 *   `index` (the id, type and name come first, then the arguments text in pieces; a fragment without an index but
 *   with an id, as Mistral sends each call whole, is a call of its own). Returns what the chunk changed.
 * - A call is complete when a fragment of a later index arrives (calls stream one after another), when the choice's
 *   `finish_reason` arrives, or at `done()`; `calls` lists the complete ones, ready to dispatch while the rest of
 *   the reply is still streaming.
 * - `partial`: every call seen so far, its arguments parsed as far as they go (providers/stream.ts).
 * - `done()`: the assembled assistant message, in the shape of a non-streamed reply.
 */
import {
  type AccumulatorUpdate as Update,
  CallState,
  type PartialToolCall,
  StreamAccumulator,
  type ToolCallAccumulator as Accumulates,
  type UpdateDraft,
} from "../stream";
import type { ChatAssistantMessage, ChatCompletionStreamChunk, ChatFunctionToolCall, ChatToolCallDelta } from "./wire";

/** A streamed reply, assembled: only function tool calls stream, so those are the only calls it holds. */
export interface StreamedAssistantMessage extends ChatAssistantMessage {
  tool_calls?: ChatFunctionToolCall[];
}

/** What one event changed (by default, one Chat Completions chunk). */
export type AccumulatorUpdate<Call = ChatFunctionToolCall> = Update<Call>;

/** One streamed reply being read (by default, a Chat Completions one); see `accumulateToolCalls(provider)`. */
export type ToolCallAccumulator<
  Event = ChatCompletionStreamChunk,
  Call = ChatFunctionToolCall,
  Reply = StreamedAssistantMessage,
> = Accumulates<Event, Call, Reply>;

export type { PartialToolCall };

/** Starts accumulating one streamed Chat Completions reply. */
export function accumulateChatToolCalls(): ToolCallAccumulator {
  return new Accumulator();
}

function toCall(state: CallState): ChatFunctionToolCall {
  return { id: state.id, type: "function", function: { name: state.name, arguments: state.arguments } };
}

class Accumulator extends StreamAccumulator<ChatCompletionStreamChunk, ChatFunctionToolCall, StreamedAssistantMessage> {
  readonly #calls = new Map<number, CallState>();
  /** The calls in index order; they arrive in that order, so keeping it costs nothing but for a late index. */
  readonly #ordered: CallState[] = [];
  /** Every call before this position in #ordered is complete: a new call completes from here, not from the start. */
  #firstOpen = 0;
  /** The complete calls in index order, kept as they complete: `calls` is read on every chunk by some loops. */
  readonly #complete: ChatFunctionToolCall[] = [];
  /** Whether any chunk had `content`: the assembled message's content is `null` if none did, as the API's is. */
  #hasContent = false;
  #refusal: string | null = null;

  constructor() {
    super("openai");
  }

  protected read(chunk: ChatCompletionStreamChunk, update: UpdateDraft<ChatFunctionToolCall>): void {
    const choice = chunk.choices?.find((c) => c.index === 0);
    // Chunks of other choices (n > 1) and the usage chunk (no choices) change nothing here.
    if (!choice) return;
    const delta = choice.delta ?? {};
    if (typeof delta.content === "string") {
      this.#hasContent = true;
      this.text += delta.content;
      if (delta.content !== "") update.text = delta.content;
    }
    if (typeof delta.refusal === "string" && delta.refusal !== "") {
      this.#refusal = (this.#refusal ?? "") + delta.refusal;
      update.refusal = delta.refusal;
    }
    for (const fragment of delta.tool_calls ?? []) {
      const index = this.#indexOf(fragment);
      let state = this.#calls.get(index);
      if (!state) {
        state = this.#start(index, update.completed);
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
      this.finish = choice.finish_reason;
      update.finishReason = choice.finish_reason;
      update.completed.push(...this.#completeAll());
    }
  }

  get refusal(): string | null {
    return this.#refusal;
  }

  /** The same array each time, growing as calls complete (read it on every chunk at no cost). */
  get calls(): readonly ChatFunctionToolCall[] {
    return this.#complete;
  }

  /** The same array each time, growing as calls start. */
  get partial(): readonly PartialToolCall[] {
    return this.#ordered;
  }

  protected reply(): StreamedAssistantMessage {
    this.#completeAll();
    const calls = [...this.#complete];
    const message: StreamedAssistantMessage = {
      role: "assistant",
      content: this.#hasContent ? this.text : null,
      refusal: this.#refusal,
    };
    if (calls.length > 0) message.tool_calls = calls;
    return message;
  }

  #completeAll(): ChatFunctionToolCall[] {
    const completed: ChatFunctionToolCall[] = [];
    for (let i = this.#firstOpen; i < this.#ordered.length; i++) {
      const state = this.#ordered[i]!;
      if (state.complete) continue;
      completed.push(this.#finish(state));
    }
    this.#firstOpen = this.#ordered.length;
    return completed;
  }

  /** Marks `state` complete and keeps its call in `#complete`, in index order. */
  #finish(state: CallState): ChatFunctionToolCall {
    state.complete = true;
    const call = toCall(state);
    const list = this.#complete;
    // Calls complete in index order but for a late index: find its place from the end.
    let at = list.length;
    while (at > 0 && this.#indexOfCall(list[at - 1]!) > state.index) at--;
    if (at === list.length) list.push(call);
    else list.splice(at, 0, call);
    this.#indexes.set(call, state.index);
    return call;
  }

  readonly #indexes = new WeakMap<ChatFunctionToolCall, number>();

  #indexOfCall(call: ChatFunctionToolCall): number {
    return this.#indexes.get(call)!;
  }

  /** The calls that came without an index, by id: a later fragment with the same id continues its call. */
  readonly #byId = new Map<string, number>();

  /**
   * The index a fragment belongs to. Without one (Mistral sends each call whole, `id`, name and arguments in one
   * fragment, and no `index`), a fragment with an id is the open call of that id, or a call of its own after every
   * call seen; a fragment with neither, or an index that is no whole number of 0 or more, cannot be placed.
   */
  #indexOf(fragment: ChatToolCallDelta): number {
    const index: unknown = fragment.index;
    if (index === undefined && typeof fragment.id === "string" && fragment.id !== "") {
      const known = this.#byId.get(fragment.id);
      if (known !== undefined && !this.#calls.get(known)!.complete) return known;
      const next = this.#ordered.length === 0 ? 0 : this.#ordered[this.#ordered.length - 1]!.index + 1;
      this.#byId.set(fragment.id, next);
      return next;
    }
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0) {
      throw new TypeError(
        `accumulateToolCalls: a tool call fragment's index must be a whole number of 0 or more (or absent, with the call's id); got ${String(index)}.`,
      );
    }
    return index;
  }

  /**
   * A call starting at `index`: the earlier calls still open are finished (calls stream one after another) and go
   * to `completed`; the new call takes its place in index order.
   */
  #start(index: number, completed: ChatFunctionToolCall[]): CallState {
    const ordered = this.#ordered;
    let position = this.#firstOpen;
    for (; position < ordered.length && ordered[position]!.index < index; position++) {
      const earlier = ordered[position]!;
      if (earlier.complete) continue;
      completed.push(this.#finish(earlier));
    }
    this.#firstOpen = position;
    const state = new CallState(index);
    this.#calls.set(index, state);
    if (position === ordered.length) ordered.push(state);
    else ordered.splice(position, 0, state);
    return state;
  }
}
