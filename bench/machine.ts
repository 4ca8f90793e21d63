/** The machine and the versions a benchmark run used, for the table's heading. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO } from "./generate";

export interface Machine {
  cpu: string;
  cores: number;
  memory: string;
  os: string;
  node: string;
  versions: Record<string, string>;
  date: string;
  /** 1-minute load average when the run started (other work on the machine shows here). */
  load: number;
}

function version(name: string): string {
  try {
    const manifest = path.join(REPO, "node_modules", name, "package.json");
    return (JSON.parse(fs.readFileSync(manifest, "utf8")) as { version: string }).version;
  } catch {
    return "?";
  }
}

export function machine(): Machine {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? "unknown",
    cores: cpus.length,
    memory: `${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    versions: {
      typescript: version("typescript"),
      "ts-patch": version("ts-patch"),
      ajv: version("ajv"),
      "@langchain/core": version("@langchain/core"),
      zod: version("zod"),
    },
    date: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    load: os.loadavg()[0] ?? 0,
  };
}
