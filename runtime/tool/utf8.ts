/**
 * The UTF-8 size of a string as the size limits count it, without Node's `Buffer` (Workers without
 * `nodejs_compat`, browsers and Deno's default have none).
 */

/** Bytes of `text` in UTF-8; a lone surrogate counts 3, as its replacement character is written. */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair: two UTF-16 units, four bytes.
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}
