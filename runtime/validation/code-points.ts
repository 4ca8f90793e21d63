/**
 * String length as JSON Schema counts it (`minLength`, `maxLength`): generated validators import `codePoints` from
 * `tooltype/kit` where they need it, the explainer (kit-explain.ts) too. A module of its own so that a bundle whose
 * validators check no length holds none of it.
 */

/** Length in Unicode code points, as JSON Schema counts `minLength` / `maxLength`. */
export function codePoints(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}
