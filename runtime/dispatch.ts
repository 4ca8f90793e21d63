/**
 * Answering tool calls: the per-call pipeline and the ToolMessage it ends in.
 *
 *   normalise → find the tool → read arguments → drop nulls of optional parameters → validate → revive dates → map to positions → call (`this` bound,
 *   awaited, timed) → content (and artifact) → ToolMessage
 *
 * Every call gets exactly one ToolMessage, in call order, with calls running concurrently. Each failure becomes a
 * `status: "error"` message written for the model to correct itself; `handleToolError` / `handleValidationError`
 * (tool first, then registry) choose the text or rethrow. Only a caller's abort rejects dispatch unasked.
 * `invokeRaw` runs the same steps for a direct call and returns the tool's own value, throwing instead.
 */
import {
  type ArgsObject,
  type ReadResult,
  describeArgumentsProblem,
  modelParams,
  parseArguments,
  readArguments,
  reviveDates,
  shortJson,
  toPositionalArgs,
} from "./args";
import { type NormalizedCall, normalizeCalls } from "./calls";
import { ToolError, ToolResultError, ToolTimeoutError, ToolValidationError } from "./errors";
import { dropOptionalNulls } from "./formats/strict";
import { type DispatchInput, type ToolCall, ToolMessage } from "./messages";
import type { CompiledToolMeta } from "./meta";
import type { DispatchOptions, ErrorHandler, RegistryOptions, ToolContext, ToolOptions } from "./options";
import { type ArgumentsValidator, invalidArgumentsError } from "./validate";

/** What dispatch needs of a registered tool. */
export interface DispatchTool {
  readonly name: string;
  readonly meta: CompiledToolMeta;
  readonly options: Readonly<ToolOptions>;
  /** The compiled parameter schema (compiled on first use, then kept). */
  validator(): ArgumentsValidator;
  /** Call the function with its `this`. */
  call(args: unknown[]): unknown;
}

/** What dispatch needs of the registry. */
export interface DispatchEnvironment {
  get(name: string): DispatchTool | undefined;
  names(): string[];
  readonly options: Readonly<RegistryOptions>;
}

/** An args object for `invoke(name, input)`, or a bare string for a tool with exactly one parameter. */
export type ToolInput = Record<string, unknown> | string;

/** One ToolMessage per call in `message`, in call order. */
export async function dispatchMessage(
  env: DispatchEnvironment,
  message: DispatchInput,
  options: DispatchOptions = {},
): Promise<ToolMessage[]> {
  const calls = normalizeCalls(message);
  options.signal?.throwIfAborted();
  return Promise.all(calls.map((call) => answerCall(env, call, options)));
}

/** The ToolMessage for one call; rejects only when a handler says `false` or the caller aborts. */
export async function answerCall(
  env: DispatchEnvironment,
  call: NormalizedCall,
  options: DispatchOptions = {},
): Promise<ToolMessage> {
  const toolCall: ToolCall = { name: call.name, args: {}, id: call.id, type: "tool_call" };
  const tool = env.get(call.name);
  if (!tool) {
    const error = unknownToolError(call.name, env.names());
    return failure(call, call.name, env.options.handleValidationError, error, toolCall, `Error: ${error.message}`);
  }
  const validationHandler = tool.options.handleValidationError ?? env.options.handleValidationError;
  const toolHandler = tool.options.handleToolError ?? env.options.handleToolError;

  let prepared: Prepared;
  try {
    prepared = prepareArguments(tool, call);
  } catch (error) {
    // Not the model's fault (e.g. a parameter schema ajv cannot compile): report it as the tool failing.
    return failure(call, tool.name, toolHandler, error, toolCall, toolErrorText(error));
  }
  if (!prepared.ok) {
    return failure(call, tool.name, validationHandler, prepared.error, toolCall, `Error: ${prepared.error.message}`);
  }
  toolCall.args = prepared.args;

  try {
    const result = await runTool(tool, prepared.args, toolCall, env.options, options);
    return successMessage(tool, call.id, result);
  } catch (error) {
    if (error instanceof CallerAbort) throw error.reason;
    return failure(call, tool.name, toolHandler, error, toolCall, toolErrorText(error));
  }
}

