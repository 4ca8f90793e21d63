/**
 * The layers of the runtime, checked by dependency-cruiser in `npm test`
 * (test/architecture/layers.integration.test.ts).
 *
 *   tool/  →  validation/  →  strict/  →  arguments/  →  results/  →  dispatch/  →  providers/  →  registry/  →
 *   agent/, mcp/, adapters/
 *
 * telemetry/ (OpenTelemetry's API as tooltype sees it, whether a tracer provider is registered, W3C trace context)
 * stands apart at the bottom: it imports nothing of the runtime but its loader, and dispatch/, agent/ and mcp/ use it.
 *
 * validation/ is the kit every validator calls (the generated ones' run-time half, formats, linear-time patterns, ajv,
 * Standard Schema's types); strict/ rewrites a schema into a model API's strict subset (schema knowledge, which the
 * build runs for compiled tools and the providers read back); arguments/ reads, repairs and explains a call's
 * arguments with the kit; results/ checks a tool's result against its return type with both.
 *
 * Arrows point down only: a layer imports the layers below it, never one above. Type-only imports count
 * (`tsPreCompilationDeps`), so a cycle made of `import type` fails as well. The entries (runtime/entries/: `index.ts`,
 * the main entry; `core.ts`, `openai.ts`, `responses.ts`, `anthropic.ts`, `gemini.ts`, the small ones; `agent.ts`,
 * the agent loop; `kit.ts`, `ajv.ts`, `mcp.ts`) are the public API: nothing else inside the runtime imports them. The
 * loaders of runtime/lazy/ belong to no layer: a layer reaches one through `#lazy/…` (resolved to its `.node.ts`
 * side), and may reach nothing above itself through it. MCP's tool format (runtime/mcp/format/: its wire types, tool descriptors and
 * `tools/call` results) sits beside the providers, below the registry, whose `toMCPTools` exports it; the rest of
 * mcp/ (the server and the client) is on top.
 *
 * The transformer has no cycle either, and its compiler core never imports a host (transformer/hosts/): the hosts
 * call the core and hand it what only they know. The core asks types through one interface (transformer/readers/
 * reader.ts), with one adapter per backend under readers/ (compiler-api/, ts7/): the core reaches only the interface
 * and the compiler-API adapter (its default), never TypeScript 7's; the adapters never import each other; the hosts
 * reach TypeScript 7's reader through its session (api.ts) and the core over it (analyse.ts) only; and no module
 * imports TypeScript 7's API client except readers/ts7/ (api.ts loads it). That the core never names
 * `ts.TypeChecker` is checked by test/transformer/reader-boundary.test.ts, which a dependency graph cannot see.
 */
// mcp/format/ is not upper: see the header.
const UPPER = "^runtime/(agent|mcp/(?!format/)|adapters)/";
const LAYERS = ["tool", "validation", "strict", "arguments", "results", "dispatch", "providers", "registry"];

