/**
 * tooltype's compile-time half: a ts-patch "program" transformer (`{ "transform": "tooltype/transformer" }` in
 * tsconfig `compilerOptions.plugins`).
 *
 * Responsibilities: walk each source file, find `@tool` decorators, `tool(...)` and `structuredOutput<T>()` calls
 * that resolve to tooltype (find.ts), derive their metadata from types and JSDoc (tool-meta.ts, output-meta.ts),
 * compile their validators to code (validator.ts), append it all to the usage (emit.ts),
 * and report what cannot be represented as TypeScript diagnostics (diagnostics.ts).
 *
 * Under plain TypeScript (compiler API), call it the way ts-patch does and pass the TypeScript module the program
 * was made with: `program.emit(..., { before: [tooltype(program, {}, { ts, addDiagnostic })] })`.
 */
import type * as ts from "typescript";
import type { JsonValue } from "../runtime/meta";
import { resolveTypeScript, type TS } from "./compat";
import { Code, makeDiagnostic } from "./diagnostics";
import { decoratorWithMeta, metaExpression, withMetaArgument } from "./emit";
import { ApiResolver } from "./find";
import type { Problem } from "./schema/from-type";
import { deriveToolMeta, type ToolSite } from "./tool-meta";
import { ValidatorCompiler } from "./validator";
import { deriveOutputMeta } from "./output-meta";

/** The plugin entry from tsconfig (ts-patch passes it through). */
export interface TooltypePluginConfig {
  transform?: string;
  /**
   * Compile each tool's validator to code at build time (default `true`). With `false` the emitted JavaScript is
   * smaller and the runtime compiles validators on first use, which needs `new Function`.
   */
  validators?: boolean;
  [option: string]: unknown;
}

/** What ts-patch hands a program transformer; compiler-API callers pass the same. */
export interface TooltypeTransformerExtras {
  /** The TypeScript module the program was created with. Defaults to the `typescript` package next to tooltype. */
  ts?: TS;
  /** Receives tooltype's diagnostics. Without it, the first error is thrown as an exception. */
  addDiagnostic?: (diagnostic: ts.Diagnostic) => unknown;
  /** Compiled validators by schema, kept across programs by hosts that make many (watch mode, bundler plugins). */
  validatorCompiler?: ValidatorCompiler;
}

