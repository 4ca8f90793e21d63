/**
 * `parseToolCalls(registry, message, options)`: a model's tool calls as typed, validated argument objects, without
 * running anything (the "tools output parser" style: extraction with a tool whose call is the answer).
 *
 * Reads every format dispatch reads (the catalogue), then each call's arguments with dispatch's own rules: lenient
 * reading (repair), size and depth limits, coercion, validation against the tool's schema, Dates revived. Calls that
 * name no registered tool or whose arguments cannot be read or fail validation are reported apart, with the same
 * error text dispatch would send the model. Settings come from the tool's own options, then these options; a
 * registry's defaults are not consulted (they belong to dispatch).
 */
import {
  MAX_ARGUMENTS_BYTES,
  MAX_ARGUMENTS_DEPTH,
  type ReadOptions,
  readArguments,
} from "../arguments/read/read-arguments";
import { instantiateValidator } from "../validation/compiled-validator";
import { conform } from "../arguments/repair/conform";
import { invalidArgumentsError } from "../arguments/explain/invalid";
import { describeArgumentsProblem, parseArguments } from "../arguments/read/parse-arguments";
import { ArgumentsValidator } from "../validation/validate";
import { providerOf } from "../providers/at-hand";
import { freeformArguments } from "../tool/freeform";
import type { SchemaError, ToolValidationReason } from "../tool/errors";
import type { ToolCallMessage } from "../providers/catalog";
import type { BaseToolRegistry as ToolRegistry, RegisteredTool } from "./core";

/** Options of `parseToolCalls`. */
export interface ParseToolCallsOptions {
  /** Read only the first call of the message (the others are neither returned nor checked). */
  firstToolOnly?: boolean;
  /** Give each parsed call its `id`. */
  returnId?: boolean;
  /** Read the unambiguous JSON slips dispatch reads (default `true`; a tool's own `repair` option wins). */
  repair?: boolean;
  /** Apply dispatch's coercion rules (default `true`; a tool's own `coerce` option wins). */
  coerce?: boolean;
}

/** A valid call: the tool's name and its arguments, validated (and with Dates revived). */
export interface ParsedToolCall<Args = Record<string, unknown>> {
  name: string;
  args: Args;
  /** Present with `returnId: true`. */
  id?: string;
}

/** A call that could not be parsed into valid arguments. */
export interface InvalidParsedToolCall {
  /** The name the model used. */
  name: string;
  id: string;
  /** The arguments as they arrived (text, or JSON of an arguments object). */
  arguments: string;
  reason: ToolValidationReason;
  /** What dispatch would tell the model, e.g. `invalid arguments for joke:\n- /rating: must be <= 10; got 11\n…`. */
  error: string;
  /** One line per problem. */
  issues: string[];
  /** The schema violations (for `invalid_arguments`). */
  errors: SchemaError[];
}

/** What `parseToolCalls` returns: the valid calls with typed arguments, and the others with what was wrong. */
export interface ParsedToolCalls<Call> {
  /** The valid calls, in call order. */
  calls: Call[];
  /** The others, in call order. */
  invalid: InvalidParsedToolCall[];
}

/** The calls of `message` with their ids. `Args` is the arguments type you expect (it is not checked against the tools). */
export function parseToolCalls<Args = Record<string, unknown>>(
  registry: ToolRegistry,
  message: ToolCallMessage,
  options: ParseToolCallsOptions & { returnId: true },
): ParsedToolCalls<ParsedToolCall<Args> & { id: string }>;
/** The calls of `message`. `Args` is the arguments type you expect (it is not checked against the tools). */
export function parseToolCalls<Args = Record<string, unknown>>(
  registry: ToolRegistry,
  message: ToolCallMessage,
  options?: ParseToolCallsOptions,
): ParsedToolCalls<ParsedToolCall<Args>>;
export function parseToolCalls<Args = Record<string, unknown>>(
  registry: ToolRegistry,
  message: ToolCallMessage,
  options: ParseToolCallsOptions = {},
): ParsedToolCalls<ParsedToolCall<Args>> {
  const all = providerOf(message).readCalls(message);
  const calls = options.firstToolOnly ? all.slice(0, 1) : all;
  const parsed: ParsedToolCalls<ParsedToolCall<Args>> = { calls: [], invalid: [] };
  for (const call of calls) {
    const text =
      call.kind === "text"
        ? call.text
        : call.kind === "input"
          ? call.input
          : call.kind === "args"
            ? typeof call.args === "string"
              ? call.args
              : safeJson(call.args)
            : (call.text ?? "");
    const invalid = (
      reason: ToolValidationReason,
      error: string,
      issues: string[] = [error],
      errors: SchemaError[] = [],
    ): void => {
      parsed.invalid.push({ name: call.name, id: call.id, arguments: text, reason, error, issues, errors });
    };
    const tool = registry.get(call.name);
    if (!tool) {
      const names = registry.list().map((t) => t.name);
      const error = `${JSON.stringify(call.name)} is not a valid tool. ${names.length > 0 ? `Valid tools: ${names.join(", ")}.` : "No tools are registered."}`;
      invalid("unknown_tool", error);
      continue;
    }
    const coerce = tool.options.coerce ?? options.coerce ?? true;
    const read: Required<ReadOptions> = {
      repair: tool.options.repair ?? options.repair ?? true,
      unwrapString: coerce,
      maxBytes: tool.options.maxArgumentsBytes ?? MAX_ARGUMENTS_BYTES,
      maxDepth: tool.options.maxArgumentsDepth ?? MAX_ARGUMENTS_DEPTH,
    };
    if (call.kind === "invalid") {
      const error = `the call to ${tool.name} could not be used: ${call.error ?? "the provider marked it as invalid"}`;
      invalid("malformed_arguments", error);
      continue;
    }
    let result: ReturnType<typeof readArguments>;
    if (call.kind === "input") {
      // A free-form tool's raw text is its one string parameter's value.
      const args = freeformArguments(tool.name, tool.parameters, call.input);
      if (typeof args === "string") {
        invalid("malformed_arguments", args);
        continue;
      }
      result = readArguments(args, read);
    } else
      result =
        call.kind === "text" || typeof call.args === "string"
          ? parseArguments(text, read)
          : readArguments(call.args, read);
    if (!result.ok) {
      invalid("malformed_arguments", describeArgumentsProblem(tool.name, result));
      continue;
    }
    const conformed = conform(result.args, tool.parameters, validatorOf(tool), tool.meta, {
      coerce,
      maxDepth: read.maxDepth,
    });
    if (conformed.invalid) {
      const error = invalidArgumentsError(tool.name, conformed.invalid);
      invalid("invalid_arguments", error.message, [...error.issues], [...error.errors]);
      continue;
    }
    const entry: ParsedToolCall<Args> = { name: tool.name, args: result.args as Args };
    if (options.returnId) entry.id = call.id;
    parsed.calls.push(entry);
  }
  return parsed;
}

const validators = new WeakMap<RegisteredTool, ArgumentsValidator>();

/** The registry's own validator for the tool when it exposes one (compiled once), else one made here and kept. */
function validatorOf(tool: RegisteredTool): ArgumentsValidator {
  const own = (tool as { validator?: unknown }).validator;
  if (typeof own === "function") return (own as () => ArgumentsValidator).call(tool);
  let validator = validators.get(tool);
  if (!validator) {
    validator = new ArgumentsValidator(
      tool.parameters,
      tool.meta.validator ? instantiateValidator(tool.meta.validator, tool.parameters) : undefined,
    );
    validators.set(tool, validator);
  }
  return validator;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
}
