/**
 * `ToolProvider` and `ProviderLoop`: the two interfaces every model API implements (its folder's provider.ts and
 * loop.ts), so that the registry, `formatAnswer`, `toolChoice`, `parseToolCalls` and the agent loop never branch on
 * the provider. A provider owns, for its API: reading the tool calls out of a message, answering them, writing the
 * tools of a request and its tool choice; its loop, the agent loop's client call, reading a reply whole or
 * streamed, and adding the reply and its answers to the conversation (apart, so that a dispatch never loads the
 * stream code). Recognising a message is the catalogue's (catalog.ts). Also here: what a provider reads of a
 * registered tool (`ToolFormatSource`, plain data, never TypeScript types), of a structured output
 * (`OutputFormatSource`), and the provider-neutral tool choice.
 *
 * Providers import from dispatch and below, never from each other; the list of every provider is the catalogue.
 */
import type { NormalizedCall } from "../dispatch/call";
import type { ToolCallAccumulator } from "./stream";
import type { ToolMessage } from "../dispatch/messages";
import type { CompiledToolMeta, JsonSchema, StrictForms } from "../tool/meta";
import type { StrictSubset } from "../strict/rewrites";
import { strictSchemaOf } from "../strict/schema-of";
import { ToolExportError } from "../tool/errors";
import type { ToolOptions } from "../tool/options";

/** What a provider's tool format is written from: a registered tool's name, description, schema and options. */
export interface ToolFormatSource {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments object. */
  readonly parameters: JsonSchema;
  readonly options: Readonly<ToolOptions>;
  /** The compiled metadata (for the return type's schema). */
  readonly meta?: CompiledToolMeta;
}

/**
 * The three modes every provider knows, Gemini's `"validated"` (a call or text, the call checked against its
 * declaration; `FunctionCallingConfigMode.VALIDATED`), or the name of one registered tool the model must call.
 */
export type ToolChoice = "auto" | "none" | "required" | "validated" | (string & {});

/** `toolChoice` options. */
export interface ToolChoiceOptions {
  /**
   * `false` asks for at most one tool call per turn where the provider has a switch for it (OpenAI
   * `parallel_tool_calls: false`, Anthropic `disable_parallel_tool_use: true`); Gemini has none, so it is an error
   * there. `true` or left out: the provider's default (parallel calls allowed).
   */
  parallel?: boolean;
  /**
   * Narrow the tools the model may call to these names while the request's `tools` stay as they are (so the prompt
   * cache keeps them): OpenAI `tool_choice: { type: "allowed_tools", ... }` (Chat Completions and Responses, each in
   * its shape), Gemini `allowedFunctionNames` (with `"auto"`, mode VALIDATED, since AUTO takes no names). Anthropic
   * has no such field: an error there. With `"none"` or one tool's name it changes nothing.
   */
  allowed?: readonly string[];
}

/** True for the three modes, false for a tool name (and for `"validated"`, which only Gemini writes). */
export function isChoiceMode(choice: ToolChoice): choice is "auto" | "none" | "required" {
  return choice === "auto" || choice === "none" || choice === "required";
}

/** The mode of an allowed-tools choice: `"auto"` or `"required"` with `allowed`; else none (written as usual). */
export function allowedMode(choice: ToolChoice, options: ToolChoiceOptions): "auto" | "required" | undefined {
  if (options.allowed === undefined) return undefined;
  return choice === "auto" ? "auto" : choice === "required" ? "required" : undefined;
}

/** Throws for `"validated"` on an API without that mode (every one but Gemini). */
export function refuseValidated(choice: ToolChoice, format: string): void {
  if (choice !== "validated") return;
  throw new ToolExportError(
    `toolChoice: "validated" is Gemini's mode (FunctionCallingConfigMode.VALIDATED); ${format} has none. Use "auto" or "required".`,
    { format },
  );
}

/**
 * One model API's side of tool calling.
 * - `Message`: the assistant message (or response) whose calls it reads; `Answer`: what answers it;
 * - `Tools` / `ToolsOptions`: the tools of a request and the options of writing them;
 * - `ChoiceParams`: the request fields that carry the tool choice.
 */
export interface ToolProvider<
  Message = unknown,
  Answer = unknown,
  Tools = unknown,
  ToolsOptions = unknown,
  ChoiceParams = unknown,
