/**
 * tooltype's compile-time core: a "program" transformer, which every host runs (tspc through its plugin, which adds
 * the dependency tracker of incremental builds; the bundler plugins, the register hook, ts-jest and the CLI).
 *
 * Responsibilities: walk each source file, find `@tool` decorators, `tool(...)` calls, calls of tool factories
 * (wrappers declaring a `CompiledToolMeta` parameter) and `structuredOutput<T>()` calls that resolve to tooltype
 * (`ApiResolver`), resolve which function a `tool()` argument stands for (inline, a reference, `f.bind(obj)`),
 * derive their metadata from types and JSDoc (`deriveToolMeta`, `deriveOutputMeta`), compile their validators to
 * code (`ValidatorCompiler`), append it all to the usage (`withMetaArgument`, `decoratorWithMeta`), and report what
 * cannot be represented as TypeScript diagnostics (`makeDiagnostic`); under the tsc CLI warnings are printed rather
 * than added, so they do not change its exit status. A host that keeps what it wrote into each file between builds
 * (compiled-file.ts: the schema cache of tspc and `tooltype build`) gets a file it answers written from there, its
 * diagnostics reported again, without a type read.
 */
import type * as ts from "typescript";
import type { TypeReader } from "./readers/reader";
import type { JsonValue } from "../runtime/tool/meta";
import { type CompiledFile, type CompiledFileCache, writeCompiledFile } from "./compiled-file";
import { resolveTypeScript, type TS } from "./compat";
import { Code, makeDiagnostic, printWarning } from "./diagnostics";
import {
  decoratorWithMeta,
  kitImportName,
  metaExpression,
  renameKitImport,
  withKitImport,
  withMetaArgument,
} from "./emit";
import { ApiResolver, skipsTools } from "./find";
import { jsDocsOf } from "./jsdoc";
import type { Problem } from "./schema/model";
import { deriveToolMeta, type ToolSite } from "./tool-meta";
import type * as validator from "./validator";
import type { PatternProblem, ValidatorCompiler } from "./validator";
import { deriveOutputMeta } from "./output-meta";
import { compilerApiReader } from "./readers/compiler-api/adapter";

import type { TooltypePluginConfig } from "./plugin-config";

export type { TooltypePluginConfig } from "./plugin-config";

/** What ts-patch hands a program transformer; compiler-API callers pass the same. */
export interface TooltypeTransformerExtras {
  /** The TypeScript module the program was created with. Defaults to the `typescript` package next to tooltype. */
  ts?: TS;
  /** Receives tooltype's diagnostics. Without it, the first error is thrown as an exception. */
  addDiagnostic?: (diagnostic: ts.Diagnostic) => unknown;
  /**
   * The compiler ts-patch runs in (`"tsc"` for the tspc/tsc command). There, warnings are printed rather than
   * added, because tsc's exit status counts every added diagnostic, warnings included.
   */
  library?: string;
  /** Receives each tool's derived metadata (without its validator) and the function it describes: the CLI's `schema`. */
  onToolMeta?: (meta: ReturnType<typeof deriveToolMeta>["meta"], fn: ts.SignatureDeclaration) => void;
  /** ts-patch's list of the program's plugin diagnostics, which it adds to the result of every emit of the program. */
  diagnostics?: ts.Diagnostic[];
  /** Compiled validators by schema, kept across programs by hosts that make many (watch mode, bundler plugins). */
  validatorCompiler?: ValidatorCompiler;
  /**
   * The host writes each compiled `@tool` decorator out as plain JavaScript itself (the bundler plugins' module
   * transform), so the program's own decorator emit does not matter: no TT1025.
   */
  rewritesDecorators?: boolean;
  /**
   * Read the tools only (`onToolMeta` and diagnostics) and build no output: the files are walked, not rebuilt, and
   * returned as they are. The TypeScript 7 reader runs the core this way, on nodes no factory of 5.x could update.
   */
  analyseOnly?: boolean;
  /**
   * With `analyseOnly`: each usage the transformer compiled, with the text of the metadata argument it would add
   * (validators included), for a host that writes it into the module's source text itself (the TypeScript 7 path
   * of the bundler plugins, whose nodes no factory of 5.x can update).
   */
  onCompiled?: (usage: CompiledUsage) => void;
}

