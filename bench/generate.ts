/** Generated tool projects for the cold-start, memory and build benchmarks. */
import * as fs from "node:fs";
import * as path from "node:path";

export const REPO = path.resolve(__dirname, "../..");
export const PROJECTS = path.join(REPO, ".bench-build", "projects");

type Kind =
  | "string"
  | "number"
  | "int"
  | "boolean"
  | "enum"
  | "strings"
  | "numbers"
  | "address"
  | "items"
  | "date"
  | "range"
  | "record";

const KINDS: readonly Kind[] = [
  "string",
  "number",
  "int",
  "boolean",
  "enum",
  "strings",
  "numbers",
  "address",
  "items",
  "date",
  "range",
  "record",
];

interface ParamSpec {
  name: string;
  kind: Kind;
  optional: boolean;
  nullable: boolean;
  description: string;
}

export interface ToolSpec {
  name: string;
  description: string;
  params: ParamSpec[];
  /** A valid arguments object. */
  sample: Record<string, unknown>;
  /** What the tool answers to `sample`. */
  expected: string;
}

/** Small deterministic generator (a 32-bit LCG), so every run and both sides see the same tools. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const NOUNS = ["orders", "invoices", "flights", "rooms", "tickets", "parcels", "accounts", "recipes", "songs", "books"];
const VERBS = ["Search", "List", "Find", "Count", "Summarise", "Export", "Archive", "Rank", "Check", "Update"];
const DESCRIPTIONS: Record<Kind, string> = {
  string: "Free text to match",
  number: "A threshold value",
  int: "How many results to return",
  boolean: "Whether to include archived entries",
  enum: "Priority of the request",
  strings: "Labels to filter by",
  numbers: "Scores to compare against",
  address: "Delivery address",
  items: "Line items of the order",
  date: "When it happens (ISO 8601)",
  range: "Time window to look in",
  record: "Weights by category",
};

/**
 * Deterministic tool signatures with varied parameter types (strings, numbers, `Int` with bounds, booleans, string
 * enums, arrays, nested interfaces, arrays of interfaces, optional, nullable, `Date`, records), each with a
 * description, parameter descriptions and one valid sample call.
 */
export function toolSpecs(count: number): ToolSpec[] {
  const next = random(0x7001);
  return Array.from({ length: count }, (_, index) => {
    const name = `tool_${String(index).padStart(4, "0")}`;
    const params: ParamSpec[] = [
      { name: "query", kind: "string", optional: false, nullable: false, description: "What to look for" },
    ];
    const extra = 1 + (index % 5); // 2 to 6 parameters
    for (let p = 0; p < extra; p++) {
      const kind = KINDS[Math.floor(next() * KINDS.length)]!;
      params.push({
        name: `${kind}_${p}`,
        kind,
        optional: next() < 0.3,
        nullable: next() < 0.2,
        description: DESCRIPTIONS[kind],
      });
    }
    // Positional parameters: required ones first.
    params.sort((a, b) => Number(a.optional) - Number(b.optional));
    const sample: Record<string, unknown> = {};
    for (const param of params) {
      if (param.optional && index % 2 === 0) continue;
      sample[param.name] = param.name === "query" ? `q${index}` : sampleValue(param.kind);
    }
    const description = `${VERBS[index % VERBS.length]} ${NOUNS[Math.floor(index / 10) % NOUNS.length]} (generated tool ${index}).`;
    return { name, description, params, sample, expected: `${name}: q${index}` };
  });
}

function sampleValue(kind: Kind): unknown {
  switch (kind) {
    case "string":
      return "hello";
    case "number":
      return 2.5;
    case "int":
      return 7;
    case "boolean":
      return true;
    case "enum":
      return "medium";
    case "strings":
      return ["red", "blue"];
    case "numbers":
      return [1, 2.5, 3];
    case "address":
      return { street: "1 Main St", city: "Paris", country: "FR" };
    case "items":
      return [
        { sku: "A-1", quantity: 2, price: 9.5 },
        { sku: "B-2", quantity: 1, price: 3, note: null },
      ];
    case "date":
      return "2024-05-01T10:00:00Z";
    case "range":
      return { from: "2024-05-01T00:00:00Z", to: "2024-05-08T00:00:00Z" };
    case "record":
      return { food: 0.5, travel: 0.25 };
  }
}

// ---- tooltype source ---------------------------------------------------------------------------------------------

const TS_TYPES: Record<Kind, string> = {
  string: "string",
  number: "number",
  int: "Int & Min<0> & Max<1000>",
  boolean: "boolean",
  enum: '"low" | "medium" | "high"',
  strings: "string[]",
  numbers: "number[]",
  address: "Address",
  items: "LineItem[]",
  date: "Date",
  range: "DateRange",
  record: "Record<string, number>",
};

