/**
 * The read stage's fast form: the arguments of a call as the tool takes them, when they are strict JSON text of an
 * object that needs no copy (no `__proto__` key, no number too large, within the size and depth limits; a flat object
 * of the tool's own keys is read without `JSON.parse`, dispatch/read-flat.ts through `#lazy/flat-json`) or an
 * object already parsed (Anthropic, Gemini, LangChain) that the reader's copy accepts. Anything else goes to its
 * continuation (read-in-full.ts), the full reader: text to measure, trim, repair or copy, a call the provider marked
 * invalid.
 */
import { parseWithinBytes } from "../arguments/read/bounded-json";
import { readFlat } from "#lazy/flat-json";
import { type ArgsObject, type ReadResult, readArguments } from "../arguments/read/read-arguments";
import type { NormalizedCall } from "./call";
import { Later } from "./later";
import type { ToolSettings } from "./settings";

/** The arguments of `call`, or the stage that goes on with it (read in full; refused; a getter that threw). */
export function read(settings: ToolSettings, call: NormalizedCall): ArgsObject | Later {
  if (call.kind !== "text") return readOther(settings, call);
  const text = call.text;
  // Text the full reader would measure, trim, repair or copy goes there: "{" first, and short enough to decide by
  // length (within its byte limit by length; deep text is left to the full reader before it is parsed).
  if (text.charCodeAt(0) !== 0x7b || text.length * 3 > settings.maxBytes) return inFull(settings);
  // A flat object of the tool's own keys is read without JSON.parse; it is plain JSON as the walk would find it.
  const flat = readFlat(text, settings);
  if (flat !== undefined) return flat;
  const args = parseWithinBytes(text, settings.maxDepth) as ArgsObject | undefined;
  return args === undefined || (settings.walk && !plainJson(args, 1, settings.maxDepth)) ? inFull(settings) : args;
}

/**
 * Arguments that came parsed, copied by the reader; a call of any other kind is the full reader's. Apart from `read`,
 * as everything rare is (see pipeline.ts).
 */
function readOther(settings: ToolSettings, call: NormalizedCall): ArgsObject | Later {
  // Text where the object belongs (some gateways pass arguments on unparsed) is the full reader's too.
  if (call.kind !== "args" || typeof call.args === "string") return inFull(settings);
  let read: ReadResult;
  try {
    read = readArguments(call.args, settings);
  } catch (error) {
    // A getter or proxy that throws while the value is copied: answered as a tool failure.
    return new Later("answer", settings, undefined, error, true);
  }
  return read.ok ? read.args : new Later("validate", settings, undefined, read, false);
}

function inFull(settings: ToolSettings): Later {
  return new Later("read", settings, undefined, undefined, false);
}

/**
 * Whether parsed JSON is as the full reader would leave it: no `__proto__` key (the reader copies the value without
 * it), no number too large for a double (refused), nothing nested deeper than `maxDepth` (refused). One walk that
 * allocates nothing, in place of the reader's text searches.
 */
export function plainJson(value: unknown, depth: number, maxDepth: number): boolean {
  if (typeof value !== "object" || value === null) return typeof value !== "number" || Number.isFinite(value);
  if (depth > maxDepth) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!plainJson(value[i], depth + 1, maxDepth)) return false;
    return true;
  }
  for (const key in value) {
    if (key === "__proto__" || !plainJson((value as Record<string, unknown>)[key], depth + 1, maxDepth)) return false;
  }
  return true;
}
