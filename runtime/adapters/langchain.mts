/**
 * The ES module face of `tooltype/langchain`: langchain.ts's functions typed against LangChain's ES module
 * declarations, whose classes do not mix in types with its CommonJS ones (at run time the two builds work together).
 */
import type { StructuredToolInterface } from "@langchain/core/tools";
import type { ToolRegistry } from "./runtime.js";
import type { AdapterOptions } from "./common.js";
import type { LangChainHumanInTheLoopOptions, LangChainInterruptOn } from "./langchain.js";
import implementation from "./langchain.js";

export type { AdapterOptions } from "./common.js";
export type { LangChainDecision, LangChainHumanInTheLoopOptions, LangChainInterruptOn } from "./langchain.js";

/** The registry's tools as LangChain tools, for `bindTools`, `createAgent` or a `ToolNode`. */
export const toLangChainTools = implementation.toLangChainTools as unknown as (
  registry: ToolRegistry,
  options?: AdapterOptions,
) => StructuredToolInterface[];

/** The tools (whose calls run as approved) and `interruptOn` for LangChain's human-in-the-loop middleware. */
export const toLangChainHumanInTheLoop = implementation.toLangChainHumanInTheLoop as unknown as (
  registry: ToolRegistry,
  options?: LangChainHumanInTheLoopOptions,
) => { tools: StructuredToolInterface[]; interruptOn: Record<string, LangChainInterruptOn> };

/** A failed call of a tool invoked with plain arguments; `toolMessage` holds tooltype's answer. */
export const ToolCallFailedError = implementation.ToolCallFailedError;
export type ToolCallFailedError = InstanceType<typeof implementation.ToolCallFailedError>;
