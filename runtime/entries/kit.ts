/**
 * `tooltype/kit`: what validators compiled by tooltype's transformer import by name, beyond the small kit every
 * validator gets (runtime/validation/kit.ts): one function per `format`, a guarded `pattern` (`enginePattern` for
 * one tooltype's automaton cannot hold whole, which brings re2js), `unique`
 * (for `uniqueItems`), `codePoints` (string length for `minLength` / `maxLength`) and `oneOf` (deep equality, for
 * `const` / `enum` values that are objects, or enums of many values). The transformer adds `import * as __tooltype_kit
 * from "tooltype/kit"` to a file
 * whose validators need one of them and reads only the names they use, so a bundler keeps those and drops the
 * rest (the package has no side effects). Not meant to be imported by hand; the names follow the format names
 * (`date-time` is `dateTime`). Under Node (the form scripts/node-entries.mjs writes from this file) requiring it loads
 * no check: each
 * check's module is required on its first read, since every CommonJS file of compiled tools requires this entry as it
 * loads.
 *
 * @module tooltype/kit
 */
export {
  byte,
  date,
  dateTime,
  duration,
  email,
  hostname,
  int32,
  int64,
  ipv4,
  ipv6,
  isoDateTime,
  isoTime,
  jsonPointer,
  jsonPointerUriFragment,
  regex,
  relativeJsonPointer,
  time,
  uri,
  uriReference,
  uriTemplate,
  url,
  uuid,
} from "../validation/formats";
export { pattern, unique } from "../validation/kit-imports";
export { enginePattern } from "../validation/patterns/engine-pattern";
export { codePoints } from "../validation/code-points";
export { oneOf } from "../validation/json-equal";
