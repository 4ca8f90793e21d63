/**
 * The layers of the runtime, checked by dependency-cruiser in `npm test` (test/architecture/layers.test.ts).
 *
 *   tool/  →  arguments/  →  dispatch/  →  providers/  →  registry/  →  agent/, mcp/, adapters/
 *
 * Arrows point down only: a layer imports the layers below it, never one above. Type-only imports count
 * (`tsPreCompilationDeps`), so a cycle made of `import type` fails as well. `runtime/index.ts` is the public API:
 * nothing inside the runtime imports it.
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
      comment: "Runtime modules may not import each other in a cycle, type-only imports included.",
      severity: "error",
      from: { path: "^runtime/" },
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
        "A provider (providers/<api>.ts and its folder providers/<api>/) imports only its own files and the shared parts (provider.ts, the interface; stream.ts; strict.ts); only providers/index.ts (the list) names them all.",
      severity: "error",
      from: { path: "^runtime/providers/([a-z0-9-]+)(\\.ts$|/)", pathNot: "^runtime/providers/(index|provider|stream|strict)\\.ts$" },
      to: { path: "^runtime/providers/", pathNot: "^runtime/providers/($1(\\.ts$|/)|(provider|stream|strict)\\.ts$)" },
    },
    {
      name: "shared-provider-parts-name-no-provider",
      comment: "provider.ts (the interface), stream.ts and strict.ts are shared by providers; they import no provider.",
      severity: "error",
      from: { path: "^runtime/providers/(provider|stream|strict)\\.ts$" },
      to: { path: "^runtime/providers/", pathNot: "^runtime/providers/(provider|stream|strict)\\.ts$" },
    },
    {
      name: "registry-is-handed-the-provider-list",
      comment: "registry/ reaches providers through the list (providers/index.ts) and the interface, never a provider file itself.",
      severity: "error",
      from: { path: "^runtime/registry/" },
      to: { path: "^runtime/providers/", pathNot: "^runtime/providers/(index|provider|mcp)\\.ts$" },
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
      comment: "runtime/index.ts re-exports the public API; nothing inside the runtime imports it.",
      severity: "error",
      from: { path: "^runtime/", pathNot: "^runtime/index\\.ts$" },
      to: { path: "^runtime/index\\.ts$" },
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
