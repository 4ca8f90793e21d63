/**
 * Bundle sizes: the MCP tool service of test/mcp/worker/entry.ts (tools compiled by the transformer, tooltype, the
 * MCP SDK) bundled for Workers by esbuild exactly as the Workers test does, minified and gzipped. No timing: the
 * figure is what a platform's upload limit is compared with.
 */
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

export async function benchSizes(): Promise<SizeFigure[]> {
  const bundle = await bundleWorker(path.join(REPO, ".bench-build", "sizes"));
  const code = fs.readFileSync(bundle.file);
  return [{ name: "MCP tool service for Workers (mcpFetchHandler + 9 tools + MCP SDK), esbuild --minify", bytes: bundle.bytes, gzip: gzipSync(code, { level: 9 }).byteLength }];
}
