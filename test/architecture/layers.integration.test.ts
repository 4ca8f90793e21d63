/**
 * The runtime's layers (.dependency-cruiser.cjs), checked with dependency-cruiser on the real tree, and on a copy
 * with deliberate faults to show each kind is caught: a cycle of type-only imports, dispatch importing a provider,
 * a provider importing another, a file beside the catalogue or a shared part naming a provider, the registry naming
 * a provider's folder, the registry core reaching every provider, a provider entry's preset naming another
 * provider, the main entry reaching the providers loaded on need, the agent loop naming a provider, an optional SDK
 * loaded by the main entry; a loader of runtime/lazy/ taking a layer above itself, imported by its path or naming a
 * provider.
 */
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";

const repo = path.resolve(__dirname, "../../..");

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
  cycle?: { name: string }[];
}

/** The violations dependency-cruiser finds in `baseDir`'s runtime/ and transformer/ with the project's rules. */
async function violations(baseDir: string): Promise<Violation[]> {
  const config = createRequire(__filename)(path.join(repo, ".dependency-cruiser.cjs")) as {
    forbidden: unknown[];
    options: Record<string, unknown>;
  };
  // tsConfig is for the command line (it names the file); the API resolves the relative imports without it.
  const { tsConfig: _, ...options } = config.options;
  const { cruise } = await import("dependency-cruiser");
  const result = await cruise(["runtime", "transformer"], {
    ...options,
    baseDir,
    validate: true,
    ruleSet: { forbidden: config.forbidden } as never,
    outputType: "json",
  });
  const output = result.output as string | { summary: { violations: Violation[] } };
  const summary =
    typeof output === "string"
      ? (JSON.parse(output) as { summary: { violations: Violation[] } }).summary
      : output.summary;
  return summary.violations;
}

function show(list: readonly Violation[]): string {
  return list
    .map((v) => `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name).join(" → ")})` : ""}`)
    .join("\n");
}

/**
 * Runs `body` on a copy of runtime/ and transformer/ inside the repository (so that it resolves node_modules like
 * the real tree), where `prepend` puts a line at the top of a file to plant a fault; the copy is removed after.
 */
async function withPlantedFaults(
  body: (base: string, prepend: (file: string, line: string) => void) => Promise<void>,
): Promise<void> {
  fs.mkdirSync(path.join(repo, ".test-build"), { recursive: true });
  const base = fs.mkdtempSync(path.join(repo, ".test-build", "layers-"));
  try {
    fs.cpSync(path.join(repo, "runtime"), path.join(base, "runtime"), { recursive: true });
    fs.cpSync(path.join(repo, "transformer"), path.join(base, "transformer"), { recursive: true });
    // Its own package.json, so that `#lazy/…` resolves to the copy's loaders.
    fs.copyFileSync(path.join(repo, "package.json"), path.join(base, "package.json"));
    const prepend = (file: string, line: string): void => {
      const target = path.join(base, file);
      fs.writeFileSync(target, `${line}\n${fs.readFileSync(target, "utf8")}`);
    };
    await body(base, prepend);
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
}

test("the runtime keeps its layers: no cycle, no import against the arrows", async () => {
  const found = await violations(repo);
  assert.equal(found.length, 0, `dependency rules broken:\n${show(found)}`);
});

