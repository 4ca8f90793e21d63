/** The limits an imported tool's `inputSchema` must keep before it joins a registry: an MCP server is not trusted. */

/** Limits of one imported schema; each has the default below. */
export interface ImportedSchemaLimits {
  /** Characters of the schema as JSON. */
  readonly maxChars: number;
  /** Levels of nesting of the schema document (objects and arrays). */
  readonly maxDepth: number;
  /** Properties of any one object schema (`properties`, `patternProperties`, `$defs`). */
  readonly maxProperties: number;
  /** Schemas counted with every `$ref` inlined (a recursive one once): what validating and exporting it may cost. */
  readonly maxExpanded: number;
}

export const IMPORTED_SCHEMA_LIMITS: ImportedSchemaLimits = {
  maxChars: 256 * 1024,
  maxDepth: 64,
  maxProperties: 1_000,
  maxExpanded: 100_000,
};

/**
 * What is wrong with `schema` under `limits` (in a sentence), or `undefined` when it keeps them. Each check walks the
 * schema once, without recursion on the document's own depth. Without them, a schema nested 10,000 deep made every
 * export of the whole registry throw, a 5,000-property one or a `$ref` that points at itself made every call
 * overflow the stack, a 2 KiB schema of nested `anyOf` references made one call validate for a minute, and
 * inlining references for Gemini made 88 MiB of one small schema.
 */
export function importedSchemaProblem(
  schema: unknown,
  limits: ImportedSchemaLimits = IMPORTED_SCHEMA_LIMITS,
): string | undefined {
  // Depth first, without recursion: JSON.stringify itself overflows the stack on a deep enough document.
  const stack: [unknown, number][] = [[schema, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== "object" || node === null) continue;
    if (depth > limits.maxDepth) return `it nests deeper than ${limits.maxDepth} levels`;
    const entries = Array.isArray(node) ? node : Object.values(node);
    if (!Array.isArray(node)) {
      for (const key of ["properties", "patternProperties", "$defs", "definitions"]) {
        const map = (node as Record<string, unknown>)[key];
        if (typeof map === "object" && map !== null && Object.keys(map).length > limits.maxProperties) {
          return `one of its objects has more than ${limits.maxProperties} entries in "${key}"`;
        }
      }
    }
    for (const child of entries) stack.push([child, depth + 1]);
  }
  const chars = JSON.stringify(schema)?.length ?? 0;
  if (chars > limits.maxChars) return `it is ${chars} characters long, more than ${limits.maxChars}`;
  return expansionProblem(schema, limits.maxExpanded);
}

/**
 * Counts the schemas with every local `$ref` inlined, each reference target counted once per place it is used
 * (memoised, so nested `anyOf` references cost their product without being walked), a target that is already being
 * expanded (recursion) counted as one. Refuses a reference that cannot be resolved, leaves the document, or leads
 * back to itself through references alone.
 */
function expansionProblem(root: unknown, max: number): string | undefined {
  const sizes = new Map<unknown, number>();
  const open = new Set<unknown>();
  let problem: string | undefined;

  const size = (node: unknown, hops: number): number => {
    if (problem !== undefined) return 0;
    if (typeof node !== "object" || node === null) return 1;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    if (open.has(node)) return 1;
    if (hops > 256) {
      problem = "its references lead through more than 256 schemas";
      return 0;
    }
    open.add(node);
    let total = 1;
    const ref = Array.isArray(node) ? undefined : (node as Record<string, unknown>).$ref;
    if (typeof ref === "string") {
      const target = resolve(root, ref);
      if (target === undefined) {
        problem = `its $ref ${JSON.stringify(ref.slice(0, 100))} does not point inside the schema`;
        return 0;
      }
      if (target === node || refOnlyCycle(root, target, node)) {
        problem = `its $ref ${JSON.stringify(ref.slice(0, 100))} leads back to itself through references alone`;
        return 0;
      }
      total += size(target, hops + 1);
    }
    for (const [key, child] of Array.isArray(node) ? node.entries() : Object.entries(node)) {
      if (key === "$defs" || key === "definitions") continue;
      total += size(child, hops + 1);
      if (total > max) break;
    }
    open.delete(node);
    sizes.set(node, total);
    if (total > max && problem === undefined) problem = `with its references inlined it holds more than ${max} schemas`;
    return total;
  };

  size(root, 0);
  return problem;
}

/** Whether following `$ref`s alone from `start` reaches `from` (or loops): a schema no walk can ever finish. */
function refOnlyCycle(root: unknown, start: unknown, from: unknown): boolean {
  const seen = new Set<unknown>([from]);
  let node = start;
  for (let i = 0; i < 10_000; i++) {
    const ref =
      typeof node === "object" && node !== null && !Array.isArray(node)
        ? (node as Record<string, unknown>).$ref
        : undefined;
    if (typeof ref !== "string") return false;
    if (seen.has(node)) return true;
    seen.add(node);
    node = resolve(root, ref);
    if (node === undefined) return false;
  }
  return true;
}

/** The target of a local JSON pointer reference (`#`, `#/$defs/a`), or `undefined`. */
function resolve(root: unknown, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let node = root;
  for (const raw of ref.slice(2).split("/")) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    } catch {
      return undefined;
    }
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