/** `invoke(name, input)`: the tool's own return value; unknown tools and bad arguments throw ToolValidationError. */
export async function invokeRaw(
  env: DispatchEnvironment,
  name: string,
  input: ToolInput | undefined,
  options: DispatchOptions = {},
): Promise<unknown> {
  const tool = env.get(name);
  if (!tool) throw unknownToolError(name, env.names());
  return invokeTool(tool, input, env.options, options);
}

/** `invoke` on one tool, without the registry lookup. */
export async function invokeTool(
  tool: DispatchTool,
  input: ToolInput | undefined,
  registryOptions: Readonly<RegistryOptions>,
  options: DispatchOptions = {},
): Promise<unknown> {
  const read = typeof input === "string" ? bareStringArguments(tool, input) : readArguments(input);
  const prepared = checkArguments(tool, read);
  if (!prepared.ok) throw prepared.error;
  const toolCall: ToolCall = { name: tool.name, args: prepared.args, id: "", type: "tool_call" };
  try {
    return await runTool(tool, prepared.args, toolCall, registryOptions, options);
  } catch (error) {
    throw error instanceof CallerAbort ? error.reason : error;
  }
}

type Prepared = { ok: true; args: ArgsObject } | { ok: false; error: ToolValidationError };

function prepareArguments(tool: DispatchTool, call: NormalizedCall): Prepared {
  switch (call.kind) {
    case "args":
      return checkArguments(tool, readArguments(call.args));
    case "text":
      return checkArguments(tool, parseArguments(call.text));
    case "invalid": {
      // Prefer our own parser's words when the text is the problem; otherwise pass on why the call was rejected.
      const read = call.text === undefined ? undefined : parseArguments(call.text);
      if (read && !read.ok) return checkArguments(tool, read);
      const reason = call.error ?? "the provider marked it as invalid";
      return {
        ok: false,
        error: new ToolValidationError(
          `the call to ${tool.name} could not be used: ${reason}\nCall ${tool.name} again with the arguments as one JSON object.`,
          { reason: "malformed_arguments", toolName: tool.name },
        ),
      };
    }
  }
}

/** Read result → validated arguments with dates revived, or the error to report. */
function checkArguments(tool: DispatchTool, read: ReadResult): Prepared {
  if (!read.ok) {
    return {
      ok: false,
      error: new ToolValidationError(describeArgumentsProblem(tool.name, read), {
        reason: "malformed_arguments",
        toolName: tool.name,
      }),
    };
  }
  // A null for an optional parameter means "left out" (OpenAI strict mode writes optional as nullable).
  dropOptionalNulls(read.args, tool.meta.parameters);
  const invalid = tool.validator().check(read.args);
  if (invalid) return { ok: false, error: invalidArgumentsError(tool.name, invalid) };
  reviveDates(read.args, tool.meta.dates);
  return { ok: true, args: read.args };
}

function bareStringArguments(tool: DispatchTool, input: string): ReadResult {
  const params = modelParams(tool.meta);
  if (params.length === 1) return readArguments({ [params[0]!]: input });
  const takes = params.length === 0 ? "takes no arguments" : `takes ${params.length} arguments (${params.join(", ")})`;
  throw new ToolValidationError(
    `${tool.name} ${takes}, so it cannot be invoked with a bare string; pass the arguments as an object.`,
    { reason: "malformed_arguments", toolName: tool.name },
  );
}

/** The caller's signal fired: dispatch must reject with its reason, not answer the call. */
class CallerAbort {
  constructor(readonly reason: unknown) {}
}