const SHARED_TYPES_TS = `import type { Int, Min } from "tooltype";

/** A postal address. */
export interface Address {
  /** Street and number */
  street: string;
  /** City */
  city: string;
  /** Postal code */
  zip?: string;
  /** Country code */
  country: "FR" | "DE" | "US" | "CN";
}

/** One line of an order. */
export interface LineItem {
  /** Stock keeping unit */
  sku: string;
  /** How many */
  quantity: Int & Min<1>;
  /** Unit price */
  price: number;
  /** Free note */
  note?: string | null;
}

/** A time window. */
export interface DateRange {
  /** Start (inclusive) */
  from: Date;
  /** End (exclusive) */
  to: Date;
}
`;

function tsParam(param: ParamSpec): string {
  const type = TS_TYPES[param.kind] + (param.nullable ? " | null" : "");
  return `${param.name}${param.optional ? "?" : ""}: ${type}`;
}

function jsDoc(spec: ToolSpec, indent: string): string {
  const lines = [
    `/**`,
    ` * ${spec.description}`,
    ...spec.params.map((p) => ` * @param ${p.name} ${p.description}`),
    ` */`,
  ];
  return lines.map((line) => indent + line).join("\n");
}

/** One group file: even tools as `tool()` functions, odd ones as `@tool` methods of the group's class. */
function tooltypeGroup(specs: readonly ToolSpec[], group: number): string {
  const fns = specs.filter((_, i) => i % 2 === 0);
  const methods = specs.filter((_, i) => i % 2 === 1);
  const out = [
    `import { tool, type Int, type Max, type Min } from "tooltype";`,
    `import type { Address, DateRange, LineItem } from "./types";`,
    ``,
  ];
  for (const spec of fns) {
    out.push(jsDoc(spec, ""));
    out.push(
      `export const ${spec.name} = tool(function ${spec.name}(${spec.params.map(tsParam).join(", ")}): string {`,
    );
    out.push(`  return "${spec.name}: " + query;`);
    out.push(`});`, ``);
  }
  out.push(`export class Group${group} {`);
  for (const spec of methods) {
    out.push(jsDoc(spec, "  "));
    out.push(`  @tool`);
    out.push(`  ${spec.name}(${spec.params.map(tsParam).join(", ")}): string {`);
    out.push(`    return "${spec.name}: " + query;`);
    out.push(`  }`, ``);
  }
  out.push(`}`, ``);
  out.push(`export const tools = [${[...fns.map((s) => s.name), `new Group${group}()`].join(", ")}];`, ``);
  out.push(`// Keep every imported type in use whatever the generator picked.`);
  out.push(`export type Used = [Int, Max<1>, Min<0>, Address, DateRange, LineItem];`, ``);
  return out.join("\n");
}

export const GROUP_SIZE = 25;

function groups<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += GROUP_SIZE) out.push(items.slice(i, i + GROUP_SIZE));
  return out;
}

export interface TooltypeProject {
  dir: string;
  /** Compiled with the plugin: `require(withPlugin)` gives `{ tools }`. */
  withPlugin: string;
  /** tsconfig files for the build benchmark. */
  tsconfigPlugin: string;
  tsconfigPlain: string;
  specs: ToolSpec[];
}

/**
 * A user's project: `package.json`, `node_modules/tooltype` → this repo, `src/types.ts`, `src/group-NN.ts`,
 * `src/index.ts` exporting `tools`, `tsconfig.plugin.json` (outDir out-plugin) and `tsconfig.plain.json` (out-plain).
 * The tools as a tooltype user writes them (`tool()` functions and classes with `@tool` methods, JSDoc for
 * descriptions), `node_modules/tooltype` linked to this repository as test/support/compile.ts does.
 */
export function writeTooltypeProject(name: string, specs: ToolSpec[]): TooltypeProject {
  const dir = path.join(PROJECTS, name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, "src"), { recursive: true });
  fs.mkdirSync(path.join(dir, "node_modules"), { recursive: true });
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: `bench-${name}`, private: true }, null, 2));
  fs.symlinkSync(REPO, path.join(dir, "node_modules", "tooltype"), "dir");
  fs.writeFileSync(path.join(dir, "src", "types.ts"), SHARED_TYPES_TS);
  const parts = groups(specs);
  parts.forEach((part, g) => {
    fs.writeFileSync(path.join(dir, "src", `group-${pad(g)}.ts`), tooltypeGroup(part, g));
  });
  const index = [
    ...parts.map((_, g) => `import { tools as g${g} } from "./group-${pad(g)}";`),
    ``,
    `export const tools: object[] = [${parts.map((_, g) => `...g${g}`).join(", ")}];`,
    ``,
  ];
  fs.writeFileSync(path.join(dir, "src", "index.ts"), index.join("\n"));
  const compilerOptions = {
    target: "ES2022",
    module: "node16",
    moduleResolution: "node16",
    lib: ["ES2022"],
    types: [],
    strict: true,
    skipLibCheck: true,
    rootDir: "src",
  };
  const tsconfigPlugin = path.join(dir, "tsconfig.plugin.json");
  const tsconfigPlain = path.join(dir, "tsconfig.plain.json");
  fs.writeFileSync(
    tsconfigPlugin,
    JSON.stringify(
      {
        compilerOptions: { ...compilerOptions, outDir: "out-plugin", plugins: [{ transform: "tooltype/transformer" }] },
        include: ["src"],
      },
      null,
      2,
    ),
  );
  fs.writeFileSync(
    tsconfigPlain,
    JSON.stringify({ compilerOptions: { ...compilerOptions, outDir: "out-plain" }, include: ["src"] }, null, 2),
  );
  return { dir, withPlugin: path.join(dir, "out-plugin", "index.js"), tsconfigPlugin, tsconfigPlain, specs };
}

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