/** One compiled usage as text, for `onCompiled`: the arguments a call or decorator gets, or the kit import a file needs. */
export type CompiledUsage =
  | {
      kind: "call";
      call: ts.CallExpression /** Arguments before the metadata (missing ones are `void 0`). */;
      leading: number;
      meta: string;
    }
  | { kind: "decorator"; decorator: ts.Decorator; meta: string }
  | { kind: "kit-import"; name: string };

/**
 * What an incremental or watch build needs to hear of each emitted file, to re-emit tool files whose types changed
 * in another file. The host that runs such builds (tspc) makes it and hands it in; the others have none.
 */
export interface DependencyTracker {
  /** After the transformer visited `file`: whether it holds tools (compiled metadata) now. */
  visited(file: ts.SourceFile, hasTools: boolean): void;
}

/**
 * The validator generator, loaded by the first transformer that compiles validators: an analysis (`tooltype check`,
 * `tooltype schema`, the TypeScript 7 reader without a host that splices) never does.
 */
let loadedValidator: typeof validator | undefined;
function validatorModule(): typeof validator {
  return (loadedValidator ??= require("./validator") as typeof validator);
}

/**
 * The ts-patch plugin (`"transform": "tooltype/transformer"` in tsconfig), also callable as a `before` transformer
 * of `program.emit`: it compiles every `@tool`, `tool(fn)` and `structuredOutput<T>()` of the program into metadata
 * (schema, descriptions, validator) and reports what cannot be a schema as `TT` diagnostics.
 * @param program The program being emitted: its type checker reads the tools' types.
 * @param config The plugin entry's options from tsconfig.
 * @param extras The TypeScript module that built the program and the diagnostics sink, as ts-patch passes them.
 * @param tracker Told of every emitted file, in incremental and watch builds by tspc.
 * @param cache Files' compiled usages kept between builds (the schema cache of tspc and `tooltype build`).
 */
export default function tooltypeTransformer(
  program: ts.Program,
  config: TooltypePluginConfig = {},
  extras: TooltypeTransformerExtras = {},
  tracker?: DependencyTracker,
  cache?: CompiledFileCache,
): ts.TransformerFactory<ts.SourceFile> {
  return transformerOn(
    compilerApiReader(resolveTypeScript(extras.ts), program.getTypeChecker()),
    program,
    config,
    extras,
    tracker,
    cache,
  );
}

/**
 * The transformer over the type reader a host hands in, not the program's checker: TypeScript 7's
 * (readers/ts7/analyse.ts), whose program is asked for its compiler options only. Not part of the public entry.
 */
