/**
 * The ES module face of `tooltype/langchain`: the functions of langchain.ts (loaded as CommonJS), typed against
 * LangChain's ES module declarations. LangChain ships one set of declarations for `import` and another for
 * `require`, and their classes do not mix in types: an ES module project's `createAgent` and `ToolNode` would refuse
 * tools typed with the CommonJS set. At run time the two builds work together.
 */
import type { StructuredToolInterface } from "@langchain/core/tools";
import type { ToolRegistry } from "./runtime.js";
import type { AdapterOptions } from "./common.js";
import implementation from "./langchain.js";

export type { AdapterOptions } from "./common.js";

/** The registry's tools as LangChain tools, for `bindTools`, `createAgent` or a `ToolNode`. */
export const toLangChainTools = implementation.toLangChainTools as unknown as (
  registry: ToolRegistry,
  options?: AdapterOptions,
) => StructuredToolInterface[];

/** A failed call of a tool invoked with plain arguments; `toolMessage` holds tooltype's answer. */
export const ToolCallFailedError = implementation.ToolCallFailedError;
export type ToolCallFailedError = InstanceType<typeof implementation.ToolCallFailedError>;
