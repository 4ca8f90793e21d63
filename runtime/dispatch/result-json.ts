/**
 * A tool's result as the JSON text the model reads. Plain `JSON.stringify` answers some values silently wrong:
 * a `Map` or `Set` becomes `{}`, `NaN` becomes `null`, a generator `{}`, a function inside an object vanishes.
 * Here values a model can still use are converted (a `Map` to an object, or to `[key, value]` pairs when its keys
 * are not all strings; a `Set` or typed array to an array; `NaN`/`Infinity` to their names as strings), and the
 * rest fail with a message that says what the value was, where, and what to return instead.
 */
import { ToolResultError } from "../tool/errors";

/** `value` (not a string, not undefined) as JSON text; throws a ToolResultError when JSON cannot hold it. */
export function resultJson(toolName: string, value: unknown): string {
  const fail = (why: string, cause?: unknown): never => {
    throw new ToolResultError(
      toolName,
      `the result of ${toolName} could not be serialised to JSON: ${why}`,
      cause === undefined ? undefined : { cause },
    );
  };
  const replacer = (key: string, item: unknown): unknown => {
    const where = key === "" ? "it is" : `the value at key "${key}" is`;
    switch (typeof item) {
      case "number":
        return Number.isFinite(item) ? item : String(item);
      case "bigint":
        return fail(
          `${where} a BigInt (${String(item)}n), which JSON cannot hold. Return it as a string (value.toString()) or, when it is small enough, a number.`,
        );
      case "function":
        return fail(
          key === ""
            ? "it is a function."
            : `${where} a function, which JSON cannot hold. Return data only, or leave the function out.`,
        );
      case "symbol":
        return fail(`${where} a symbol, which JSON cannot hold. Return a string instead.`);
      case "object":
        return item === null ? item : convertObject(item, where, fail);
      default:
        return item;
    }
  };
  let text: string | undefined;
  try {
    text = JSON.stringify(value, replacer);
  } catch (error) {
    if (error instanceof ToolResultError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    const circular = /circular/i.test(message)
      ? "it contains a circular reference (an object that contains itself), which JSON cannot hold; return a copy without the back-reference. "
      : "";
    fail(`${circular}${message}`, error);
  }
  if (text === undefined) fail(`it is a ${typeof value}.`);
  return text!;
}

/** A Map, Set, typed array or iterator as data; built-ins that JSON would write as `{}` refused. */
function convertObject(item: object, where: string, fail: (why: string) => never): unknown {
  if (Array.isArray(item)) return item;
  if (item instanceof Map) {
    const entries = [...item.entries()];
    return entries.every(([k]) => typeof k === "string") ? Object.fromEntries(entries) : entries;
  }
  if (item instanceof Set) return [...item];
  if (ArrayBuffer.isView(item) && !(item instanceof DataView)) return Array.from(item as unknown as ArrayLike<number>);
  const tag = Object.prototype.toString.call(item).slice(8, -1);
  if (
    typeof (item as { next?: unknown }).next === "function" &&
    (Symbol.iterator in item || Symbol.asyncIterator in item)
  ) {
    return fail(
      `${where} an iterator (${tag}), which JSON cannot hold. Return an array of its items instead: Array.from(...) (or collect an async one first).`,
    );
  }
  if (item instanceof Promise) return fail(`${where} a Promise: await it before returning.`);
  if (["WeakMap", "WeakSet", "WeakRef", "ArrayBuffer", "SharedArrayBuffer", "DataView"].includes(tag)) {
    return fail(`${where} a ${tag}, which JSON would write as {}. Return its contents as plain data instead.`);
  }
  return item;
}
