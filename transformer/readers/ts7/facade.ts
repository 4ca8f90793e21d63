/**
 * The type reader on TypeScript 7's API: the core's questions (readers/reader.ts) answered by a `tsc --api` process,
 * with types and symbols in `ts.Type`'s and `ts.Symbol`'s shapes and a `typeof ts` of TypeScript 7's AST helpers and
 * flags, so that the one transformer core (finding tools, tool-meta, the schema reader under schema/read/, tags,
 * keywords, diagnostics) runs on either compiler: the schema rules stay in one place. Nodes are TypeScript 7's own (its
 * client decodes each source file's AST); types and symbols are
 * wrapped once per id, so identity (`===`, Map keys) means what it means in-process.
 *
 * Every question goes through the session (counted, watched). Answers are remembered per type and symbol, and
 * `prefetch` asks for a tool's parameter types breadth-first, a round of questions at a time, before the reader
 * walks them.
 */
// biome-ignore-all lint/suspicious/noExplicitAny: TypeScript 7's objects, typed by this facade
import type * as ts from "typescript";
import type { TS } from "../../compat";
import { skipsTools } from "../../find";
import { TAG_PROPERTY } from "../../schema/tags";
import { declaredInStandardLibrary, isStandardLibraryFile, type TypeReader } from "../reader";
import type { TypeScript7Session } from "./api";

type Raw = any;

/** Questions about nodes, asked by node. */
type NodeQuestion =
  | "getSymbolAtLocation"
  | "getTypeAtLocation"
  | "getTypeFromTypeNode"
  | "getResolvedSignature"
  | "getSignatureFromDeclaration";

/** Namespaces made, by session: copying TypeScript 7's AST and factory exports costs a few milliseconds each time. */
const namespaces = new WeakMap<TypeScript7Session, TS>();

/** The `typeof ts` the transformer is handed for a TypeScript 7 program: TypeScript 7's AST helpers and flags. */
export function typeScript7Namespace(session: TypeScript7Session): TS {
  let ns = namespaces.get(session);
  if (!ns) namespaces.set(session, (ns = makeNamespace(session)));
  return ns;
}

function makeNamespace(session: TypeScript7Session): TS {
  const { ast, factory, sync, version } = session.ts;
  const isAccessor = (n: Raw) => ast.isGetAccessorDeclaration(n) || ast.isSetAccessorDeclaration(n);
  const ns: Record<string, unknown> = {
    ...ast,
    version,
    TypeFlags: sync.TypeFlags,
    SymbolFlags: sync.SymbolFlags,
    ObjectFlags: sync.ObjectFlags,
    ElementFlags: sync.ElementFlags,
    SignatureKind: sync.SignatureKind,
    DiagnosticCategory: sync.DiagnosticCategory,
    ModifierFlags: sync.ModifierFlags ?? ast.ModifierFlags,
    isMethodSignature: ast.isMethodSignatureDeclaration,
    isParameter: ast.isParameterDeclaration,
    isPropertySignature: ast.isPropertySignatureDeclaration,
    isAccessor,
    isClassLike: (n: Raw) => ast.isClassDeclaration(n) || ast.isClassExpression(n),
    forEachChild: (node: Raw, visit: (n: Raw) => unknown) => node.forEachChild(visit),
    canHaveModifiers: (node: Raw) => node.modifiers !== undefined,
    getModifiers: (node: Raw) =>
      node.modifiers ? [...node.modifiers].filter((m: Raw) => ast.isModifier(m)) : undefined,
    getJSDocCommentsAndTags: (host: Raw) => jsDocCommentsOf(ast, host),
    displayPartsToString: (parts: readonly { text: string }[] | undefined) => (parts ?? []).map((p) => p.text).join(""),
    getLineAndCharacterOfPosition: (file: { text: string }, position: number) => {
      const before = file.text.slice(0, position).split(/\r\n|\n|\r|\u2028|\u2029/);
      return { line: before.length - 1, character: before[before.length - 1]!.length };
    },
    flattenDiagnosticMessageText: (text: string | { messageText: string }) =>
      typeof text === "string" ? text : text.messageText,
    visitEachChild: (node: Raw, visit: (n: Raw) => Raw) => ast.visitEachChild(node, visit),
    // The calls of index.ts and emit.ts that TypeScript 7's factory spells otherwise.
    factory: {
      ...factory,
      createNull: () => factory.createKeywordExpression(ast.SyntaxKind.NullKeyword),
      createVoidZero: () => factory.createVoidExpression(factory.createNumericLiteral("0", 0)),
    },
  };
  return ns as unknown as TS;
}

/**
 * The JSDoc blocks TypeScript attaches to a declaration for its documentation: an initializer's, then the node's
 * and those of the statements that hold it (`const x = tool(...)` is documented on its `const` statement).
 */
function jsDocCommentsOf(ast: Raw, host: Raw): Raw[] {
  const out: Raw[] = [];
  if (host.initializer?.jsDoc) out.push(...host.initializer.jsDoc);
  for (let node = host; node?.parent; ) {
    if (node.jsDoc) out.push(...node.jsDoc);
    if (ast.isParameterDeclaration(node)) break;
    const parent = node.parent;
    if (
      ast.isVariableDeclaration(node) &&
      parent &&
      ast.isVariableDeclarationList(parent) &&
      parent.parent &&
      ast.isVariableStatement(parent.parent)
    )
      node = parent.parent;
    else if (
      parent &&
      (ast.isPropertyAssignment(parent) ||
        ast.isExportAssignment(parent) ||
        ast.isPropertyDeclaration(parent) ||
        ast.isVariableDeclaration(parent)) &&
      parent.initializer === node
    )
      node = parent;
    else break;
  }
  return out;
}

/**
 * One question to the checker: the key its answer is remembered by, how to ask it alone, and, where the API can,
 * how to ask it with others (a generator for 7.1's batch; for 7.0, a method that takes an array of the argument).
 */
interface Question {
  key: string;
  ask: () => unknown;
  gen?: () => unknown;
  many?: {
    method: "getTypeOfSymbol" | "getTypeAtLocation" | "getSymbolAtLocation" | "getTypeFromTypeNode";
    arg: unknown;
  };
}