/** Call the tool with its positional arguments, awaiting its result, within its timeout and the caller's signal. */
function runTool(
  tool: DispatchTool,
  args: ArgsObject,
  toolCall: ToolCall,
  registryOptions: Readonly<RegistryOptions>,
  options: DispatchOptions,
): Promise<unknown> {
  const callerSignal = options.signal;
  if (callerSignal?.aborted) return Promise.reject(new CallerAbort(callerSignal.reason));
  const controller = new AbortController();
  const context = (): ToolContext => ({
    toolCall,
    signal: controller.signal,
    metadata: { ...tool.options.metadata, ...options.metadata },
  });
  const positional = toPositionalArgs(args, tool.meta, context);
  const timeoutMs = tool.options.timeoutMs ?? registryOptions.timeoutMs;

  return new Promise<unknown>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = (): void => {
      controller.abort(callerSignal?.reason);
      reject(new CallerAbort(callerSignal?.reason));
    };
    const settle = (): void => {
      if (timer !== undefined) clearTimeout(timer);
      callerSignal?.removeEventListener("abort", onAbort);
    };
    callerSignal?.addEventListener("abort", onAbort, { once: true });
    if (timeoutMs !== undefined && Number.isFinite(timeoutMs) && timeoutMs >= 0) {
      timer = setTimeout(() => {
        const error = new ToolTimeoutError(tool.name, timeoutMs);
        controller.abort(error);
        reject(error);
        settle();
      }, timeoutMs);
    }
    let pending: unknown;
    try {
      pending = tool.call(positional);
    } catch (error) {
      settle();
      reject(error);
      return;
    }
    Promise.resolve(pending).then(
      (value) => {
        settle();
        resolve(value);
      },
      (error: unknown) => {
        settle();
        reject(error);
      },
    );
  });
}

function successMessage(tool: DispatchTool, id: string, result: unknown): ToolMessage {
  if (tool.options.responseFormat === "content_and_artifact") {
    if (!Array.isArray(result) || result.length !== 2) {
      throw new ToolResultError(
        tool.name,
        `${tool.name} has responseFormat "content_and_artifact", so it must return a two-element array [content, artifact]; it returned ${describeValue(result)}.`,
      );
    }
    return new ToolMessage({
      tool_call_id: id,
      name: tool.name,
      content: toContent(tool.name, result[0]),
      artifact: result[1],
      status: "success",
    });
  }
  return new ToolMessage({ tool_call_id: id, name: tool.name, content: toContent(tool.name, result), status: "success" });
}

/** The text the model reads for a result: strings as they are, nothing as "", anything else as JSON. */
function toContent(toolName: string, value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new ToolResultError(
      toolName,
      `the result of ${toolName} could not be serialised to JSON: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  if (text === undefined) {
    throw new ToolResultError(toolName, `the result of ${toolName} could not be serialised to JSON: it is a ${typeof value}.`);
  }
  return text;
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? "" : "s"}`;
  if (value === null || value === undefined) return String(value);
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

/** Default text for a tool's failure: a ToolError speaks for itself, anything else gets `Error: `. */
function toolErrorText(error: unknown): string {
  if (isToolError(error)) return error.message;
  if (error instanceof Error) return `Error: ${error.message}`;
  return `Error: ${typeof error === "string" ? error : shortJson(error, 500)}`;
}

/** By class or, across duplicated copies of this package, by name. */
function isToolError(error: unknown): error is ToolError {
  return error instanceof ToolError || (error instanceof Error && error.name === "ToolError");
}

function unknownToolError(name: string, valid: string[]): ToolValidationError {
  const what = name === "" ? "The call names no tool." : `${JSON.stringify(truncateName(name))} is not a valid tool.`;
  const list = valid.length > 0 ? `Valid tools: ${valid.join(", ")}.` : "No tools are registered.";
  return new ToolValidationError(`${what} ${list}`, { reason: "unknown_tool", toolName: name });
}

function truncateName(name: string): string {
  return name.length <= 100 ? name : `${name.slice(0, 100)}…`;
}

/** The error message for a failed call, or the error itself rethrown when the handler is `false`. */
function failure(
  call: NormalizedCall,
  name: string,
  handler: ErrorHandler | undefined,
  error: unknown,
  toolCall: ToolCall,
  defaultText: string,
): ToolMessage {
  let content: string;
  if (handler === undefined || handler === true) content = defaultText;
  else if (handler === false) throw error;
  else if (typeof handler === "string") content = handler;
  else content = String(handler(error, toolCall));
  return new ToolMessage({ tool_call_id: call.id, name, content, status: "error" });
}
