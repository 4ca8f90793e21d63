/**
 * A built module's source map when its text was spliced before TypeScript compiled it: TypeScript's map leads into
 * the spliced text, the splice's map from there into the source as written; the two composed lead from the
 * JavaScript to the source as written, with the names and sources TypeScript wrote. Both `tooltype build` paths on
 * TypeScript 7 (a map file, or a map inlined in the JavaScript) and tooltype/register on TypeScript 7 end here.
 */

/** @jridgewell/remapping, by its runtime shape: its CommonJS declarations do not parse (`export = function`). */
type Remapping = (maps: string[], loader: () => null) => { toString(): string };

/** What was spliced: each module's text with its metadata, the splice's source map, and the text as written. */
export interface Spliced {
  code: string;
  map: string | undefined;
  original: string;
}

interface RawMap {
  sourcesContent?: (string | null)[];
  mappings: string;
}

const INLINE = /\n?\/\/# sourceMappingURL=data:application\/json;(?:charset=utf-8;)?base64,([A-Za-z0-9+/=]+)\s*$/;

/**
 * The map to write: `written` is the map TypeScript wrote for the module (its names, sources, options),
 * `compiled` the map of the JavaScript being written, into the spliced text (the same map unless the JavaScript
 * was made again from it).
 */
export function splicedMap(written: string, spliced: Spliced, compiled: string = written): string {
  const own = JSON.parse(written) as RawMap;
  const remapping = require("@jridgewell/remapping") as Remapping;
  const composed = JSON.parse(
    spliced.map ? remapping([compiled, spliced.map], () => null).toString() : compiled,
  ) as RawMap;
  return JSON.stringify({
    ...own,
    mappings: composed.mappings,
    ...(own.sourcesContent ? { sourcesContent: [spliced.original] } : {}),
  });
}

/** The map inlined at the end of `js` (`inlineSourceMap`), or undefined. */
export function inlineMapOf(js: string): string | undefined {
  const found = INLINE.exec(js);
  return found ? Buffer.from(found[1]!, "base64").toString("utf8") : undefined;
}

/** `js` with its inlined map (or none) replaced by `map`. */
export function withInlineMap(js: string, map: string): string {
  return `${js.replace(INLINE, "").replace(/\s*$/, "\n")}//# sourceMappingURL=data:application/json;base64,${Buffer.from(map).toString("base64")}`;
}