/** Methods of 7.0's checker that take an array of their argument and answer all in one request. */
const ARRAY_METHODS_70 = new Set(["getTypeOfSymbol", "getTypeAtLocation", "getSymbolAtLocation"]);

/**
 * The array-taking method of 7.0 that answers each node question. A type node's type is its type at that location
 * (the checker's `getTypeAtLocation` of a node in a type answers `getTypeFromTypeNode`), so both go in one request.
 */
const NODE_ARRAY_METHODS_70: Partial<Record<NodeQuestion, string>> = {
  getTypeAtLocation: "getTypeAtLocation",
  getTypeFromTypeNode: "getTypeAtLocation",
  getSymbolAtLocation: "getSymbolAtLocation",
};

/**
 * Keywords whose type node always spells the same type in a checker (its `string` type, its `never`, ...), whatever
 * the node: one is asked, and its answer stands for the others. (`object` is left out: in JavaScript files it can be
 * `any`; `intrinsic` is a marker.)
 */
const SINGLETON_KEYWORDS = new Set([
  "StringKeyword",
  "NumberKeyword",
  "BooleanKeyword",
  "BigIntKeyword",
  "SymbolKeyword",
  "UndefinedKeyword",
  "NeverKeyword",
  "UnknownKeyword",
  "AnyKeyword",
  "VoidKeyword",
]);

/** The node questions about one function that a prefetch asks together. */
interface FunctionQuestions {
  fn: ts.SignatureDeclaration;
  params: ts.ParameterDeclaration[];
  typeNodes: object[];
  names: object[];
  returnTypeNode: ts.TypeNode | undefined;
}

/**
 * The return type a function's declaration writes, which is its signature's return type (the checker reads the
 * annotation's type); undefined for a constructor or a function without one.
 */
function writtenReturnType(tsi: TS, fn: ts.SignatureDeclaration): ts.TypeNode | undefined {
  const writes =
    tsi.isFunctionExpression(fn) ||
    tsi.isArrowFunction(fn) ||
    tsi.isFunctionDeclaration(fn) ||
    tsi.isMethodDeclaration(fn);
  return writes ? fn.type : undefined;
}

/**
 * Declared only in TypeScript's lib files or @types/node (by the paths of its declarations, known without
 * fetching them): the reader maps such a type (Date, URL) or refuses it (Map, Promise), never reads its members.
 */
function isStandardLibrary(symbol: Raw): boolean {
  const declarations: Raw[] = symbol?.declarations ?? [];
  return (
    declarations.length > 0 &&
    declarations.every((d) =>
      /[\\/]typescript[^\\/]*[\\/]lib[\\/]lib\.[^\\/]*\.d\.ts$|[\\/]node_modules[\\/]@types[\\/]node[\\/]|^bundled:/.test(
        String(d.path ?? d.fileName ?? ""),
      ),
    )
  );
}

/** The reader the core is handed, and what the facade's own types ask of it besides: their signatures. */
type FacadeReader = TypeReader & {
  getSignaturesOfType(type: ts.Type, kind: ts.SignatureKind): readonly ts.Signature[];
};

/** How many breadth-first rounds a tool's type graph is prefetched for; deeper parts are asked as they are read. */
const PREFETCH_ROUNDS = 12;

/** TypeScript 7's checker behind the reader interface: every answer remembered, the questions of a file asked ahead. */
export class CheckerFacade {
  private readonly types = new Map<number, FacadeType>();
  private readonly symbols = new Map<number, FacadeSymbol>();
  private readonly answers = new Map<string, unknown>();
  /** Answers about nodes (a node has no id of its own), by node and question. */
  private readonly nodeAnswers = new Map<string, WeakMap<object, unknown>>();
  /** Types whose graph was prefetched already. */
  private readonly prefetched = new Set<number>();
  /** Function-like declarations whose parameters' types were prefetched. */
  private readonly prefetchedFunctions = new WeakSet<object>();
  readonly raw: Raw;
  private readonly flags: { T: Record<string, number>; O: Record<string, number>; Sig: Record<string, number> };
  private readonly exactOptional: boolean;
  /** The syntax kinds of SINGLETON_KEYWORDS in this TypeScript 7's AST. */
  private readonly singletonKinds: Set<number>;
  /**
   * While one module is read (`TypeScript7Reader.readFile`): the files of the declarations of every symbol the core
   * is handed, a type's symbol and alias included, and of every signature's declaration. Answers are remembered
   * across modules, so a symbol is noted each time it is handed out, not when it is first asked.
   */
  visited: Set<string> | undefined;

  constructor(
    readonly session: TypeScript7Session,
    options: ts.CompilerOptions = {},
  ) {
    this.raw = session.checker;
    const sync = session.ts.sync;
    this.flags = { T: sync.TypeFlags, O: sync.ObjectFlags, Sig: sync.SignatureKind };
    this.exactOptional = options.exactOptionalPropertyTypes === true;
    const kinds = session.ts.ast.SyntaxKind as Record<string, number>;
    this.singletonKinds = new Set(
      [...SINGLETON_KEYWORDS].map((name) => kinds[name]!).filter((kind) => kind !== undefined),
    );
  }

