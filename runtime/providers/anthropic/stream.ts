/**
 * `accumulateToolCalls("anthropic")`: a streamed Messages reply read event by event (`input_json_delta` pieces of
 * each `tool_use` block; a programmatic call, made by a code execution, has its input whole at its start, or comes
 * whole inside `message_start` when the turn resumes the program).
 */
import { readJson } from "../../arguments/read/bounded-json";
import { MAX_ARGUMENTS_BYTES, MAX_ARGUMENTS_DEPTH } from "../../arguments/read/read-arguments";

/** A tool input streamed by the model is read within the arguments' default limits (dispatch applies the tool's own). */
const ARGUMENT_BOUNDS = { maxBytes: MAX_ARGUMENTS_BYTES, maxDepth: MAX_ARGUMENTS_DEPTH };
import { type CallState, IndexedCalls, StreamAccumulator, type UpdateDraft, parsePartialArguments } from "../stream";
import { markUnreadable } from "./unreadable";
import type { AnthropicReply, AnthropicStreamEvent, AnthropicToolUseBlock } from "./wire";

/**
 * Anthropic stream events in, complete `tool_use` blocks out: `message_start` holds the message (with its blocks
 * whole when the turn resumes a code execution's program, as `content_block_start` would open them), `content_block_start`
 * opens a block (a `tool_use` with its id and name), `content_block_delta` adds `text_delta` text or
 * `input_json_delta` pieces of the input, `content_block_stop` completes it (the input parsed; text that does not
 * parse is kept, so dispatch reports it), `message_delta` brings the `stop_reason`.
 */
export class AnthropicAccumulator extends StreamAccumulator<
  AnthropicStreamEvent,
  AnthropicToolUseBlock,
  AnthropicReply
