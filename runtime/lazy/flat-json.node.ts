/** `#lazy/flat-json` under Node: the read stage's reader of flat arguments (dispatch/read-flat.ts), there from the start. */
import { readFlatArguments } from "../dispatch/read-flat";

// A constant, not a re-export: CommonJS re-exports are getters, read on every call.
export const readFlat = readFlatArguments;
