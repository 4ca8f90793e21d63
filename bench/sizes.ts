/** Bundle sizes of the MCP tool services for Workers: what a platform's upload limit is compared with. */
import { gzipSync } from "node:zlib";
import * as fs from "node:fs";
import * as path from "node:path";
import { bundleWorker } from "../test/mcp/worker/bundle";
import { REPO } from "./generate";

export interface SizeFigure {
  name: string;
  /** Minified bytes. */
  bytes: number;
  /** The same, gzipped (level 9). */
  gzip: number;
}

/**
 * Bundle sizes: the MCP tool services of test/mcp/worker/entry.ts (nine tools, the main entry) and small-entry.ts
 * (three tools on tooltype/core), tools compiled by the transformer, bundled for Workers by esbuild exactly as the
 * Workers test does, minified and gzipped. No timing: the
 * figure is what a platform's upload limit is compared with.
 */
export async function benchSizes(): Promise<SizeFigure[]> {
  const figure = async (name: string, entry: string): Promise<SizeFigure> => {
    const bundle = await bundleWorker(path.join(REPO, ".bench-build", "sizes"), entry);
    return { name, bytes: bundle.bytes, gzip: gzipSync(fs.readFileSync(bundle.file), { level: 9 }).byteLength };
  };
  return [
    await figure(
      "MCP tool service for Workers (tooltype's main entry, mcpFetchHandler, dispatch routes + 9 tools), esbuild --minify",
      "entry.js",
    ),
    await figure(
      "Small MCP service for Workers (tooltype/core, mcpFetchHandler + 3 tools), esbuild --minify",
      "small-entry.mjs",
    ),
  ];
}