> {
  /** The format's name in the catalogue, which `toolChoice(registry, choice, name)` and error messages use. */
  readonly name: string;
  /** Every call in `message`, in the order they must be answered. */
  readCalls(message: Message): NormalizedCall[];
  /** The answer to `message` made of its calls' ToolMessages (one per call, in call order). */
  answer(message: Message, results: readonly ToolMessage[]): Answer;
  /** The tools of a request. Throws ToolExportError when a tool cannot be written for this API. */
  exportTools(tools: Iterable<ToolFormatSource>, options?: ToolsOptions): Tools;
  /** The request fields for a tool choice (already checked against the registered tools). */
  toolChoice(choice: ToolChoice, options?: ToolChoiceOptions): ChoiceParams;
}

/** What dispatch needs of a provider: its name, reading a message's calls, answering them. */
export type CallReader = Pick<ToolProvider, "name" | "readCalls" | "answer">;

/** What a provider reads of a structured output (`structuredOutput<T>()` satisfies it). */
export interface OutputFormatSource {
  readonly name: string;
  readonly description: string | undefined;
  /** T's JSON Schema; answers are validated against it whatever the provider is sent. */
  readonly schema: JsonSchema;
  /** Ask for the schema to be followed exactly, where the API has such a switch (OpenAI strict). */
  readonly strict: boolean;
  /** `schema` in OpenAI's strict subset as the build wrote it (`structuredOutput<T>()`'s); else rewritten when sent. */
  readonly strictForms?: StrictForms | undefined;
}

/** Everything one request of the loop carries, provider-neutral; the provider writes it in its API's fields. */
export interface StepRequest<Item = unknown> {
  /** The conversation so far: the caller's messages, then the loop's. */
  readonly items: readonly Item[];
  /** The registry's tools offered in this step (`prepareStep` may narrow them). */
  readonly tools: readonly ToolFormatSource[];
  /** The loop's own tools (JSON Patch repair): schemas written by hand, never rewritten for strict mode. */
  readonly loopTools: readonly ToolFormatSource[];
  /** Strict mode for the tools (OpenAI; Anthropic strict tool use), unless a tool sets its own. */
  readonly strict: boolean | undefined;
  /** Anthropic `eager_input_streaming` for the tools, unless a tool sets its own. */
  readonly eagerInputStreaming?: boolean;
  /**
   * With `runTools`' `allowedTools`: `tools` is every tool (the same list each step), and these are the names the
   * model may call in this step (prepareStep's active tools, plus the loop's own tools), for the tool choice.
   * Absent when every tool may be called.
   */
  readonly allowed?: readonly string[];
  readonly toolChoice: ToolChoice | undefined;
  /** `false`: at most one call per turn, where the API has the switch. */
  readonly parallelToolCalls: boolean | undefined;
  /** The structured answer asked for. */
  readonly output: OutputFormatSource | undefined;
  readonly stream: boolean;
  /** How the API's own tool search matches, where a request chooses it (Anthropic): for the deferred tools of `tools`. */
  readonly toolSearchMatch?: "bm25" | "regex";
}

/** One reply of the model, read by its provider. */
export interface LoopReply<Item = unknown, Reply = unknown, Call = unknown> {
  /** The reply as `RunStep.message` shows it (a chat message, a Response, an Anthropic message, a Gemini Content). */
  readonly message: Reply;
  /** What the reply adds to the conversation. */
  readonly items: readonly Item[];
  /** Its tool calls in order: the API's own form, and as dispatch reads it. */
  readonly calls: readonly { readonly call: Call; readonly read: NormalizedCall }[];
  /** Its text (`null` when it has none). */
  readonly text: string | null;
  /** The model's refusal, where the API reports one. */
  readonly refusal: string | null;
  /**
   * The API stopped the turn before its end (Anthropic's `pause_turn`, while its server tools such as the tool
   * search run): the loop sends the conversation again, and the model goes on with the same turn.
   */
  readonly unfinished?: boolean;
}

/**
 * The agent loop's side of a model API. `Client` is the SDK client (typed structurally), `Params` what the caller
 * sends besides the tools, `Item` a conversation entry, `Reply` a reply, `Call` a tool call, `Event` a stream event.
 */
export interface ProviderLoop<
  Client = unknown,
  Params = unknown,
  Item = unknown,
  Reply = unknown,
  Call = unknown,
  Event = unknown,
