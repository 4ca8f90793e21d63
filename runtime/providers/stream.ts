/**
 * What every provider's stream accumulation shares (each provider's stream.ts reads its events):
 * - `ToolCallAccumulator`: events in, complete tool calls out, then the assembled reply (`accumulateToolCalls`);
 * - `PartialToolCall` / `CallState`: a call as far as it has streamed, its arguments parsed as far as they go (by
 *   `partial-json`, a maintained parser for incomplete JSON), for progressive UIs. Parsed on first read of `args`
 *   after a change, not on every fragment; past 4 KB of text only once it has grown by an eighth since the last
 *   parse, so reading `args` on every fragment costs a bounded multiple of the text's length, not its square.
 *
 * The partial arguments are for display only: they are copied into plain objects (`__proto__` keys dropped) and
 * never dispatched; a complete call's arguments go through dispatch's own reading and validation.
 */
// partial-json is loaded on first use under Node, bundled statically by bundlers (package.json `imports`).
import { partialJson } from "#lazy/partial-json";

/** A tool call as far as it has streamed. */
export interface PartialToolCall {
  /** The call's position in the reply (Chat Completions `delta.tool_calls[].index`; else its order among the calls). */
  readonly index: number;
  /** `""` until the fragment carrying it arrives. */
  readonly id: string;
  readonly name: string;
  /** The arguments text so far. */
  readonly arguments: string;
  /**
   * The arguments parsed as far as they go, e.g. `{"city": "Par` → `{ city: "Par" }`; `undefined` while nothing
   * parses to an object yet. Strings and numbers at the end may still grow. Past 4 KB of arguments text, while the
   * call streams, they are parsed again only once the text has grown by an eighth, so they may lag `arguments` by
   * that much; once the call is complete they are exact.
   */
  readonly args: Record<string, unknown> | undefined;
  /** No more fragments will come for this call. */
  readonly complete: boolean;
}

/** What one event changed. `Call` is the provider's own complete call. */
export interface AccumulatorUpdate<Call = unknown> {
  /** Text added to the reply by this event (`""` if none). */
  readonly text: string;
  /** Text added to the reply's refusal by this event (`""` if none). */
  readonly refusal: string;
  /** Each tool call fragment of this event: the call it belongs to and the arguments text it added. */
  readonly deltas: readonly { readonly call: PartialToolCall; readonly argumentsDelta: string }[];
  /** Calls this event completed, in order. */
  readonly completed: readonly Call[];
  /** The reply's finish (stop) reason, when this event carries it. */
  readonly finishReason: string | null;
}

/** One streamed reply being read: `Event` in, `Call`s out, `Reply` at the end. */
export interface ToolCallAccumulator<Event = unknown, Call = unknown, Reply = unknown> {
  /** Read one event; returns what it changed. Throws if a fragment arrives for a call already complete. */
  push(event: Event): AccumulatorUpdate<Call>;
  /** The reply's text so far (`""` if none). */
  readonly content: string;
  /** The reply's refusal so far, or `null`. */
  readonly refusal: string | null;
  /** The complete tool calls, in order. */
  readonly calls: readonly Call[];
  /** Every tool call seen so far, in order. */
  readonly partial: readonly PartialToolCall[];
  /** The last finish (stop) reason seen, or `null`. */
  readonly finishReason: string | null;
  /** Completes every call and returns the reply as the API's non-streamed form would hold it. Further events are refused. */
  done(): Reply;
}

/**
 * Arguments text up to this length is parsed again on every read after a change. Longer text is parsed again only
 * after growing by an eighth: the parses then cost at most nine times the text's length in all.
 */
const ALWAYS_PARSE_CHARS = 4096;

/** The mutable state of one streaming call. */
export class CallState implements PartialToolCall {
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
    const length = this.arguments.length;
    if (
      length !== this.#parsedLength &&
      (this.complete || length <= ALWAYS_PARSE_CHARS || length - this.#parsedLength >= this.#parsedLength / 8)
    ) {
      this.#parsed = parsePartialArguments(this.arguments) ?? this.#parsed;
      this.#parsedLength = length;
    }
    return this.#parsed;
  }
}

/** What one event changed, as an accumulator fills it in. */
export type UpdateDraft<Call> = {
  text: string;
  refusal: string;
  deltas: { call: PartialToolCall; argumentsDelta: string }[];
  completed: Call[];
  finishReason: string | null;
};

/**
 * What every provider's accumulator does alike: it refuses events after `done()`, starts each event's update empty,
 * and keeps the reply's text and finish reason. A provider's class reads its own events (`read`) and assembles its
 * own reply (`reply`).
 */
