/**
 * `BaseToolRegistry`: the provider-free core of every `ToolRegistry` (the main entry's, and each provider entry's:
 * `tooltype/openai`, `tooltype/responses`, `tooltype/anthropic`, `tooltype/gemini`, which add only their own export
 * methods).
 * - register: find the tools in each source, check each one's compiled metadata and name, refuse clashes (all of a
 *   `register` call or none of it, so a failed call leaves the registry as it was);
 * - read: `get`, `list` (the public `RegisteredTool` view);
 * - run: `dispatch` (all calls of a model message, answered in the message's own format), `runCalls` (the same,
 *   as ToolMessages) and `invoke` (one call); `dispatchWithApproval` and `resume` for tools that need a human's
 *   approval (runtime/dispatch/approval.ts); `use` adds middleware around every call (runtime/dispatch/middleware.ts).
 *   The message's format is recognised from its shape (the provider catalogue); chat messages are read here, any
 *   other format's provider is each preset's choice (at hand, or loaded the first time one is met), so a bundle
 *   carries only the providers it uses. Dispatch (runtime/dispatch/) runs the calls and never sees a provider.
 */
import { instantiateValidator } from "../validation/compiled-validator";
import { AJV_MISSING, ajvAvailable } from "../validation/ajv/ajv";
import { ArgumentsValidator, prepareAjv } from "../validation/validate";
import type { ApprovalDecision, ApprovalStateData, PendingApproval } from "../dispatch/approval";
import type { NormalizedCall } from "../dispatch/call";
import {
  type DispatchEnvironment,
  type DispatchTool,
  type ToolInput,
  ENVIRONMENT,
  answerCalls,
  argumentLimits,
  callsCap,
  dispatchCalls,
  dispatchEnvironment,
  invokeRaw,
  invokeTool,
  mayNeedApproval,
  refuseBeyondCap,
  viaFull,
} from "../dispatch/dispatch";
import type { ToolMessage } from "../dispatch/messages";
import type { DispatchOptions, RegistryOptions, ToolMiddleware } from "../dispatch/options";
import type { RegisteredTool } from "../dispatch/options";
import {
  CHAT_FORMAT,
  type DispatchResult,
  type MessageFormat,
  type OpenAIToolCall,
  type ToolCallMessage,
  chatReader,
  formatOf,
  isMessageFormat,
  readChatCall,
} from "../providers/catalog";
import type { CallReader } from "../providers/provider";
import type { ToolCall } from "../tool/call";
import { notCompiledHint, ToolRegistrationError } from "../tool/errors";
import { type CompiledToolMeta, type JsonSchema, META_VERSION, isCompiledToolMeta } from "../tool/meta";
import type { ToolOptions } from "../tool/options";
import { type FoundTool, type ToolSource, findTools } from "../tool/sources";
import { type AnyFunction, getToolDeclaration } from "../tool/tool";
import type { ApprovalDone, ApprovalResult, ApprovalState } from "./approval";
import { toolsChanged } from "./tool-changes";
import type {
  AnyTools,
  KnowsTools,
  TOOL_TYPES,
  ToolArguments,
  ToolName,
  ToolNamed,
  ToolRecord,
  ToolResult,
} from "./tool-types";

export type { RegisteredTool } from "../dispatch/options";

/**
 * The agent loop's way into a registry (not public API): answering calls its provider already read, the cap on the
 * calls of one reply, and approval. `registry[LOOP_ACCESS]()` gives it; nothing else of the registry's state is
 * reachable from outside.
 */
