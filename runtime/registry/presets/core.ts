/**
 * `CoreToolRegistry`, the `ToolRegistry` of the `tooltype/core` entry and the base of each provider entry's preset:
 * the registry core with no export method, reading chat messages itself and loading the provider of any other
 * format the first time it meets one (a dynamic `import()` that bundlers split into a chunk).
 */
import { readerOnNeed } from "../../lazy/providers.chunks";
import type { CHAT_FORMAT, MessageFormat } from "../../providers/catalog";
import type { CallReader } from "../../providers/provider";
import { BaseToolRegistry } from "../core";
import type { AnyTools } from "../tool-types";

/**
 * The tools a model may call, without any provider's export methods: register them (`tool()` values, objects with
 * `@tool` methods, classes with static ones) and run a reply's calls with `dispatch`, one answer per call. A
 * message in a format other than Chat Completions loads that format's provider on first need.
 */
export class CoreToolRegistry<Tools extends object = AnyTools> extends BaseToolRegistry<Tools> {
  /** Loaded on first need: at hand after the first message of this format. @internal */
  protected providerFor(format: Exclude<MessageFormat, typeof CHAT_FORMAT>): CallReader | Promise<CallReader> {
    return readerOnNeed(format);
  }
}