test("a type-only cycle, a provider in dispatch, providers importing each other and an SDK in the main entry are caught", async () => {
  await withPlantedFaults(async (base, prepend) => {
    // tool/options.ts imports tool/call.ts for types; the reverse closes a cycle of type-only imports.
    prepend("runtime/tool/call.ts", 'import type { ToolOptions } from "./options";');
    prepend("runtime/dispatch/dispatch.ts", 'import type { ToolProvider } from "../providers/provider";');
    prepend("runtime/providers/anthropic/read.ts", 'import type { GeminiTool } from "../gemini/wire";');
    prepend("runtime/registry/choice.ts", 'import { anthropicToolChoice } from "../providers/anthropic/choice";');
    prepend("runtime/providers/openai-chat/provider.ts", 'import OpenAI from "openai";');
    // Only the catalogue names a provider's folder; the shared parts name none.
    prepend("runtime/providers/at-hand.ts", 'import { provider } from "./gemini/provider";');
    prepend("runtime/providers/openai-custom.ts", 'import type { ChatTool } from "./openai-chat/wire";');
    // The registry core loads no provider; a provider entry's preset names its own provider only.
    prepend("runtime/registry/core.ts", 'import { providerOf } from "../providers/at-hand";');
    prepend(
      "runtime/registry/presets/gemini.ts",
      'import { toAnthropicTools } from "../../providers/anthropic/tools";',
    );
    // The main entry's registry loading providers on need would put a dynamic import in every bundle of it.
    prepend("runtime/registry/tool-registry.ts", 'import { CoreToolRegistry } from "./presets/core";');
    // The agent loop is provider-neutral.
    prepend("runtime/agent/run-tools.ts", 'import type { GeminiContent } from "../providers/gemini/wire";');

    const found = await violations(base);
    // The copy sits two folders below the repository: name packages from node_modules/ on.
    const seen = found
      .map((v) => `${v.rule.name}: ${v.from} → ${v.to.replace(/^.*node_modules\//, "node_modules/")}`)
      .sort();
    const cycle = found.find((v) => v.rule.name === "no-circular");
    assert.equal(
      cycle?.cycle?.map((step) => step.name),
      ["runtime/tool/options.ts", "runtime/tool/call.ts"],
      "the cycle, step by step",
    );
    assert.equal(
      seen,
      [
        "a-preset-names-its-provider-only: runtime/registry/presets/gemini.ts → runtime/providers/anthropic/tools.ts",
        "dispatch-never-imports-a-provider: runtime/dispatch/dispatch.ts → runtime/providers/provider.ts",
        // What it imports, and what that reaches in turn, is above dispatch too.
        "dispatch-reaches-nothing-above: runtime/dispatch/dispatch.ts → runtime/providers/provider.ts",
        "dispatch-reaches-nothing-above: runtime/dispatch/dispatch.ts → runtime/providers/stream.ts",
        "no-circular: runtime/tool/call.ts → runtime/tool/options.ts",
        "only-the-catalogue-names-a-provider: runtime/providers/at-hand.ts → runtime/providers/gemini/provider.ts",
        "only-the-catalogue-names-a-provider: runtime/providers/openai-custom.ts → runtime/providers/openai-chat/wire.ts",
        "optional-peers-stay-behind-their-entry: runtime/providers/openai-chat/provider.ts → node_modules/openai/index.js",
        "providers-never-import-each-other: runtime/providers/anthropic/read.ts → runtime/providers/gemini/wire.ts",
        "registry-reaches-providers-through-the-catalogue: runtime/registry/choice.ts → runtime/providers/anthropic/choice.ts",
        "shared-provider-parts-name-no-provider: runtime/providers/openai-custom.ts → runtime/providers/openai-chat/wire.ts",
        "the-loop-is-provider-neutral: runtime/agent/run-tools.ts → runtime/providers/gemini/wire.ts",
        "the-main-registry-loads-nothing-on-need: runtime/entries/index.ts → runtime/lazy/providers.chunks.ts",
        "the-main-registry-loads-nothing-on-need: runtime/entries/index.ts → runtime/registry/presets/core.ts",
        "the-registry-core-loads-no-provider: runtime/registry/core.ts → runtime/providers/at-hand.ts",
      ],
      show(found),
    );
  });
});

test("a loader of runtime/lazy/ reaching above its layer, one imported by path and one naming a provider are caught", async () => {
  await withPlantedFaults(async (base, prepend) => {
    // dispatch reaches the full pipeline through #lazy/dispatch-full; that loader reaching the registry takes
    // dispatch above itself.
    prepend("runtime/lazy/dispatch-full.node.ts", 'import type { ToolRegistry } from "../registry/tool-registry";');
    prepend("runtime/tool/tool.ts", 'import { withSettle } from "../lazy/settle.node";');
    prepend("runtime/lazy/strict.node.ts", 'import type { provider } from "../providers/gemini/provider";');

    const found = await violations(base);
    const seen = new Set(found.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`));
    for (const expected of [
      "dispatch-reaches-nothing-above: runtime/dispatch/dispatch.ts → runtime/registry/tool-registry.ts",
      "lazy-is-reached-through-its-package-import: runtime/tool/tool.ts → runtime/lazy/settle.node.ts",
      "tool-is-the-bottom: runtime/tool/tool.ts → runtime/lazy/settle.node.ts",
      "a-loader-loads-one-thing: runtime/lazy/strict.node.ts → runtime/providers/gemini/provider.ts",
    ]) {
      assert.ok(seen.has(expected), `not caught: ${expected}\n${show(found)}`);
    }
  });
});

test("the transformer: a cycle of type-only imports and the core importing a host are caught", async () => {
  await withPlantedFaults(async (base, prepend) => {
    // The keyword tags read the schema model (directly, and through the keyword checks); the model naming the tags
    // back closes two cycles of type-only imports.
    prepend("transformer/schema/model.ts", 'import type { KeywordTags } from "./tags";');
    // The core hears of a host only through what the host hands it.
    prepend("transformer/emit.ts", 'import { tooltypeVersion } from "./hosts/project/tooltype-version";');

    const found = await violations(base);
    const seen = found.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
    assert.equal(
      seen,
      [
        "no-circular: transformer/schema/keywords.ts → transformer/schema/model.ts",
        "no-circular: transformer/schema/model.ts → transformer/schema/tags.ts",
        "the-compiler-core-never-imports-a-host: transformer/emit.ts → transformer/hosts/project/tooltype-version.ts",
      ],
      show(found),
    );
  });
});

test.run();