export abstract class StreamAccumulator<Event, Call, Reply> implements ToolCallAccumulator<Event, Call, Reply> {
  /** The reply's text so far. */
  protected text = "";
  /** The last finish (stop) reason seen. */
  protected finish: string | null = null;
  #finished = false;

  /** `api` names the provider in the error for an event after `done()`. */
  protected constructor(private readonly api: string) {}

  push(event: Event): AccumulatorUpdate<Call> {
    if (this.#finished)
      throw new Error(
        `accumulateToolCalls(${this.api}): push() after done(); start a new accumulator for the next reply.`,
      );
    const update: UpdateDraft<Call> = { text: "", refusal: "", deltas: [], completed: [], finishReason: null };
    this.read(event, update);
    return update;
  }

  done(): Reply {
    this.#finished = true;
    return this.reply();
  }

  get content(): string {
    return this.text;
  }

  get finishReason(): string | null {
    return this.finish;
  }

  abstract get refusal(): string | null;
  abstract get calls(): readonly Call[];
  abstract get partial(): readonly PartialToolCall[];
  /** Reads one event into `update`. */
  protected abstract read(event: Event, update: UpdateDraft<Call>): void;
  /** Completes every call and assembles the reply (after this, events are refused). */
  protected abstract reply(): Reply;
}

/**
 * The object an incomplete arguments text parses to so far, or `undefined`. Partial atoms (`tr`, `nu`, `-Inf`)
 * are not guessed at; strings, numbers, arrays and objects cut short are.
 */
export function parsePartialArguments(text: string): Record<string, unknown> | undefined {
  if (text.trim() === "") return undefined;
  let value: unknown;
  try {
    const { Allow, parse } = partialJson();
    value = parse(text, Allow.STR | Allow.NUM | Allow.ARR | Allow.OBJ);
  } catch {
    return undefined;
  }
  const copy = plainCopy(value, 0);
  return typeof copy === "object" && copy !== null && !Array.isArray(copy)
    ? (copy as Record<string, unknown>)
    : undefined;
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

/**
 * The calls of one streamed reply keyed by their index in it (an output item's, a content block's), for the
 * accumulators whose events name that index. `write` gives a call in the API's own form.
 */
export class IndexedCalls<Call> {
  readonly #states = new Map<number, CallState>();
  readonly #write: (index: number, state: CallState) => Call;
  /** The complete calls in order and every call seen, kept as they change: read on every event by some loops. */
  readonly #done: Call[] = [];
  readonly #doneOrder: number[] = [];
  readonly #partial: CallState[] = [];

  constructor(write: (index: number, state: CallState) => Call) {
    this.#write = write;
  }

  /** A call starting at `index`, with what its first event says. */
  open(index: number, id: string, name: string, text: string): CallState {
    if (!Number.isInteger(index) || index < 0) {
      throw new TypeError(
        `accumulateToolCalls: an event's index must be a whole number of 0 or more; got ${String(index)}.`,
      );
    }
    const state = new CallState(this.#states.size);
    this.#partial.push(state);
    state.id = id;
    state.name = name;
    state.arguments = text;
    this.#states.set(index, state);
    return state;
  }

  get(index: number): CallState | undefined {
    return this.#states.get(index);
  }

  /** Completes the call at `index`; returns it, or `undefined` when there is none or it was complete already. */
  complete(index: number): Call | undefined {
    const state = this.#states.get(index);
    if (!state || state.complete) return undefined;
    state.complete = true;
    const call = this.#write(index, state);
    // In the order the calls started, which is how `done` lists them.
    let at = this.#done.length;
    while (at > 0 && this.#doneOrder[at - 1]! > state.index) at--;
    this.#done.splice(at, 0, call);
    this.#doneOrder.splice(at, 0, state.index);
    return call;
  }

  /** Completes every call still open (the reply is over); returns them in order. */
  completeAll(): Call[] {
    return [...this.#states.keys()]
      .map((index) => this.complete(index))
      .filter((call): call is Call => call !== undefined);
  }

  /** The complete calls, in order: the same array each time, growing. */
  get done(): readonly Call[] {
    return this.#done;
  }

  /** Every call seen, in order: the same array each time, growing. */
  get partial(): readonly CallState[] {
    return this.#partial;
  }

  /** The call at `index` in the API's form, for the assembled reply; `undefined` when that index is no call. */
  written(index: number): Call | undefined {
    const state = this.#states.get(index);
    return state ? this.#write(index, state) : undefined;
  }
}
