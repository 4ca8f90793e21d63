/**
 * Whether a tool streams, told before it is called: what `tool.fromSchema` records of a function, as the transformer
 * records it of an `async function*`. Apart from stream.ts (driving a stream and its progress), which a registry
 * that only registers tools does not need.
 */

/**
 * Whether calling `fn` gives a stream, as far as can be told before calling it: the transformer marks a tool
 * written as `async function*` (`streams` in its metadata, which holds even where the build lowered the syntax),
 * and a native async generator function says so itself.
 */
export function streamsResults(fn: unknown, meta: { streams?: true } | undefined): boolean {
  return (
    meta?.streams === true ||
    (typeof fn === "function" && Object.prototype.toString.call(fn) === "[object AsyncGeneratorFunction]")
  );
}