export interface LoopAccess {
  /** Answer calls a provider already read, as `runCalls` answers a message's. */
  dispatch(calls: NormalizedCall[], options?: DispatchOptions): Promise<ToolMessage[]>;
  /** For streamed replies: how many calls of one reply run (`maxCallsPerMessage`). */
  callsCap(options?: DispatchOptions): number;
  /** For streamed replies: the calls past the cap of a reply of `total` calls, refused as dispatch does. */
  refuse(calls: NormalizedCall[], options: DispatchOptions, total: number): Promise<ToolMessage[]>;
  /** The calls (as read) that need approval; nothing runs. */
  pending(calls: readonly NormalizedCall[], options?: DispatchOptions): Promise<PendingApproval[]>;
  /**
   * Every call of a paused batch answered, as ToolMessages in call order (see `ToolRegistry.resume`). Throws a
   * TypeError, running nothing, for a malformed state or decisions that do not decide every pending call once.
   */
  resume(state: unknown, decisions: readonly ApprovalDecision[], options?: DispatchOptions): Promise<ToolMessage[]>;
  /** Whether a paused batch's state (by its nonce) was resumed before: a look, recording nothing. */
  resumedBefore(nonce: string): Promise<boolean>;
  /** The state of a batch paused for approval, sealed when the registry has an `approvalSecret`. */
  pause(
    provider: string,
    calls: readonly NormalizedCall[],
    pending: readonly PendingApproval[],
    options?: DispatchOptions,
  ): Promise<ApprovalStateData>;
  /** The limits on a tool's arguments (its own, the registry's or the defaults), which a JSON Patch of them keeps. */
  argumentLimits(name: string): { maxBytes: number; maxDepth: number };
}

/** The key of a registry's `LoopAccess`: a symbol, so the way in is neither a public method nor a field. */
export const LOOP_ACCESS: unique symbol = Symbol("tooltype.loopAccess");

/** The `LoopAccess` of `registry`; a TypeError naming `caller` when it is no registry. */
export function loopAccess(registry: unknown, caller: string): LoopAccess {
  const access = (registry as { [LOOP_ACCESS]?: () => LoopAccess } | null | undefined)?.[LOOP_ACCESS];
  if (typeof access !== "function") throw new TypeError(`${caller}: the registry must be a ToolRegistry.`);
  return access.call(registry);
}

function accessTo(env: DispatchEnvironment): LoopAccess {
  return {
    dispatch: (calls, options) => dispatchCalls(env, calls, options),
    callsCap: (options = {}) => callsCap(env, options),
    refuse: (calls, options, total) => refuseBeyondCap(env, calls, options, total),
    pending: async (calls, options = {}) =>
      mayNeedApproval(env, calls) ? viaFull((full) => full.findPending(env, calls, options)) : [],
    resume: (state, decisions, options = {}) => viaFull((full) => full.resumeBatch(env, state, decisions, options)),
    resumedBefore: (nonce) => viaFull((full) => full.resumedBefore(env, nonce)),
    pause: (provider, calls, pending, options = {}) =>
      viaFull((full) => full.approvalState(env, provider, calls, pending, options)),
    argumentLimits: (name) => argumentLimits(env.get(name), env.options),
  };
}

