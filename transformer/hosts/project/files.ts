/**
 * What the hosts' projects (language-service.ts on the JavaScript API, typescript-7.ts on TypeScript 7's) share about
 * files:
 * one spelling of a path, a text read without throwing, a cheap fingerprint of a text for its version, the
 * format Node loads a TypeScript file as, and the tsconfig.json that governs a file's folder.
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** A file's text, or undefined when it cannot be read (gone, a folder, no permission). */
export function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** One spelling per file: absolute, with forward slashes, as TypeScript names files. */
export function normalize(fileName: string): string {
  return path.resolve(fileName).split(path.sep).join("/");
}

/** A cheap content fingerprint (FNV-1a): two texts of one length that differ get different versions. */
export function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16);
}

/** How Node loads a module: ESM or CommonJS. */
export type NodeFormat = "module" | "commonjs";

/** How Node loads this file: by extension, else the nearest package.json's "type", like Node itself. */
export function nodeFormatOf(fileName: string): NodeFormat {
  if (/\.m[jt]s$/.test(fileName)) return "module";
  if (/\.c[jt]s$/.test(fileName)) return "commonjs";
  for (let dir = path.dirname(fileName); ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (fs.existsSync(manifest)) {
      try {
        return (JSON.parse(fs.readFileSync(manifest, "utf8")) as { type?: unknown }).type === "module"
          ? "module"
          : "commonjs";
      } catch {
        return "commonjs";
      }
    }
    if (path.dirname(dir) === dir) return "commonjs";
  }
}

/** The tsconfig.json nearest to `dir` (itself or a parent), as TypeScript's `findConfigFile` finds it. */
export function nearestTsconfig(dir: string): string | undefined {
  for (let at = dir; ; at = path.dirname(at)) {
    const candidate = path.join(at, "tsconfig.json");
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(at) === at) return undefined;
  }
}
