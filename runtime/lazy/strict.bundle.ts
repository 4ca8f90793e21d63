/**
 * `#lazy/strict` in a bundle: no rewrite. A compiled tool carries its strict forms from the build; the rewrite comes
 * in only with what makes schemas at run time (`tooltype/ajv`, the MCP client), which installs it
 * (strict/schema-of.ts), so that an app whose tools are all compiled ships none of it.
 */
import type { STRICT_REWRITES } from "../strict/rewrites";

export function strictRewritesNow(): typeof STRICT_REWRITES | undefined {
  return undefined;
}