> {
  #message: Record<string, unknown> = { role: "assistant" };
  readonly #blocks = new Map<number, Record<string, unknown>>();
  /** The streamed input text of blocks that are not the caller's calls (a code execution's `server_tool_use`). */
  readonly #inputs = new Map<number, string>();
  /** `tool_use` blocks that came with their input whole (a programmatic call, whose caller is a code execution). */
  readonly #whole = new Set<number>();
  readonly #calls = new IndexedCalls<AnthropicToolUseBlock>((index, state) => this.#call(index, state));

  constructor() {
    super("anthropic");
  }

  protected read(event: AnthropicStreamEvent, update: UpdateDraft<AnthropicToolUseBlock>): void {
    const index = typeof event.index === "number" ? event.index : -1;
    switch (event.type) {
      case "message_start": {
        if (typeof event.message !== "object" || event.message === null) break;
        const { content, ...message } = event.message as Record<string, unknown>;
        this.#message = message;
        // A turn that resumes a code execution's program can come with its blocks already in the message (the
        // program's next tool call, whole), and no block events: each is a block at its position, and later blocks
        // follow them.
        if (Array.isArray(content))
          for (const [at, block] of content.entries()) this.#startBlock(at, block, update, true);
        if (typeof message.stop_reason === "string") {
          this.finish = message.stop_reason;
          update.finishReason = message.stop_reason;
        }
        break;
      }
      case "content_block_start":
        this.#startBlock(index, event.content_block, update, false);
        break;
      case "content_block_delta": {
        const delta = event.delta as { type?: unknown; text?: unknown; partial_json?: unknown } | undefined;
        const block = this.#blocks.get(index);
        if (!delta || !block) break;
        if (delta.type === "text_delta" && typeof delta.text === "string") {
          block.text = (typeof block.text === "string" ? block.text : "") + delta.text;
          this.text += delta.text;
          update.text = delta.text;
        } else if (delta.type === "input_json_delta" && typeof delta.partial_json === "string") {
          const state = this.#calls.get(index);
          if (!state) {
            // A server tool's input (the code a code execution runs) goes back in the conversation as it came.
            this.#inputs.set(index, (this.#inputs.get(index) ?? "") + delta.partial_json);
            break;
          }
          if (state.complete)
            throw new Error(
              `accumulateToolCalls(anthropic): a fragment for content block ${index} arrived after the call was complete.`,
            );
          if (delta.partial_json === "") break;
          // Pieces after an input given whole state the input again: they replace it rather than follow it.
          if (this.#whole.delete(index)) state.arguments = "";
          state.arguments += delta.partial_json;
          update.deltas.push({ call: state, argumentsDelta: delta.partial_json });
        }
        break;
      }
      case "content_block_stop": {
        const call = this.#calls.complete(index);
        if (call) update.completed.push(call);
        this.#settleInput(index);
        break;
      }
      case "message_delta": {
        // The container a code execution ran in (the loop's next request names it) comes with the message's end.
        const container = (event.delta as { container?: unknown } | undefined)?.container;
        if (typeof container === "object" && container !== null) this.#message.container = container;
        const stop = (event.delta as { stop_reason?: unknown } | undefined)?.stop_reason;
        if (typeof stop === "string") {
          this.finish = stop;
          update.finishReason = stop;
          update.completed.push(...this.#calls.completeAll());
        }
        break;
      }
    }
  }

  get refusal(): string | null {
    return this.finish === "refusal" ? this.text : null;
  }

  /**
   * A block starting at `index` (a `tool_use` opens a call, with its input when given whole). `complete`: the block
   * came whole in the message itself, with no events to follow, so its call is complete at once.
   */
  #startBlock(index: number, value: unknown, update: UpdateDraft<AnthropicToolUseBlock>, complete: boolean): void {
    if (typeof value !== "object" || value === null) return;
    const block = value as Record<string, unknown>;
    this.#blocks.set(index, { ...block });
    if (block.type === "tool_use") {
      // An input given whole up front (not streamed) is its own arguments text.
      const input = block.input;
      const text =
        typeof input === "object" && input !== null && Object.keys(input).length > 0 ? JSON.stringify(input) : "";
      if (text !== "") this.#whole.add(index);
      const state = this.#calls.open(
        index,
        typeof block.id === "string" ? block.id : "",
        typeof block.name === "string" ? block.name : "",
        text,
      );
      update.deltas.push({ call: state, argumentsDelta: text });
      if (complete) {
        const call = this.#calls.complete(index);
        if (call) update.completed.push(call);
      }
    } else if (block.type === "text" && typeof block.text === "string" && block.text !== "") {
      this.text += block.text;
      update.text += block.text;
    }
  }

  get calls(): readonly AnthropicToolUseBlock[] {
    return this.#calls.done;
  }

  get partial(): readonly CallState[] {
    return this.#calls.partial;
  }

  protected reply(): AnthropicReply {
    this.#calls.completeAll();
    for (const index of [...this.#inputs.keys()]) this.#settleInput(index);
    const content = [...this.#blocks]
      .sort(([a], [b]) => a - b)
      .map(([index, block]) => this.#calls.written(index) ?? block);
    return {
      ...this.#message,
      role: "assistant",
      content,
      stop_reason: this.finish ?? (this.#message.stop_reason as string | null | undefined) ?? null,
    };
  }

  /** A server tool block's streamed input, parsed into the block (as far as it parses, should it not). */
  #settleInput(index: number): void {
    const text = this.#inputs.get(index);
    const block = this.#blocks.get(index);
    this.#inputs.delete(index);
    if (text === undefined || !block || text.trim() === "") return;
    const read = readJson(text, ARGUMENT_BOUNDS);
    block.input = read.ok ? read.value : read.problem === "json" ? (parsePartialArguments(text) ?? {}) : {};
  }

  /** The block as the API would have sent it whole: the input parsed (the text itself when it does not parse). */
  #call(index: number, state: CallState): AnthropicToolUseBlock {
    const text = state.arguments.trim();
    let input: unknown = {};
    if (text !== "") {
      const read = readJson(text, ARGUMENT_BOUNDS);
      if (read.ok) {
        input = read.value;
      } else {
        // The conversation needs an object; dispatch reads the text the model sent and answers with the parse error.
        const block: AnthropicToolUseBlock = {
          ...this.#blocks.get(index),
          type: "tool_use",
          id: state.id,
          name: state.name,
          input: read.problem === "json" ? (parsePartialArguments(text) ?? {}) : {},
        };
        markUnreadable(block, state.arguments);
        return block;
      }
    }
    return { ...this.#blocks.get(index), type: "tool_use", id: state.id, name: state.name, input };
  }
}