  // The questions, one definition each: asked alone by the checker below, or together by the prefetches.
  private q = {
    props: (t: Raw): Question => ({
      key: `props:${t.id}`,
      ask: () => this.raw.getPropertiesOfType(t),
      gen: () => this.raw.getPropertiesOfType.gen(t),
    }),
    prop: (t: Raw, name: string): Question => ({
      key: `prop:${t.id}:${name}`,
      ask: () => this.raw.getPropertyOfType(t, name),
      gen: () => this.raw.getPropertyOfType.gen(t, name),
    }),
    index: (t: Raw): Question => ({
      key: `idx:${t.id}`,
      ask: () => this.raw.getIndexInfosOfType(t),
      gen: () => this.raw.getIndexInfosOfType.gen(t),
    }),
    nonNullable: (t: Raw): Question => ({
      key: `nn:${t.id}`,
      ask: () => this.raw.getNonNullableType(t),
      gen: () => this.raw.getNonNullableType.gen(t),
    }),
    isArray: (t: Raw): Question => ({
      key: `arr:${t.id}`,
      ask: () => this.raw.isArrayType(t),
      gen: () => this.raw.isArrayType.gen(t),
    }),
    isTuple: (t: Raw): Question => ({
      key: `tup:${t.id}`,
      ask: () => this.raw.isTupleType(t),
      gen: () => this.raw.isTupleType.gen(t),
    }),
    args: (t: Raw): Question => ({
      key: `args:${t.id}`,
      ask: () => this.raw.getTypeArguments(t),
      gen: () => this.raw.getTypeArguments.gen(t),
    }),
    bases: (t: Raw): Question => ({
      key: `bases:${t.id}`,
      ask: () => this.raw.getBaseTypes(t),
      gen: () => this.raw.getBaseTypes.gen(t),
    }),
    sigs: (t: Raw, kind: number): Question => ({
      key: `sigs:${t.id}:${kind}`,
      ask: () => this.raw.getSignaturesOfType(t, kind),
      gen: () => this.raw.getSignaturesOfType.gen(t, kind),
    }),
    members: (t: Raw): Question => ({
      key: `types:${t.id}`,
      ask: () => t.getTypes() ?? [],
      gen: () => t.getTypes.gen(),
    }),
    symbolOf: (t: Raw): Question => ({ key: `sym:${t.id}`, ask: () => t.getSymbol(), gen: () => t.getSymbol.gen() }),
    aliasOf: (t: Raw): Question => ({
      key: `aliasSym:${t.id}`,
      ask: () => t.getAliasSymbol(),
      gen: () => t.getAliasSymbol.gen(),
    }),
    typeOf: (s: Raw): Question => ({
      key: `tos:${s.id}`,
      ask: () => this.raw.getTypeOfSymbol(s),
      gen: () => this.raw.getTypeOfSymbol.gen(s),
      many: { method: "getTypeOfSymbol", arg: s },
    }),
    // At a declaration (not an identifier) the checker answers a property's type without narrowing: its type, less
    // the `missing` type of exactOptionalPropertyTypes; without that option, the same as getTypeOfSymbol.
    typeAt: (s: Raw, at: Raw): Question => ({
      key: `tosl:${s.id}`,
      ask: () => this.raw.getTypeOfSymbolAtLocation(s, at),
      gen: () => this.raw.getTypeOfSymbolAtLocation.gen(s, at),
      many: this.exactOptional ? undefined : { method: "getTypeOfSymbol", arg: s },
    }),
    doc: (s: Raw): Question => ({
      key: `doc:${s.id}`,
      ask: () => this.raw.getDocumentationCommentOfSymbol(s),
      gen: () => this.raw.getDocumentationCommentOfSymbol.gen(s),
    }),
    tags: (s: Raw): Question => ({
      key: `tags:${s.id}`,
      ask: () => this.raw.getJsDocTagsOfSymbol(s),
      gen: () => this.raw.getJsDocTagsOfSymbol.gen(s),
    }),
    returnOf: (g: Raw): Question => ({
      key: `ret:${g.id}`,
      ask: () => this.raw.getReturnTypeOfSignature(g),
      gen: () => this.raw.getReturnTypeOfSignature.gen(g),
    }),
    aliased: (s: Raw): Question => ({
      key: `alias:${s.id}`,
      ask: () => this.raw.getAliasedSymbol(s),
      gen: () => this.raw.getAliasedSymbol.gen(s),
    }),
  };

  /** The answer to a question, asked now unless remembered. */
  answer<T = any>(question: Question): T {
    if (this.answers.has(question.key)) return this.answers.get(question.key) as T;
    const answer = this.session.ask(question.ask);
    this.answers.set(question.key, answer);
    return answer as T;
  }

  /** `getTypeFromTypeNode`, remembered by node, and for a keyword (`string`, `number`) by keyword. */
  private spelledType(node: Raw): Raw {
    const keyword = this.singletonKinds.has(node.kind);
    if (keyword && this.keywordTypes.has(node.kind)) return this.keywordTypes.get(node.kind);
    const type = this.aboutNode("getTypeFromTypeNode", node, () => this.raw.getTypeFromTypeNode(node));
    if (keyword) this.keywordTypes.set(node.kind, type);
    return type;
  }

  /** A question about a node, remembered by node. */
  private aboutNode<T>(kind: string, node: object, ask: () => T): T {
    let known = this.nodeAnswers.get(kind);
    if (!known) this.nodeAnswers.set(kind, (known = new WeakMap()));
    if (known.has(node)) return known.get(node) as T;
    const answer = this.session.ask(ask);
    known.set(node, answer);
    return answer;
  }

  /**
   * Asks every question not answered yet in as few requests as the API allows: one batch on 7.1; on 7.0, one
   * request per method that takes an array, the rest left to be asked when read.
   */
  prefetch(questions: Question[]): void {
    const open = new Map<string, Question>();
    for (const question of questions)
      if (!this.answers.has(question.key) && !open.has(question.key)) open.set(question.key, question);
    if (open.size === 0) return;
    const list = [...open.values()];
    if (this.session.batches) {
      const answers = this.session.batch(list.map((question) => question.gen!()));
      list.forEach((question, i) => {
        this.answers.set(question.key, answers[i]);
      });
      return;
    }
    const byMethod = new Map<string, Question[]>();
    for (const question of list) {
      if (!question.many || !ARRAY_METHODS_70.has(question.many.method)) continue;
      const group = byMethod.get(question.many.method) ?? [];
      group.push(question);
      byMethod.set(question.many.method, group);
    }
    for (const [method, group] of byMethod) {
      if (group.length < 2) continue;
      const answers = this.session.ask(
        () => this.raw[method](group.map((question) => question.many!.arg)) as unknown[],
      );
      group.forEach((question, i) => {
        this.answers.set(question.key, answers[i]);
      });
    }
  }

