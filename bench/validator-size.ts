/** Validator size: the bytes of validator code the transformer emits per tool, as it stands in the build output. */
import * as fs from "node:fs";
import * as path from "node:path";
import { ToolRegistry, tool } from "tooltype";
import { PROJECTS } from "./generate";
import { type Stats, stats } from "./harness";

/**
 * Search the catalog.
 * @param query Text to look for
 * @param limit Highest price
 * @param exact Whether the text must match exactly
 */
const threePrimitives = tool(function search_catalog(query: string, limit: number, exact: boolean) {
  return `${query} ${limit} ${exact}`;
});

export interface ValidatorSizeResult {
  /** Bytes of the three-primitive tool's validator. */
  threePrimitives: number;
  /** Bytes per tool over the generated project. */
  generated: Stats;
  tools: number;
}

/**
 * Emitted validators in compiled JavaScript: from `validator: function (require) {` to its closing line (`return
 * k.v(v);`, or with the validator's patterns and formats, `return k.v(v, [R0], { email: __tooltype_kit.email });`).
 */
const EMITTED = /validator: (function \(require\) \{\n[\s\S]*?\nreturn k\.v\(v(?:, [^\n]*)?\);\n\})/g;

/**
 * The text of `meta.validator` in the build output, for:
 *
 * - a tool of three primitive parameters (a string, a number, a boolean), compiled with this file by the plugin;
 * - every tool of the build benchmark's generated project (500 tools of varied types), read from its output.
 */
export function validatorSizes(buildTools: number): ValidatorSizeResult {
  const meta = new ToolRegistry([threePrimitives]).get("search_catalog")!.meta;
  if (!meta.validator) throw new Error("validator size: the three-primitive tool has no compiled validator");
  const out = path.join(PROJECTS, `build-${buildTools}`, "out-plugin");
  const sizes: number[] = [];
  for (const file of fs.readdirSync(out).filter((f) => f.endsWith(".js"))) {
    for (const match of fs.readFileSync(path.join(out, file), "utf8").matchAll(EMITTED))
      sizes.push(Buffer.byteLength(match[1]!));
  }
  if (sizes.length < buildTools)
    throw new Error(`validator size: found ${sizes.length} validators for ${buildTools} tools`);
  return { threePrimitives: Buffer.byteLength(String(meta.validator)), generated: stats(sizes), tools: sizes.length };
}