/** `from` may reach nothing above it, through the loaders of runtime/lazy/ either. */
function reachesNothingAbove(layer) {
  const above = [...LAYERS.slice(LAYERS.indexOf(layer) + 1), "agent", "mcp/(?!format/)", "adapters", "entries"];
  return {
    name: `${layer}-reaches-nothing-above`,
    comment: `${layer}/ reaches nothing above it, through a loader of runtime/lazy/ either (a loader belongs to the layer of what it loads).`,
    severity: "error",
    from: { path: `^runtime/${layer}/` },
    to: { path: `^runtime/(${above.join("|")})/`, reachable: true },
  };
}

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
      comment:
        "Modules of the runtime and of the transformer may not import each other in a cycle, type-only imports included.",
      severity: "error",
      from: { path: "^(runtime|transformer)/" },
      to: { circular: true },
    },
    onlyBelow(
      "tool-is-the-bottom",
      "tool",
      "tool",
      "tool/ (tool(), options, the CompiledToolMeta seam, errors) imports nothing else of the runtime.",
    ),
    onlyBelow(
      "telemetry-stands-alone",
      "telemetry",
      "telemetry|lazy",
      "telemetry/ imports nothing else of the runtime (and its loader, #lazy/otel).",
    ),
    onlyBelow(
      "validation-only-tool",
      "validation",
      "tool|validation|lazy",
      "validation/ (the validation kit) imports only tool/ (and its loader, #lazy/ajv).",
    ),
    onlyBelow(
      "strict-above-validation",
      "strict",
      "tool|validation|strict|lazy",
      "strict/ (the rewrites into the strict subsets of model APIs) imports only validation/ and tool/ (and its loader, #lazy/strict).",
    ),
    onlyBelow(
      "arguments-above-validation",
      "arguments",
      "tool|validation|arguments|lazy",
      "arguments/ imports only validation/ and tool/ (and its loader, #lazy/settle).",
    ),
    onlyBelow(
      "results-above-arguments",
      "results",
      "tool|validation|arguments|results|lazy",
      "results/ (the check of a tool's result) imports arguments/ and below.",
    ),
    onlyBelow(
      "dispatch-never-imports-a-provider",
      "dispatch",
      "tool|validation|arguments|results|dispatch|telemetry|lazy",
      "dispatch/ runs the calls a provider read; it never imports a provider (nor anything above it).",
    ),
    onlyBelow(
      "providers-below-the-registry",
      "providers",
      "tool|validation|strict|arguments|results|dispatch|providers|mcp/format|lazy",
      "providers/ import dispatch and below (and MCP's tool format, whose types the catalogue gathers).",
    ),
    {
      name: "mcp-format-beside-the-providers",
      comment:
        "mcp/format/ (MCP's tool format, which the main registry's toMCPTools exports) imports what a provider may: dispatch and below, and the providers' interfaces (provider.ts); never a provider, the catalogue, or the rest of mcp/.",
      severity: "error",
      from: { path: "^runtime/mcp/format/" },
      to: {
        path: "^runtime/",
        pathNot:
          "^runtime/(tool/|validation/|strict/|arguments/|results/|dispatch/|lazy/|mcp/format/|providers/provider\\.ts$)",
      },
    },
    ...LAYERS.map(reachesNothingAbove),
    {
      name: "lazy-is-reached-through-its-package-import",
      comment:
        'A loader of runtime/lazy/ is imported as `#lazy/<name>` (package.json "imports": its `.node.ts` under Node, its `.bundle.ts` in a bundle), never by its path; the small entries\' presets import providers.chunks.ts, their way of loading a provider in every build.',
      severity: "error",
      from: { path: "^runtime/", pathNot: "^runtime/(lazy/|registry/presets/core\\.ts$)" },
      to: { path: "^runtime/lazy/", dependencyTypesNot: ["aliased-subpath-import"] },
    },
    {
      name: "a-loader-loads-one-thing",
      comment:
        "runtime/lazy/ holds how things load, not what they do: a loader imports the module it loads (and chunk.ts); only the catalogue's loaders (providers.*) name a provider's folder.",
      severity: "error",
      from: { path: "^runtime/lazy/", pathNot: "^runtime/lazy/providers\\.(node|bundle|chunks)\\.ts$" },
      to: { path: "^runtime/providers/[^/]+/" },
    },
    {
      name: "providers-never-import-each-other",
      comment:
        "A provider's folder (providers/<api>/) imports only its own files and the shared parts (provider.ts, the interfaces; stream.ts, with #lazy/partial-json; openai-custom.ts, OpenAI's custom tools); only the catalogue (catalog.ts, and lazy/providers.*) names the folders.",
      severity: "error",
      from: { path: "^runtime/providers/([a-z0-9-]+)/" },
      to: {
        path: "^runtime/providers/",
        pathNot: "^runtime/providers/($1/|(provider|stream|openai-custom)\\.ts$)",
      },
    },
    {
      name: "shared-provider-parts-name-no-provider",
      comment:
        "The shared parts of providers/ (the interfaces, the stream accumulator's base, OpenAI's custom tools) import no provider and no catalogue.",
      severity: "error",
      from: {
        path: "^runtime/providers/(provider|stream|openai-custom)\\.ts$",
      },
      to: {
        path: "^runtime/providers/",
        pathNot: "^runtime/providers/(provider|stream|openai-custom)\\.ts$",
      },
    },
    {
      name: "only-the-catalogue-names-a-provider",
      comment:
        "Of the files at the top of providers/, only the catalogue (catalog.ts) imports a provider's folder (how providers load is runtime/lazy/providers.*); at-hand.ts and the shared parts reach providers through it.",
      severity: "error",
      from: { path: "^runtime/providers/[^/]+\\.ts$", pathNot: "^runtime/providers/catalog\\.ts$" },
      to: { path: "^runtime/providers/[^/]+/" },
    },
    {
      name: "dispatch-test-hooks-stay-out-of-the-runtime",
      comment:
        "dispatch/testing.ts (the probe tests put into a registry's dispatch environment) is for tests alone: no module of the runtime imports it, so no test switch or counter is an export of the hot path.",
      severity: "error",
      from: { path: "^runtime/" },
      to: { path: "^runtime/dispatch/testing\\.ts$" },
    },
    {
      name: "registry-reaches-providers-through-the-catalogue",
      comment:
        "registry/ reaches providers through the catalogue (catalog.ts), every provider at hand (at-hand.ts) and the interfaces (provider.ts), never a provider's folder; the presets of the provider entries are the exception below.",
      severity: "error",
      from: { path: "^runtime/registry/", pathNot: "^runtime/registry/presets/" },
      to: { path: "^runtime/providers/", pathNot: "^runtime/providers/(catalog|at-hand|provider)\\.ts$" },
    },
    {
      name: "a-preset-names-its-provider-only",
      comment:
        "registry/presets/<api>.ts (the ToolRegistry of a provider entry such as tooltype/openai) adds that provider's export methods to the core preset: it imports that provider's folder and nothing else of providers/, so a bundle of it carries one provider.",
      severity: "error",
      from: { path: "^runtime/registry/presets/([a-z0-9-]+)\\.ts$", pathNot: "^runtime/registry/presets/core\\.ts$" },
      to: { path: "^runtime/providers/", pathNot: "^runtime/providers/($1/|provider\\.ts$)" },
    },
    {
      name: "the-core-preset-loads-providers-on-need",
      comment:
        "registry/presets/core.ts (tooltype/core's ToolRegistry, the base of the provider entries' presets) loads any format's provider on first need, through the catalogue's chunks (lazy/providers.chunks.ts).",
      severity: "error",
      from: { path: "^runtime/registry/presets/core\\.ts$" },
      to: { path: "^runtime/providers/", pathNot: "^runtime/providers/(catalog|catalog\\.chunks|provider)\\.ts$" },
    },
    {
      name: "the-registry-core-loads-no-provider",
      comment:
        "registry/core.ts (every registry's core: dispatch, approval) reaches providers only through the catalogue (recognition, the chat reader) and the interfaces: which provider answers another format is each preset's choice (all at hand for the main entry, loaded on need by the small ones), so no provider is in a bundle of an entry that does not export its tools.",
      severity: "error",
      from: { path: "^runtime/registry/core\\.ts$" },
      to: { path: "^runtime/providers/", pathNot: "^runtime/providers/(catalog|provider)\\.ts$" },
    },
    {
      name: "the-main-registry-loads-nothing-on-need",
      comment:
        "The main entry (runtime/entries/index.ts; its ToolRegistry has every provider at hand) never reaches the catalogue's chunks or the presets, the small entries' way of loading providers, which would only add chunks to a bundle of it.",
      severity: "error",
      from: { path: "^runtime/entries/index\\.ts$" },
      to: { path: "^runtime/(lazy/providers\\.chunks|registry/presets/[a-z0-9-]+)\\.ts$", reachable: true },
    },
    {
      name: "the-loop-is-provider-neutral",
      comment:
        "agent/ (runTools and its parts) reaches providers through the catalogue, every provider at hand and the interfaces only; structured.ts keeps the Chat Completions response_format of StructuredOutput.",
      severity: "error",
      from: { path: "^runtime/agent/", pathNot: "^runtime/agent/structured\\.ts$" },
      to: { path: "^runtime/providers/", pathNot: "^runtime/providers/(catalog|at-hand|provider)\\.ts$" },
    },
    onlyBelow(
      "registry-below-the-loop",
      "registry",
      "tool|validation|strict|arguments|results|dispatch|providers|registry|lazy",
      "registry/ sits below agent/, mcp/ and adapters/.",
    ),
    {
      name: "nothing-imports-the-upper-layers",
      comment: "agent/, mcp/ and adapters/ sit on top: the layers below never import them.",
      severity: "error",
      from: { path: "^runtime/(tool|validation|strict|arguments|results|dispatch|providers|registry)/" },
      to: { path: UPPER },
    },
    {
      name: "index-is-the-public-api-only",
      comment: "The entries (runtime/entries/) re-export the public API; nothing else inside the runtime imports them.",
      severity: "error",
      from: { path: "^runtime/", pathNot: "^runtime/entries/" },
      to: { path: "^runtime/entries/" },
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
      name: "the-core-asks-types-through-the-reader-interface",
      comment:
        "The transformer's core reads types through transformer/readers/reader.ts (the TypeReader interface) and makes its default reader with the compiler-API adapter (readers/compiler-api/adapter.ts); it never reaches another part of readers/, TypeScript 7's adapter least of all.",
      severity: "error",
      from: { path: "^transformer/", pathNot: "^transformer/(hosts|readers)/" },
      to: { path: "^transformer/readers/", pathNot: "^transformer/readers/(reader|compiler-api/adapter)\\.ts$" },
    },
    {
      name: "the-reader-interface-imports-nothing",
      comment:
        "transformer/readers/reader.ts (what the core asks of a type reader) imports nothing of tooltype: the core and every adapter depend on it, never the reverse.",
      severity: "error",
      from: { path: "^transformer/readers/reader\\.ts$" },
      to: { path: "^(transformer|runtime)/" },
    },
    {
      name: "readers-never-import-each-other",
      comment:
        "Each backend's adapter (readers/compiler-api/, readers/ts7/) imports its own files and the interface (readers/reader.ts), never another backend's.",
      severity: "error",
      from: { path: "^transformer/readers/([a-z0-9-]+)/" },
      to: { path: "^transformer/readers/", pathNot: "^transformer/readers/($1/|reader\\.ts$)" },
    },
    {
      name: "hosts-reach-typescript-7-through-its-entries",
      comment:
        "The hosts reach TypeScript 7's reader through its session (readers/ts7/api.ts: loading the API, one `tsc --api` process) and the core over it (readers/ts7/analyse.ts), never its checker facade.",
      severity: "error",
      from: { path: "^transformer/hosts/" },
      to: { path: "^transformer/readers/", pathNot: "^transformer/readers/ts7/(api|analyse)\\.ts$" },
    },
    {
      name: "only-the-typescript-7-reader-imports-its-api",
      comment:
        "TypeScript 7's API client (`typescript/sync`, `typescript/unstable/sync` and their `ast` modules) is loaded by readers/ts7/api.ts alone, from the project's own package; nothing else imports it, by name or by path.",
      severity: "error",
      from: { path: "^(transformer|runtime)/", pathNot: "^transformer/readers/ts7/" },
      to: { path: "(^|/)typescript/(unstable/)?(sync|ast)(/|\\.js$|$)" },
    },
    {
      name: "transformer-reads-only-the-seam",
      comment:
        "The transformer shares only the metadata types, the validator settings, the pattern automaton (which patterns it holds whole), what makes a free-form tool (its one string parameter, its pattern in Rust's regex syntax), the strict forms it writes into the metadata (runtime/strict/forms.ts, the rewrites an export would run) and the bounded JSON reader (the schema cache reads its files through it) with the runtime (examples.ts has a rule of its own).",
      severity: "error",
      from: { path: "^transformer/", pathNot: "^transformer/examples\\.ts$" },
      to: {
        path: "^runtime/",
        pathNot:
          "^runtime/(tool/meta|tool/freeform|validation/ajv/options|validation/patterns/pattern-dfa|validation/patterns/rust-regex|arguments/read/bounded-json|strict/forms)\\.ts$",
      },
    },
    {
      name: "transformer-examples-read-the-failure-path",
      comment:
        "transformer/examples.ts (TT1026) checks @example arguments with the runtime's validator and its words, and reads nothing else of the runtime.",
      severity: "error",
      from: { path: "^transformer/examples\\.ts$" },
      to: { path: "^runtime/", pathNot: "^runtime/(tool/meta|validation/validate|arguments/explain/invalid)\\.ts$" },
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
      from: { path: "^runtime/", pathNot: "^runtime/(mcp/(?!format/)|adapters)/" },
      to: {
        path: "(^|/)node_modules/(openai|@anthropic-ai/sdk|@google/genai|@modelcontextprotocol/sdk|@langchain|ai)/",
        dependencyTypesNot: ["type-only", "type-import"],
      },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    // `#lazy/…` (package.json "imports") resolved as the compiler does, to the loader's Node side
    // (runtime/lazy/<name>.node.ts): the layers are checked through it.
    enhancedResolveOptions: { conditionNames: ["types", "require", "node", "default"] },
    moduleSystems: ["es6", "cjs"],
  },
};