  /**
   * Node questions for many nodes at once (`getSymbolAtLocation`, `getTypeAtLocation`, ...), remembered by node:
   * every kind in one batch on 7.1 (with `questions`, other questions of the same round); on 7.0 one array request
   * per method that takes one.
   */
  private prefetchNodes(kinds: [NodeQuestion, object[]][], questions: Question[] = []): void {
    const open: { kind: NodeQuestion; node: object; known: WeakMap<object, unknown> }[] = [];
    // One node per keyword (`string`, `number`, ...) is asked; the others of the same keyword get its answer.
    const keywords = new Map<number, { first: Raw; others: Raw[] }>();
    for (const [kind, nodes] of kinds) {
      let known = this.nodeAnswers.get(kind);
      if (!known) this.nodeAnswers.set(kind, (known = new WeakMap()));
      for (const node of new Set(nodes)) {
        if (known.has(node)) continue;
        const keyword = kind === "getTypeFromTypeNode" && this.singletonKinds.has((node as Raw).kind);
        if (keyword && this.keywordTypes.has((node as Raw).kind)) {
          known.set(node, this.keywordTypes.get((node as Raw).kind));
          continue;
        }
        if (keyword) {
          const same = keywords.get((node as Raw).kind);
          if (same) {
            same.others.push(node);
            continue;
          }
          keywords.set((node as Raw).kind, { first: node, others: [] });
        }
        open.push({ kind, node, known });
      }
    }
    try {
      this.askNodes(open, questions);
    } finally {
      const spelled = this.nodeAnswers.get("getTypeFromTypeNode");
      for (const { first, others } of keywords.values()) {
        if (!spelled?.has(first)) continue;
        this.keywordTypes.set(first.kind, spelled.get(first));
        for (const node of others) spelled.set(node, spelled.get(first));
      }
    }
  }

  /** Types of keyword type nodes, by the keyword's syntax kind: one type per keyword in a checker (`string`). */
  private readonly keywordTypes = new Map<number, unknown>();

  private askNodes(
    open: { kind: NodeQuestion; node: object; known: WeakMap<object, unknown> }[],
    questions: Question[],
  ): void {
    if (this.session.batches) {
      const asked = [...new Map(questions.filter((q) => !this.answers.has(q.key)).map((q) => [q.key, q])).values()];
      if (open.length + asked.length === 0) return;
      const answers = this.session.batch([
        ...open.map((o) => this.raw[o.kind].gen(o.node)),
        ...asked.map((q) => q.gen!()),
      ]);
      open.forEach((o, i) => {
        o.known.set(o.node, answers[i]);
      });
      asked.forEach((q, i) => {
        this.answers.set(q.key, answers[open.length + i]);
      });
      return;
    }
    this.prefetch(questions);
    const byMethod = new Map<string, typeof open>();
    for (const o of open) {
      const method = NODE_ARRAY_METHODS_70[o.kind];
      if (!method) continue;
      const group = byMethod.get(method) ?? [];
      group.push(o);
      byMethod.set(method, group);
    }
    for (const [method, group] of byMethod) {
      const answers = this.session.ask(() => this.raw[method](group.map((o) => o.node)) as unknown[]);
      group.forEach((o, i) => {
        o.known.set(o.node, answers[i]);
      });
    }
  }

  /**
   * Before a file is read, in two rounds (a request each on 7.1; on 7.0 one per array-taking method, the rest asked
   * when read): the symbols of every call's callee and decorator (how tools are found) and the questions of every
   * function a tool may be (a call's function argument, a decorated method: `functionQuestions`); then what the
   * imported names stand for, and on 7.1 the resolved signatures of calls that may be of a tool factory. The type
   * graphs of the functions that `tool` takes follow (`prefetchGraph`), all of the file's together.
   */
  prefetchFile(tsi: TS, file: ts.SourceFile): void {
    const callees: object[] = [];
    const calls: object[] = [];
    /** Functions a tool may be, with the callee that takes them (a call's, or a decorator's). */
    const candidates = new Map<ts.SignatureDeclaration, object>();
    const walk = (node: ts.Node): void => {
      if (tsi.isCallExpression(node)) {
        callees.push(node.expression);
        if (node.arguments.length > 0 && !tsi.isDecorator(node.parent)) calls.push(node);
        // A tool is a function handed to `tool` (or a factory) by name, `tool(fn)` or `tt.tool(fn)`; a callback of a
        // method (`items.map(fn)`) is not asked about ahead, nor its types checked for nothing.
        const callee = node.expression;
        const byName =
          tsi.isIdentifier(callee) ||
          (tsi.isPropertyAccessExpression(callee) && tsi.isIdentifier(callee.name) && callee.name.text === "tool");
        if (byName)
          for (const argument of node.arguments)
            if (tsi.isFunctionExpression(argument) || tsi.isArrowFunction(argument)) candidates.set(argument, callee);
      } else if (tsi.isDecorator(node)) {
        const callee = tsi.isCallExpression(node.expression) ? node.expression.expression : node.expression;
        callees.push(callee);
        if (tsi.isMethodDeclaration(node.parent) && !candidates.has(node.parent)) candidates.set(node.parent, callee);
      }
      if (!skipsTools(tsi, node)) tsi.forEachChild(node, walk);
    };
    walk(file);
    const functions = [...candidates.keys()].map((fn) => this.functionQuestions(tsi, fn));
    this.prefetchNodes([
      ["getSymbolAtLocation", [...callees, ...functions.flatMap((f) => f.names)]],
      ["getTypeAtLocation", functions.flatMap((f) => f.params)],
      ["getTypeFromTypeNode", functions.flatMap((f) => f.typeNodes)],
      [
        "getSignatureFromDeclaration",
        this.session.batches ? functions.filter((f) => !f.returnTypeNode).map((f) => f.fn) : [],
      ],
    ]);
    for (const f of functions) this.prefetchedFunctions.add(f.fn);
    // Imported names are aliases: what they stand for is the next question about each; with the return types of
    // functions whose return type is not written.
    const symbols = this.nodeAnswers.get("getSymbolAtLocation")!;
    const signatures = this.nodeAnswers.get("getSignatureFromDeclaration")!;
    const Alias = this.session.ts.sync.SymbolFlags.Alias as number;
    const aliased = [...callees, ...functions.flatMap((f) => f.names)]
      .map((n) => symbols.get(n) as Raw)
      .filter((sym) => sym && sym.flags & Alias);
    const returns = functions.map((f) => signatures.get(f.fn) as Raw).filter((sig) => sig);
    const more = [...aliased.map((sym) => this.q.aliased(sym)), ...returns.map((sig) => this.q.returnOf(sig))];
    if (this.session.batches) {
      // A call not of `tool` may be of a tool factory, which its resolved signature tells (7.1: with this round). A
      // `tool` call's is not needed, and the checker's slowest answer: an imported callee named `tool` is left out.
      const factories = calls.filter((call) => {
        const callee = symbols.get((call as ts.CallExpression).expression) as Raw;
        return !(callee && callee.flags & Alias && callee.name === "tool");
      });
      this.prefetchNodes([["getResolvedSignature", factories]], more);
    } else this.prefetch(more);
    // The functions `tool` takes (by the name its callee stands for; the reader decides by the declaration): their
    // parameter and return types' graphs, all at once, since the reader reads every tool.
    const tools = functions.filter((f) => {
      let callee = symbols.get(candidates.get(f.fn)!) as Raw;
      // 7.0 has not asked what an import stands for yet: its local name then.
      if (callee && callee.flags & Alias) callee = this.known(this.q.aliased(callee)) ?? callee;
      return callee?.name === "tool";
    });
    if (tools.length > 0)
      this.prefetchGraph(
        tools.flatMap((f) => this.rootsOf(f)),
        tools[0]!.params[0] ?? tools[0]!.fn,
      );
  }