// ---- LangChain.js source -----------------------------------------------------------------------------------------

function zodType(param: ParamSpec): string {
  const base: Record<Kind, string> = {
    string: "z.string()",
    number: "z.number()",
    int: "z.number().int().min(0).max(1000)",
    boolean: "z.boolean()",
    enum: 'z.enum(["low", "medium", "high"])',
    strings: "z.array(z.string())",
    numbers: "z.array(z.number())",
    address: "Address",
    items: "z.array(LineItem)",
    date: "z.iso.datetime()",
    range: "DateRange",
    record: "z.record(z.string(), z.number())",
  };
  let type = base[param.kind];
  if (param.nullable) type += ".nullable()";
  if (param.optional) type += ".optional()";
  return `${type}.describe(${JSON.stringify(param.description)})`;
}

const SHARED_TYPES_ZOD = `const Address = z.strictObject({
  street: z.string().describe("Street and number"),
  city: z.string().describe("City"),
  zip: z.string().describe("Postal code").optional(),
  country: z.enum(["FR", "DE", "US", "CN"]).describe("Country code"),
}).describe("A postal address.");
const LineItem = z.strictObject({
  sku: z.string().describe("Stock keeping unit"),
  quantity: z.number().int().min(1).describe("How many"),
  price: z.number().describe("Unit price"),
  note: z.string().nullable().optional().describe("Free note"),
}).describe("One line of an order.");
const DateRange = z.strictObject({
  from: z.iso.datetime().describe("Start (inclusive)"),
  to: z.iso.datetime().describe("End (exclusive)"),
}).describe("A time window.");
`;

/**
 * `<dir>/langchain/index.js` exporting `tools` (the same tools for LangChain.js); returns its path.
 * Written as a LangChain.js user writes them (`tool(fn, { schema: z.object(…) })`), as plain CommonJS: compiling
 * 1,000 zod-typed LangChain tools with tsc is not what is measured.
 */
export function writeLangChainTools(dir: string, specs: readonly ToolSpec[]): string {
  const out = path.join(dir, "langchain");
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(
    path.join(out, "types.js"),
    `"use strict";\nconst { z } = require("zod");\n${SHARED_TYPES_ZOD}module.exports = { Address, LineItem, DateRange };\n`,
  );
  const parts = groups(specs);
  parts.forEach((part, g) => {
    const lines = [
      `"use strict";`,
      `const { tool } = require("@langchain/core/tools");`,
      `const { z } = require("zod");`,
      `const { Address, LineItem, DateRange } = require("./types");`,
      ``,
      `exports.tools = [`,
    ];
    for (const spec of part) {
      lines.push(`  tool((args) => "${spec.name}: " + args.query, {`);
      lines.push(`    name: "${spec.name}",`);
      lines.push(`    description: ${JSON.stringify(spec.description)},`);
      lines.push(`    schema: z.strictObject({`);
      for (const param of spec.params) lines.push(`      ${param.name}: ${zodType(param)},`);
      lines.push(`    }),`);
      lines.push(`  }),`);
    }
    lines.push(`];`, `void Address, LineItem, DateRange;`, ``);
    fs.writeFileSync(path.join(out, `group-${pad(g)}.js`), lines.join("\n"));
  });
  const index = [
    `"use strict";`,
    `exports.tools = [${parts.map((_, g) => `...require("./group-${pad(g)}").tools`).join(", ")}];`,
    ``,
  ];
  fs.writeFileSync(path.join(out, "index.js"), index.join("\n"));
  return path.join(out, "index.js");
}

/** The `count` tools the cold-start benchmark calls: spread evenly over all of them. */
export function calledTools(specs: readonly ToolSpec[], count: number): ToolSpec[] {
  const step = specs.length / count;
  return Array.from({ length: count }, (_, i) => specs[Math.floor(i * step)]!);
}
