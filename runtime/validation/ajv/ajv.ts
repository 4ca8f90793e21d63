/**
 * Where the runtime gets ajv, which it needs only for schemas without a validator compiled at build time
 * (`tool.fromSchema`, tools imported from an MCP server) and for union sub-schemas on an error path.
 *
 * - Under Node (the CommonJS build) ajv is loaded synchronously the first time it is asked for (`#lazy/ajv`).
 * - In a bundle (the ES module build) ajv is in only when the app imports `tooltype/ajv` (entries/ajv.ts; the MCP
 *   client does so itself), so an app whose tools all carry compiled validators bundles none of it.
 */
import type Ajv2020 from "ajv/dist/2020";
import { AJV_SYNC, ajvNow } from "#lazy/ajv";

type CreateAjv = (allErrors: boolean) => Ajv2020;

let create: CreateAjv | undefined;

/** Called by `tooltype/ajv` (entries/ajv.ts) and the MCP client. */
export function installAjv(factory: CreateAjv): void {
  create = factory;
}

/** Whether ajv can be had: always under Node, in a bundle once `tooltype/ajv` is imported. Loads nothing. */
export function ajvAvailable(): boolean {
  return AJV_SYNC || create !== undefined;
}

/** A new ajv instance, or `undefined` in a bundle that left ajv out. */
export function newAjv(allErrors: boolean): Ajv2020 | undefined {
  create ??= ajvNow();
  return create?.(allErrors);
}

/** What to do when a schema needs ajv and the bundle left it out. */
export const AJV_MISSING =
  'validating a schema written at run time (tool.fromSchema) needs ajv, which this bundle left out: add `import "tooltype/ajv";` once to your app (it bundles ajv in), or build the tool with the tooltype transformer so it carries a compiled validator.';
