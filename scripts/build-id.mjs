// The build's id (transformer/hosts/project/tooltype-version.ts `tooltypeBuild`): a hash of the sources a build is
// made from (the transformer, the runtime, package.json), written beside the compiled transformer by both builds,
// npm run build (dist/transformer) and the test build (.test-build/transformer), so that the two builds of the same
// sources share one id and the cache entries either writes stay valid for the other.
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

const SOURCE = /\.(ts|mts|cts|json)$/;

/** Writes `<transformerOut>/build-id` for the sources under `root`. */
export function writeBuildId(root, transformerOut) {
  const hash = createHash("sha256");
  const files = (dir) =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === "node_modules" ? [] : files(full);
      return SOURCE.test(entry.name) ? [full] : [];
    });
  const sources = [...files(path.join(root, "transformer")), ...files(path.join(root, "runtime"))].sort();
  for (const file of [path.join(root, "package.json"), ...sources]) {
    hash.update(path.relative(root, file).split(path.sep).join("/"));
    hash.update("\0");
    hash.update(fs.readFileSync(file));
  }
  fs.mkdirSync(transformerOut, { recursive: true });
  fs.writeFileSync(path.join(transformerOut, "build-id"), `${hash.digest("hex").slice(0, 32)}\n`);
}
