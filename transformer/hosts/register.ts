/**
 * `node --import tooltype/register src/app.ts`: runs TypeScript with tooltype's transformer applied (Node 20.6+).
 *
 * Owns the wiring into Node: the module hooks (register-hooks.ts, in Node's hooks thread) serve `import` of .ts,
 * .mts, .cts and .tsx files; a require hook in this thread serves `require` of them from CommonJS, including a
 * CommonJS entry, which Node hands from the hooks to its CommonJS loader. Both compile with register-compile.ts.
 */
import Module = require("node:module");
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { compileForNode, typescriptFileFor } from "./register-compile";

interface NodeModuleInternals {
  _extensions: Record<string, (module: { _compile(code: string, fileName: string): void }, fileName: string) => void>;
  _resolveFilename(request: string, parent: unknown, isMain: boolean, options?: unknown): string;
}

const register = (Module as { register?: (specifier: string, parentURL?: string) => void }).register;
if (typeof register !== "function") {
  throw new Error(`tooltype/register needs Node 20.6 or later (module.register); this is Node ${process.versions.node}. Upgrade Node, or build with tspc.`);
}
register(pathToFileURL(path.join(__dirname, "register-hooks.js")).href);

const internals = Module as unknown as NodeModuleInternals;
for (const extension of [".ts", ".cts", ".tsx"]) {
  internals._extensions[extension] = (module, fileName) => module._compile(compileForNode(fileName, "commonjs"), fileName);
}

// TypeScript sources import each other as "./x.js" (what tsc emits); when only ./x.ts exists, load that.
const resolveFilename = internals._resolveFilename;
internals._resolveFilename = function (request, parent, isMain, options) {
  try {
    return resolveFilename.call(this, request, parent, isMain, options);
  } catch (error) {
    const parentFile = (parent as { filename?: string } | undefined)?.filename;
    const ts = /^\.{1,2}\/.*\.[mc]?js$/.test(request) && parentFile ? typescriptFileFor(path.resolve(path.dirname(parentFile), request)) : undefined;
    if (ts) return ts;
    throw error;
  }
};
