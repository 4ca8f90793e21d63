/**
 * tooltype's diagnostics as each bundler's error and warning APIs take them, so that the printed message names its
 * place once, in that bundler's convention.
 *
 * Vite, Rollup, Rolldown and esbuild print a message's `loc` themselves, after their own `[plugin tooltype]`
 * prefix (Rollup as `file (line:column)`, the others as `file:line:column`), each with a 1-based line and a 0-based
 * column; a text that named the place again, the way tsc does, printed it twice and with two different columns. So
 * for them the place goes in `loc` only and the text is `TT1001: ...`. Only one position per failure is theirs to
 * print: further errors of the same module keep their own position in the text, written the way the bundler writes
 * `loc` (so do Vite's warnings, which it prints without their `loc`). webpack, Rspack and Bun print no position of a plugin's message, so the text stays as tsc prints it:
 * `src/a.ts(3,5): error TT1001: ...`.
 */
import type { UnpluginContextMeta } from "unplugin";
import { formatDiagnostic, type HostDiagnostic } from "../diagnostic-format.js";

export interface BundlerMessage {
  message: string;
  id: string;
  code: string;
  plugin: string;
  /** 1-based line, 0-based column (Rollup's and esbuild's `loc`). */
  loc: { file: string; line: number; column: number };
}

type Framework = UnpluginContextMeta["framework"];

/** `file:line:column` as the bundler prints a `loc`, or undefined for the bundlers that print none. */
function locationText(framework: Framework, d: HostDiagnostic): string | undefined {
  switch (framework) {
    case "rollup":
      return `${d.file} (${d.line}:${d.column - 1})`;
    case "vite":
    case "rolldown":
    case "esbuild":
      return `${d.file}:${d.line}:${d.column - 1}`;
    default:
      return undefined;
  }
}

/**
 * A warning for `this.warn`. Vite prints a plugin's warning as `[plugin tooltype]` and its text, without its `loc`
 * (its errors it prints with), so there the text starts with the position.
 */
export function bundlerWarning(framework: Framework, d: HostDiagnostic): BundlerMessage {
  const message = bundlerMessages(framework, [d]);
  return framework === "vite" ? { ...message, message: `${locationText(framework, d)}: ${message.message}` } : message;
}

/** A module's errors as one failure at the first one's place, every error in its text. */
export function bundlerMessages(framework: Framework, diagnostics: readonly HostDiagnostic[]): BundlerMessage {
  const [first, ...others] = diagnostics as [HostDiagnostic, ...HostDiagnostic[]];
  const printsLoc = locationText(framework, first) !== undefined;
  // Vitest (Vite's plugins, `VITEST` set in its processes) prints a failed transform as the text and a code frame of
  // `loc`, but not the place: there the first error names it in the text too, as Vite writes a `loc`.
  const placeInText = framework === "vite" && process.env.VITEST !== undefined;
  const text = printsLoc
    ? [
        placeInText ? `${locationText(framework, first)}: ${first.message}` : first.message,
        ...others.map((d) => `${locationText(framework, d)}: ${d.message}`),
      ].join("\n")
    : diagnostics.map(formatDiagnostic).join("\n");
  return {
    message: text,
    id: first.file,
    code: first.code,
    plugin: "tooltype",
    loc: { file: first.file, line: first.line, column: first.column - 1 },
  };
}
