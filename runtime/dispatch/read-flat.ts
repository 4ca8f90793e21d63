/**
 * The read stage's reading of a flat object (arguments/read/flat-json.ts) for one tool: the keys it may read worked
 * out on its first text (arguments/read/flat-keys.ts) and kept in the tool's settings. Reached through
 * `#lazy/flat-json`, a chunk of its own in a bundle, so that neither the reader nor the keys sit in an app's start.
 */
import { readFlatObject } from "../arguments/read/flat-json";
import { flatObjectKeys } from "../arguments/read/flat-keys";
import type { ArgsObject } from "../arguments/read/read-arguments";
import type { ToolSettings } from "./environment";

/** `JSON.parse(text)` for a flat object of the tool's keys (the text starts with `{`), else undefined. */
export function readFlatArguments(text: string, settings: ToolSettings): ArgsObject | undefined {
  const keys = settings.flatKeys ?? flatKeysOf(settings);
  return keys === null ? undefined : readFlatObject(text, keys);
}

function flatKeysOf(settings: ToolSettings): readonly string[] | null {
  // An object is one level deep: under a depth limit below that, every object is the full reader's to refuse.
  const keys = settings.maxDepth >= 1 ? flatObjectKeys(settings.tool.meta.parameters) : undefined;
  return (settings.flatKeys = keys ?? null);
}
