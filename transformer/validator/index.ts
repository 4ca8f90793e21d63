/**
 * Compiles each tool's parameter schema to validation code at build time, with tooltype's own generator
 * (`generateValidator`), so the runtime never generates code: dispatch works where `new Function` is forbidden (a
 * Content Security Policy without `unsafe-eval`, edge runtimes), the first call pays no compilation, and the
 * user's build output holds a few hundred readable bytes per tool instead of ajv's standalone output.
 *
 * The code is emitted as `function (require) { ...; return k.v(v); }`. Its `require` is not Node's: the runtime
 * passes a resolver that knows only the validator kit, which works the
 * same in CommonJS and ESM output and in bundles. Format checks, guarded patterns and `uniqueItems` it reads from
 * the file's `import * as __tooltype_kit from "tooltype/kit"` (added by the transformer, a real import so that bundlers
 * keep only the checks read). The code is ES5, so it is emitted as text for every target.
 */
import type { JsonSchema } from "../../runtime/tool/meta";
import { generateValidator } from "./generate";
import { type PatternProblem, patternJudge } from "./patterns";

export { usesImports } from "./generate";

export type { PatternProblem } from "./patterns";

export class ValidatorCompiler {
  /** Code (and pattern problems) by schema text: identical schemas, common across tools, compile once per build. */
  private readonly cache = new Map<string, { code: string | undefined; problems: PatternProblem[] }>();

  /**
   * The code of the validator of `schema` (a function expression, which the transformer splices into the
   * metadata's text), or undefined when the schema uses a keyword the generator does not implement (the runtime
   * then validates it with ajv). Patterns that can backtrack exponentially are handed to `problem`. `key`: the
   * schema's JSON text, when the caller has it already.
   */
  code(
    schema: JsonSchema,
    problem: (problem: PatternProblem) => void = () => {},
    key = JSON.stringify(schema),
  ): string | undefined {
    let compiled = this.cache.get(key);
    if (!compiled) {
      const problems: PatternProblem[] = [];
      compiled = { code: generateValidator(schema, patternJudge(problems)), problems };
      this.cache.set(key, compiled);
    }
    compiled.problems.forEach(problem);
    return compiled.code;
  }
}