  /**
   * The node questions of one function: its parameters' types, the types its annotations spell (the reader
   * compares the written spelling with the type), the names they use, and the type its return annotation spells
   * (the signature's return type: `getSignatureFromDeclaration` is asked only for a function without one).
   */
  private functionQuestions(tsi: TS, fn: ts.SignatureDeclaration): FunctionQuestions {
    const params = [...fn.parameters];
    const typeNodes: object[] = [];
    const names: object[] = [];
    const walk = (node: ts.Node): void => {
      if (tsi.isTypeNode(node)) typeNodes.push(node);
      if (tsi.isTypeReferenceNode(node)) names.push(node.typeName);
      tsi.forEachChild(node, walk);
    };
    for (const p of params) if (p.type) walk(p.type);
    const returnTypeNode = writtenReturnType(tsi, fn);
    if (returnTypeNode) typeNodes.push(returnTypeNode);
    return { fn, params, typeNodes, names, returnTypeNode };
  }

  /** The types a function's graph starts from, as far as they are known: its parameters' and its return type. */
  private rootsOf(f: FunctionQuestions): Raw[] {
    const types = this.nodeAnswers.get("getTypeAtLocation");
    const spelled = this.nodeAnswers.get("getTypeFromTypeNode");
    const signature = this.nodeAnswers.get("getSignatureFromDeclaration")?.get(f.fn) as Raw;
    const returned = f.returnTypeNode
      ? spelled?.get(f.returnTypeNode)
      : signature && this.known(this.q.returnOf(signature));
    return [...f.params.map((p) => types?.get(p)), returned].filter((t): t is Raw => !!t);
  }

  /**
   * Before a parameter of the user's code is read, when the file's prefetch did not foresee its function: its
   * function's parameter types, the types their annotations spell and its return type, in one request (7.1; on
   * 7.0, the types in one). Their type graph is fetched when the reader first opens one of them (`opened`): a
   * function met only to see whether it is a tool factory costs no more.
   */
  prefetchFunction(tsi: TS, fn: ts.SignatureDeclaration): void {
    if (this.prefetchedFunctions.has(fn)) return;
    this.prefetchedFunctions.add(fn);
    const f = this.functionQuestions(tsi, fn);
    this.prefetchNodes([
      ["getTypeAtLocation", f.params],
      ["getTypeFromTypeNode", f.typeNodes],
      ["getSymbolAtLocation", f.names],
      ["getSignatureFromDeclaration", this.session.batches && !f.returnTypeNode ? [fn] : []],
    ]);
    const roots = this.rootsOf(f);
    const group = { roots, at: f.params[0] ?? fn };
    for (const root of roots) if (!this.prefetched.has(root.id)) this.pendingRoots.set(root.id, group);
  }

  /** Parameter types fetched but whose graph is not yet: the group of roots (one function's) each belongs to. */
  private readonly pendingRoots = new Map<number, { roots: Raw[]; at: Raw }>();

  /**
   * The reader opens a type (its members, properties, whether it is an array): if it is a pending root, its
   * function's whole parameter graph is fetched first. Always true, to be chained before the question.
   */
  opened(t: Raw): true {
    const group = this.pendingRoots.get(t.id);
    if (group) {
      for (const root of group.roots) this.pendingRoots.delete(root.id);
      this.prefetchGraph(group.roots, group.at);
    }
    return true;
  }

