/** A webpack loader for these tests: strips a TypeScript module's types (see strip-types.ts). */
import { stripTypes } from "./strip-types";

export = function stripLoader(this: { resourcePath: string }, source: string): string {
  return stripTypes(source, this.resourcePath).code;
};
