// Run after `tsc -p tsconfig.json` (npm run build): the CommonJS build requires its own modules by relative path.
//
// The runtime's sources import a few modules through package.json "imports" (`#ajv-now`, `#dispatch-full`, …) so
// that the ES module build, which bundlers read, maps them to modules loaded later or not at all. Under Node the
// CommonJS build always takes the "default" target, yet resolving a `#` specifier costs Node its ES module resolver
// and a read of the package's "imports": about 2 ms of a 10 ms `require("tooltype")` on the benchmark machine. So
// each `require("#name")` tsc wrote is replaced by the relative path of that target. Declaration files keep `#name`
// (their "types" targets are the sources), and the ES module build is left as it is.
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { imports } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
const esm = path.join(root, "dist", "esm");

/** The file each `#name` resolves to under Node's CommonJS loader (its "default" condition). */
function targetOf(name, from) {
  const entry = imports?.[name];
  const target = typeof entry === "string" ? entry : entry?.default;
  if (typeof target !== "string") throw new Error(`${from} requires ${name}, which package.json "imports" gives no "default" target.`);
  const file = path.join(root, target);
  if (!fs.existsSync(file)) throw new Error(`${from} requires ${name}, whose "default" target ${target} was not built.`);
  return file;
}

function* builtFiles(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (file !== esm) yield* builtFiles(file);
    } else if (entry.name.endsWith(".js")) yield file;
  }
}

let rewritten = 0;
for (const file of builtFiles(path.join(root, "dist"))) {
  const text = fs.readFileSync(file, "utf8");
  // tsc writes every import of a module as `require("specifier")`, with the specifier as the source spells it.
  const out = text.replace(/\brequire\("(#[^"]+)"\)/g, (_, name) => {
    rewritten++;
    const relative = path.relative(path.dirname(file), targetOf(name, path.relative(root, file))).split(path.sep).join("/");
    return `require(${JSON.stringify(relative.startsWith(".") ? relative : `./${relative}`)})`;
  });
  if (out !== text) fs.writeFileSync(file, out);
}
if (rewritten === 0) console.warn("cjs-imports: no require(\"#…\") found in dist; was the CommonJS build run first?");
