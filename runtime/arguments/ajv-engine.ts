/**
 * ajv itself, for the schemas no validator was compiled for at build time (`tool.fromSchema`, tools imported from
 * an MCP server, structured output without the transformer) and for the sub-schemas of a union on an error path.
 *
 * Reached under Node on first need (`#lazy/ajv`), in a bundle only through `tooltype/ajv` (entries/ajv.ts), so an
 * app whose tools all carry compiled validators bundles none of ajv.
 */
import Ajv2020 from "ajv/dist/2020";
import { addTooltypeFormats, AJV_OPTIONS } from "./ajv-options";

export function createAjv(allErrors: boolean): Ajv2020 {
  return addTooltypeFormats(new Ajv2020({ ...AJV_OPTIONS, allErrors }));
}
