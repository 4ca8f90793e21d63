/**
 * Anthropic's limits of one request's strict tools (strict tool use): how many, how many optional properties, how
 * many union-typed ones, checked over the strict schemas an export writes. Apart from the rewrite
 * (runtime/strict/anthropic.ts), which an export of compiled tools never runs.
 */
import { ToolExportError } from "../../tool/errors";
import type { JsonSchema, JsonValue } from "../../tool/meta";
import { isRecord } from "../../validation/json-schema";

/** Anthropic's limits of one request's strict tools (its structured outputs page, "Schema complexity limits"). */
export const ANTHROPIC_STRICT_LIMITS = {
  /** Tools with `strict: true` in one request. */
  tools: 20,
  /** Optional properties, across every strict schema of the request. */
  optional: 24,
  /** Properties whose schema is a union (`anyOf` or a list of types), across every strict schema of the request. */
  unions: 16,
} as const;

/**
 * Anthropic's limits of one request's strict tools, given their strict schemas: how many, how many optional
 * properties, how many union-typed ones (each definition counted once). Throws ToolExportError saying which.
 */
export function checkAnthropicStrictLimits(schemas: readonly { name: string; schema: JsonSchema }[]): void {
  const fail = (limit: string, detail: string): never => {
    throw new ToolExportError(
      `Anthropic strict tool use allows ${limit} in one request; ${detail}. Export fewer tools as strict (a tool's own strict: false), or pass checkLimits: false to send them as they are.`,
      { format: "anthropic-strict" },
    );
  };
  const { tools, optional, unions } = ANTHROPIC_STRICT_LIMITS;
  if (schemas.length > tools) fail(`at most ${tools} strict tools`, `this export has ${schemas.length}`);
  let optionals = 0;
  let unionCount = 0;
  const count = (node: JsonValue | undefined): void => {
    if (!isRecord(node)) return;
    if (isRecord(node.properties)) {
      const required = new Set(Array.isArray(node.required) ? node.required : []);
      for (const [name, child] of Object.entries(node.properties)) {
        if (!required.has(name)) optionals++;
        if (isRecord(child) && (Array.isArray(child.anyOf) || Array.isArray(child.type))) unionCount++;
        count(child);
      }
    }
    count(node.items);
    for (const key of ["anyOf", "allOf"]) {
      const branches = node[key];
      if (Array.isArray(branches)) for (const branch of branches) count(branch);
    }
    for (const key of ["$defs", "definitions"]) {
      const defs = node[key];
      if (isRecord(defs)) for (const def of Object.values(defs)) count(def);
    }
  };
  for (const { schema } of schemas) count(schema);
  if (optionals > optional) {
    fail(`at most ${optional} optional properties across its strict tools`, `these have ${optionals}`);
  }
  if (unionCount > unions) {
    fail(
      `at most ${unions} properties of a union type (anyOf, a list of types) across its strict tools`,
      `these have ${unionCount}`,
    );
  }
}
