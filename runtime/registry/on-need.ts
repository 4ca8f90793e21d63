/**
 * `ToolRegistry` of the `tooltype/core` entry, and the base of each provider entry's (`tooltype/openai`, …): the
 * registry core with no export method, reading chat messages itself and loading the provider of any other format
 * the first time it meets one (providers/load.ts, a dynamic `import()` that bundlers split into a chunk).
 */
import { readerOnNeed } from "../providers/load";
import type { CallReader, MessageFormat } from "../providers/readers";
import { BaseToolRegistry } from "./core";

/**
 * The tools a model may call, without any provider's export methods: register them (`tool()` values, objects with
 * `@tool` methods, classes with static ones) and run a reply's calls with `dispatch`, one answer per call. A
 * message in a format other than Chat Completions loads that format's provider on first need.
 */
export class ToolRegistry extends BaseToolRegistry {
  /** Loaded on first need: at hand after the first message of this format. @internal */
  protected providerFor(format: Exclude<MessageFormat, "openai">): CallReader | Promise<CallReader> {
    return readerOnNeed(format);
  }
}
