// Run after a CommonJS compile of the runtime (`node scripts/cjs-imports.mjs [build folder, default dist]`): each
// `require("#lazy/…")` becomes the relative path of the file package.json "imports" gives Node, in the same build.
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { imports } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
const build = path.resolve(root, process.argv[2] ?? "dist");
const esm = path.join(root, "dist", "esm");
const DIST = "./dist/";

/** The "default" target of `name` in package.json "imports", with a pattern's `*` filled in. */
function defaultTarget(name) {
  for (const [key, entry] of Object.entries(imports ?? {})) {
    const star = key.indexOf("*");
    const match =
      star < 0
        ? key === name
          ? ""
          : undefined
        : name.startsWith(key.slice(0, star)) && name.endsWith(key.slice(star + 1))
          ? name.slice(star, name.length - (key.length - star - 1))
          : undefined;
    if (match === undefined) continue;
    const target = typeof entry === "string" ? entry : entry?.default;
    return typeof target === "string" ? target.replace("*", match) : undefined;
  }
  return undefined;
}

/** The file `name` resolves to under Node's CommonJS loader, in this build. */
function targetOf(name, from) {
  const target = defaultTarget(name);
  if (target === undefined || !target.startsWith(DIST))
    throw new Error(`${from} requires ${name}, which package.json "imports" gives no "default" target under ${DIST}.`);
  const file = path.join(build, target.slice(DIST.length));
  if (!fs.existsSync(file))
    throw new Error(`${from} requires ${name}, whose "default" target ${path.relative(root, file)} was not built.`);
  return file;
}

function* builtFiles(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (file !== esm && entry.name !== "node_modules") yield* builtFiles(file);
    } else if (entry.name.endsWith(".js")) yield file;
  }
}

// Under Node a `#` specifier costs its ES module resolver and a read of the package's "imports": about 2 ms of a 10 ms
// `require("tooltype")` on the benchmark machine. Declaration files keep `#lazy/…` (their "types" targets are the
// sources), and the ES module build is left as it is: bundlers resolve it. A build other than dist/ (the tests' copy
// of the runtime) gets its own loaders: Node would resolve `#lazy/…` to dist/, whose modules would not be that copy's.
let rewritten = 0;
for (const file of builtFiles(path.join(build, "runtime"))) {
  const text = fs.readFileSync(file, "utf8");
  // tsc writes every import of a module as `require("specifier")`, with the specifier as the source spells it.
  const out = text.replace(/\brequire\("(#[^"]+)"\)/g, (_, name) => {
    rewritten++;
    const relative = path
      .relative(path.dirname(file), targetOf(name, path.relative(root, file)))
      .split(path.sep)
      .join("/");
    return `require(${JSON.stringify(relative.startsWith(".") ? relative : `./${relative}`)})`;
  });
  if (out !== text) fs.writeFileSync(file, out);
}
if (rewritten === 0 && build === path.join(root, "dist"))
  console.warn('cjs-imports: no require("#…") found in dist; was the CommonJS build run first?');
