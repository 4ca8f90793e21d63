/**
 * `tooltype/kit` as Node loads it (the CommonJS build: package.json `exports["./kit"].default`): exactly kit.ts's
 * exports, typed by kit.ts's declarations, but each module behind them is required the first time one of its
 * checks is read. Every CommonJS file of compiled tools whose validators use a format, a pattern or `uniqueItems`
 * requires `tooltype/kit` as it loads; with kit.ts that is seven modules before any tool runs, most of which an app
 * never calls (a thousand tools using `date-time` alone need the formats module, on their first date). Bundlers
 * take kit.ts (the `module` condition), where the names a bundle does not read are dropped anyway.
 *
 * Each export is written as `Object.defineProperty(exports, name, { enumerable: true, get: function () { return
 * later.name; } })`, the getter form Node's detection of CommonJS exports (cjs-module-lexer) reads, so that
 * `import * as __tooltype_kit from "tooltype/kit"` in an ES module sees every name. Validators read a check on every
 * run, so each of `later`'s getters replaces itself by the value on first read: from then on a read costs what
 * kit.ts's re-export getters cost. test/package/node-entry.test.ts checks that this file and kit.ts export the same
 * values, what loads when, and the ES module view.
 */
export {};

/** `later`'s getter for `name` becomes a plain property holding `value`, which it returns. */
function keep(name: string, value: unknown): unknown {
  Object.defineProperty(later, name, { value, enumerable: true });
  return value;
}

/** Each export, required from its module when first read, then kept. */
const later: Record<string, unknown> = {};

/** Getters on `later` for `names`, each reading its value from the module `load` requires (once, by Node's cache). */
function deferred(names: readonly string[], load: () => Record<string, unknown>): void {
  for (const name of names) {
    Object.defineProperty(later, name, { configurable: true, enumerable: true, get: () => keep(name, load()[name]) });
  }
}

/* eslint-disable @typescript-eslint/no-require-imports */
deferred(
  ["byte", "date", "dateTime", "duration", "email", "hostname", "int32", "int64", "ipv4", "ipv6", "isoDateTime", "isoTime", "jsonPointer", "jsonPointerUriFragment", "regex", "relativeJsonPointer", "time", "uri", "uriReference", "uriTemplate", "url", "uuid"],
  () => require("./arguments/formats") as Record<string, unknown>,
);
deferred(["pattern", "unique"], () => require("./arguments/validator-imports") as Record<string, unknown>);
deferred(["codePoints"], () => require("./arguments/code-points") as Record<string, unknown>);
deferred(["oneOf"], () => require("./arguments/json-equal") as Record<string, unknown>);
/* eslint-enable @typescript-eslint/no-require-imports */

Object.defineProperty(exports, "byte", { enumerable: true, get: function () { return later.byte; } });
Object.defineProperty(exports, "date", { enumerable: true, get: function () { return later.date; } });
Object.defineProperty(exports, "dateTime", { enumerable: true, get: function () { return later.dateTime; } });
Object.defineProperty(exports, "duration", { enumerable: true, get: function () { return later.duration; } });
Object.defineProperty(exports, "email", { enumerable: true, get: function () { return later.email; } });
Object.defineProperty(exports, "hostname", { enumerable: true, get: function () { return later.hostname; } });
Object.defineProperty(exports, "int32", { enumerable: true, get: function () { return later.int32; } });
Object.defineProperty(exports, "int64", { enumerable: true, get: function () { return later.int64; } });
Object.defineProperty(exports, "ipv4", { enumerable: true, get: function () { return later.ipv4; } });
Object.defineProperty(exports, "ipv6", { enumerable: true, get: function () { return later.ipv6; } });
Object.defineProperty(exports, "isoDateTime", { enumerable: true, get: function () { return later.isoDateTime; } });
Object.defineProperty(exports, "isoTime", { enumerable: true, get: function () { return later.isoTime; } });
Object.defineProperty(exports, "jsonPointer", { enumerable: true, get: function () { return later.jsonPointer; } });
Object.defineProperty(exports, "jsonPointerUriFragment", { enumerable: true, get: function () { return later.jsonPointerUriFragment; } });
Object.defineProperty(exports, "regex", { enumerable: true, get: function () { return later.regex; } });
Object.defineProperty(exports, "relativeJsonPointer", { enumerable: true, get: function () { return later.relativeJsonPointer; } });
Object.defineProperty(exports, "time", { enumerable: true, get: function () { return later.time; } });
Object.defineProperty(exports, "uri", { enumerable: true, get: function () { return later.uri; } });
Object.defineProperty(exports, "uriReference", { enumerable: true, get: function () { return later.uriReference; } });
Object.defineProperty(exports, "uriTemplate", { enumerable: true, get: function () { return later.uriTemplate; } });
Object.defineProperty(exports, "url", { enumerable: true, get: function () { return later.url; } });
Object.defineProperty(exports, "uuid", { enumerable: true, get: function () { return later.uuid; } });
Object.defineProperty(exports, "pattern", { enumerable: true, get: function () { return later.pattern; } });
Object.defineProperty(exports, "unique", { enumerable: true, get: function () { return later.unique; } });
Object.defineProperty(exports, "codePoints", { enumerable: true, get: function () { return later.codePoints; } });
Object.defineProperty(exports, "oneOf", { enumerable: true, get: function () { return later.oneOf; } });
