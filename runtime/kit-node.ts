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
/* eslint-disable @typescript-eslint/no-require-imports */
export {};

type Formats = typeof import("./arguments/formats");
type Imports = typeof import("./arguments/validator-imports");

let formatsModule: Formats | undefined;
const formats = (): Formats => (formatsModule ??= require("./arguments/formats") as Formats);

/** `later`'s getter for `name` becomes a plain property holding `value`, which it returns. */
function keep<T>(name: string, value: T): T {
  Object.defineProperty(later, name, { value, enumerable: true });
  return value;
}

/** Each export, required when first read, then kept. */
const later = {
  get byte() {
    return keep("byte", formats().byte);
  },
  get date() {
    return keep("date", formats().date);
  },
  get dateTime() {
    return keep("dateTime", formats().dateTime);
  },
  get duration() {
    return keep("duration", formats().duration);
  },
  get email() {
    return keep("email", formats().email);
  },
  get hostname() {
    return keep("hostname", formats().hostname);
  },
  get int32() {
    return keep("int32", formats().int32);
  },
  get int64() {
    return keep("int64", formats().int64);
  },
  get ipv4() {
    return keep("ipv4", formats().ipv4);
  },
  get ipv6() {
    return keep("ipv6", formats().ipv6);
  },
  get isoDateTime() {
    return keep("isoDateTime", formats().isoDateTime);
  },
  get isoTime() {
    return keep("isoTime", formats().isoTime);
  },
  get jsonPointer() {
    return keep("jsonPointer", formats().jsonPointer);
  },
  get jsonPointerUriFragment() {
    return keep("jsonPointerUriFragment", formats().jsonPointerUriFragment);
  },
  get regex() {
    return keep("regex", formats().regex);
  },
  get relativeJsonPointer() {
    return keep("relativeJsonPointer", formats().relativeJsonPointer);
  },
  get time() {
    return keep("time", formats().time);
  },
  get uri() {
    return keep("uri", formats().uri);
  },
  get uriReference() {
    return keep("uriReference", formats().uriReference);
  },
  get uriTemplate() {
    return keep("uriTemplate", formats().uriTemplate);
  },
  get url() {
    return keep("url", formats().url);
  },
  get uuid() {
    return keep("uuid", formats().uuid);
  },
  get pattern() {
    return keep("pattern", (require("./arguments/validator-imports") as Imports).pattern);
  },
  get unique() {
    return keep("unique", (require("./arguments/validator-imports") as Imports).unique);
  },
  get codePoints() {
    return keep("codePoints", (require("./arguments/code-points") as typeof import("./arguments/code-points")).codePoints);
  },
  get oneOf() {
    return keep("oneOf", (require("./arguments/json-equal") as typeof import("./arguments/json-equal")).oneOf);
  },
};

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
