/**
 * TypeScript → JavaScript for the Rollup and webpack builds in these tests, standing in for the TypeScript plugin
 * or loader a real project puts after tooltype's (Rollup and webpack do not read TypeScript themselves): types are
 * stripped per file with `ts.transpileModule`, decorators lowered the legacy way as the sample app's tsconfig asks.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";

export function stripTypes(code: string, fileName: string): { code: string; map: string | undefined } {
  const out = ts.transpileModule(code, {
    fileName,
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      experimentalDecorators: true,
      sourceMap: true,
    },
  });
  return { code: out.outputText.replace(/\n\/\/# sourceMappingURL=.*$/, ""), map: out.sourceMapText };
}

/** A Rollup plugin: `./x` → `./x.ts`, then strip the types. */
export function rollupStripTypes(): {
  name: string;
  resolveId(id: string, importer?: string): string | null;
  transform(code: string, id: string): { code: string; map: string | undefined } | null;
} {
  return {
    name: "test-strip-types",
    resolveId(id, importer) {
      if (!importer || !id.startsWith(".")) return null;
      const file = path.resolve(path.dirname(importer), `${id}.ts`);
      return fs.existsSync(file) ? file : null;
    },
    transform(code, id) {
      return id.endsWith(".ts") ? stripTypes(code, id) : null;
    },
  };
}
