/**
 * Imported first by the `tooltype` command, before anything else loads: on Node 22.1 and later, Node keeps the
 * compiled code of the modules a command loads (tooltype's own, TypeScript 5.x's 9 MB compiler module or TypeScript
 * 7's API client) on disk and reuses it on the next run, as TypeScript's own `tsc` does. Only in the command: a
 * process that imports tooltype decides its own caching. Node 20 has no such cache; `NODE_COMPILE_CACHE` moves it
 * and `NODE_DISABLE_COMPILE_CACHE=1` turns it off (Node reads both); a cache Node cannot write is skipped, not
 * thrown (Node's contract for this call).
 */
import * as nodeModule from "node:module";

(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
