/**
 * `tool`: the `@tool` method decorator (under both `experimentalDecorators` and standard decorators), the wrapper
 * for plain functions (`tool(fn)`) and `tool.fromSchema`, a tool whose JSON Schema is known only at run time.
 */
import type { CompiledToolMeta, JsonSchema, JsonValue } from "./meta";
import type { ToolContext, ToolOptions } from "./options";
import { streamsResults } from "./stream-kind";

// Tool functions and methods as the caller wrote them: any parameters, any result.
// `any` here is the decorator contract TypeScript itself uses for method types.
// biome-ignore lint/suspicious/noExplicitAny: any method must fit
export type AnyFunction = (...args: any[]) => unknown;

/** What the decorator or wrapper recorded about one function. */
export interface ToolDeclaration {
  kind: "function" | "method";
  /** The function as written (a method is bound to its instance or class at registration). */
  fn: AnyFunction;
  /** Method key, or the function's own name: used to name the tool in errors when metadata is missing. */
  key: string;
  options: ToolOptions;
  meta?: CompiledToolMeta;
  /** How registration errors name where the tool came from, instead of `function <key>` (run-time schema tools). */
  origin?: string;
}

/**
 * What `tool` recorded per function. The transformer appends the compiled metadata as the last argument
 * (`tool(fn, options, meta)`, `@tool(options, meta)`); nothing is checked here: a missing or unknown metadata version
 * is reported when the tool is registered, where the error can name the tool.
 */
const declarations = new WeakMap<object, ToolDeclaration>();

/** The declaration `tool` recorded for a function or method, if any. */
export function getToolDeclaration(value: unknown): ToolDeclaration | undefined {
  return typeof value === "function" ? declarations.get(value) : undefined;
}

/** A method decorator usable under both decorator modes. */
export interface ToolDecorator {
  // biome-ignore lint/suspicious/noExplicitAny: any method must fit
  <This, F extends (this: This, ...args: any) => any>(method: F, context: ClassMethodDecoratorContext<This, F>): void;
  (target: object, key: string | symbol, descriptor: PropertyDescriptor): void;
}

/**
 * `@tool` on a method (standard decorators).
 * @typeParam This The class whose method it is.
 * @typeParam F The method's type.
 */
// biome-ignore lint/suspicious/noExplicitAny: any method must fit
export function tool<This, F extends (this: This, ...args: any) => any>(
  method: F,
  context: ClassMethodDecoratorContext<This, F>,
): void;
/** `@tool` on a method (`experimentalDecorators`). */
export function tool(target: object, key: string | symbol, descriptor: PropertyDescriptor): void;
/**
 * `tool(fn)`, `tool(fn, options)`: make a plain function a tool. Returns a callable with the same signature.
 * @typeParam F The function's type, kept as it is.
 * @typeParam Args The validated arguments object a `needsApproval` predicate is given (see `ToolOptions`).
 */
export function tool<F extends AnyFunction, Args extends object = Record<string, unknown>>(
  fn: F,
  options?: ToolOptions<Args>,
  meta?: CompiledToolMeta,
): F;
/** `@tool({...})`: a method decorator with options. */
export function tool<Args extends object = Record<string, unknown>>(
  options?: ToolOptions<Args>,
  meta?: CompiledToolMeta,
): ToolDecorator;
export function tool(first?: unknown, second?: unknown, third?: unknown): unknown {
  const misplaced = misplacedContext(second);
  if (misplaced) throw new TypeError(misplaced);
  if (isStandardMethodContext(second)) {
    // Bare `@tool` that the transformer did not rewrite: no metadata.
    recordMethod(first as AnyFunction, second.name, {}, undefined);
    return undefined;
  }
  if (typeof second === "string" || typeof second === "symbol") {
    // Bare `@tool` under experimentalDecorators, not rewritten by the transformer.
    recordMethod((third as PropertyDescriptor | undefined)?.value, second, {}, undefined);
    return undefined;
  }
  if (typeof first === "function") {
    return wrapFunction(first as AnyFunction, (second ?? {}) as ToolOptions, third as CompiledToolMeta | undefined);
  }
  return decoratorWith((first ?? {}) as ToolOptions, second as CompiledToolMeta | undefined);
}

function decoratorWith(options: ToolOptions, meta: CompiledToolMeta | undefined): ToolDecorator {
  return ((target: unknown, keyOrContext: unknown, descriptor?: PropertyDescriptor): void => {
    const misplaced = misplacedContext(keyOrContext);
    if (misplaced) throw new TypeError(misplaced);
    if (isStandardMethodContext(keyOrContext)) {
      recordMethod(target as AnyFunction, keyOrContext.name, options, meta);
    } else {
      recordMethod(descriptor?.value, keyOrContext as string | symbol, options, meta);
    }
  }) as ToolDecorator;
}