/** Names OpenAI (and most providers) accept. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

class ToolEntry implements RegisteredTool, DispatchTool {
  // Declared, not defined as class fields: the constructor assigns each once (a registry of 1,000 tools builds
  // 1,000 of these while the app starts).
  declare readonly name: string;
  declare readonly description: string;
  declare readonly parameters: JsonSchema;
  declare readonly meta: CompiledToolMeta;
  declare readonly options: Readonly<ToolOptions>;
  declare readonly source: string;
  readonly #fn: AnyFunction;
  readonly #thisArg: unknown;
  /** What `call` runs: for a tool() value its own function, not the wrapper tool() returned (one call less). */
  readonly #target: AnyFunction;
  readonly #registryOptions: Readonly<RegistryOptions>;
  #validator: ArgumentsValidator | undefined;
  #invoker: AnyFunction | undefined;

  constructor(found: FoundTool, meta: CompiledToolMeta, name: string, registryOptions: Readonly<RegistryOptions>) {
    const options = found.declaration.options;
    this.name = name;
    this.description = options.description ?? meta.description ?? "";
    this.parameters = meta.parameters;
    this.meta = meta;
    this.options = options;
    this.source = found.label;
    this.#fn = found.fn;
    this.#thisArg = found.thisArg;
    this.#target = found.declaration.kind === "function" ? found.declaration.fn : found.fn;
    this.#registryOptions = registryOptions;
    // Said at registration, not on the first call: a schema without a compiled validator needs ajv.
    if (!meta.validator && !ajvAvailable())
      throw new ToolRegistrationError(`Tool "${name}" (${found.role}): ${AJV_MISSING}`);
    if (!meta.validator) prepareAjv();
  }

  validator(): ArgumentsValidator {
    // Instantiated on first use, so registering many tools stays cheap.
    this.#validator ??= new ArgumentsValidator(
      this.parameters,
      this.meta.validator ? instantiateValidator(this.meta.validator, this.parameters) : undefined,
    );
    return this.#validator;
  }

  call(args: unknown[]): unknown {
    return this.#target.apply(this.#thisArg, args);
  }

  get invoker(): AnyFunction {
    // Made on first use: a function with no `this` is called as it is (what `apply(undefined, …)` does).
    this.#invoker ??= this.#thisArg === undefined ? this.#target : this.#target.bind(this.#thisArg);
    return this.#invoker;
  }

  /** Same function and same `this`: registering it again changes nothing. */
  sameAs(found: FoundTool): boolean {
    return this.#fn === found.fn && this.#thisArg === found.thisArg;
  }

  invoke(input?: ToolInput, options?: DispatchOptions): Promise<unknown> {
    return invokeTool(this, input, this.#registryOptions, options);
  }
}

/**
 * The tools a model may call, without any provider's export methods: register them (`tool()` values, objects with
 * `@tool` methods, classes with static ones) and run a reply's calls with `dispatch`, one answer per call. Every
 * `ToolRegistry` (from `tooltype` or a provider entry such as `tooltype/openai`) is one; type a parameter with it to
 * accept any of them.
 * @typeParam Tools The tools the type knows, by name: a record form's (`new ToolRegistry({ add: tool(add) })`),
 * which types `invoke`'s names, arguments and results; any name, untyped, otherwise.
 */
export abstract class BaseToolRegistry<out Tools extends object = AnyTools> implements KnowsTools<Tools> {
  /** The tools the type knows: a phantom for the types (no such property exists; kept in the declarations). */
  declare readonly [TOOL_TYPES]: Tools;
  readonly #tools = new Map<string, ToolEntry>();
  readonly #options: Readonly<RegistryOptions>;
  readonly #env: DispatchEnvironment;
  readonly #middleware: ToolMiddleware[] = [];

