/**
 * What adding a provider takes, done once on a copy of the tree: a folder (Anthropic's, renamed "acme") and one
 * catalogue entry, written by hand, its format's name and export method's name then types derived from the
 * catalogue with no other edit; scripts/providers.mjs writes how the provider loads (the three loaders of
 * runtime/lazy/, and nothing else), each naming the new provider; then by hand the main registry's one-line export
 * method and the main entry's line for the folder's public types; and the copy of the runtime must compile.
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

test("a new provider is its folder and one catalogue entry, the loaders the script writes, and a line each in the main registry and the main types; the runtime compiles", async () => {
  fs.mkdirSync(path.join(repo, ".test-build"), { recursive: true });
  const base = fs.mkdtempSync(path.join(repo, ".test-build", `new-provider-${process.pid}-`));
  try {
    for (const part of ["runtime", "scripts"])
      fs.cpSync(path.join(repo, part), path.join(base, part), { recursive: true });
    for (const file of ["package.json", "typedoc.json"]) fs.copyFileSync(path.join(repo, file), path.join(base, file));

    // By hand: the folder (Anthropic's under another name, its SDK imports kept) ...
    const folder = path.join(base, "runtime", "providers", "acme");
    fs.cpSync(path.join(base, "runtime", "providers", "anthropic"), folder, { recursive: true });
    for (const name of fs.readdirSync(folder)) {
      const file = path.join(folder, name);
      fs.writeFileSync(
        file,
        fs
          .readFileSync(file, "utf8")
          .replace(/Anthropic/g, "Acme")
          .replace(/"anthropic"/g, '"acme"'),
      );
    }
    // ... and its catalogue entry, asked before Anthropic's (whose `content` list is asked last), and its wire types
    // among the catalogue's. `MessageFormat` and `ExportMethod` are derived from the entries: no other line changes.
    const catalogFile = path.join(base, "runtime", "providers", "catalog.ts");
    const catalog = fs.readFileSync(catalogFile, "utf8");
    const entry = `  {
    format: "acme",
    provider: "acme/provider",
    owns: (message) => "acme_calls" in message,
    exportMethod: "toAcmeTools",
  },
  // Asked last`;
    const withEntry = catalog.replace("  // Asked last", entry);
    assert.is.not(withEntry, catalog);
    fs.writeFileSync(catalogFile, `${withEntry}export type * from "./acme/wire";\n`);
    const byHand = changed(base);
    assert.ok(
      byHand.every((rel) => rel.startsWith("runtime/providers/acme/") || rel === "runtime/providers/catalog.ts"),
      byHand.join("\n"),
    );

    // The script writes how the provider loads, and only that.
    const script = (await import(pathToFileURL(path.join(base, "scripts", "providers.mjs")).href)) as {
      MARK: string;
      generate(): Map<string, string>;
    };
    for (const [rel, text] of script.generate()) fs.writeFileSync(path.join(base, rel), text);
    const written = changed(base).filter((rel) => !byHand.includes(rel));
    assert.equal(
      written,
      ["runtime/lazy/providers.bundle.ts", "runtime/lazy/providers.chunks.ts", "runtime/lazy/providers.node.ts"],
      "what the script writes for a new provider",
    );
    const read = (rel: string): string => fs.readFileSync(path.join(base, rel), "utf8");
    for (const rel of written) {
      assert.ok(read(rel).startsWith(script.MARK), `${rel} says the script wrote it`);
      assert.match(read(rel), "../providers/acme/provider");
    }

    // By hand: the main registry's export method (one line; "toAcmeTools" is an ExportMethod only through the new
    // entry), the main entry's line for the folder's public types, and a use of the derived format name.
    const registry = "runtime/registry/tool-registry.ts";
    const method = `  /** The \`tools\` of an Acme request. */
  toAcmeTools(options?: AcmeToolsOptions): AcmeRequestTool[] {
    return exportAs("toAcmeTools", this.list(), options) as AcmeRequestTool[];
  }

  /** MCP tool descriptors`;
    const withMethod = read(registry)
      .replace("  /** MCP tool descriptors", method)
      .replace(
        'import { BaseToolRegistry } from "./core";',
        'import { BaseToolRegistry } from "./core";\nimport type { AcmeRequestTool, AcmeToolsOptions } from "../providers/catalog";',
      );
    assert.is.not(withMethod, read(registry));
    fs.writeFileSync(path.join(base, registry), withMethod);
    fs.appendFileSync(
      path.join(base, "runtime/entries/provider-types.ts"),
      'export * from "../providers/acme/index";\n',
    );
    fs.writeFileSync(
      path.join(base, "runtime/acme-format.ts"),
      'import type { MessageFormat } from "./providers/catalog";\n\nexport const format: MessageFormat = "acme";\n',
    );

    // The runtime with the new provider compiles.
    const options = ts.getParsedCommandLineOfConfigFile(
      path.join(repo, "tsconfig.json"),
      { noEmit: true },
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    )!.options;
    const roots = [...tree(base, "runtime").keys()]
      .filter((rel) => /\.m?ts$/.test(rel))
      .map((rel) => path.join(base, rel));
    const program = ts.createProgram(roots, { ...options, rootDir: base, outDir: undefined, noEmit: true });
    const errors = ts
      .getPreEmitDiagnostics(program)
      .map(
        (d) =>
          `${d.file ? path.relative(base, d.file.fileName) : ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`,
      );
    assert.equal(errors, [], errors.join("\n"));
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
});

test.run();
