/**
 * What adding a provider takes, done once on a copy of the tree: a folder (Anthropic's, renamed "acme") and one
 * catalogue entry, written by hand; then scripts/providers.mjs. Every other file that changed must be one the
 * script wrote (its first line says so, or package.json / typedoc.json), the new provider must be in each of them
 * (how it loads, the main registry's `toAcmeTools`, its preset and entry `tooltype/acme`), and the copy of the
 * runtime must compile.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import * as ts from "typescript";
import { test } from "uvu";
import * as assert from "uvu/assert";

const repo = path.resolve(__dirname, "../../..");

/** Every file under `dir`, by path from `dir`, with its text. */
function tree(dir: string, under = ""): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of fs.readdirSync(path.join(dir, under), { withFileTypes: true })) {
    const rel = under ? `${under}/${entry.name}` : entry.name;
    if (entry.isDirectory()) for (const [file, text] of tree(dir, rel)) files.set(file, text);
    else files.set(rel, fs.readFileSync(path.join(dir, rel), "utf8"));
  }
  return files;
}

/** The files of `base` that are new or differ from the same file of the repository. */
function changed(base: string): string[] {
  const found: string[] = [];
  for (const [rel, text] of [...tree(base, "runtime"), ...tree(base, "scripts")].concat([
    ["package.json", fs.readFileSync(path.join(base, "package.json"), "utf8")],
    ["typedoc.json", fs.readFileSync(path.join(base, "typedoc.json"), "utf8")],
  ])) {
    const original = path.join(repo, rel);
    if (!fs.existsSync(original) || fs.readFileSync(original, "utf8") !== text) found.push(rel);
  }
  return found.sort();
}

test("a new provider is its folder and one catalogue entry; the script writes the rest, and the runtime compiles", async () => {
  fs.mkdirSync(path.join(repo, ".test-build"), { recursive: true });
  const base = fs.mkdtempSync(path.join(repo, ".test-build", `new-provider-${process.pid}-`));
  try {
    for (const part of ["runtime", "scripts"]) fs.cpSync(path.join(repo, part), path.join(base, part), { recursive: true });
    for (const file of ["package.json", "typedoc.json"]) fs.copyFileSync(path.join(repo, file), path.join(base, file));

    // By hand: the folder (Anthropic's under another name, its SDK imports kept) ...
    const folder = path.join(base, "runtime", "providers", "acme");
    fs.cpSync(path.join(base, "runtime", "providers", "anthropic"), folder, { recursive: true });
    for (const name of fs.readdirSync(folder)) {
      const file = path.join(folder, name);
      fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(/Anthropic/g, "Acme").replace(/"anthropic"/g, '"acme"'));
    }
    // ... and its catalogue entry, asked before Anthropic's (whose `content` list is asked last), its name in
    // `MessageFormat` and its wire types among the catalogue's.
    const catalogFile = path.join(base, "runtime", "providers", "catalog.ts");
    const catalog = fs.readFileSync(catalogFile, "utf8");
    const entry = `  {
    format: "acme",
    provider: "acme/provider",
    owns: (message) => "acme_calls" in message,
    exportMethod: "toAcmeTools",
    entry: { name: "acme", preset: "AcmeToolRegistry", api: "Acme" },
  },
  // Asked last`;
    const withEntry = catalog.replace("  // Asked last", entry).replace(/("gemini" \| "anthropic");/, '"gemini" | "anthropic" | "acme";');
    assert.is.not(withEntry, catalog);
    fs.writeFileSync(catalogFile, `${withEntry}export type * from "./acme/wire";\n`);
    const byHand = changed(base);
    assert.ok(byHand.every((rel) => rel.startsWith("runtime/providers/acme/") || rel === "runtime/providers/catalog.ts"), byHand.join("\n"));

    // The script writes the rest.
    const script = (await import(pathToFileURL(path.join(base, "scripts", "providers.mjs")).href)) as {
      MARK: string;
      generate(): { files: Map<string, string>; stale: string[] };
    };
    const { files, stale } = script.generate();
    assert.equal(stale, []);
    for (const [rel, text] of files) fs.writeFileSync(path.join(base, rel), text);
    const written = changed(base).filter((rel) => !byHand.includes(rel));
    const notTheScripts = written.filter((rel) => !["package.json", "typedoc.json"].includes(rel) && !fs.readFileSync(path.join(base, rel), "utf8").startsWith(script.MARK));
    assert.equal(notTheScripts, [], "files changed that the script does not write");
    assert.equal(
      written,
      [
        "package.json",
        "runtime/entries/acme.ts",
        "runtime/entries/provider-types.ts",
        "runtime/lazy/providers.bundle.ts",
        "runtime/lazy/providers.chunks.ts",
        "runtime/lazy/providers.node.ts",
        "runtime/registry/presets/acme.ts",
        "runtime/registry/tool-registry.ts",
        "typedoc.json",
      ],
      "what the script writes for a new provider",
    );
    const read = (rel: string): string => fs.readFileSync(path.join(base, rel), "utf8");
    for (const loader of ["bundle", "chunks", "node"]) assert.match(read(`runtime/lazy/providers.${loader}.ts`), "../providers/acme/provider");
    // Anthropic's export function is overloaded (with and without a tool search): the method has its overloads.
    assert.match(read("runtime/registry/tool-registry.ts"), /toAcmeTools\(options\?: AcmeToolsOptions & \{ toolSearch\?: false \}\): AcmeTool\[\];\n/);
    assert.match(read("runtime/registry/tool-registry.ts"), /toAcmeTools\(options\?: AcmeToolsOptions\): AcmeRequestTool\[\] \{\n\s+return providerNamed\("acme"\)\.exportTools\(this\.list\(\), options\)/);
    assert.match(read("runtime/registry/presets/acme.ts"), "export class AcmeToolRegistry extends CoreToolRegistry");
    assert.match(read("runtime/entries/acme.ts"), "@module tooltype/acme");
    const manifest = JSON.parse(read("package.json")) as { exports: Record<string, unknown>; typesVersions: Record<string, Record<string, unknown>> };
    assert.ok(manifest.exports["./acme"] && manifest.typesVersions["*"]!["acme"], "package.json has tooltype/acme");
    assert.ok((JSON.parse(read("typedoc.json")) as { entryPoints: string[] }).entryPoints.includes("runtime/entries/acme.ts"));

    // The runtime with the new provider compiles.
    const options = ts.getParsedCommandLineOfConfigFile(path.join(repo, "tsconfig.json"), { noEmit: true }, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!.options;
    const roots = [...tree(base, "runtime").keys()].filter((rel) => /\.m?ts$/.test(rel)).map((rel) => path.join(base, rel));
    const program = ts.createProgram(roots, { ...options, rootDir: base, outDir: undefined, noEmit: true });
    const errors = ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? path.relative(base, d.file.fileName) : ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
    assert.equal(errors, [], errors.join("\n"));
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
});

test.run();
