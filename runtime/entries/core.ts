/**
 * `tooltype/core`: what every app that dispatches compiled tools uses, and no provider's export code: `tool`, a
 * `ToolRegistry` with no export method (register, dispatch, invoke, approval, middleware; `BaseToolRegistry`, the
 * type every registry is), the messages, the errors and the types. The provider entries (`tooltype/openai`,
 * `tooltype/responses`, `tooltype/anthropic`,
 * `tooltype/gemini`) re-export all of it with a `ToolRegistry` that adds their own export methods; the main
 * `tooltype` entry has every provider (and the agent loop is `tooltype/loop`).
 *
 * @module tooltype/core
 */
export * from "./base-exports";
export { CoreToolRegistry as ToolRegistry } from "../registry/presets/core";
