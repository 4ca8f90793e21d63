/**
 * Compiles each tool's parameter schema to validation code at build time (ajv's standalone output), so the
 * runtime never generates code: dispatch works where `new Function` is forbidden (a Content Security Policy
 * without `unsafe-eval`, edge runtimes) and the first call of a tool pays no compilation.
 *
 * The code is emitted as `function (require) { ...; return module.exports; }`. Its `require` is not Node's: the
 * runtime passes a resolver that knows only ajv's run-time helpers (runtime/compiled-validator.ts), which works
 * the same in CommonJS and ESM output and in bundles.
 */
import Ajv2020 from "ajv/dist/2020";
import { _ } from "ajv/dist/compile/codegen";
import standaloneCode from "ajv/dist/standalone";
import type * as ts from "typescript";
import { addTooltypeFormats, AJV_OPTIONS } from "../runtime/arguments/ajv-options";
import type { JsonSchema } from "../runtime/tool/meta";
import type { TS } from "./compat";

export class ValidatorCompiler {
  private ajv: Ajv2020 | undefined;
  /** Standalone code by schema text: identical schemas (common across tools) compile once per build. */
  private readonly cache = new Map<string, string>();

  /**
   * `asText`: emit ajv's code as written, without parsing it into syntax nodes. That is most of the validators'
   * build cost otherwise (parsing, then printing a large tree), but the text is ES2015+ and no later transform
   * touches it; for older targets the code is parsed so TypeScript can down-level it.
   */
  constructor(private readonly asText: boolean) {}

  /** The validator of `schema` as a function expression, or undefined when ajv cannot compile the schema. */
  expression(tsi: TS, f: ts.NodeFactory, schema: JsonSchema): ts.Expression | undefined {
    const code = this.code(schema);
    if (code === undefined) return undefined;
    if (this.asText) {
      // An identifier's text is printed verbatim; being synthesized, it is never resolved or renamed by the
      // module transforms that run after this one.
      return f.createIdentifier(`function (require) { var module = { exports: {} }; ${code} return module.exports; }`);
    }
    const body = [
      ...synthesized(tsi, "var module = { exports: {} };"),
      ...synthesized(tsi, code),
      ...synthesized(tsi, "return module.exports;"),
    ];
    const requireParam = f.createParameterDeclaration(undefined, undefined, "require");
    return f.createFunctionExpression(undefined, undefined, undefined, undefined, [requireParam], undefined, f.createBlock(body, false));
  }

  private code(schema: JsonSchema): string | undefined {
    const key = JSON.stringify(schema);
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    let code: string | undefined;
    try {
      const ajv = this.instance();
      code = standaloneCode(ajv, ajv.compile(schema));
      ajv.removeSchema(schema);
    } catch {
      // The runtime compiles such a schema lazily and reports the problem with the tool's name.
      code = undefined;
    }
    if (code !== undefined) this.cache.set(key, code);
    return code;
  }

  private instance(): Ajv2020 {
    this.ajv ??= addTooltypeFormats(
      new Ajv2020({
        ...AJV_OPTIONS,
        code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
      }),
    );
    return this.ajv;
  }
}

/**
 * Statements parsed from `code`, made to look like factory-made nodes (synthesized flag, no position): later
 * transforms (module, downlevel) and the printer otherwise treat them as parse-tree nodes of the user's file and
 * look up text, parents and symbols that do not exist.
 */
function synthesized(tsi: TS, code: string): ts.Statement[] {
  const file = tsi.createSourceFile("validator.js", code, tsi.ScriptTarget.ES2022, false, tsi.ScriptKind.JS);
  const detach = (node: ts.Node): void => {
    tsi.setTextRange(node, { pos: -1, end: -1 });
    (node as { flags: ts.NodeFlags }).flags |= tsi.NodeFlags.Synthesized;
    // One line, as ajv wrote it: the printer would otherwise indent every block, tripling the code's size.
    tsi.setEmitFlags(node, tsi.EmitFlags.SingleLine);
    tsi.forEachChild(node, detach);
  };
  file.statements.forEach(detach);
  return [...file.statements];
}