  /**
   * The type graph under `roots`, breadth-first, in up to three requests per level: what each new type is (members,
   * symbol, alias, array, tuple, signatures), then the parts the reader reads of it (the items of arrays and
   * tuples; the properties, index signatures and bases of other object types, unless they are functions or the
   * standard library's, which the reader never opens), then the properties' types and JSDoc.
   */
  prefetchGraph(roots: Raw[], at: Raw): void {
    const { T, O, Sig } = this.flags;
    let frontier = [...new Map(roots.filter((t) => !this.prefetched.has(t.id)).map((t) => [t.id, t])).values()];
    for (let round = 0; frontier.length > 0 && round < PREFETCH_ROUNDS; round++) {
      for (const t of frontier) this.prefetched.add(t.id);
      const next: Raw[] = [];
      const add = (t: Raw | undefined) => {
        if (t && !this.prefetched.has(t.id)) next.push(t);
      };
      const objects = frontier.filter((t) => t.flags & T.Object!);
      const what: Question[] = [];
      for (const t of frontier) {
        if (t.flags & (T.Union! | T.Intersection! | T.TemplateLiteral!)) what.push(this.q.members(t));
        if (t.symbol) what.push(this.q.symbolOf(t));
        if (t.aliasSymbol) what.push(this.q.aliasOf(t));
      }
      for (const t of frontier) if (t.flags & T.Union!) what.push(this.q.nonNullable(t));
      for (const t of objects) {
        if (this.isReference(t)) what.push(this.q.isArray(t), this.q.isTuple(t));
        what.push(this.q.sigs(t, Sig.Call!), this.q.sigs(t, Sig.Construct!));
      }
      this.prefetch(what);
      // 7.0 asks these alone, as the reader would; asked now, what lies under them is asked in array requests.
      if (!this.session.batches)
        for (const question of what) if (/^(types|sym):/.test(question.key)) this.answer(question);
      for (const t of frontier) for (const m of this.known<Raw[]>(this.q.members(t)) ?? []) add(m);

      const parts: Question[] = [];
      const standard: Question[] = [];
      // Named types' own JSDoc (their description in the schema).
      for (const t of frontier) {
        const named = (t.aliasSymbol && this.known(this.q.aliasOf(t))) || (t.symbol && this.known(this.q.symbolOf(t)));
        if (named) parts.push(this.q.doc(named));
      }
      for (const t of objects) {
        const listy = this.known(this.q.isArray(t)) || this.known(this.q.isTuple(t));
        if (listy || t.objectFlags & O.Reference!) parts.push(this.q.args(t));
        if (listy) continue;
        if (
          (this.known<Raw[]>(this.q.sigs(t, Sig.Call!)) ?? []).length > 0 ||
          (this.known<Raw[]>(this.q.sigs(t, Sig.Construct!)) ?? []).length > 0
        )
          continue;
        if (t.symbol && isStandardLibrary(this.known(this.q.symbolOf(t)))) {
          // Its properties' types only: a union with it asks whether a required property is `never`.
          standard.push(this.q.props(t));
          continue;
        }
        parts.push(this.q.props(t), this.q.index(t), this.q.prop(t, TAG_PROPERTY));
        if (t.objectFlags & O.ClassOrInterface!) parts.push(this.q.bases(t));
      }
      this.prefetch([...parts, ...standard]);
      // The same for a type's properties: their types go in one request below.
      if (!this.session.batches)
        for (const question of [...parts, ...standard]) if (question.key.startsWith("props:")) this.answer(question);
      const properties: Question[] = [];
      for (const question of standard)
        for (const p of this.known<Raw[]>(question) ?? []) properties.push(this.q.typeOf(p));
      for (const question of parts) {
        const answer = this.answers.get(question.key) as any;
        if (question.key.startsWith("props:"))
          for (const p of answer ?? [])
            properties.push(this.q.typeAt(p, at), this.q.typeOf(p), this.q.doc(p), this.q.tags(p));
        else if (question.key.startsWith("idx:")) for (const info of answer ?? []) add(info.valueType ?? info.type);
        else if (question.key.startsWith("doc:") || question.key.startsWith("prop:")) continue;
        else for (const t of answer ?? []) add(t);
      }
      this.prefetch(properties);
      for (const question of properties)
        if (question.key.startsWith("tosl:")) add(this.answers.get(question.key) as Raw);
      frontier = [...new Map(next.map((t) => [t.id, t])).values()];
    }
  }

  /**
   * False for a type that is not a reference to a generic type (`Array<T>`, a tuple, `Map<K, V>`): neither an array
   * nor a tuple, which the checker decides by that flag and the reference's target, so it need not be asked.
   */
  isReference(t: Raw): boolean {
    return (t.flags & this.flags.T.Object!) !== 0 && ((t.objectFlags ?? 0) & this.flags.O.Reference!) !== 0;
  }

  /** A remembered answer, or undefined when the question was not asked (7.0 leaves some to be asked when read). */
  private known<T = unknown>(question: Question): T | undefined {
    return this.answers.get(question.key) as T | undefined;
  }

  type(raw: Raw): any {
    if (!raw) return undefined;
    let t = this.types.get(raw.id);
    if (!t) this.types.set(raw.id, (t = new FacadeType(this, raw)));
    return t;
  }

  /** Notes the files of a symbol's declarations (their handles name them: nothing is fetched). */
  visit(raw: Raw): void {
    const visited = this.visited;
    if (!visited || !raw) return;
    for (const d of raw.declarations ?? []) visitHandle(visited, d);
  }

  symbol(raw: Raw): any {
    if (!raw) return undefined;
    this.visit(raw);
    let s = this.symbols.get(raw.id);
    if (!s) this.symbols.set(raw.id, (s = new FacadeSymbol(this, raw)));
    return s;
  }

  /**
   * The signature of a declaration whose return type is written: its return type is the type the annotation
   * spells (asked with the file's type nodes), and the signature itself is asked only if more of it is read.
   */
  writtenSignature(returnTypeNode: Raw, ask: () => any): any {
    let asked: any;
    const signature = () => (asked ??= ask());
    return {
      returnTypeNode,
      get raw() {
        return signature().raw;
      },
      get declaration() {
        return signature().declaration;
      },
      getDeclaration: () => signature().getDeclaration(),
      getParameters: () => signature().getParameters(),
    };
  }

  signature(raw: Raw): any {
    if (!raw) return undefined;
    if (this.visited && raw.declaration) visitHandle(this.visited, raw.declaration);
    const declaration = raw.declaration ? this.session.ask(() => raw.declaration.resolve()) : undefined;
    return {
      raw,
      declaration,
      getDeclaration: () => declaration,
      getParameters: () => this.session.ask(() => raw.getParameters()).map((s: Raw) => this.symbol(s)),
    };
  }

  /** The reader without the AST helpers (`reader()`), made once: types ask it for their signatures and properties. */
  private plain: FacadeReader | undefined;

  /** The reader the core is handed (with `tsi`, TypeScript 7's namespace, it asks ahead for a tool's parameters). */
  reader(tsi?: TS): FacadeReader {
    if (!tsi) return (this.plain ??= this.makeReader());
    return this.makeReader(tsi);
  }