export default function tooltypeTransformer(
  program: ts.Program,
  config: TooltypePluginConfig = {},
  extras: TooltypeTransformerExtras = {},
): ts.TransformerFactory<ts.SourceFile> {
  const tsi = resolveTypeScript(extras.ts);
  const checker = program.getTypeChecker();
  const api = new ApiResolver(tsi, checker);
  const target = program.getCompilerOptions().target ?? tsi.ScriptTarget.ES5;
  const validators = config.validators === false ? undefined : (extras.validatorCompiler ?? new ValidatorCompiler(target >= tsi.ScriptTarget.ES2015));
  const report = (problem: Problem): void => {
    const category = problem.warning ? tsi.DiagnosticCategory.Warning : tsi.DiagnosticCategory.Error;
    const diagnostic = makeDiagnostic(tsi, problem.node, problem.code, problem.message, category, problem.related);
    if (extras.addDiagnostic) extras.addDiagnostic(diagnostic);
    else if (!problem.warning) throw new Error(tsi.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
  };

  return (context) => {
    const f = context.factory;

    const compile = (site: ToolSite): ts.Expression => {
      const { meta, problems } = deriveToolMeta(tsi, checker, api, site);
      problems.forEach(report);
      // A tool with errors fails the build anyway; compiling its (partial) schema would only add noise.
      const validator = validators && !problems.some((p) => !p.warning) ? validators.expression(tsi, f, meta.parameters) : undefined;
      return metaExpression(f, meta as unknown as JsonValue, validator); // plain data by construction: see runtime/meta.ts
    };

    const visitDecorator = (decorator: ts.Decorator): ts.Decorator => {
      const expression = decorator.expression;
      const callee = tsi.isCallExpression(expression) ? expression.expression : expression;
      if (!api.isTool(callee)) return decorator;
      if (tsi.isCallExpression(expression) && expression.arguments.length >= 2) return decorator; // already compiled
      const method = decorator.parent;
      if (!tsi.isMethodDeclaration(method)) return decorator; // TypeScript itself reports the misuse
      const name = memberName(tsi, method.name);
      if (name === undefined) {
        report({ code: Code.ComputedName, node: method.name, message: `@tool cannot name a tool after the computed key ${method.name.getText()}. Use a plain method name, or pass { name: "my_tool" } to @tool.` });
      }
      const options = tsi.isCallExpression(expression) ? expression.arguments[0] : undefined;
      const meta = compile({ fn: method, docHost: method, name: name ?? "tool", nameNode: method.name, ...literalOptions(tsi, options) });
      return decoratorWithMeta(f, tsi, decorator, meta);
    };

    /** Metadata for a `tool(fn, options?)` call, read from the original (parented) node; undefined when not one. */
    const callMeta = (call: ts.CallExpression): ts.Expression | undefined => {
      if (call.arguments.length === 0 || call.arguments.length >= 3) return undefined; // none, or already compiled
      if (tsi.isDecorator(call.parent)) return undefined;
      if (!api.isTool(call.expression)) return undefined;
      const target = call.arguments[0]!;
      const fn = functionOf(tsi, checker, target);
      if (!fn) {
        if (tsi.isObjectLiteralExpression(target) || isUndefined(tsi, target)) return undefined; // `tool({...})` makes a decorator
        report({ code: Code.UnresolvableFunction, node: target, message: `tool() needs a function it can read: a function expression, an arrow function, or the name of a function declared in this program. Wrap it: tool((args: Args) => impl(args)).` });
        return undefined;
      }
      const host = docHostOf(tsi, call);
      const name = fnName(tsi, fn.node) ?? (host && declaredName(tsi, host)) ?? undefined;
      // Point at the name the tool got: the function's own, else the variable's; an anonymous one at itself.
      const nameNode = (!fn.declaredElsewhere && fnNameNode(tsi, fn.node)) || (host && declaredNameNode(tsi, host)) || target;
      if (name === undefined) {
        report({ code: Code.InvalidToolName, node: target, message: `This tool has no name: give the function a name (function search_products() {...}), assign it to a variable, or pass { name: "..." } to tool().` });
      }
      const docHost = fn.declaredElsewhere ? fn.node : (hasJsDoc(tsi, fn.node) ? fn.node : host ?? fn.node);
      return compile({ fn: fn.node, docHost, name: name ?? "tool", nameNode, ...literalOptions(tsi, call.arguments[1]) });
    };

    /** Metadata for `structuredOutput<T>(name?, options?)`: T's schema; undefined when the call is not one. */
    const outputMeta = (call: ts.CallExpression): ts.Expression | undefined => {
      if (call.arguments.length >= 3 || !api.isStructuredOutput(call.expression)) return undefined;
      const typeNode = call.typeArguments?.[0];
      if (!typeNode) {
        report({ code: Code.OutputShape, node: call, message: `structuredOutput() needs the type of the answer as its type argument, e.g. structuredOutput<Joke>(); without it there is no schema to send or validate against.` });
        return undefined;
      }
      const first = call.arguments[0];
      const explicitName = first && (tsi.isStringLiteral(first) || tsi.isNoSubstitutionTemplateLiteral(first)) ? first.text : undefined;
      const { meta, problems } = deriveOutputMeta(tsi, checker, { call, typeNode, explicitName, explicitNameNode: explicitName === undefined ? undefined : first });
      problems.forEach(report);
      const validator = validators && !problems.some((p) => !p.warning) ? validators.expression(tsi, f, meta.schema) : undefined;
      return metaExpression(f, meta as unknown as JsonValue, validator);
    };

    const visit = (node: ts.Node): ts.Node => {
      if (tsi.isDecorator(node)) return visitDecorator(node);
      if (!tsi.isCallExpression(node)) return tsi.visitEachChild(node, visit, context);
      const meta = callMeta(node) ?? outputMeta(node);
      const visited = tsi.visitEachChild(node, visit, context);
      return meta === undefined ? visited : withMetaArgument(f, visited, visited.arguments, 2, meta);
    };

    return (file) => tsi.visitEachChild(file, visit, context);
  };
}

function isUndefined(tsi: TS, e: ts.Expression): boolean {
  return (tsi.isIdentifier(e) && e.text === "undefined") || tsi.isVoidExpression(e);
}

function memberName(tsi: TS, name: ts.PropertyName): string | undefined {
  if (tsi.isIdentifier(name) || tsi.isStringLiteral(name) || tsi.isNumericLiteral(name)) return name.text;
  if (tsi.isPrivateIdentifier(name)) return name.text.slice(1);
  return undefined;
}

/** The function a `tool(...)` argument stands for: inline, or the declaration a reference points to. */
function functionOf(
  tsi: TS,
  checker: ts.TypeChecker,
  expression: ts.Expression,
): { node: ts.SignatureDeclaration; declaredElsewhere: boolean } | undefined {
  let e = expression;
  while (tsi.isParenthesizedExpression(e) || tsi.isAsExpression(e) || tsi.isSatisfiesExpression(e)) e = e.expression;
  if (tsi.isFunctionExpression(e) || tsi.isArrowFunction(e)) return { node: e, declaredElsewhere: false };
  if (!tsi.isIdentifier(e) && !tsi.isPropertyAccessExpression(e)) return undefined;
  let symbol = checker.getSymbolAtLocation(e);
  if (symbol && symbol.flags & tsi.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const declaration = symbol?.valueDeclaration;
  if (!declaration) return undefined;
  if (tsi.isFunctionDeclaration(declaration) || tsi.isMethodDeclaration(declaration)) {
    return { node: declaration, declaredElsewhere: true };
  }
  if (tsi.isVariableDeclaration(declaration) && declaration.initializer) {
    const init = declaration.initializer;
    if (tsi.isFunctionExpression(init) || tsi.isArrowFunction(init)) return { node: init, declaredElsewhere: true };
  }
  return undefined;
}

function fnName(tsi: TS, fn: ts.SignatureDeclaration): string | undefined {
  if ((tsi.isFunctionExpression(fn) || tsi.isFunctionDeclaration(fn)) && fn.name) return fn.name.text;
  if (tsi.isMethodDeclaration(fn)) return memberName(tsi, fn.name);
  if (tsi.isArrowFunction(fn) && tsi.isVariableDeclaration(fn.parent) && tsi.isIdentifier(fn.parent.name)) return fn.parent.name.text;
  return undefined;
}

/** The declaration a `tool(...)` call initialises (`const x = tool(...)`, `{ x: tool(...) }`, a class field, `export default`). */
function docHostOf(tsi: TS, call: ts.CallExpression): ts.Node | undefined {
  let node: ts.Node = call;
  while (tsi.isParenthesizedExpression(node.parent) || tsi.isAsExpression(node.parent) || tsi.isSatisfiesExpression(node.parent)) {
    node = node.parent;
  }
  const parent = node.parent;
  if (tsi.isVariableDeclaration(parent) || tsi.isPropertyAssignment(parent) || tsi.isPropertyDeclaration(parent) || tsi.isExportAssignment(parent)) {
    return parent;
  }
  return undefined;
}

/** The identifier that names a function expression or declaration (arrows have none of their own). */
function fnNameNode(tsi: TS, fn: ts.SignatureDeclaration): ts.Node | undefined {
  if ((tsi.isFunctionExpression(fn) || tsi.isFunctionDeclaration(fn)) && fn.name) return fn.name;
  return undefined;
}

function declaredNameNode(tsi: TS, host: ts.Node): ts.Node | undefined {
  if ((tsi.isVariableDeclaration(host) || tsi.isPropertyAssignment(host) || tsi.isPropertyDeclaration(host)) && !tsi.isComputedPropertyName(host.name)) {
    return host.name;
  }
  return undefined;
}

function declaredName(tsi: TS, host: ts.Node): string | undefined {
  if ((tsi.isVariableDeclaration(host) || tsi.isPropertyAssignment(host) || tsi.isPropertyDeclaration(host)) && !tsi.isComputedPropertyName(host.name)) {
    return tsi.isIdentifier(host.name) || tsi.isStringLiteral(host.name) ? host.name.text : undefined;
  }
  return undefined;
}

function hasJsDoc(tsi: TS, node: ts.Node): boolean {
  return tsi.getJSDocCommentsAndTags(node).some((d) => tsi.isJSDoc(d) && !!d.comment);
}

/** `name` and `description` written as string literals in the options object: they win over derived values. */
type LiteralOptions = Pick<ToolSite, "explicitName" | "explicitNameNode" | "explicitDescription" | "hasExplicitDescription">;

function literalOptions(tsi: TS, options: ts.Expression | undefined): LiteralOptions {
  const out: LiteralOptions = { hasExplicitDescription: false };
  if (!options || !tsi.isObjectLiteralExpression(options)) {
    // Options built elsewhere may carry a description we cannot see; do not demand JSDoc then.
    out.hasExplicitDescription = !!options && !isUndefined(tsi, options);
    return out;
  }
  for (const p of options.properties) {
    if (tsi.isSpreadAssignment(p)) out.hasExplicitDescription = true;
    if (!tsi.isPropertyAssignment(p) || !tsi.isIdentifier(p.name)) continue;
    const value = tsi.isStringLiteral(p.initializer) || tsi.isNoSubstitutionTemplateLiteral(p.initializer) ? p.initializer.text : undefined;
    if (p.name.text === "name" && value !== undefined) {
      out.explicitName = value;
      out.explicitNameNode = p.initializer;
    }
    if (p.name.text === "description") {
      out.hasExplicitDescription = true;
      if (value !== undefined) out.explicitDescription = value;
    }
  }
  return out;
}

