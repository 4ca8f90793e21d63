/**
 * Where the arguments hold `Date`s (and `URL`s): the JSON pointers (`meta.dates`, `meta.urls`) at which dispatch
 * turns strings back into `Date` (`URL`) objects before the call. Derived from the finished schema model, so a shared
 * type is revived at every
 * place it is used, not only the first one the reader met.
 *
 * A pointer can say "every item" (`*`) but not "any depth", so a Date inside a recursive type cannot be listed;
 * neither can a Date rest element that follows string elements of a tuple (`*` would revive those too). Both are
 * reported instead of being revived halfway.
 */
import type { Definitions, SchemaNode } from "./model";

export interface DateRoot {
  /** The argument's name (its path from the arguments object). */
  name: string;
  schema: SchemaNode;
}

export interface DateProblem {
  /** Index of the root whose dates cannot all be listed. */
  root: number;
  /** The recursive `$defs` entry holding a Date, or the tuple's path. */
  where: string;
  kind: "recursive" | "tuple-rest";
}

/** `kind`: which revived values to list, `Date`s (`meta.dates`) or `URL`s (`meta.urls`); both follow the same rules. */
export function datePointers(
  roots: DateRoot[],
  definitions: Definitions,
  kind: "date" | "url" = "date",
): { pointers: string[]; problems: DateProblem[] } {
  const pointers: string[] = [];
  const problems: DateProblem[] = [];
  const holdsDate = new Map<string, boolean>();

  const contains = (node: SchemaNode, seen: Set<string>): boolean => {
    if (node.kind === kind) return true;
    switch (node.kind) {
      case "array":
        return contains(node.items, seen);
      case "tuple":
        return node.prefix.some((n) => contains(n, seen)) || (!!node.rest && contains(node.rest, seen));
      case "object":
        return (
          node.properties.some((p) => contains(p.schema, seen)) ||
          node.patterns.some((p) => contains(p.schema, seen)) ||
          (typeof node.additionalProperties === "object" && contains(node.additionalProperties, seen))
        );
      case "union":
        return node.members.some((m) => contains(m, seen));
      case "ref": {
        const known = holdsDate.get(node.name);
        if (known !== undefined) return known;
        if (seen.has(node.name)) return false;
        const target = definitions.get(node.name);
        const answer = !!target && contains(target, new Set([...seen, node.name]));
        if (seen.size === 0) holdsDate.set(node.name, answer);
        return answer;
      }
      default:
        return false;
    }
  };

  roots.forEach((root, index) => {
    const reported = new Set<string>();
    const problem = (where: string, kind: DateProblem["kind"]) => {
      if (reported.has(where)) return;
      reported.add(where);
      problems.push({ root: index, where, kind });
    };
    const walk = (node: SchemaNode, path: string[], stack: string[]): void => {
      if (node.kind === kind) {
        pointers.push(pointer(path));
        return;
      }
      switch (node.kind) {
        case "array":
          walk(node.items, [...path, "*"], stack);
          return;
        case "tuple": {
          node.prefix.forEach((item, i) => {
            walk(item, [...path, String(i)], stack);
          });
          if (node.rest && contains(node.rest, new Set())) {
            if (node.prefix.some((item) => item.kind !== kind && mayBeString(item)))
              problem(path.join("."), "tuple-rest");
            else walk(node.rest, [...path, "*"], stack);
          }
          return;
        }
        case "object":
          for (const p of node.properties) walk(p.schema, [...path, p.name], stack);
          for (const p of node.patterns) walk(p.schema, [...path, "*"], stack);
          if (typeof node.additionalProperties === "object") walk(node.additionalProperties, [...path, "*"], stack);
          return;
        case "union":
          for (const m of node.members) walk(m, path, stack);
          return;
        case "ref": {
          const target = definitions.get(node.name);
          if (!target) return;
          if (stack.includes(node.name)) {
            if (contains(target, new Set())) problem(node.name, "recursive");
            return;
          }
          walk(target, path, [...stack, node.name]);
          return;
        }
        default:
          return;
      }
    };
    walk(root.schema, [root.name], []);
  });
  return { pointers: [...new Set(pointers)], problems };
}

/** Could this item be a plain string (which a `*` pointer meant for dates would wrongly revive)? */
function mayBeString(node: SchemaNode): boolean {
  switch (node.kind) {
    case "primitive":
      return node.type === "string";
    case "date":
    case "url":
    case "any":
    case "ref":
      return true;
    case "literal":
      return typeof node.value === "string";
    case "enum":
      return node.values.some((v) => typeof v === "string");
    case "union":
      return node.members.some(mayBeString);
    default:
      return false;
  }
}

function pointer(path: string[]): string {
  return `/${path.map((s) => (s === "*" ? "*" : s.replace(/~/g, "~0").replace(/\//g, "~1"))).join("/")}`;
}
