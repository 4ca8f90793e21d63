/**
 * The layers of the runtime, checked by dependency-cruiser in `npm test` (test/architecture/layers.test.ts).
 *
 *   tool/  →  arguments/  →  dispatch/  →  providers/  →  registry/  →  agent/, mcp/, adapters/
 *
 * Arrows point down only: a layer imports the layers below it, never one above. Type-only imports count
 * (`tsPreCompilationDeps`), so a cycle made of `import type` fails as well. The entry files at the top of runtime/
 * (`index.ts`, the main entry; `core.ts`, `openai.ts`, `responses.ts`, `anthropic.ts`, `gemini.ts`, the small ones)
 * are the public API: nothing inside the runtime imports them.
 *
 * The transformer has no cycle either, and its compiler core never imports a host (transformer/hosts/): the hosts
 * call the core and hand it what only they know.
 */
const UPPER = "^runtime/(agent|mcp|adapters)/";

/** `from` may import nothing of the runtime outside the folders `allowed` (regex alternatives). */
function onlyBelow(name, from, allowed, comment) {
  return {
    name,
    comment,
    severity: "error",
    from: { path: `^runtime/${from}/` },
    to: { path: "^runtime/", pathNot: `^runtime/(${allowed})/` },
  };
}

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "Modules of the runtime and of the transformer may not import each other in a cycle, type-only imports included.",
      severity: "error",
      from: { path: "^(runtime|transformer)/" },
      to: { circular: true },
    },
    onlyBelow("tool-is-the-bottom", "tool", "tool", "tool/ (tool(), options, the CompiledToolMeta seam, errors) imports nothing else of the runtime."),
    onlyBelow("arguments-only-tool", "arguments", "tool|arguments", "arguments/ imports only tool/."),
    onlyBelow(
      "dispatch-never-imports-a-provider",
      "dispatch",
      "tool|arguments|dispatch",
      "dispatch/ runs the calls a provider read; it never imports a provider (nor anything above it).",
    ),
    onlyBelow("providers-below-the-registry", "providers", "tool|arguments|dispatch|providers", "providers/ import dispatch and below."),
    {
      name: "providers-never-import-each-other",
      comment:
        "A provider (providers/<api>.ts and its folder providers/<api>/) imports only its own files and the shared parts (provider.ts, the interface; sniff.ts, recognising messages; stream.ts; strict.ts, with strict-now.ts / strict-static.ts reaching it through `#strict`; openai-limits.ts); only the lists name them: providers/index.ts (every provider, through list-now.ts or list-static.ts), providers/load.ts (each loaded on first need) and providers/readers.ts (the chat reader the registry core always has).",
      severity: "error",
      from: { path: "^runtime/providers/([a-z0-9-]+)(\\.ts$|/)", pathNot: "^runtime/providers/(index|list-now|list-static|load|readers|provider|sniff|stream|strict|strict-now|strict-static|openai-limits)\\.ts$" },
      to: { path: "^runtime/providers/", pathNot: "^runtime/providers/($1(\\.ts$|/)|(provider|sniff|stream|strict|strict-now|strict-static|openai-limits)\\.ts$)" },
    },
    {
      name: "shared-provider-parts-name-no-provider",
      comment: "provider.ts (the interface), sniff.ts, stream.ts, strict.ts (and its #strict pair) and openai-limits.ts are shared by providers; they import no provider.",
      severity: "error",
      from: { path: "^runtime/providers/(provider|sniff|stream|strict|strict-now|strict-static|openai-limits)\\.ts$" },
      to: { path: "^runtime/providers/", pathNot: "^runtime/providers/(provider|sniff|stream|strict|strict-now|strict-static|openai-limits)\\.ts$" },
    },
    {
      name: "registry-is-handed-the-provider-list",
      comment:
        "registry/ reaches providers through the lists (providers/index.ts; providers/load.ts, which loads each on first need; providers/readers.ts), the interface and the message sniff, never a provider file itself; the one-provider registries are the exception below.",
      severity: "error",
      from: { path: "^runtime/registry/", pathNot: "^runtime/registry/(openai-chat|openai-responses|anthropic|gemini)\\.ts$" },
      to: { path: "^runtime/providers/", pathNot: "^runtime/providers/(index|load|readers|provider|sniff|mcp)\\.ts$" },
    },
    {
      name: "a-provider-registry-names-its-provider-only",
      comment:
        "registry/<api>.ts (the ToolRegistry of a provider entry such as tooltype/openai) adds that provider's export methods to the core: it imports that provider file and nothing else of providers/, so a bundle of it carries one provider.",
      severity: "error",
      from: { path: "^runtime/registry/(openai-chat|openai-responses|anthropic|gemini)\\.ts$" },
      to: { path: "^runtime/providers/", pathNot: "^runtime/providers/($1(\\.ts$|/)|provider\\.ts$)" },
    },
    {
      name: "the-registry-core-loads-providers-on-need",
      comment:
        "registry/core.ts (every registry's core: dispatch, approval) reaches providers only through readers.ts (the chat reader) and sniff.ts: which provider answers another format is each registry class's choice (all loaded for the main entry, loaded on need by the small ones), so no provider is in a bundle of an entry that does not export its tools.",
      severity: "error",
      from: { path: "^runtime/registry/core\\.ts$" },
      to: { path: "^runtime/providers/", pathNot: "^runtime/providers/(readers|sniff|provider)\\.ts$" },
    },
    {
      name: "the-main-registry-loads-nothing-on-need",
      comment:
        "The main entry (runtime/index.ts; its ToolRegistry has every provider at hand through the provider list) never reaches providers/load.ts or registry/on-need.ts, the small entries' second way of loading providers, which would only add chunks to a bundle of it.",
      severity: "error",
      from: { path: "^runtime/index\\.ts$" },
      to: { path: "^runtime/(providers/load|registry/on-need)\\.ts$", reachable: true },
    },
    {
      name: "the-loop-is-provider-neutral",
      comment:
        "agent/ (runTools and its parts) reaches providers through the list and the interface only; structured.ts keeps the Chat Completions response_format of StructuredOutput.",
      severity: "error",
      from: { path: "^runtime/agent/", pathNot: "^runtime/agent/structured\\.ts$" },
      to: { path: "^runtime/providers/", pathNot: "^runtime/providers/(index|provider)\\.ts$" },
    },
    onlyBelow("registry-below-the-loop", "registry", "tool|arguments|dispatch|providers|registry", "registry/ sits below agent/, mcp/ and adapters/."),
    {
      name: "nothing-imports-the-upper-layers",
      comment: "agent/, mcp/ and adapters/ sit on top: the layers below never import them.",
      severity: "error",
      from: { path: "^runtime/(tool|arguments|dispatch|providers|registry)/" },
      to: { path: UPPER },
    },
    {
      name: "index-is-the-public-api-only",
      comment: "The entry files (runtime/index.ts, core.ts and the provider entries) re-export the public API; nothing else inside the runtime imports them.",
      severity: "error",
      from: { path: "^runtime/[^/]+/" },
      to: { path: "^runtime/[^/]+\\.ts$" },
    },
    {
      name: "the-compiler-core-never-imports-a-host",
      comment:
        "The transformer's core (everything outside transformer/hosts/) never imports a host: the hosts (tspc's plugin, the bundler plugins, the register hook, ts-jest, the CLI) call the core and hand it what they own, such as the dependency tracker of incremental builds.",
      severity: "error",
      from: { path: "^transformer/", pathNot: "^transformer/hosts/" },
      to: { path: "^transformer/hosts/" },
    },
    {
      name: "transformer-reads-only-the-seam",
      comment: "The transformer shares only the metadata types and the validator settings with the runtime.",
      severity: "error",
      from: { path: "^transformer/" },
      to: { path: "^runtime/", pathNot: "^runtime/(tool/meta|arguments/ajv-options)\\.ts$" },
    },
    {
      name: "runtime-never-loads-the-transformer",
      severity: "error",
      from: { path: "^runtime/" },
      to: { path: "^transformer/" },
    },
    {
      name: "optional-peers-stay-behind-their-entry",
      comment:
        "The main entry loads with no SDK installed: outside their own subpath entries (mcp/, adapters/) the SDKs are imported for types only.",
      severity: "error",
      from: { path: "^runtime/", pathNot: "^runtime/(mcp|adapters)/" },
      to: { path: "(^|/)node_modules/(openai|@anthropic-ai/sdk|@google/genai|@modelcontextprotocol/sdk|@langchain|ai)/", dependencyTypesNot: ["type-only"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    moduleSystems: ["es6", "cjs"],
  },
};
