/**
 * Whether JSON text nests deeper than a limit, decided on the text before it is parsed. `JSON.parse` takes about a
 * microsecond per level of nesting (1 MiB of `[` took 1.5 s), so deep text must be refused before parsing, not
 * after. A scan of the brackets outside strings, stopping at the first level past the limit.
 */

/** Shorter text is parsed first: even nested all the way down it costs `JSON.parse` a few milliseconds at most. */
export const DEPTH_SCAN_FROM_CHARS = 2_048;

/**
 * Whether `text` opens more than `maxDepth` arrays or objects inside each other, outside strings. Strings in double
 * or single quotes (the lenient reader's) are skipped with their escapes, so brackets inside them do not count.
 */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x5d || c === 0x7d) {
      if (depth > 0) depth--;
    } else if (c === 0x22 || c === 0x27) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === c) break;
      }
    }
  }
  return false;
}