function recordMethod(
  fn: unknown,
  key: string | symbol,
  options: ToolOptions,
  meta: CompiledToolMeta | undefined,
): void {
  if (typeof fn !== "function") {
    throw new TypeError(
      `@tool can only decorate methods; "${String(key)}" is not a method (a field holding an arrow function, or a ` +
        `getter?). Write it as a method, or drop @tool and wrap the function with tool(fn).`,
    );
  }
  declarations.set(fn, { kind: "method", fn: fn as AnyFunction, key: String(key), options, meta });
}

function wrapFunction<F extends AnyFunction>(fn: F, options: ToolOptions, meta: CompiledToolMeta | undefined): F {
  // A fresh function per tool() call, so the same implementation can be registered twice under different options.
  const wrapped = function (this: unknown, ...args: unknown[]) {
    return fn.apply(this, args);
  };
  Object.defineProperty(wrapped, "name", { value: fn.name, configurable: true });
  Object.defineProperty(wrapped, "length", { value: fn.length, configurable: true });
  declarations.set(wrapped, { kind: "function", fn, key: fn.name, options, meta });
  return wrapped as unknown as F;
}

/** A standard decorator context for something other than a method (a field, getter, class): why @tool refuses it. */
function misplacedContext(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { kind, name } = value as { kind?: unknown; name?: unknown };
  if (
    typeof kind !== "string" ||
    kind === "method" ||
    typeof (value as { addInitializer?: unknown }).addInitializer !== "function"
  ) {
    return undefined;
  }
  return (
    `@tool can only decorate methods; "${String(name)}" is a ${kind}. Write it as a method, or drop @tool and ` +
    `wrap the function with tool(fn).`
  );
}

function isStandardMethodContext(value: unknown): value is ClassMethodDecoratorContext {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { kind?: unknown }).kind === "method" &&
    typeof (value as { addInitializer?: unknown }).addInitializer === "function"
  );
}

/** A tool whose schema is known only at run time: its name, description and parameter schema, plus any tool option. */
export interface SchemaToolDefinition<Args extends object = Record<string, unknown>> extends ToolOptions<Args> {
  name: string;
  description?: string;
  /** JSON Schema (draft 2020-12) of the arguments object: `{ type: "object", properties, required, … }`. */
  parameters: JsonSchema;
  /** How registration errors name the tool's origin, e.g. `tool "search" of MCP server "files"`. */
  origin?: string;
  /** Example arguments (not checked here: write ones `parameters` accepts), as `@example` JSON gives compiled tools. */
  examples?: { [key: string]: JsonValue }[];
}

/** The function of a run-time schema tool: the validated (and coerced) arguments object, and the call's context. */
export type SchemaToolFunction<Args = Record<string, unknown>> = (args: Args, context: ToolContext) => unknown;

/**
 * `tool.fromSchema({ name, description, parameters }, fn)`: a tool from a JSON Schema written or received at run
 * time. Register it like any `tool()` value; dispatch reads, repairs, coerces and validates its arguments against
 * `parameters` as it does for compiled tools, then calls `fn(args, context)`. There is no compiled validator: ajv
 * compiles `parameters` once, on the tool's first call.
 */
function fromSchema<Args extends object = Record<string, unknown>>(
  definition: SchemaToolDefinition<Args>,
  fn: SchemaToolFunction<Args>,
): SchemaToolFunction<Args> {
  const { parameters, origin, examples, ...options } = definition;
  if (typeof fn !== "function") {
    throw new TypeError(
      `tool.fromSchema(${JSON.stringify(definition.name)}, fn): fn must be a function; got ${typeof fn}.`,
    );
  }
  if (
    typeof parameters !== "object" ||
    parameters === null ||
    Array.isArray(parameters) ||
    (parameters.type ?? "object") !== "object"
  ) {
    throw new TypeError(
      `tool.fromSchema(${JSON.stringify(definition.name)}): parameters must be an object schema ({ type: "object", properties, required }), as every provider requires for tool arguments.`,
    );
  }
  const meta: CompiledToolMeta = {
    v: 1,
    name: definition.name,
    description: definition.description ?? "",
    parameters: { ...parameters, type: "object" },
    params: ["args"],
    // The arguments object is passed whole, the ToolContext second.
    flatten: true,
    inject: [1],
    // What the transformer says of an `async function*`, said here of one written without it.
    ...(streamsResults(fn, undefined) ? { streams: true as const } : {}),
  };
  if (examples !== undefined && examples.length > 0) meta.examples = examples;
  const wrapped = wrapFunction(fn as AnyFunction, options as ToolOptions, meta);
  if (origin !== undefined) declarations.get(wrapped)!.origin = origin;
  return wrapped as SchemaToolFunction<Args>;
}

/** `tool.fromSchema({ name, description, parameters }, fn)`: a tool from a JSON Schema known only at run time. */
tool.fromSchema = fromSchema;
