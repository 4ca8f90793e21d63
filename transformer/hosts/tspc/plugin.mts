/**
 * The ES module face of `tooltype/transformer`, for build scripts written as ES modules (`build.mjs`, a
 * `"type": "module"` project) that call the transformer through the compiler API. Node gives an ES module's default
 * import of a CommonJS file that file's whole `module.exports`, so without this face `import tooltype from
 * "tooltype/transformer"` would be `{ default }` there (and a type error under `nodenext`), not the function.
 * ts-patch requires the CommonJS file, as before.
 */
import implementation from "./plugin.js";

export type { TooltypePluginConfig, TooltypeTransformerExtras } from "./plugin.js";

const tooltypeTransformer: typeof implementation.default = implementation.default;
export default tooltypeTransformer;