  private makeReader(tsi?: TS): FacadeReader {
    const c = this.raw;
    const T = (t: any) => (t as FacadeType | undefined)?.raw;
    const S = (s: any) => (s as FacadeSymbol | undefined)?.raw;
    const q = this.q;
    const memo = <R>(key: string, ask: () => R): R => this.answer({ key, ask });
    const api = {
      // Remembered only without an enclosing node, whose scope changes how names are qualified.
      typeToString: (t: any, at?: Raw, flags?: number) =>
        at
          ? this.session.ask(() => c.typeToString(T(t), at, flags))
          : memo(`str:${T(t).id}:${flags ?? ""}`, () => c.typeToString(T(t), undefined, flags)),
      isArrayType: (t: any) => this.opened(T(t)) && this.isReference(T(t)) && this.answer<boolean>(q.isArray(T(t))),
      isTupleType: (t: any) => this.isReference(T(t)) && this.answer<boolean>(q.isTuple(T(t))),
      getTypeFromTypeNode: (n: Raw) => this.type(this.spelledType(n)),
      getTypeAtLocation: (n: Raw) => {
        // A parameter of the user's code (a tool's, most often): its function's parameters and their type graphs
        // are asked for together first. Declaration files' functions (the standard library's) are asked one by one.
        if (tsi?.isParameter(n) && n.parent && !n.getSourceFile().isDeclarationFile)
          this.prefetchFunction(tsi, n.parent as ts.SignatureDeclaration);
        return this.type(this.aboutNode("getTypeAtLocation", n, () => c.getTypeAtLocation(n)));
      },
      getSymbolAtLocation: (n: Raw) =>
        this.symbol(this.aboutNode("getSymbolAtLocation", n, () => c.getSymbolAtLocation(n))),
      getPropertiesOfType: (t: any) =>
        this.opened(T(t)) && this.answer<Raw[]>(q.props(T(t))).map((s: Raw) => this.symbol(s)),
      getPropertyOfType: (t: any, name: string) => this.symbol(this.answer(q.prop(T(t), name))),
      getTypeArguments: (t: any) => this.answer<Raw[]>(q.args(T(t))).map((x: Raw) => this.type(x)),
      getTypeOfSymbol: (s: any) => this.type(this.answer(q.typeOf(S(s)))),
      getTypeOfSymbolAtLocation: (s: any, at: Raw) => this.type(this.answer(q.typeAt(S(s), at))),
      getNonNullableType: (t: any) => this.type(this.answer(q.nonNullable(T(t)))),
      getWidenedType: (t: any) => this.type(memo(`wide:${T(t).id}`, () => c.getWidenedType(T(t)))),
      getBaseTypeOfLiteralType: (t: any) => this.type(memo(`blt:${T(t).id}`, () => c.getBaseTypeOfLiteralType(T(t)))),
      getAliasedSymbol: (s: any) => this.symbol(this.answer(q.aliased(S(s)))),
      getBaseTypes: (t: any) => this.answer<Raw[]>(q.bases(T(t))).map((x: Raw) => this.type(x)),
      getIndexInfosOfType: (t: any) =>
        this.opened(T(t)) &&
        this.answer<Raw[]>(q.index(T(t))).map((i: Raw) => {
          if (this.visited && i.declaration) visitHandle(this.visited, i.declaration);
          return {
            keyType: this.type(i.keyType),
            type: this.type(i.valueType ?? i.type),
            isReadonly: i.isReadonly,
            declaration: i.declaration ? this.session.ask(() => i.declaration.resolve?.() ?? i.declaration) : undefined,
          };
        }),
      getSignaturesOfType: (t: any, kind: number) =>
        this.answer<Raw[]>(q.sigs(T(t), kind)).map((g: Raw) => this.signature(g)),
      getSignatureFromDeclaration: (n: Raw) => {
        const written = tsi && writtenReturnType(tsi, n);
        const ask = () =>
          this.signature(this.aboutNode("getSignatureFromDeclaration", n, () => c.getSignatureFromDeclaration(n)));
        return written ? this.writtenSignature(written, ask) : ask();
      },
      getResolvedSignature: (n: Raw) =>
        this.signature(this.aboutNode("getResolvedSignature", n, () => c.getResolvedSignature(n))),
      getReturnTypeOfSignature: (g: any) =>
        g.returnTypeNode ? api.getTypeFromTypeNode(g.returnTypeNode) : this.type(this.answer(q.returnOf(g.raw))),
      getConstantValue: (n: Raw) => this.aboutNode("getConstantValue", n, () => c.getConstantValue(n)),
      getAwaitedType: (t: any) => this.awaited(t),
      // TypeScript 7's client decodes each file's AST with all its JSDoc: nothing is left to parse.
      parseJsDoc: () => {},
      documentationOf: (s: any) => (s as FacadeSymbol).getDocumentationComment(),
      jsDocTagsOf: (s: any) => (s as FacadeSymbol).getJsDocTags(),
      // The files its declarations' handles name, known without fetching the declarations (which fetches their
      // whole file): one file of the standard library settles it; else the declarations are read as the compiler's.
      isStandardLibrary: (s: any) =>
        (s as FacadeSymbol).declarationFileNames().some(isStandardLibraryFile) || declaredInStandardLibrary(s),
    };
    return api as FacadeReader;
  }

  /** `Awaited<T>` as the transformer needs it (a return type): a Promise's or PromiseLike's value, else T. */
  private awaited(t: any): any {
    if (t.isUnion()) return t;
    const symbol = t.getSymbol();
    const name = symbol?.getName();
    if ((name === "Promise" || name === "PromiseLike") && t.objectFlags & this.flags.O.Reference!) {
      const inner = this.type(this.answer<Raw[]>(this.q.args(t.raw))[0]);
      return inner ? this.awaited(inner) : t;
    }
    return t;
  }

  /** The questions of types and symbols (FacadeType and FacadeSymbol ask through these). */
  get questions() {
    return this.q;
  }
}

/** Notes the file a declaration's handle names (`bundled:///libs/...` for the standard library's). */
function visitHandle(visited: Set<string>, handle: Raw): void {
  const file = handle?.path ?? handle?.fileName;
  if (file) visited.add(String(file));
}

