/**
 * `#lazy/flat-json` in a bundle: the read stage's reader of flat arguments (dispatch/read-flat.ts) in a chunk of its own,
 * asked for by the first call whose text it could read. Until it has loaded, such text is parsed by `JSON.parse`, to
 * the same value: the reader only saves time, so no call waits for it, and an app's start stays without it.
 */
import type { ArgsObject } from "../arguments/read/read-arguments";
import type { ToolSettings } from "../dispatch/environment";
import type * as ReadFlat from "../dispatch/read-flat";

/** The reader once its chunk has loaded; null while it loads (or after it failed to: JSON.parse reads meanwhile). */
let reader: typeof ReadFlat.readFlatArguments | null | undefined;

/** `readFlatArguments(text, settings)` once the chunk has loaded; until then undefined, as for text it leaves to JSON.parse. */
export function readFlat(text: string, settings: ToolSettings): ArgsObject | undefined {
  if (reader) return reader(text, settings);
  if (reader === undefined) {
    reader = null;
    import("../dispatch/read-flat.js").then((loaded) => {
      reader = loaded.readFlatArguments;
    }, ignore);
  }
  return undefined;
}

function ignore(): void {}
