/**
 * Differences between the TypeScript versions tooltype supports (5.5 to 6.0), kept in one place.
 *
 * The transformer never imports `typescript` for values: it uses the instance that built the program (ts-patch
 * hands it over; compiler-API users pass it), because SyntaxKind and flag numbers differ between versions and a
 * node made by one version's factory confuses another's printer.
 */
import type * as ts from "typescript";
import type { TypeReader } from "./readers/reader";

/** The TypeScript module the program was created with. */
export type TS = typeof ts;

/** Picks the TypeScript instance: an explicit one, else the one installed next to the transformer. */
export function resolveTypeScript(explicit: TS | undefined): TS {
  if (explicit) return explicit;
  return require("typescript") as TS;
}

/** Element type of `T[]` / `readonly T[]`, or undefined when `type` is not an array. */
export function arrayElementType(checker: TypeReader, type: ts.Type): ts.Type | undefined {
  if (!checker.isArrayType(type)) return undefined;
  return checker.getTypeArguments(type as ts.TypeReference)[0];
}