/** A TypeScript 7 type in `ts.Type`'s shape. */
class FacadeType {
  // What the reader reads again and again (a union's members, a type's symbol), kept on the type as 5.x keeps them.
  private members: FacadeType[] | undefined;
  private symbolOnce: { symbol: FacadeSymbol | undefined } | undefined;
  private aliasOnce: { symbol: FacadeSymbol | undefined } | undefined;
  constructor(
    private readonly owner: CheckerFacade,
    readonly raw: Raw,
  ) {}
  get id(): number {
    return this.raw.id;
  }
  get flags(): number {
    return this.raw.flags;
  }
  get objectFlags(): number {
    return this.raw.objectFlags ?? 0;
  }
  get value(): unknown {
    return this.raw.value;
  }
  get intrinsicName(): string | undefined {
    // TypeScript 7 gives `true` and `false` a value rather than 5.x's intrinsic names.
    if (this.raw.intrinsicName === undefined && this.flags & this.owner.session.ts.sync.TypeFlags.BooleanLiteral)
      return this.raw.value === true ? "true" : "false";
    return this.raw.intrinsicName;
  }
  get texts(): readonly string[] | undefined {
    return this.raw.texts;
  }
  get elementFlags(): readonly number[] | undefined {
    return this.raw.elementFlags;
  }
  get fixedLength(): number | undefined {
    return this.raw.fixedLength;
  }
  get types(): FacadeType[] {
    return (this.members ??= (
      this.owner.opened(this.raw) &&
      (this.owner.answer<Raw[]>(this.owner.questions.members(this.raw)) ?? [])
    ).map((t: Raw) => this.owner.type(t)));
  }
  get target(): FacadeType | undefined {
    if (!this.raw.target) return undefined;
    return this.owner.type(this.owner.answer({ key: `target:${this.id}`, ask: () => this.raw.getTarget() }));
  }
  get typeParameters(): FacadeType[] | undefined {
    const list = this.owner.answer<Raw[]>({
      key: `tparams:${this.id}`,
      ask: () => (this.raw.typeParameters?.length ? this.raw.getTypeParameters() : []),
    });
    return list.length ? list.map((t: Raw) => this.owner.type(t)) : undefined;
  }
  get aliasSymbol(): FacadeSymbol | undefined {
    if (!this.raw.aliasSymbol) return undefined;
    const alias = (this.aliasOnce ??= {
      symbol: this.owner.symbol(this.owner.answer(this.owner.questions.aliasOf(this.raw))),
    }).symbol;
    this.owner.visit(alias?.raw);
    return alias;
  }
  get aliasTypeArguments(): FacadeType[] | undefined {
    if (!this.raw.aliasTypeArguments?.length) return undefined;
    return this.owner
      .answer<Raw[]>({ key: `aliasArgs:${this.id}`, ask: () => this.raw.getAliasTypeArguments() })
      .map((t: Raw) => this.owner.type(t));
  }
  get symbol(): FacadeSymbol | undefined {
    return this.getSymbol();
  }
  getSymbol(): FacadeSymbol | undefined {
    if (!this.raw.symbol) return undefined;
    const symbol = (this.symbolOnce ??= {
      symbol: this.owner.symbol(this.owner.answer(this.owner.questions.symbolOf(this.raw))),
    }).symbol;
    this.owner.visit(symbol?.raw);
    return symbol;
  }
  getFlags(): number {
    return this.flags;
  }
  isUnion(): boolean {
    return (this.flags & this.owner.session.ts.sync.TypeFlags.Union) !== 0;
  }
  isIntersection(): boolean {
    return (this.flags & this.owner.session.ts.sync.TypeFlags.Intersection) !== 0;
  }
  isUnionOrIntersection(): boolean {
    return this.isUnion() || this.isIntersection();
  }
  isStringLiteral(): boolean {
    return (this.flags & this.owner.session.ts.sync.TypeFlags.StringLiteral) !== 0;
  }
  isNumberLiteral(): boolean {
    return (this.flags & this.owner.session.ts.sync.TypeFlags.NumberLiteral) !== 0;
  }
  isLiteral(): boolean {
    return this.isStringLiteral() || this.isNumberLiteral();
  }
  getCallSignatures(): unknown[] {
    return this.owner
      .reader()
      .getSignaturesOfType(this as unknown as ts.Type, this.owner.session.ts.sync.SignatureKind.Call) as unknown[];
  }
  getConstructSignatures(): unknown[] {
    return this.owner
      .reader()
      .getSignaturesOfType(this as unknown as ts.Type, this.owner.session.ts.sync.SignatureKind.Construct) as unknown[];
  }
  getProperty(name: string): unknown {
    return this.owner.reader().getPropertyOfType(this as unknown as ts.Type, name);
  }
  getProperties(): unknown[] {
    return this.owner.reader().getPropertiesOfType(this as unknown as ts.Type);
  }
}

/** A TypeScript 7 symbol in `ts.Symbol`'s shape; its declarations are TypeScript 7's nodes. */
class FacadeSymbol {
  private resolved: Raw[] | undefined;
  constructor(
    private readonly owner: CheckerFacade,
    readonly raw: Raw,
  ) {}
  get id(): number {
    return this.raw.id;
  }
  get name(): string {
    return this.raw.name;
  }
  get escapedName(): string {
    return this.raw.escapedName;
  }
  get flags(): number {
    return this.raw.flags;
  }
  getName(): string {
    return this.raw.name;
  }
  getFlags(): number {
    return this.raw.flags;
  }
  get declarations(): Raw[] | undefined {
    if (!this.raw.declarations?.length) return undefined;
    this.resolved ??= this.owner.session.ask(() =>
      this.raw.declarations.map((d: Raw) => d.resolve()).filter((d: Raw) => d),
    );
    return this.resolved;
  }
  get valueDeclaration(): Raw | undefined {
    const handle = this.raw.valueDeclaration;
    if (!handle) return undefined;
    const index = this.raw.declarations?.indexOf(handle) ?? -1;
    if (index >= 0) return this.declarations?.[index];
    return this.owner.answer({ key: `valueDecl:${this.id}`, ask: () => handle.resolve() });
  }
  getDeclarations(): Raw[] | undefined {
    return this.declarations;
  }
  /** The files of its declarations, by their handles: resolving a declaration fetches its whole file's AST. */
  declarationFileNames(): string[] {
    return (this.raw.declarations ?? []).map((d: Raw) => String(d.path ?? d.fileName ?? ""));
  }
  getDocumentationComment(): { text: string; kind: string }[] {
    const text = this.owner.answer<string>(this.owner.questions.doc(this.raw));
    return text ? [{ text, kind: "text" }] : [];
  }
  getJsDocTags(): { name: string; text?: { text: string; kind: string }[] }[] {
    const tags = this.owner.answer<{ name: string; text?: string | { text: string }[] }[]>(
      this.owner.questions.tags(this.raw),
    );
    return tags.map((t) => ({
      name: t.name,
      text:
        typeof t.text === "string"
          ? [{ text: t.text, kind: "text" }]
          : t.text?.map((p) => ({ text: p.text, kind: "text" })),
    }));
  }
}
