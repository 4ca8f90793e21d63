/**
 * `#lazy/flat-json` in a bundle: the reader of flat arguments (arguments/read/flat-json.ts) in a chunk of its own,
 * asked for by the first call whose text it could read. Until it has loaded, such text is parsed by `JSON.parse`, to
 * the same value: the reader only saves time, so no call waits for it, and an app's start stays without it.
 */
import type * as FlatJson from "../arguments/read/flat-json";

let reader: typeof FlatJson.readFlatObject | undefined;
let asked = false;

/** `readFlatObject(text, keys)` once the chunk has loaded; until then undefined, as for text it leaves to JSON.parse. */
export function readFlat(text: string, keys: readonly string[]): Record<string, unknown> | undefined {
  if (reader !== undefined) return reader(text, keys);
  if (!asked) {
    asked = true;
    // A chunk that fails to load leaves JSON.parse doing the reading, as before the reader existed.
    import("../arguments/read/flat-json.js").then(
      (loaded) => {
        reader = loaded.readFlatObject;
      },
      () => {},
    );
  }
  return undefined;
}