export function transformerOn(
  checker: TypeReader,
  program: Pick<ts.Program, "getCompilerOptions">,
  config: TooltypePluginConfig = {},
  extras: TooltypeTransformerExtras = {},
  tracker?: DependencyTracker,
  fileCache?: CompiledFileCache,
): ts.TransformerFactory<ts.SourceFile> {
  const tsi = resolveTypeScript(extras.ts);
  const api = new ApiResolver(tsi, checker);
  const analyseOnly = extras.analyseOnly === true;
  // Hosts that splice text (onCompiled) get the whole metadata, validators included; a plain analysis needs neither.
  const spliced = analyseOnly ? extras.onCompiled : undefined;
  const emits = !analyseOnly || spliced !== undefined;
  const validators =
    config.validators === false || !emits
      ? undefined
      : (extras.validatorCompiler ?? new (validatorModule().ValidatorCompiler)());
  // A cached file stands for what an emit writes: an analysis, a host that reads each tool's metadata, and one that
  // writes decorators itself (whose TT1025 the cache's key does not cover), read.
  const cache =
    emits && !analyseOnly && extras.onToolMeta === undefined && !extras.rewritesDecorators ? fileCache : undefined;
  const diagnosticOf = (problem: Problem): ts.Diagnostic => {
    const category = problem.warning ? tsi.DiagnosticCategory.Warning : tsi.DiagnosticCategory.Error;
    return makeDiagnostic(tsi, problem.node, problem.code, problem.message, category, problem.related);
  };
  /** A diagnostic to the host: a warning printed under tsc, else added; an error thrown when there is no sink. */
  const deliver = (diagnostic: ts.Diagnostic): void => {
    const warning = diagnostic.category === tsi.DiagnosticCategory.Warning;
    if (warning && extras.library === "tsc") printWarning(tsi, diagnostic, program.getCompilerOptions());
    else if (extras.addDiagnostic) extras.addDiagnostic(diagnostic);
    else if (!warning) throw new Error(tsi.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
  };
  /** What the file being read compiled, recorded for the cache (when there is one). */
  let recording: CompiledFile | undefined;
  const report = (problem: Problem): void => {
    const diagnostic = diagnosticOf(problem);
    recording?.diagnostics.push(diagnostic);
    deliver(diagnostic);
  };

  const options = program.getCompilerOptions();
  // TypeScript lowers standard decorators for every target but ESNext, and legacy ones always.
  const keepsDecorators =
    !extras.rewritesDecorators && !options.experimentalDecorators && options.target === tsi.ScriptTarget.ESNext;
  const nullsErased = !(options.strictNullChecks ?? options.strict ?? false);
  let nullWarningDue = nullsErased;

  /** TT1024 at the tool (or output type): the schema path says where the pattern sits. */
  const slowPattern =
    (node: ts.Node) =>
    (problem: PatternProblem): void =>
      report({ code: Code.SlowPattern, node, message: `${problem.message} (at ${problem.schemaPath})` });

  return (context) => {
    const f = context.factory;
    let compiledInFile = 0;
    /** Whether the file's first tool was met: the strictNullChecks warning's place, when the file is recorded. */
    let firstToolMet = false;
    /** The file's `tooltype/kit` import: its name, and whether a validator of the file reads it. */
    let kit = { name: "", used: false };
    /** A validator's code, reading the file's `tooltype/kit` import (which it then gets). */
    const inFile = (code: string | undefined): string | undefined => {
      if (code === undefined || !validatorModule().usesImports(code)) return code;
      kit.used = true;
      return renameKitImport(code, kit.name);
    };

    const compile = (site: ToolSite & { checkResults?: boolean }): ts.Expression => {
      if (nullsErased && !firstToolMet && (nullWarningDue || recording)) {
        // Once per program, at its first tool; a recorded file keeps it for a build in which it comes first.
        const warning = diagnosticOf({
          code: Code.StrictNullChecksOff,
          node: site.nameNode,
          warning: true,
          message: `strictNullChecks is off in this program, so TypeScript erases null and undefined from every type: "x: string | null" reaches the model as a plain string, and nothing it sends can be null. Turn on "strict": true (or "strictNullChecks": true) in tsconfig.json.`,
        });
        if (recording) recording.nullWarning = warning;
        if (nullWarningDue) deliver(warning);
        nullWarningDue = false;
      }
      firstToolMet = true;
      const { meta, problems } = deriveToolMeta(tsi, checker, api, site);
      problems.forEach(report);
      extras.onToolMeta?.(meta, site.fn);
      compiledInFile++;
      if (!emits) return f.createNull(); // nothing is emitted: no expression of the metadata to build
      // The schema's JSON text is both the validator cache's key and the emitted text: written once.
      const json = { value: meta.parameters as JsonValue, text: JSON.stringify(meta.parameters) };
      // A tool with errors fails the build anyway; compiling its (partial) schema would only add noise.
      const sound = validators !== undefined && !problems.some((p) => !p.warning);
      const validator = sound
        ? inFile(validators.code(meta.parameters, slowPattern(site.nameNode), json.text))
        : undefined;
      const resultValidator =
        sound && meta.returns !== undefined && checksResults(config, site)
          ? inFile(validators.code(meta.returns, slowPattern(site.nameNode)))
          : undefined;
      // plain data by construction: see CompiledToolMeta
      return metaExpression(f, meta as unknown as JsonValue, validator, json, resultValidator);
    };

    const visitDecorator = (decorator: ts.Decorator): ts.Decorator => {
      const expression = decorator.expression;
      const callee = tsi.isCallExpression(expression) ? expression.expression : expression;
      if (!api.isTool(callee)) return decorator;
      if (tsi.isCallExpression(expression) && expression.arguments.length >= 2) return decorator; // already compiled
      const method = decorator.parent;
      if (!tsi.isMethodDeclaration(method)) {
        report({ code: Code.MisplacedDecorator, node: decorator, message: misplacedToolMessage(tsi, method) });
        return decorator;
      }
      const name = memberName(tsi, method.name);
      if (name === undefined) {
        report({
          code: Code.ComputedName,
          node: method.name,
          message: `@tool cannot name a tool after the computed key ${method.name.getText()}. Use a plain method name, or pass { name: "my_tool" } to @tool.`,
        });
      }
      if (keepsDecorators) {
        report({
          code: Code.UnloweredDecorator,
          node: decorator,
          message: `@tool on ${method.name.getText()} would be emitted as a standard decorator, which no JavaScript engine runs yet (TypeScript keeps decorators as written for "target": "ESNext"): Node stops with "SyntaxError: Invalid or unexpected token". Set "target" to a year in tsconfig.json ("ES2022" or later), which lowers decorators, or turn on "experimentalDecorators", or wrap the function with tool(fn) instead.`,
        });
      }
      const options = tsi.isCallExpression(expression) ? expression.arguments[0] : undefined;
      const meta = compile({
        fn: method,
        docHost: method,
        name: name ?? "tool",
        nameNode: method.name,
        ...literalOptions(tsi, options),
      });
      if (spliced) spliced({ kind: "decorator", decorator, meta: metaText(tsi, meta) });
      recording?.sites.push({
        kind: "decorator",
        pos: decorator.pos,
        end: decorator.end,
        leading: 1,
        meta: metaText(tsi, meta),
      });
      return analyseOnly ? decorator : decoratorWithMeta(f, tsi, decorator, meta);
    };

    /**
     * Metadata for a `tool(fn, options?)` call, or a call of a tool factory (a wrapper declaring a
     * `meta?: CompiledToolMeta` parameter), read from the original (parented) node, with the argument position it
     * fills; undefined when the call is neither. A `tool()` call whose function cannot be read gets `null` there,
     * so the runtime knows the transformer ran and can say why the tool has no metadata.
     */
    const callMeta = (call: ts.CallExpression): { meta: ts.Expression; index: number } | undefined => {
      if (call.arguments.length === 0 || tsi.isDecorator(call.parent)) return undefined;
      let index: number | undefined = 2;
      if (!api.isTool(call.expression)) index = api.factoryMetaIndex(call);
      else if (call.arguments.length >= 3) return undefined; // already compiled
      if (index === undefined) return undefined;
      const target = call.arguments[0]!;
      const fn = functionOf(tsi, checker, target);
      if (!fn) {
        if (tsi.isObjectLiteralExpression(target) || isUndefined(tsi, target)) return undefined; // `tool({...})` makes a decorator
        report({ code: Code.UnresolvableFunction, node: target, message: unresolvableMessage(tsi, checker, target) });
        return { meta: f.createNull(), index };
      }
      if (fn.via === "property" && usesThis(tsi, fn.node)) {
        const reference = skipOuter(tsi, target) as ts.PropertyAccessExpression;
        const owner = reference.expression.getText();
        report({
          code: Code.UnboundMethod,
          node: target,
          message: `tool(${reference.getText()}) takes the method off its object, so \`this\` is undefined when the tool runs, and ${reference.name.text}() uses \`this\`. Bind it: tool(${reference.getText()}.bind(${owner})), or mark the method @tool and register ${owner}.`,
        });
      }
      const host = docHostOf(tsi, call);
      const name = fnName(tsi, fn.node) ?? (host && declaredName(tsi, host)) ?? undefined;
      // Point at the name the tool got: the function's own, else the variable's; an anonymous one at itself.
      const nameNode =
        (!fn.declaredElsewhere && fnNameNode(tsi, fn.node)) || (host && declaredNameNode(tsi, host)) || target;
      if (name === undefined) {
        report({
          code: Code.InvalidToolName,
          node: target,
          message: `This tool has no name: give the function a name (function search_products() {...}), assign it to a variable, or pass { name: "..." } to tool().`,
        });
      }
      // The comment nearest the tool describes it: the declaration holding the call, else the function's own;
      // @param tags come from both, the holder's first.
      const docHost = host && hasJsDoc(tsi, checker, host) ? host : fn.node;
      const paramDocHost = docHost === fn.node ? host : fn.node;
      const options = index >= 2 ? literalOptions(tsi, call.arguments[1]) : { hasExplicitDescription: false };
      return {
        meta: compile({ fn: fn.node, docHost, paramDocHost, name: name ?? "tool", nameNode, ...options }),
        index,
      };
    };

    /** Metadata for `structuredOutput<T>(name?, options?)`: T's schema; undefined when the call is not one. */
    const outputMeta = (call: ts.CallExpression): ts.Expression | undefined => {
      if (call.arguments.length >= 3 || !api.isStructuredOutput(call.expression)) return undefined;
      const typeNode = call.typeArguments?.[0];
      if (!typeNode) {
        report({
          code: Code.OutputShape,
          node: call,
          message: `structuredOutput() needs the type of the answer as its type argument, e.g. structuredOutput<Joke>(); without it there is no schema to send or validate against.`,
        });
        return undefined;
      }
      const first = call.arguments[0];
      const explicitName =
        first && (tsi.isStringLiteral(first) || tsi.isNoSubstitutionTemplateLiteral(first)) ? first.text : undefined;
      const { meta, problems } = deriveOutputMeta(tsi, checker, {
        call,
        typeNode,
        explicitName,
        explicitNameNode: explicitName === undefined ? undefined : first,
      });
      problems.forEach(report);
      compiledInFile++;
      if (!emits) return f.createNull();
      const json = { value: meta.schema as JsonValue, text: JSON.stringify(meta.schema) };
      const validator =
        validators && !problems.some((p) => !p.warning)
          ? inFile(validators.code(meta.schema, slowPattern(typeNode), json.text))
          : undefined;
      return metaExpression(f, meta as unknown as JsonValue, validator, json);
    };

    /** The node's children visited: rebuilt where a tool was compiled, or only walked when nothing is emitted. */
    const descend = <T extends ts.Node>(node: T): T => {
      if (!analyseOnly) return tsi.visitEachChild(node, visit, context);
      tsi.forEachChild(node, (child) => void visit(child));
      return node;
    };

    const visit = (node: ts.Node): ts.Node => {
      if (skipsTools(tsi, node)) return node;
      if (tsi.isDecorator(node)) return visitDecorator(node);
      if (!tsi.isCallExpression(node)) return descend(node);
      const compiled = callMeta(node);
      const meta = compiled?.meta ?? outputMeta(node);
      const visited = descend(node);
      if (spliced && meta !== undefined)
        spliced({ kind: "call", call: node, leading: compiled?.index ?? 2, meta: metaText(tsi, meta) });
      if (recording && meta !== undefined)
        recording.sites.push({
          kind: "call",
          pos: node.pos,
          end: node.end,
          leading: compiled?.index ?? 2,
          meta: metaText(tsi, meta),
        });
      return meta === undefined || analyseOnly
        ? visited
        : withMetaArgument(f, visited, visited.arguments, compiled?.index ?? 2, meta);
    };

    /** A file the cache answered, written as its read wrote it, its diagnostics reported again; else undefined. */
    const replay = (file: ts.SourceFile, known: CompiledFile): ts.SourceFile | undefined => {
      const written = writeCompiledFile(tsi, context, file, known);
      if (!written) return undefined;
      if (known.nullWarning && nullWarningDue) deliver(known.nullWarning);
      if (known.nullWarning) nullWarningDue = false;
      known.diagnostics.forEach(deliver);
      tracker?.visited(file, known.tools > 0);
      return written;
    };

    return (file) => {
      const known = cache?.lookup(file);
      const replayed = known && replay(file, known);
      if (replayed) return replayed;
      compiledInFile = 0;
      firstToolMet = false;
      kit = { name: kitImportName(file), used: false };
      recording = cache && { sites: [], kit: undefined, tools: 0, diagnostics: [], nullWarning: undefined };
      const visited = descend(file);
      if (cache && recording) {
        cache.store(file, { ...recording, tools: compiledInFile, kit: kit.used ? kit.name : undefined });
        recording = undefined;
      }
      tracker?.visited(file, compiledInFile > 0);
      if (spliced && kit.used) spliced({ kind: "kit-import", name: kit.name });
      return kit.used && !analyseOnly ? withKitImport(f, tsi, visited, kit.name) : visited;
    };
  };
}

/** The text of a metadata argument: `metaExpression` writes it as one verbatim identifier, an unreadable tool `null`. */
function metaText(tsi: TS, meta: ts.Expression): string {
  return tsi.isIdentifier(meta) ? meta.text : "null";
}

/** What `@tool` on a non-method should say: TypeScript's own error (if any) does not tell how to make a tool. */
function misplacedToolMessage(tsi: TS, target: ts.Node): string {
  const named = (tsi.isPropertyDeclaration(target) || tsi.isAccessor(target)) && memberName(tsi, target.name);
  const name = named || "member";
  if (tsi.isPropertyDeclaration(target)) {
    const init = target.initializer;
    if (init && (tsi.isArrowFunction(init) || tsi.isFunctionExpression(init))) {
      return `@tool decorates methods, and "${name}" is a field holding a function, which does not exist until an instance is made. Write it as a method (${name}(...) { ... }), or drop @tool and wrap the function: ${name} = tool((...) => ...).`;
    }
    return `@tool decorates methods, and "${name}" is a field. Put @tool on a method, or wrap a function with tool(fn).`;
  }
  if (tsi.isGetAccessorDeclaration(target) || tsi.isSetAccessorDeclaration(target)) {
    const kind = tsi.isGetAccessorDeclaration(target) ? "getter" : "setter";
    return `@tool decorates methods, and "${name}" is a ${kind}, which a model cannot call with arguments. Make it a method: ${name}(...) { ... }.`;
  }
  if (tsi.isClassDeclaration(target) || tsi.isClassExpression(target)) {
    return `@tool decorates methods, not classes. Put @tool on each method the model may call, then register an instance (or the class, for static methods).`;
  }
  return `@tool decorates methods only. Put it on a method, or wrap a function with tool(fn).`;
}

/** Why `tool(x)` cannot be read, and what to write instead. */
function unresolvableMessage(tsi: TS, checker: TypeReader, target: ts.Expression): string {
  const e = skipOuter(tsi, target);
  if (
    tsi.isCallExpression(e) &&
    tsi.isPropertyAccessExpression(e.expression) &&
    e.expression.name.text === "bind" &&
    e.arguments.length > 1
  ) {
    return `tool() cannot read ${e.getText()}: bind() with arguments after \`this\` pre-fills parameters, so the tool's parameters are not the function's. Wrap it instead: tool((args: Args) => fn(fixed, args)).`;
  }
  const symbol = tsi.isIdentifier(e) ? checker.getSymbolAtLocation(e) : undefined;
  const parameter = symbol?.valueDeclaration;
  if (parameter && tsi.isParameter(parameter)) {
    const wrapper = parameter.parent;
    const wrapperName = wrapperNameOf(tsi, wrapper);
    return `tool() got the parameter "${e.getText()}" of ${wrapperName}, whose function is only known where ${wrapperName} is called. Make ${wrapperName} a tool factory: give it a last parameter \`meta?: CompiledToolMeta\` (import type { CompiledToolMeta } from "tooltype") and pass it on, tool(${e.getText()}, options, meta); the transformer then compiles each call of ${wrapperName}.`;
  }
  return `tool() needs a function it can read: a function expression, an arrow function, or the name of a function declared in this program. Wrap it: tool((args: Args) => impl(args)).`;
}

/** How to name the function that declares a parameter: its own name, its variable's, else "this function". */
function wrapperNameOf(tsi: TS, fn: ts.SignatureDeclaration): string {
  const own = fnName(tsi, fn);
  if (own) return own;
  const holder = tsi.isFunctionExpression(fn) ? fn.parent : undefined;
  return (
    (holder && tsi.isVariableDeclaration(holder) && tsi.isIdentifier(holder.name) && holder.name.text) ||
    "this function"
  );
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
interface ToolFunction {
  node: ts.SignatureDeclaration;
  declaredElsewhere: boolean;
  /** How the reference reached it: `obj.method` (a property access), `f.bind(obj)`, or a plain name / inline. */
  via: "property" | "bind" | "direct";
}

function functionOf(tsi: TS, checker: TypeReader, expression: ts.Expression): ToolFunction | undefined {
  const e = skipOuter(tsi, expression);
  if (tsi.isFunctionExpression(e) || tsi.isArrowFunction(e))
    return { node: e, declaredElsewhere: false, via: "direct" };
  const bound = bindTarget(tsi, checker, e);
  if (bound) {
    const inner = functionOf(tsi, checker, bound);
    return inner && { ...inner, via: "bind" };
  }
  if (!tsi.isIdentifier(e) && !tsi.isPropertyAccessExpression(e)) return undefined;
  let symbol = checker.getSymbolAtLocation(e);
  if (symbol && symbol.flags & tsi.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const declaration = symbol?.valueDeclaration;
  if (!declaration) return undefined;
  const via = tsi.isPropertyAccessExpression(e) ? "property" : "direct";
  if (tsi.isFunctionDeclaration(declaration) || tsi.isMethodDeclaration(declaration)) {
    return { node: declaration, declaredElsewhere: true, via };
  }
  if (
    (tsi.isVariableDeclaration(declaration) ||
      tsi.isPropertyDeclaration(declaration) ||
      tsi.isPropertyAssignment(declaration)) &&
    declaration.initializer
  ) {
    const init = skipOuter(tsi, declaration.initializer);
    if (tsi.isFunctionExpression(init) || tsi.isArrowFunction(init))
      return { node: init, declaredElsewhere: true, via };
  }
  return undefined;
}

function skipOuter(tsi: TS, expression: ts.Expression): ts.Expression {
  let e = expression;
  while (tsi.isParenthesizedExpression(e) || tsi.isAsExpression(e) || tsi.isSatisfiesExpression(e)) e = e.expression;
  return e;
}

/** `f.bind(thisArg)` with the standard library's `bind` and only a `this` argument: `f`, else undefined. */
function bindTarget(tsi: TS, checker: TypeReader, e: ts.Expression): ts.Expression | undefined {
  if (!tsi.isCallExpression(e) || !tsi.isPropertyAccessExpression(e.expression) || e.expression.name.text !== "bind")
    return undefined;
  if (e.arguments.length !== 1) return undefined; // bound leading arguments change the parameter list
  const declarations = checker.getSymbolAtLocation(e.expression.name)?.declarations ?? [];
  return declarations.some((d) => d.getSourceFile().hasNoDefaultLib) ? e.expression.expression : undefined;
}

/** True when a function or method reads `this` (or `super`) itself; arrows and nested classes keep their own. */
function usesThis(tsi: TS, fn: ts.SignatureDeclaration): boolean {
  if (tsi.isArrowFunction(fn)) return false;
  const body = (fn as ts.FunctionLikeDeclaration).body;
  if (!body) return false;
  const visit = (node: ts.Node): boolean => {
    if (node.kind === tsi.SyntaxKind.ThisKeyword || node.kind === tsi.SyntaxKind.SuperKeyword) return true;
    if (tsi.isFunctionDeclaration(node) || tsi.isFunctionExpression(node) || tsi.isClassLike(node)) return false;
    return tsi.forEachChild(node, visit) ?? false;
  };
  return visit(body);
}

function fnName(tsi: TS, fn: ts.SignatureDeclaration): string | undefined {
  if ((tsi.isFunctionExpression(fn) || tsi.isFunctionDeclaration(fn)) && fn.name) return fn.name.text;
  if (tsi.isMethodDeclaration(fn)) return memberName(tsi, fn.name);
  if (tsi.isArrowFunction(fn) && tsi.isVariableDeclaration(fn.parent) && tsi.isIdentifier(fn.parent.name))
    return fn.parent.name.text;
  return undefined;
}

/** The declaration a `tool(...)` call initialises (`const x = tool(...)`, `{ x: tool(...) }`, a class field, `export default`). */
function docHostOf(tsi: TS, call: ts.CallExpression): ts.Node | undefined {
  let node: ts.Node = call;
  while (
    tsi.isParenthesizedExpression(node.parent) ||
    tsi.isAsExpression(node.parent) ||
    tsi.isSatisfiesExpression(node.parent)
  ) {
    node = node.parent;
  }
  const parent = node.parent;
  if (
    tsi.isVariableDeclaration(parent) ||
    tsi.isPropertyAssignment(parent) ||
    tsi.isPropertyDeclaration(parent) ||
    tsi.isExportAssignment(parent)
  ) {
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
  if (
    (tsi.isVariableDeclaration(host) || tsi.isPropertyAssignment(host) || tsi.isPropertyDeclaration(host)) &&
    !tsi.isComputedPropertyName(host.name)
  ) {
    return host.name;
  }
  return undefined;
}

function declaredName(tsi: TS, host: ts.Node): string | undefined {
  if (
    (tsi.isVariableDeclaration(host) || tsi.isPropertyAssignment(host) || tsi.isPropertyDeclaration(host)) &&
    !tsi.isComputedPropertyName(host.name)
  ) {
    return tsi.isIdentifier(host.name) || tsi.isStringLiteral(host.name) ? host.name.text : undefined;
  }
  return undefined;
}

function hasJsDoc(tsi: TS, checker: TypeReader, node: ts.Node): boolean {
  return jsDocsOf(tsi, checker, node).some((d) => !!d.comment);
}

/**
 * Whether a tool's results may be checked where it runs, so its return type's validator is worth compiling: the
 * plugin's `resultValidators`, else the tool's literal `checkResults`, else the runtime's own default (on where
 * `NODE_ENV` is `"test"`), read in the process that builds: Vitest and Jest build the modules they run.
 */
function checksResults(config: TooltypePluginConfig, site: { checkResults?: boolean }): boolean {
  return (
    config.resultValidators ?? site.checkResults ?? (typeof process !== "undefined" && process.env?.NODE_ENV === "test")
  );
}

/**
 * `name` and `description` written as string literals in the options object: they win over derived values; a
 * literal `checkResults`, which decides whether the return type's validator is compiled; a literal `freeform`, whose
 * parameters and pattern are checked as JSDoc `@freeform`'s are.
 */
type LiteralOptions = Pick<
  ToolSite,
  "explicitName" | "explicitNameNode" | "explicitDescription" | "hasExplicitDescription" | "freeform" | "freeformNode"
> & { checkResults?: boolean };

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
    const value =
      tsi.isStringLiteral(p.initializer) || tsi.isNoSubstitutionTemplateLiteral(p.initializer)
        ? p.initializer.text
        : undefined;
    if (p.name.text === "name" && value !== undefined) {
      out.explicitName = value;
      out.explicitNameNode = p.initializer;
    }
    if (p.name.text === "description") {
      out.hasExplicitDescription = true;
      if (value !== undefined) out.explicitDescription = value;
    }
    if (p.name.text === "checkResults" && p.initializer.kind === tsi.SyntaxKind.TrueKeyword) out.checkResults = true;
    if (p.name.text === "checkResults" && p.initializer.kind === tsi.SyntaxKind.FalseKeyword) out.checkResults = false;
    if (p.name.text === "freeform" && p.initializer.kind === tsi.SyntaxKind.TrueKeyword) {
      out.freeform = true;
      out.freeformNode = p;
    }
    if (p.name.text === "freeform" && p.initializer.kind === tsi.SyntaxKind.FalseKeyword) out.freeform = false;
  }
  return out;
}
