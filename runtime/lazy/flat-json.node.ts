/** `#lazy/flat-json` under Node: the reader of flat arguments (arguments/read/flat-json.ts), there from the start. */
import { readFlatObject } from "../arguments/read/flat-json";

// A constant, not a re-export: CommonJS re-exports are getters, read on every call.
export const readFlat = readFlatObject;