  /**
   * The record form: each key the name the model calls the tool by (a tool whose own `name` option says otherwise
   * is refused), each value a `tool()` value. The registry's type knows the tools: `invoke`'s names, arguments and
   * results are typed.
   * @param tools `{ name: tool(fn), … }`.
   * @param options Defaults for every tool: error handling and timeout.
   */
  constructor(tools: Tools & ToolRecord, options?: RegistryOptions);
  /**
   * @param sources `tool(fn)` values, objects with `@tool` methods, classes with static `@tool` methods.
   * @param options Defaults for every tool: error handling and timeout.
   */
  constructor(sources?: Iterable<ToolSource>, options?: RegistryOptions);
  constructor(sources: Iterable<ToolSource> | ToolRecord = [], options: RegistryOptions = {}) {
    // Frozen: dispatch reads what they allow once per registry.
    this.#options = Object.freeze({ ...options });
    const tools = this.#tools;
    this.#env = dispatchEnvironment(
      {
        get: (name) => tools.get(name),
        names: () => [...tools.keys()],
        options: this.#options,
        middleware: this.#middleware,
      },
      false,
    );
    if (typeof sources !== "object" || sources === null || isIterable(sources)) {
      this.register(...(sources as Iterable<ToolSource>));
      return;
    }
    // The record form: each key names its tool.
    const added = new Map<string, ToolEntry>();
    for (const key of Object.keys(sources)) this.#admit(added, recordTool(sources, key), key);
    this.#commit(added);
  }

  /** The agent loop's way in (see `LoopAccess`). @internal */
  [LOOP_ACCESS](): LoopAccess {
    return accessTo(this.#env);
  }

  /** The registry's dispatch environment, for dispatch/testing.ts alone (not public API). @internal */
  [ENVIRONMENT](): DispatchEnvironment {
    return this.#env;
  }

  /**
   * Add tools. Throws ToolRegistrationError (and adds none of them) when one cannot be registered. Returns this
   * registry, its type widened to any name: what a source holds is not part of its type (a record form's registry
   * goes on knowing its own tools).
   */
  register(...sources: (ToolSource | readonly ToolSource[])[]): this & KnowsTools<AnyTools> {
    const added = new Map<string, ToolEntry>();
    for (const source of sources.flat()) {
      for (const found of findTools(source)) this.#admit(added, found, undefined);
    }
    return this.#commit(added);
  }

  /** Check one tool found and add it to `added` under its name (`key`, the record form's, where given). */
  #admit(added: Map<string, ToolEntry>, found: FoundTool, key: string | undefined): void {
    const meta = checkedMeta(found);
    const name = key === undefined ? (found.declaration.options.name ?? meta.name) : keyedName(found, key);
    if (!TOOL_NAME.test(name)) {
      throw new ToolRegistrationError(
        `Tool name ${JSON.stringify(name)} (${found.label}) is not valid: a tool name must match ^[a-zA-Z0-9_-]{1,64}$ (letters, digits, "_" and "-", 1 to 64 characters). Choose another with ${key === undefined ? "the { name } option of @tool / tool()" : "another key in the record"}.`,
      );
    }
    const existing = added.get(name) ?? this.#tools.get(name);
    if (existing) {
      if (existing.sameAs(found)) return;
      throw new ToolRegistrationError(
        `Tool name "${name}" is used twice: by ${existing.source} and by ${found.label}. Give one of them another name with the { name } option of @tool / tool().`,
      );
    }
    added.set(name, new ToolEntry(found, meta, name, this.#options));
  }

  /** Add the tools a registration found, all checked. */
  #commit(added: Map<string, ToolEntry>): this & KnowsTools<AnyTools> {
    for (const [name, entry] of added) {
      this.#tools.set(name, entry);
      // Dispatch checks a batch for calls that need approval only once a tool may need it.
      if (entry.options.needsApproval !== undefined && entry.options.needsApproval !== false)
        this.#env.approvals = true;
    }
    if (added.size > 0) toolsChanged(this);
    return this as this & KnowsTools<AnyTools>;
  }

  /** The defaults given to the constructor (a frozen copy). */
  get options(): Readonly<RegistryOptions> {
    return this.#options;
  }

  /**
   * Add middleware around every call this registry answers (`dispatch`, `runCalls`, `invoke(call)`, the agent
   * loop), outside the ones added later and outside a dispatch's own `wrap`. See `ToolMiddleware`.
   */
  use(...middleware: ToolMiddleware[]): this {
    for (const wrap of middleware) {
      if (typeof wrap !== "function")
        throw new TypeError(
          `registry.use takes middleware functions (call, next) => result; got ${wrap === null ? "null" : typeof wrap}.`,
        );
    }
    this.#middleware.push(...middleware);
    return this;
  }

  /** The tool the model calls `name`, if registered. */
  get(name: string): RegisteredTool | undefined {
    return this.#tools.get(name);
  }

  /** Whether a tool of this name is registered. */
  has(name: string): boolean {
    return this.#tools.has(name);
  }

  /**
   * The provider that reads and answers `format` (never chat, which the core reads itself): at hand, or a promise
   * of it while it loads. The main entry's registry has every provider loaded; the small entries' load one on need.
   * @internal
   */
  protected abstract providerFor(format: Exclude<MessageFormat, typeof CHAT_FORMAT>): CallReader | Promise<CallReader>;

  #readerOf(format: MessageFormat): CallReader | Promise<CallReader> {
    return format === CHAT_FORMAT ? chatReader : this.providerFor(format);
  }

  /** All tools, in registration order. */
  list(): RegisteredTool[] {
    return [...this.#tools.values()];
  }

  get size(): number {
    return this.#tools.size;
  }

  /**
   * Run every tool call of a model message, concurrently, and answer in the message's own format (see
   * `DispatchResult`): `ToolMessage[]` for an OpenAI `ChatCompletionMessage` or a LangChain `AIMessage`, a
   * `function` message for a legacy `function_call`, `function_call_output` items for a Responses API response, one
   * `user` message of `tool_result` blocks for an Anthropic message, one `user` Content of `functionResponse` parts
   * for a Gemini response. One answer per call, in call order, at most `maxConcurrency` running at once; failures
   * are error answers for the model. Rejects only when a `handle*Error` option is `false` (with that error) or
   * `options.signal` aborts (with its reason).
   */
  dispatch<M extends ToolCallMessage>(message: M, options?: DispatchOptions): Promise<DispatchResult<M>> {
    try {
      const format = formatOf(message);
      // Chat answers are the ToolMessages themselves: no second step for the most common format. `answerCalls` is
      // called here, not through `dispatchCalls`, so that V8 compiles it as a function of its own, whose budget for
      // inlining goes to the pipeline's stages (docs/performance.md).
      if (format === CHAT_FORMAT) {
        const answers = answerCalls(this.#env, chatReader.readCalls(message), options);
        return (answers instanceof Promise ? answers : Promise.resolve(answers)) as Promise<DispatchResult<M>>;
      }
      const provider = this.providerFor(format);
      // A format met for the first time by a small entry's registry: its provider loads, then dispatch goes on.
      if (provider instanceof Promise) return this.#dispatchLater(provider, message, options);
      const calls = provider.readCalls(message);
      // Neither throws. Answered at once, the format's answer is made now (a throw there is caught below), with no
      // promise step between the answers and it.
      const results = answerCalls(this.#env, calls, options);
      return (
        results instanceof Promise
          ? answerIn(provider, message, results)
          : Promise.resolve(provider.answer(message, results))
      ) as Promise<DispatchResult<M>>;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  // The closures of the two steps below live in methods of their own: in `dispatch` they would cost every call a
  // context for the variables they capture, closure or not.
  #dispatchLater<M extends ToolCallMessage>(
    loading: Promise<CallReader>,
    message: M,
    options: DispatchOptions | undefined,
  ): Promise<DispatchResult<M>> {
    return loading.then(() => this.dispatch(message, options));
  }

  /**
   * Like `dispatch`, for a message in any format, but resolves to the ToolMessages themselves (with `status` and
   * `artifact`), one per call in call order. `formatAnswer(message, results)` turns them into dispatch's answer.
   */
  runCalls(message: ToolCallMessage, options?: DispatchOptions): Promise<ToolMessage[]> {
    let calls: NormalizedCall[];
    try {
      const provider = this.#readerOf(formatOf(message));
      if (provider instanceof Promise) return provider.then(() => this.runCalls(message, options));
      calls = provider.readCalls(message);
    } catch (error) {
      return Promise.reject(error);
    }
    return dispatchCalls(this.#env, calls, options);
  }

  /**
   * Like `dispatch`, for a registry with tools that need approval (`needsApproval`). When no call of the message
   * needs it, every call runs and the result is `{ status: "done", answer, results }`. Otherwise nothing runs and
   * the result is `{ status: "paused", pending, state }`: show `pending` to a human, keep `state` (plain JSON), and
   * call `resume(state, decisions)` with one decision per pending call.
   */
  async dispatchWithApproval<M extends ToolCallMessage>(
    message: M,
    options: DispatchOptions = {},
  ): Promise<ApprovalResult<M>> {
    const provider = await this.#readerOf(formatOf(message));
    const calls = provider.readCalls(message);
    const env = this.#env;
    const paused = mayNeedApproval(env, calls)
      ? await viaFull(async (full) => {
          const pending = await full.findPending(env, calls, options);
          return pending.length > 0
            ? {
                pending,
                state: (await full.approvalState(env, provider.name, calls, pending, options)) as ApprovalState<M>,
              }
            : undefined;
        })
      : undefined;
    if (paused) return { status: "paused", ...paused };
    const results = await dispatchCalls(this.#env, calls, options, []);
    return { status: "done", answer: provider.answer(message, results) as DispatchResult<M>, results };
  }

  /**
   * Answer every call of a paused batch: the approved calls and the ones that needed no approval run, each rejected
   * call is answered with its rejection (and `reason`) as an error the model reads. `decisions` must decide every
   * pending call exactly once (`{ id, approved: true }` or `{ id, approved: false, reason? }`); otherwise it throws a
   * TypeError and runs nothing. Works on a state read back from JSON, in a new registry with the same tools.
   */
  async resume<M = ToolCallMessage>(
    state: ApprovalState<M>,
    decisions: readonly ApprovalDecision[],
    options: DispatchOptions = {},
  ): Promise<ApprovalDone<M>> {
    let provider: CallReader | undefined;
    // The steps are the full pipeline's (dispatch/resume.ts), which loads with the first of them; the format and
    // its provider are this registry's part, before anything runs.
    const results = await viaFull((full) =>
      full.resumeBatch(this.#env, state, decisions, options, async (format) => {
        if (!isMessageFormat(format))
          throw new TypeError(`resume: the state names an unknown message format ${JSON.stringify(format)}.`);
        provider = await this.#readerOf(format);
      }),
    );
    // Every provider answers from the results alone; the original message is not part of the state.
    return { status: "done", answer: provider!.answer(undefined as never, results) as DispatchResult<M>, results };
  }

  /** The calls of `message` that need approval (nothing runs); `[]` when every call may run. */
  pendingApprovals(message: ToolCallMessage, options: DispatchOptions = {}): Promise<PendingApproval[]> {
    try {
      const provider = this.#readerOf(formatOf(message));
      if (provider instanceof Promise) return provider.then(() => this.pendingApprovals(message, options));
      return accessTo(this.#env).pending(provider.readCalls(message), options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Run one call as dispatch would, answering with its ToolMessage. */
  invoke(call: ToolCall | OpenAIToolCall, options?: DispatchOptions): Promise<ToolMessage>;
  /**
   * Validate and call the tool `name` directly with an arguments object (or, for a tool with exactly one parameter,
   * a bare string) and return its own value. Throws ToolValidationError for an unknown tool or invalid arguments,
   * and whatever the tool throws. The input is yours, not the model's: it is validated as given, and coerced to the
   * schema's types only with `{ coerce: true }`. A registry built from a record types it: `name` one of its keys,
   * `input` the tool's arguments, the result the tool's own (awaited); otherwise any name, `unknown`.
   */
  invoke<R, N extends ToolName<R>>(
    this: R,
    name: N,
    input?: ToolArguments<ToolNamed<R, N>>,
    options?: DispatchOptions,
  ): Promise<ToolResult<ToolNamed<R, N>>>;
  invoke(
    first: string | ToolCall | OpenAIToolCall,
    second?: ToolInput | DispatchOptions,
    third?: DispatchOptions,
  ): Promise<unknown> {
    if (typeof first === "string") return invokeRaw(this.#env, first, second as ToolInput | undefined, third);
    // One call is read as the one entry of a chat message's `tool_calls` (either shape: OpenAI or LangChain).
    const call = readChatCall(first);
    return dispatchCalls(this.#env, [call], second as DispatchOptions | undefined).then((answers) => answers[0]!);
  }
}

/** Whether the constructor was given sources (an array, a Set, …) rather than the record form. */
function isIterable(value: object): boolean {
  return typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === "function";
}

/** The tool of a record's `key`: a `tool()` value, else a registration error that says what a record holds. */
function recordTool(record: object, key: string): FoundTool {
  // Read through the descriptor: registration runs no getter.
  const descriptor = Object.getOwnPropertyDescriptor(record, key);
  const value: unknown = descriptor && "value" in descriptor ? descriptor.value : undefined;
  if (getToolDeclaration(value)?.kind !== "function") {
    throw new ToolRegistrationError(
      `The tool record's "${key}" is not a tool() value: each value of new ToolRegistry({ name: tool(fn), … }) is one tool, which its key names. Wrap a function with tool(fn); register objects with @tool methods and classes with registry.register(…), or pass them in an array.`,
    );
  }
  return findTools(value)[0]!;
}

/** The name of a record's tool: its key, which a `name` option of the tool's own may not contradict. */
function keyedName(found: FoundTool, key: string): string {
  const own = found.declaration.options.name;
  if (own !== undefined && own !== key) {
    throw new ToolRegistrationError(
      `The tool record names ${found.label} "${key}", but its own name option says "${own}": a record's key is the name the model calls the tool by. Use "${own}" as the key, or drop the name option.`,
    );
  }
  return key;
}

/** A provider's answer to a message, once its calls are answered (see `dispatch`). */
function answerIn(provider: CallReader, message: ToolCallMessage, results: Promise<ToolMessage[]>): Promise<unknown> {
  return results.then((done) => provider.answer(message, done));
}

/** The tool's metadata, or a registration error that says why it is unusable and how to fix the build. */
function checkedMeta(found: FoundTool): CompiledToolMeta {
  const { declaration } = found;
  // Named only when something is wrong: registering many tools builds no string per tool.
  const tool = (): string => `Tool "${declaration.options.name ?? (declaration.key || "(anonymous)")}" (${found.role})`;
  const meta: unknown = declaration.meta;
  if (meta === null) {
    throw new ToolRegistrationError(
      `${tool()} has no compiled metadata: the tooltype transformer ran, but could not read the function passed to tool() (the build reported TT1007 there, saying what to write instead). If tool() is called inside a function of yours that wraps it, make that function a tool factory (docs/marking-tools.md#wrapping-tool).`,
    );
  }
  if (meta === undefined) {
    const wrapper =
      declaration.kind === "function"
        ? " If tool() is called inside a function of yours that wraps it without passing metadata on, make that function a tool factory (docs/marking-tools.md#wrapping-tool)."
        : "";
    throw new ToolRegistrationError(`${tool()} has no compiled metadata: ${notCompiledHint()}${wrapper}`);
  }
  if (!isCompiledToolMeta(meta)) {
    throw new ToolRegistrationError(
      `${tool()} has malformed compiled metadata (expected an object with v, name, description, parameters and params). Rebuild with the tooltype transformer instead of writing the metadata by hand.`,
    );
  }
  if (meta.v !== META_VERSION) {
    throw new ToolRegistrationError(
      `${tool()} was compiled with tooltype metadata version ${String(meta.v)}, but this tooltype runtime reads version ${META_VERSION}. Rebuild with the tooltype transformer from the same tooltype version as the runtime (reinstall tooltype, then run tspc again).`,
    );
  }
  const shaped = meta as CompiledToolMeta;
  if (typeof shaped.name !== "string" || typeof shaped.parameters !== "object" || !Array.isArray(shaped.params)) {
    throw new ToolRegistrationError(
      `${tool()} has malformed compiled metadata (expected name, parameters and params). Rebuild with the tooltype transformer.`,
    );
  }
  return shaped;
}
