/**
 * The main `tooltype` entry as Node loads it (the CommonJS build: package.json `main` and `exports["."].default`):
 * exactly index.ts's exports, typed by index.ts's declarations, but what an app that only registers, exports and
 * dispatches tools never touches is required on first access: the agent loop and streaming, structured output
 * (which needs the arguments' failure path), `parseToolCalls`, `formatAnswer`, `toolChoice`, chat attachments and
 * the format constants. So `require("tooltype")` loads the registry and dispatch, not the rest (about 40 modules
 * instead of 70). Bundlers take index.ts (the `module` condition), where an unused export costs nothing anyway.
 *
 * Each deferred export is written as `Object.defineProperty(exports, name, { enumerable: true, get: function () {
 * return later.name; } })`, the getter form Node's detection of CommonJS exports (cjs-module-lexer) reads, so that
 * `import { runTools } from "tooltype"` keeps working in an ES module. test/package/node-entry.test.ts checks that
 * this file and index.ts export the same names, and that an ES module sees them all.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
export * from "./base-exports";
export { ToolRegistry } from "./registry/tool-registry";

type Structured = typeof import("./agent/structured");
type AgentErrors = typeof import("./agent/errors");
type Stop = typeof import("./agent/stop");
type GeminiFormats = typeof import("./providers/gemini/types");

/** Each deferred export, required when first read (Node caches each module, so later reads cost a property lookup). */
const later = {
  get structuredOutput() {
    return (require("./agent/structured") as Structured).structuredOutput;
  },
  get StructuredOutput() {
    return (require("./agent/structured") as Structured).StructuredOutput;
  },
  get StructuredOutputError() {
    return (require("./agent/structured") as Structured).StructuredOutputError;
  },
  get runTools() {
    return (require("./agent/run-tools") as typeof import("./agent/run-tools")).runTools;
  },
  get stepCountIs() {
    return (require("./agent/stop") as Stop).stepCountIs;
  },
  get toolCalled() {
    return (require("./agent/stop") as Stop).toolCalled;
  },
  get ToolRunStream() {
    return (require("./agent/run-stream") as typeof import("./agent/run-stream")).ToolRunStream;
  },
  get AgentError() {
    return (require("./agent/errors") as AgentErrors).AgentError;
  },
  get MaxStepsError() {
    return (require("./agent/errors") as AgentErrors).MaxStepsError;
  },
  get ModelRefusalError() {
    return (require("./agent/errors") as AgentErrors).ModelRefusalError;
  },
  get ToolRetryError() {
    return (require("./agent/errors") as AgentErrors).ToolRetryError;
  },
  get PATCH_TOOL_NAME() {
    return (require("./agent/json-patch") as typeof import("./agent/json-patch")).PATCH_TOOL_NAME;
  },
  get accumulateToolCalls() {
    return (require("./providers/at-hand") as typeof import("./providers/at-hand")).accumulateToolCalls;
  },
  get parseToolCalls() {
    return (require("./registry/parse-tool-calls") as typeof import("./registry/parse-tool-calls")).parseToolCalls;
  },
  get chatAttachments() {
    return (require("./providers/openai-chat/attachments") as typeof import("./providers/openai-chat/attachments")).chatAttachments;
  },
  get formatAnswer() {
    return (require("./registry/answer") as typeof import("./registry/answer")).formatAnswer;
  },
  get toolChoice() {
    return (require("./registry/choice") as typeof import("./registry/choice")).toolChoice;
  },
  get OPENAI_LIMITS() {
    return (require("./providers/openai-limits") as typeof import("./providers/openai-limits")).OPENAI_LIMITS;
  },
  get GeminiFunctionCallingConfigMode() {
    return (require("./providers/gemini/types") as GeminiFormats).GeminiFunctionCallingConfigMode;
  },
  get GeminiType() {
    return (require("./providers/gemini/types") as GeminiFormats).GeminiType;
  },
};

Object.defineProperty(exports, "structuredOutput", { enumerable: true, get: function () { return later.structuredOutput; } });
Object.defineProperty(exports, "StructuredOutput", { enumerable: true, get: function () { return later.StructuredOutput; } });
Object.defineProperty(exports, "StructuredOutputError", { enumerable: true, get: function () { return later.StructuredOutputError; } });
Object.defineProperty(exports, "runTools", { enumerable: true, get: function () { return later.runTools; } });
Object.defineProperty(exports, "stepCountIs", { enumerable: true, get: function () { return later.stepCountIs; } });
Object.defineProperty(exports, "toolCalled", { enumerable: true, get: function () { return later.toolCalled; } });
Object.defineProperty(exports, "ToolRunStream", { enumerable: true, get: function () { return later.ToolRunStream; } });
Object.defineProperty(exports, "AgentError", { enumerable: true, get: function () { return later.AgentError; } });
Object.defineProperty(exports, "MaxStepsError", { enumerable: true, get: function () { return later.MaxStepsError; } });
Object.defineProperty(exports, "ModelRefusalError", { enumerable: true, get: function () { return later.ModelRefusalError; } });
Object.defineProperty(exports, "ToolRetryError", { enumerable: true, get: function () { return later.ToolRetryError; } });
Object.defineProperty(exports, "PATCH_TOOL_NAME", { enumerable: true, get: function () { return later.PATCH_TOOL_NAME; } });
Object.defineProperty(exports, "accumulateToolCalls", { enumerable: true, get: function () { return later.accumulateToolCalls; } });
Object.defineProperty(exports, "parseToolCalls", { enumerable: true, get: function () { return later.parseToolCalls; } });
Object.defineProperty(exports, "chatAttachments", { enumerable: true, get: function () { return later.chatAttachments; } });
Object.defineProperty(exports, "formatAnswer", { enumerable: true, get: function () { return later.formatAnswer; } });
Object.defineProperty(exports, "toolChoice", { enumerable: true, get: function () { return later.toolChoice; } });
Object.defineProperty(exports, "OPENAI_LIMITS", { enumerable: true, get: function () { return later.OPENAI_LIMITS; } });
Object.defineProperty(exports, "GeminiFunctionCallingConfigMode", { enumerable: true, get: function () { return later.GeminiFunctionCallingConfigMode; } });
Object.defineProperty(exports, "GeminiType", { enumerable: true, get: function () { return later.GeminiType; } });
