/**
 * The streamed `tool_use` blocks whose input text did not parse as JSON (an eager input stream may end invalid),
 * with that text: the accumulator records them, and both the loop and dispatch read the text, so that the model is
 * answered with the parse error rather than a call run on a guess. Apart from stream.ts, so dispatch loads no
 * stream code.
 */
const unreadable = new WeakMap<object, string>();

/** Records the input text of a streamed block that did not parse. */
export function markUnreadable(block: object, text: string): void {
  unreadable.set(block, text);
}

/** The input text of a streamed `tool_use` block that did not parse (undefined for any other block). */
export function unreadableInput(block: object): string | undefined {
  return unreadable.get(block);
}
