/**
 * `bun --preload tooltype/bun-register src/main.ts` (or `preload = ["tooltype/bun-register"]` in bunfig.toml):
 * Bun running TypeScript directly, with tooltype's transformer applied, as `node --import tooltype/register` does
 * for Node. Bun strips types itself and runs no transformers, and its run-time plugins lack the build hooks the
 * bundler plugin (`tooltype/bun`, for `Bun.build`) relies on, so this is a run-time plugin of its own.
 *
 * Owns: which files it takes (TypeScript outside node_modules that mentions tooltype; every other TypeScript file
 * is handed back to Bun as it is), the same module transform as the bundler plugins (`transformModule`), and the
 * diagnostics, as tooltype/register reports them: a TT error stops the import with every error's position, warnings
 * are printed once.
 *
 * @module tooltype/bun-register
 */
import * as fs from "node:fs";
import { formatHostDiagnostic, stopOnErrors } from "../diagnostic-format";
import { moduleProjectFor } from "../project/module-project";
import type { ModuleProject } from "../splice/transform-module";
import { mightUseTooltype } from "../splice/might-use-tooltype";
import { moduleCacheFor, transformCached } from "../project/cache/cached-transform";

/** The part of Bun's run-time plugin API used here. */
interface BunRuntime {
  plugin(plugin: {
    name: string;
    setup(build: {
      onLoad(
        options: { filter: RegExp },
        load: (args: { path: string }) => { contents: string; loader: "ts" | "tsx" },
      ): void;
    }): void;
  }): void;
}

const TYPESCRIPT = /\.[cm]?tsx?$/;
const PACKAGES = /[\\/]node_modules[\\/]/;

const bun = (globalThis as { Bun?: BunRuntime }).Bun;
if (bun === undefined) {
  throw new Error(
    "tooltype/bun-register is Bun's preload (bun --preload tooltype/bun-register src/main.ts). Under Node, run node --import tooltype/register src/main.ts.",
  );
}

let project: ModuleProject | undefined;
/** The persistent schema cache: a module it holds is answered without making the project. */
const cache = moduleCacheFor({});

bun.plugin({
  name: "tooltype",
  setup(build) {
    build.onLoad({ filter: TYPESCRIPT }, ({ path }) => {
      const loader = path.endsWith("x") ? "tsx" : "ts";
      const text = fs.readFileSync(path, "utf8");
      if (PACKAGES.test(path) || !mightUseTooltype(text)) return { contents: text, loader };
      const result = transformCached(cache, path, text, () => (project ??= moduleProjectFor({})));
      const texts = (category: "error" | "warning"): string[] =>
        result.diagnostics.filter((d) => d.category === category).map((d) => formatHostDiagnostic(d));
      stopOnErrors("tooltype/bun-register", path, texts("error"), texts("warning"));
      return { contents: result.code ?? text, loader };
    });
  },
});