> {
  /** Whether `client` is this API's client, from its shape (for `runTools` when no `provider` is named). */
  isClient(client: object): boolean;
  /**
   * The API searches deferred tools itself (the provider writes them with `defer_loading` beside its search tool,
   * and its replies carry the search and its results as items the conversation keeps). Without it, `runTools`
   * searches for them (agent/tool-search.ts).
   */
  readonly searchesTools?: boolean;
  /**
   * The API narrows the callable tools with the tool list unchanged (OpenAI `allowed_tools`, Gemini
   * `allowedFunctionNames`): `runTools`' `allowedTools` option needs it.
   */
  readonly narrowsTools?: boolean;
  /** Request fields the loop writes: the caller may not set them (`use` says what to do instead). */
  readonly owned: readonly { readonly field: string; readonly use: string }[];
  /** The conversation the caller's params start with. */
  conversation(params: Params): Item[];
  /** The request of one step: the caller's params passed through, the step's fields written in. */
  request(params: Params, step: StepRequest<Item>): Record<string, unknown>;
  /** Sends a request: resolves to the response, or with `stream` to an async iterable of events. */
  send(client: Client, request: Record<string, unknown>, signal: AbortSignal, stream: boolean): PromiseLike<unknown>;
  /** The reply of a non-streamed response. Throws a TypeError naming what is missing when it is not one. */
  reply(response: unknown): Reply;
  /** A stream's events split so that each carries at most one tool call fragment (events keep the stream's order). */
  split?(event: Event): Event[];
  /** Starts reading one streamed reply; its `done()` is the reply. */
  accumulate(): ToolCallAccumulator<Event, Call, Reply>;
  /** What the loop needs of a reply. */
  read(reply: Reply): LoopReply<Item, Reply, Call>;
  /** One call as dispatch reads it (a streamed call is dispatched as soon as it is complete). */
  readCall(call: Call): NormalizedCall;
  /** The conversation entries that answer a reply's calls (one ToolMessage per call, in call order). */
  answer(reply: Reply, results: readonly ToolMessage[]): Item[];
  /** A user turn carrying `text` (the loop's feedback on a structured answer that does not match its schema). */
  userTurn(text: string): Item;
}

/** A call whose arguments arrived as an object (Anthropic `input`, Gemini `args`), with its id and name where they are strings. */
export function argsCall(record: Record<string, unknown>, args: unknown): NormalizedCall {
  return {
    kind: "args",
    id: typeof record.id === "string" ? record.id : "",
    name: typeof record.name === "string" ? record.name : "",
    args,
  };
}

/**
 * Whether `tool` waits for a tool search (docs/large-toolsets.md): its `deferred` option, else JSDoc `@deferred` in
 * its compiled metadata. The exporters of APIs that search themselves write it with `defer_loading` beside their
 * search tool; `runTools` searches for the others.
 */
export function isDeferred(tool: ToolFormatSource): boolean {
  return tool.options.deferred ?? tool.meta?.deferred === true;
}

/**
 * `tool.parameters` in a strict subset: the form the build wrote into its metadata (when `parameters` is the schema
 * it was written from), else the rewrite run now (strict/schema-of.ts). Throws ToolExportError.
 */
export function strictParameters(tool: ToolFormatSource, subset: StrictSubset): JsonSchema {
  const meta = tool.meta;
  const forms = meta !== undefined && meta.parameters === tool.parameters ? meta.strict : undefined;
  return strictSchemaOf({ name: tool.name, parameters: tool.parameters, forms }, subset);
}

/** A structured output's schema in OpenAI's strict subset: the build's form, else the rewrite run now. */
export function strictOutputSchema(output: OutputFormatSource): JsonSchema {
  return strictSchemaOf({ name: output.name, parameters: output.schema, forms: output.strictForms }, "openai-strict");
}

/** Whether `value` is a stream (an async iterable), as a streamed response is. */
export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === "function"
  );
}

/**
 * The types of one model API's loop, bundled: its reply, its tool call and an entry of its conversation. `RunStep`,
 * `RunToolsResult`, `RunToolsEvent` and the agent errors take one (`ChatLoopTypes` by default); each API's is in
 * its folder's wire.ts.
 */
export interface LoopTypes {
  readonly reply: unknown;
  readonly call: unknown;
  readonly item: unknown;
}
