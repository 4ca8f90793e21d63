/**
 * TypeScript into JavaScript on TypeScript 7.0, whose API has no emit: 7.0's own `tsc`, run once over copies of the
 * modules (their spliced texts) in a temporary folder, each module on its own (`noResolve`, `noCheck`: what
 * `transpileModule` does on 7.1), under a tsconfig that extends the project's, so every emit option is the
 * project's. The copies sit at their own absolute paths under the folder, each beside a package.json with the
 * `type` of the original's nearest one, so `module: node16`/`nodenext` picks each module's format as for the
 * original. One process per call, a few hundred milliseconds: callers hand over every module they need at once.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { nodeFormatOf } from "../project/files";
import { ProjectError } from "../project/tsconfig";

/** One module's JavaScript and its source map (which names the temporary copy: callers set `sources`). */
export interface CliTranspiled {
  js: string;
  map: string | undefined;
}

/** A bound that only a hung `tsc` reaches: 7.0 transpiles thousands of modules in seconds. */
const TSC_TIMEOUT_MS = 5 * 60_000;

/**
 * The JavaScript of each module of `texts` (file name → TypeScript text), by TypeScript 7.0's `tsc` at `packageDir`
 * with `tsconfig`'s options and `overrides` on top. Throws a ProjectError with tsc's own words (file names as the
 * user's) when tsc cannot emit.
 */
export function transpileWithTsc(
  packageDir: string,
  tsconfig: string,
  texts: ReadonlyMap<string, string>,
  overrides: Record<string, unknown> = {},
): Map<string, CliTranspiled> {
  const out = new Map<string, CliTranspiled>();
  const modules = [...texts.keys()].filter((file) => /\.[cm]?tsx?$/.test(file) && !/\.d\.[cm]?tsx?$/.test(file));
  if (modules.length === 0) return out;
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), "tooltype-tsc-"));
  const copies = path.join(temp, "src");
  const emitted = path.join(temp, "out");
  const copyOf = (file: string): string => path.join(copies, withoutRoot(path.resolve(file)));
  try {
    const types = new Map<string, string>();
    for (const file of modules) {
      const copy = copyOf(file);
      fs.mkdirSync(path.dirname(copy), { recursive: true });
      fs.writeFileSync(copy, texts.get(file)!);
      const dir = path.dirname(copy);
      if (!types.has(dir)) {
        types.set(dir, nodeFormatOf(path.resolve(file).replace(/\.[cm]?tsx?$/, ".ts")));
        fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: types.get(dir) }));
      }
    }
    const config = {
      extends: path.resolve(tsconfig),
      compilerOptions: {
        noCheck: true,
        noResolve: true,
        types: [],
        rootDir: copies,
        outDir: emitted,
        noEmit: false,
        noEmitOnError: false,
        emitDeclarationOnly: false,
        declaration: false,
        declarationMap: false,
        declarationDir: null,
        composite: false,
        incremental: false,
        tsBuildInfoFile: null,
        outFile: null,
        sourceMap: true,
        inlineSourceMap: false,
        inlineSources: false,
        sourceRoot: null,
        mapRoot: null,
        ...overrides,
      },
      files: modules.map(copyOf),
      include: [],
      references: [],
    };
    const configPath = path.join(temp, "tsconfig.json");
    fs.writeFileSync(configPath, JSON.stringify(config, null, 2));
    const result = spawnSync(process.execPath, [tscBinOf(packageDir), "-p", configPath, "--pretty", "false"], {
      encoding: "utf8",
      timeout: TSC_TIMEOUT_MS,
      maxBuffer: 64 * 1024 * 1024,
    });
    const said = `${result.stdout ?? ""}${result.stderr ?? ""}`.split(copies).join("").trim();
    for (const file of modules) {
      const base = path.join(emitted, withoutRoot(path.resolve(file))).replace(/\.([cm]?)tsx?$/, "");
      const jsFile = [".js", ".mjs", ".cjs", ".jsx"]
        .map((ext) => base + ext)
        .find((candidate) => fs.existsSync(candidate));
      if (jsFile === undefined) {
        const why = result.error
          ? `${result.error.message}`
          : said || `it exited with status ${result.status} and wrote nothing for it`;
        throw new ProjectError(
          `tooltype: TypeScript ${tsVersionOf(packageDir)}'s tsc could not turn ${file} into JavaScript: ${why}`,
        );
      }
      const js = fs.readFileSync(jsFile, "utf8").replace(/\n?\/\/# sourceMappingURL=.*\s*$/, "\n");
      const mapFile = `${jsFile}.map`;
      out.set(file, { js, map: fs.existsSync(mapFile) ? fs.readFileSync(mapFile, "utf8") : undefined });
    }
    return out;
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

/** The path below the file system's root (`C:\a\b` → `C\a\b`), so a copy keeps the original's folders. */
function withoutRoot(file: string): string {
  const { root } = path.parse(file);
  return path.join(root.replace(/[:\\/]/g, ""), file.slice(root.length));
}

/** The `tsc` script of a TypeScript package, as its package.json names it. */
export function tscBinOf(packageDir: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(packageDir, "package.json"), "utf8")) as {
    bin?: string | Record<string, string>;
  };
  const bin = typeof manifest.bin === "string" ? manifest.bin : (manifest.bin?.tsc ?? "bin/tsc");
  return path.join(packageDir, bin);
}

function tsVersionOf(packageDir: string): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(packageDir, "package.json"), "utf8")) as { version: string }).version;
  } catch {
    return "7";
  }
}
