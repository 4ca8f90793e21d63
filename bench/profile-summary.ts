/** Summarises a V8 .cpuprofile (from `node --cpu-prof`), so the dispatch hot path can be read without DevTools. */
import * as fs from "node:fs";
import * as path from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function label(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url.replace(/^file:\/\//, "");
  const shown = where.startsWith("/") ? path.relative(process.cwd(), where) : where;
  const file = url === "" ? "" : ` ${shown}:${lineNumber + 1}`;
  return `${functionName || "(anonymous)"}${file}`;
}

/**
 * Self time per function, and total (inclusive) time for tooltype's own runtime functions:
 *
 *   node .bench-build/bench/profile-summary.js <file.cpuprofile> [rows]
 */
function main(): void {
  const file = process.argv[2];
  if (!file) throw new Error("usage: profile-summary <file.cpuprofile> [rows]");
  const rows = Number(process.argv[3] ?? 30);
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    const node = byId.get(id)!;
    self.set(label(node), (self.get(label(node)) ?? 0) + dt);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = label(byId.get(at)!);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + dt);
    }
  });
  const pct = (v: number): string => `${((100 * v) / total).toFixed(1).padStart(5)}%`;
  const print = (title: string, map: Map<string, number>, filter: (name: string) => boolean): void => {
    process.stdout.write(`\n${title}\n`);
    [...map.entries()]
      .filter(([name]) => filter(name))
      .sort((a, b) => b[1] - a[1])
      .slice(0, rows)
      .forEach(([name, v]) => {
        process.stdout.write(`${pct(v)}  ${name}\n`);
      });
  };
  print("self time", self, () => true);
  print("inclusive time, tooltype runtime (dist/runtime/)", inclusive, (name) => name.includes("dist/runtime/"));
}

main();
