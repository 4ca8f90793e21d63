/** `accumulateToolCalls("responses")`: a streamed Response read event by event. */
import { type CallState, IndexedCalls, StreamAccumulator, type UpdateDraft } from "../stream";
import type { ResponsesCall, ResponsesReply, ResponsesStreamEvent } from "./wire";

/**
 * Responses stream events in, complete `function_call` and `custom_tool_call` items out: `response.output_item.added`
 * opens an item (a call's `call_id` and name come first), `response.function_call_arguments.delta` (a custom tool
 * call's `response.custom_tool_call_input.delta`) adds to its arguments (its raw input), `response.output_item.done`
 * (or `.function_call_arguments.done`, `.custom_tool_call_input.done`) completes it; `response.output_text.delta` and
 * `response.refusal.delta` are the text. `done()` is the `response.completed` event's Response when it came, else
 * the items as assembled.
 */
export class ResponsesAccumulator extends StreamAccumulator<ResponsesStreamEvent, ResponsesCall, ResponsesReply> {
  /** Output items by `output_index`; calls also as call states, by the same index. */
  readonly #items = new Map<number, object>();
  readonly #calls = new IndexedCalls<ResponsesCall>((index, state) => this.#call(index, state));
  /** The `output_index` of each custom tool call (its state's `arguments` are the raw input). */
  readonly #custom = new Set<number>();
  #completed: ResponsesReply | undefined;
  #refusal: string | null = null;

  constructor() {
    super("responses");
  }

  protected read(event: ResponsesStreamEvent, update: UpdateDraft<ResponsesCall>): void {
    const index = typeof event.output_index === "number" ? event.output_index : -1;
    switch (event.type) {
      case "response.output_item.added": {
        const item = event.item as
          | { type?: unknown; call_id?: unknown; name?: unknown; arguments?: unknown; input?: unknown }
          | undefined;
        if (typeof item !== "object" || item === null) break;
        this.#items.set(index, item);
        const custom = item.type === "custom_tool_call";
        if (item.type === "function_call" || custom) {
          if (custom) this.#custom.add(index);
          const given = custom ? item.input : item.arguments;
          const text = typeof given === "string" ? given : "";
          const state = this.#calls.open(
            index,
            typeof item.call_id === "string" ? item.call_id : "",
            typeof item.name === "string" ? item.name : "",
            text,
          );
          update.deltas.push({ call: state, argumentsDelta: text });
        }
        break;
      }
      case "response.function_call_arguments.delta":
      case "response.custom_tool_call_input.delta": {
        const state = this.#open(index);
        const piece = typeof event.delta === "string" ? event.delta : "";
        state.arguments += piece;
        update.deltas.push({ call: state, argumentsDelta: piece });
        break;
      }
      case "response.function_call_arguments.done":
      case "response.custom_tool_call_input.done":
      case "response.output_item.done": {
        const item = event.item as { type?: unknown; arguments?: unknown; input?: unknown } | undefined;
        if (event.type === "response.output_item.done" && typeof item === "object" && item !== null)
          this.#items.set(index, item);
        const state = this.#calls.get(index);
        if (!state || state.complete) break;
        const text =
          event.type === "response.function_call_arguments.done"
            ? event.arguments
            : event.type === "response.custom_tool_call_input.done"
              ? event.input
              : this.#custom.has(index)
                ? item?.input
                : item?.arguments;
        if (typeof text === "string") state.arguments = text;
        update.completed.push(this.#calls.complete(index)!);
        break;
      }
      case "response.output_text.delta":
        if (typeof event.delta === "string") {
          this.text += event.delta;
          update.text = event.delta;
        }
        break;
      case "response.refusal.delta":
        if (typeof event.delta === "string") {
          this.#refusal = (this.#refusal ?? "") + event.delta;
          update.refusal = event.delta;
        }
        break;
      case "response.completed":
      case "response.incomplete": {
        const response = event.response as (ResponsesReply & { status?: unknown }) | undefined;
        if (typeof response === "object" && response !== null && Array.isArray(response.output))
          this.#completed = response;
        this.finish = typeof response?.status === "string" ? response.status : event.type.slice("response.".length);
        update.finishReason = this.finish;
        update.completed.push(...this.#calls.completeAll());
        break;
      }
    }
  }

  get refusal(): string | null {
    return this.#refusal;
  }

  get calls(): readonly ResponsesCall[] {
    return this.#calls.done;
  }

  get partial(): readonly CallState[] {
    return this.#calls.partial;
  }

  protected reply(): ResponsesReply {
    this.#calls.completeAll();
    if (this.#completed) return this.#completed;
    const output = [...this.#items]
      .sort(([a], [b]) => a - b)
      .map(([index, item]) => this.#calls.written(index) ?? item);
    return { output, output_text: this.text };
  }

  #open(index: number): CallState {
    const state = this.#calls.get(index);
    if (!state)
      throw new Error(
        `accumulateToolCalls(responses): arguments for output item ${index}, which is not a function call that was announced (response.output_item.added).`,
      );
    if (state.complete)
      throw new Error(
        `accumulateToolCalls(responses): a fragment for output item ${index} arrived after the call was complete.`,
      );
    return state;
  }

  #call(index: number, state: CallState): ResponsesCall {
    const item = this.#items.get(index) as Partial<ResponsesCall> | undefined;
    if (this.#custom.has(index))
      return { ...item, type: "custom_tool_call", call_id: state.id, name: state.name, input: state.arguments };
    return { ...item, type: "function_call", call_id: state.id, name: state.name, arguments: state.arguments };
  }
}
