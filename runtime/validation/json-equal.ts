/**
 * Deep JSON equality, for `const` and `enum` values that are objects or arrays (or enums of many values):
 * generated validators import `oneOf` from `tooltype/kit` where they need it, the explainer (kit-explain.ts) too.
 * A module of its own so that a bundle whose validators never need it holds none of it.
 */

/** Deep JSON equality, for `const` and `enum` values that are objects or arrays. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => jsonEqual(item, other[i]));
  }
  const ka = Object.keys(a);
  const rb = b as Record<string, unknown>;
  return (
    ka.length === Object.keys(rb).length &&
    ka.every((key) => Object.hasOwn(rb, key) && jsonEqual((a as Record<string, unknown>)[key], rb[key]))
  );
}

/** Whether `d` equals one of `values`. */
export function oneOf(d: unknown, values: readonly unknown[]): boolean {
  if (typeof d !== "object" || d === null) return values.includes(d);
  return values.some((value) => jsonEqual(d, value));
}
