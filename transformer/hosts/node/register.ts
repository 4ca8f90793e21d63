/**
 * `node --import tooltype/register src/app.ts`: runs TypeScript with tooltype's transformer applied (Node 20.6+).
 *
 * Owns the wiring into Node. Where Node's synchronous hooks work (`module.registerHooks`, see `syncHooksWork`),
 * they compile every TypeScript file Node loads, for `import` and `require` alike, ahead of any hook registered
 * before them (tsx's). Elsewhere the asynchronous hooks (`module.register`, in Node's hooks thread) serve `import`
 * of .ts, .mts, .cts and .tsx files, and a require hook in this thread serves `require` of them from CommonJS,
 * including a CommonJS entry, which Node hands from the hooks to its CommonJS loader. The require hook stays in
 * both cases: Node 22 resolves an extensionless `require("./x")` to x.ts only through it, and loads such a file
 * through it rather than the hooks; and tsx replaces it with its own, which would compile without tooltype. All
 * compile with `compileForNode` (the hooks module has both forms of the hooks).
 */
// First: on a Node too old for tooltype, one line saying so, before anything else loads.
import "../node-floor";
import Module = require("node:module");
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { compileForNode, typescriptFileFor } from "./register-compile";
import { loadSync, resolveSync, takeCompiled } from "./register-hooks";
import { syncHooksWork } from "./sync-hooks";
import { TypeScript7NeedsNode } from "../../readers/ts7/api";

interface NodeModuleInternals {
  _extensions: Record<string, (module: { _compile(code: string, fileName: string): void }, fileName: string) => void>;
  _resolveFilename(request: string, parent: unknown, isMain: boolean, options?: unknown): string;
}

interface NodeModuleHooks {
  register?: (specifier: string, parentURL?: string) => void;
  registerHooks?: (hooks: { resolve: typeof resolveSync; load: typeof loadSync }) => unknown;
}

const hooks = Module as NodeModuleHooks;
if (typeof hooks.registerHooks === "function" && syncHooksWork(process.versions.node)) {
  hooks.registerHooks({ resolve: resolveSync, load: loadSync });
} else if (typeof hooks.register === "function") {
  hooks.register(pathToFileURL(path.join(__dirname, "register-hooks.js")).href);
} else {
  throw new Error(
    `tooltype/register needs Node 20.6 or later (module.register); this is Node ${process.versions.node}. Upgrade Node, or build with tspc.`,
  );
}

const internals = Module as unknown as NodeModuleInternals;
for (const extension of [".ts", ".cts", ".tsx"]) {
  internals._extensions[extension] = (module, fileName) =>
    module._compile(takeCompiled(fileName) ?? compileOrStop(fileName), fileName);
}

/**
 * A CommonJS module compiled in this thread. TypeScript 7's API, ES modules, cannot be required here on Node before
 * 20.19 unless the ES module entry imported it first (`--require tooltype/register` does not): one line saying what
 * works, and the run ends, as it would on the error, without a stack that names only tooltype's frames.
 */
function compileOrStop(fileName: string): string {
  try {
    return compileForNode(fileName, "commonjs");
  } catch (error) {
    if (!(error instanceof TypeScript7NeedsNode)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

// TypeScript sources import each other as "./x.js" (what tsc emits); when only ./x.ts exists, load that.
const resolveFilename = internals._resolveFilename;
internals._resolveFilename = function (request, parent, isMain, options) {
  try {
    return resolveFilename.call(this, request, parent, isMain, options);
  } catch (error) {
    const parentFile = (parent as { filename?: string } | undefined)?.filename;
    const ts =
      /^\.{1,2}\/.*\.[mc]?js$/.test(request) && parentFile
        ? typescriptFileFor(path.resolve(path.dirname(parentFile), request))
        : undefined;
    if (ts) return ts;
    throw error;
  }
};
