/**
 * The bundler plugin entries' declared types fit each bundler's own: the plugin goes into the `plugins` of that
 * bundler's configuration type, checked by compiling this file (the test build fails on a type error). The entries
 * declare their plugins without unplugin's types (transformer/hosts/bundlers/plugin-shapes.mts), so that nothing
 * here may rely on unplugin to make them fit. test/package/plugin-declarations.test.ts checks that the declarations
 * need no package besides tooltype's own.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";

type ViteConfig = import("vite", { with: { "resolution-mode": "import" }}).UserConfig;
type RollupOptions = import("rollup", { with: { "resolution-mode": "import" }}).RollupOptions;
type RolldownOptions = import("rolldown", { with: { "resolution-mode": "import" }}).RolldownOptions;
type EsbuildOptions = import("esbuild").BuildOptions;
type WebpackConfig = import("webpack").Configuration;
type RspackConfig = import("@rspack/core", { with: { "resolution-mode": "import" }}).Configuration;

/** Each bundler's configuration with tooltype's plugin, as docs/building.md writes it. */
function configurations(plugins: {
  vite: typeof import("tooltype/vite", { with: { "resolution-mode": "import" }})["default"];
  rollup: typeof import("tooltype/rollup", { with: { "resolution-mode": "import" }})["default"];
  rolldown: typeof import("tooltype/rolldown", { with: { "resolution-mode": "import" }})["default"];
  esbuild: typeof import("tooltype/esbuild", { with: { "resolution-mode": "import" }})["default"];
  webpack: typeof import("tooltype/webpack", { with: { "resolution-mode": "import" }})["default"];
  rspack: typeof import("tooltype/rspack", { with: { "resolution-mode": "import" }})["default"];
}) {
  const viteConfig: ViteConfig = { plugins: [plugins.vite()], build: { ssr: "src/main.ts" } };
  const rollupOptions: RollupOptions = {
    input: "src/main.ts",
    plugins: [plugins.rollup({ tsconfig: "tsconfig.json" })],
  };
  const rolldownOptions: RolldownOptions = { input: "src/main.ts", plugins: [plugins.rolldown()] };
  const esbuildOptions: EsbuildOptions = { entryPoints: ["src/main.ts"], plugins: [plugins.esbuild()] };
  const webpackConfig: WebpackConfig = { entry: "./src/main.ts", plugins: [plugins.webpack()] };
  const rspackConfig: RspackConfig = { entry: "./src/main.ts", plugins: [plugins.rspack({ include: /\.ts$/ })] };
  return [viteConfig, rollupOptions, rolldownOptions, esbuildOptions, webpackConfig, rspackConfig];
}

test("each bundler's configuration type takes tooltype's plugin (checked when this file compiles)", () => {
  assert.type(configurations, "function");
});

test.run();
