/**
 * ajv itself, for the schemas no validator was compiled for at build time (`tool.fromSchema`, tools imported from
 * an MCP server, structured output without the transformer) and for the sub-schemas of a union on an error path.
 *
 * Reached under Node on first need (`#lazy/ajv`), in a bundle only through `tooltype/ajv` (entries/ajv.ts), so an
 * app whose tools all carry compiled validators bundles none of ajv.
 */
import Ajv2020 from "ajv/dist/2020";
import { addTooltypeFormats, AJV_OPTIONS } from "./options";

/**
 * `allErrors`: the instance of the failure path, which only compiles schemas the other instance (or the transformer)
 * has already accepted, so it skips checking them against the meta-schema: compiling that meta-schema costs about
 * 80 ms, which a first invalid call would otherwise pay a second time.
 */
export function createAjv(allErrors: boolean): Ajv2020 {
  return addTooltypeFormats(new Ajv2020({ ...AJV_OPTIONS, allErrors, validateSchema: !allErrors }));
}
