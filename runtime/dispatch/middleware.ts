/**
 * Middleware: functions around each tool's run, `(call, next) => result`. A middleware sees the call with its
 * validated arguments and the tool's own return value, so it can change the arguments (`next(args)`), answer
 * without calling the tool (a cache, a policy: return a value, or throw a `ToolError` for an error answer), call
 * `next` again (retry), time the call, or change what comes back (redaction). Hooks (hooks.ts) only observe; this
 * steers.
 *
 * Order: the registry's (`registry.use`, in the order they were added) are outermost, then the dispatch's `wrap`;
 * the first one sees the call first and the result last. The chain runs after the arguments are validated and the
 * call is approved, and inside the call's time limit and signal: a timeout or an abort covers the whole chain.
 * Arguments a middleware passes to `next` are read and validated again (with the tool's coercion), so the tool
 * always receives arguments that fit its schema; arguments that do not fit fail the call as a tool error.
 */
import type { ToolCallRequest, ToolMiddleware, ToolNext } from "./options";

export type { ToolCallRequest, ToolMiddleware, ToolNext } from "./options";

/**
 * Run `chain` around `call(args)`. `check` validates arguments a middleware changed (throws or rejects when they
 * do not fit). `closed` says whether the call was answered already: a step asked for after that (a middleware's
 * late `next()`) starts nothing and rejects.
 * The result is a promise when there is any middleware, whatever the tool returns.
 */
export function runChain(
  chain: readonly ToolMiddleware[],
  request: ToolCallRequest,
  check: (args: Record<string, unknown>) => Record<string, unknown> | Promise<Record<string, unknown>>,
  call: (args: Record<string, unknown>) => unknown,
  closed: () => boolean = () => false,
): Promise<unknown> {
  const step = (index: number, current: ToolCallRequest): Promise<unknown> => {
    if (closed()) {
      return Promise.reject(
        new Error(
          `tooltype: a middleware called next() for ${request.name} after the call was answered (it finished, failed, timed out or was aborted); nothing of a call starts after its answer.`,
        ),
      );
    }
    try {
      if (index === chain.length) return Promise.resolve(call(current.args as Record<string, unknown>));
      const next: ToolNext = (args) => {
        try {
          if (args === undefined || args === current.args) return step(index + 1, current);
          // A promise only while a bundle loads the failure path for arguments (args that need coercing or are wrong).
          const checked = check(args);
          return checked instanceof Promise
            ? checked.then((valid) => step(index + 1, { ...current, args: valid }))
            : step(index + 1, { ...current, args: checked });
        } catch (error) {
          return Promise.reject(error);
        }
      };
      return Promise.resolve(chain[index]!(current, next));
    } catch (error) {
      return Promise.reject(error);
    }
  };
  return step(0, request);
}

const NONE: readonly ToolMiddleware[] = Object.freeze([]);

/** The middleware of one dispatch: the registry's, then the dispatch's `wrap`. */
export function middlewareOf(
  registry: readonly ToolMiddleware[] | undefined,
  wrap: ToolMiddleware | readonly ToolMiddleware[] | undefined,
): readonly ToolMiddleware[] {
  const own = wrap === undefined ? NONE : typeof wrap === "function" ? [wrap] : wrap;
  if (!registry || registry.length === 0) return own;
  return own.length === 0 ? registry : [...registry, ...own];
}
