/**
 * What a registry's type knows of its tools: their names, arguments and results where it was built from a record
 * (`new ToolRegistry({ add: tool(add) })`), nothing (any name, untyped) where it was not. Types only: nothing here
 * exists at run time.
 */
import type { ToolInput } from "../dispatch/options";
import type { ToolContext } from "../tool/options";
import type { AnyFunction } from "../tool/tool";

/** The tools a registry knows nothing of: any name, any arguments, any result (an array-built registry's). */
export type AnyTools = { readonly [name: string]: unknown };

/**
 * The record form of a registry: each key the name the model calls a tool by, each value a `tool()` value (or a
 * `tool.fromSchema` one) whose function gives the tool's arguments and result.
 */
export type ToolRecord = { readonly [name: string]: AnyFunction };

/** The key of a registry type's phantom tools; it names no property at run time. */
export declare const TOOL_TYPES: unique symbol;

/** A registry type that knows `Tools` (a phantom: no such property exists). */
export interface KnowsTools<Tools> {
  /** The registry's tools, by name, for the types alone: no such property exists at run time. */
  readonly [TOOL_TYPES]: Tools;
}

/** The tools a registry type knows, by name (`AnyTools` where it knows none). */
export type ToolsOf<R> = R extends KnowsTools<infer Tools> ? Tools : AnyTools;

/** The names `invoke` accepts for a registry: its record's keys, or any string where they are not known. */
export type ToolName<R> = keyof ToolsOf<R> & string;

/** The tool a registry type knows by `name` (`unknown` where it knows none of that name). */
export type ToolNamed<R, N extends string> = N extends keyof ToolsOf<R> ? ToolsOf<R>[N] : unknown;

/** A parameter dispatch injects (`ToolContext`), not an argument; `any` is an argument. */
type IsContext<P> = 0 extends 1 & P ? false : [NonNullable<P>] extends [ToolContext<unknown>] ? true : false;

/** A tool function's parameters without the injected `ToolContext` ones, in order. */
type DataParameters<P extends readonly unknown[]> = number extends P["length"]
  ? P
  : P extends readonly []
    ? []
    : P extends readonly [infer Head, ...infer Rest]
      ? IsContext<Head> extends true
        ? DataParameters<Rest>
        : [Head, ...DataParameters<Rest>]
      : P extends readonly [(infer Head)?, ...infer Rest]
        ? IsContext<Head> extends true
          ? DataParameters<Rest>
          : [Head | undefined, ...DataParameters<Rest>]
        : P;

/** A plain object type (not an array, not a function): what a single parameter may be destructured from. */
type ObjectForm<P> = NonNullable<P> extends readonly unknown[] | AnyFunction ? never : Extract<NonNullable<P>, object>;

/** The value of an object's one property, where it has exactly one (a bare string may stand for it). */
type OnlyValue<O> = { [K in keyof O]-?: [Exclude<keyof O, K>] extends [never] ? O[K] : never }[keyof O];

/**
 * The arguments object `invoke` takes for a function of these data parameters. A function's parameter names are
 * not part of its type, so a named parameter's key is any string (its value type is checked, its name is checked at
 * run time); a single object parameter may be destructured (the object is the arguments) or named (it is one
 * argument), and both are accepted; a tool of one parameter also takes a bare string for it.
 */
type ArgumentsFor<D extends readonly unknown[]> = number extends D["length"]
  ? ToolInput
  : D extends readonly []
    ? { readonly [name: string]: never }
    : D extends readonly [infer Only]
      ?
          | ObjectForm<Only>
          | { readonly [name: string]: Only }
          | Extract<Only, string>
          | Extract<OnlyValue<ObjectForm<Only>>, string>
      : { readonly [name: string]: D[number] };

/** What `invoke(name, input)` takes for a tool: its arguments object (see `ArgumentsFor`); `ToolInput` untyped. */
export type ToolArguments<T> = T extends AnyFunction ? ArgumentsFor<DataParameters<Parameters<T>>> : ToolInput;

/**
 * What `invoke(name, …)` resolves to for a tool: its function's value, awaited (a streaming tool's, what its
 * generator returns); `unknown` untyped.
 */
export type ToolResult<T> = T extends AnyFunction
  ? ReturnType<T> extends AsyncGenerator<unknown, infer Returned, never>
    ? Returned
    : Awaited<ReturnType<T>>
  : unknown;

/** The key of a free-form tool type's brand; it names no property at run time. */
export declare const FREE_FORM_TOOL: unique symbol;

/**
 * A free-form (OpenAI custom) tool's type, as a record's value: it takes text, not JSON arguments, and the model's
 * calls of it are not function calls. A free-form tool's value type carries this brand, so that a registry's type
 * can tell whether it may hold one.
 */
export interface FreeFormToolType {
  readonly [FREE_FORM_TOOL]: true;
}

/**
 * A tool that may be free-form: branded so, or a function of one data parameter that is a required string — what
 * `@freeform` and `freeform: true` accept. The JSDoc tag is not in the type, so every such tool counts.
 */
type MayBeFreeForm<T> = T extends FreeFormToolType
  ? true
  : T extends AnyFunction
    ? DataParameters<Parameters<T>> extends readonly [infer Only]
      ? [Only] extends [string]
        ? true
        : false
      : false
    : false;

/**
 * `true` when a registry's type says it holds function tools alone: built from a record none of whose values may be
 * a free-form tool (see `MayBeFreeForm`), and not widened since (`register` widens). `false` where its type cannot
 * say (any name).
 */
export type HoldsFunctionToolsOnly<R> = string extends keyof ToolsOf<R>
  ? false
  : true extends MayBeFreeForm<ToolsOf<R>[keyof ToolsOf<R>]>
    ? false
    : true;
