/**
 * The name of the caller an `authenticate` result stands for, which approval states and session ids are bound to:
 * two callers must never share one, so a value that cannot be named exactly names nobody.
 */

/** How the app names its callers (`callerId` of the server options), when their `authenticate` results are not plain JSON. */
export type CallerId = (auth: unknown) => string;

/**
 * The caller's name: `callerId(auth)` when the app gives one (a non-empty string), else no `authenticate` result as
 * the anonymous caller, a string or number as itself, and plain JSON (a token's claims) by its canonical text.
 * `undefined` for anything else (a BigInt, a cycle, a `Map`, a class instance, a function): such a caller cannot be
 * told from another, so nothing is issued to it.
 */
export function callerName(auth: unknown, callerId?: CallerId): string | undefined {
  if (callerId !== undefined) {
    const named: unknown = callerId(auth);
    return typeof named === "string" && named !== "" ? `app:${named}` : undefined;
  }
  if (auth === undefined || auth === null || auth === true) return "anonymous";
  if (typeof auth === "string") return `string:${auth}`;
  if (typeof auth === "number") return Number.isFinite(auth) ? `number:${auth}` : undefined;
  const text = plainJson(auth, new Set(), 0);
  return text === undefined ? undefined : `json:${text}`;
}

/** The canonical JSON of a plain-JSON value (keys sorted), or `undefined` when it holds anything else. */
function plainJson(value: unknown, ancestors: Set<object>, depth: number): string | undefined {
  switch (typeof value) {
    case "string":
    case "boolean":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? JSON.stringify(value) : undefined;
    case "object":
      break;
    default:
      return undefined;
  }
  if (value === null) return "null";
  if (depth > 64 || ancestors.has(value)) return undefined;
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      const items: string[] = [];
      for (const item of value) {
        const text = plainJson(item, ancestors, depth + 1);
        if (text === undefined) return undefined;
        items.push(text);
      }
      return `[${items.join(",")}]`;
    }
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) return undefined;
    const record = value as Record<string, unknown>;
    const entries: string[] = [];
    for (const key of Object.keys(record).sort()) {
      if (record[key] === undefined) continue;
      const text = plainJson(record[key], ancestors, depth + 1);
      if (text === undefined) return undefined;
      entries.push(`${JSON.stringify(key)}:${text}`);
    }
    return `{${entries.join(",")}}`;
  } finally {
    ancestors.delete(value);
  }
}

/** Why nothing can be issued to a caller that cannot be named, and what the server's owner does about it. */
export const UNNAMED_CALLER =
  "the server cannot tell this caller from another (what its authenticate returned is not plain JSON: a BigInt, a cycle, a Map or a class instance); the server's owner gives it a callerId(auth) option that returns a stable id for each caller";
