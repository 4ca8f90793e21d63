/**
 * TypeScript 7's API dressed as the compiler API the transformer reads (`ts.TypeChecker`, `ts.Type`, `ts.Symbol`,
 * and a `typeof ts` of AST helpers and flags), so that the one transformer core (finding tools, tool-meta, the
 * type reader under schema/read/, tags, keywords, diagnostics) runs on either compiler: the schema rules stay in
 * one place. Nodes are TypeScript 7's own (its client decodes each source file's AST); types and symbols are
 * wrapped once per id, so identity (`===`, Map keys) means what it means in-process.
 *
 * Every question goes through the session (counted, watched). Answers are remembered per type and symbol, and
 * `prefetch` asks for a tool's parameter types breadth-first, a round of questions at a time, before the reader
 * walks them.
 */
import type * as ts from "typescript";
import type { TS } from "../compat";
import type { TypeScript7Session } from "./api";

/* eslint-disable @typescript-eslint/no-explicit-any -- TypeScript 7's objects, seen through their runtime shape */

type Raw = any;

/** The `typeof ts` the transformer is handed for a TypeScript 7 program: TypeScript 7's AST helpers and flags. */
export function typeScript7Namespace(session: TypeScript7Session): TS {
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
    getModifiers: (node: Raw) => (node.modifiers ? [...node.modifiers].filter((m: Raw) => ast.isModifier(m)) : undefined),
    getJSDocCommentsAndTags: (host: Raw) => jsDocCommentsOf(ast, host),
    displayPartsToString: (parts: readonly { text: string }[] | undefined) => (parts ?? []).map((p) => p.text).join(""),
    flattenDiagnosticMessageText: (text: string | { messageText: string }) => (typeof text === "string" ? text : text.messageText),
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
  for (let node = host; node && node.parent; ) {
    if (node.jsDoc) out.push(...node.jsDoc);
    if (ast.isParameterDeclaration(node)) break;
    const parent = node.parent;
    if (ast.isVariableDeclaration(node) && parent && ast.isVariableDeclarationList(parent) && parent.parent && ast.isVariableStatement(parent.parent)) node = parent.parent;
    else if (parent && (ast.isPropertyAssignment(parent) || ast.isExportAssignment(parent) || ast.isPropertyDeclaration(parent) || ast.isVariableDeclaration(parent)) && parent.initializer === node) node = parent;
    else break;
  }
  return out;
}

/** A checker of TypeScript 7's API that answers as `ts.TypeChecker` does, for the calls the transformer makes. */
export class CheckerFacade {
  private readonly types = new Map<number, FacadeType>();
  private readonly symbols = new Map<number, FacadeSymbol>();
  private readonly answers = new Map<string, unknown>();
  readonly raw: Raw;

  constructor(readonly session: TypeScript7Session) {
    this.raw = session.checker;
  }

  /** A question, remembered by `key` (the same question asked twice costs one round trip). */
  memo<T>(key: string, ask: () => T): T {
    if (this.answers.has(key)) return this.answers.get(key) as T;
    const answer = this.session.ask(ask);
    this.answers.set(key, answer);
    return answer;
  }

  type(raw: Raw): any {
    if (!raw) return undefined;
    let t = this.types.get(raw.id);
    if (!t) this.types.set(raw.id, (t = new FacadeType(this, raw)));
    return t;
  }

  symbol(raw: Raw): any {
    if (!raw) return undefined;
    let s = this.symbols.get(raw.id);
    if (!s) this.symbols.set(raw.id, (s = new FacadeSymbol(this, raw)));
    return s;
  }

  signature(raw: Raw): any {
    if (!raw) return undefined;
    const declaration = raw.declaration ? this.session.ask(() => raw.declaration.resolve()) : undefined;
    return { raw, declaration, getDeclaration: () => declaration, getParameters: () => this.session.ask(() => raw.getParameters()).map((s: Raw) => this.symbol(s)) };
  }

  /** The checker in `ts.TypeChecker`'s shape. */
  checker(): ts.TypeChecker {
    const c = this.raw;
    const T = (t: any) => (t as FacadeType | undefined)?.raw;
    const S = (s: any) => (s as FacadeSymbol | undefined)?.raw;
    const self = this;
    const api = {
      typeToString: (t: any, at?: Raw, flags?: number) => self.memo(`str:${T(t).id}:${flags ?? ""}`, () => c.typeToString(T(t), at, flags)),
      isArrayType: (t: any) => self.memo(`arr:${T(t).id}`, () => c.isArrayType(T(t))),
      isTupleType: (t: any) => self.memo(`tup:${T(t).id}`, () => c.isTupleType(T(t))),
      isArrayLikeType: (t: any) => self.memo(`arrlike:${T(t).id}`, () => c.isArrayLikeType(T(t))),
      getTypeFromTypeNode: (n: Raw) => self.type(self.session.ask(() => c.getTypeFromTypeNode(n))),
      getTypeAtLocation: (n: Raw) => self.type(self.session.ask(() => c.getTypeAtLocation(n))),
      getSymbolAtLocation: (n: Raw) => self.symbol(self.session.ask(() => c.getSymbolAtLocation(n))),
      getPropertiesOfType: (t: any) => self.memo(`props:${T(t).id}`, () => c.getPropertiesOfType(T(t))).map((s: Raw) => self.symbol(s)),
      getPropertyOfType: (t: any, name: string) => self.symbol(self.memo(`prop:${T(t).id}:${name}`, () => c.getPropertyOfType(T(t), name))),
      getTypeArguments: (t: any) => self.memo(`args:${T(t).id}`, () => c.getTypeArguments(T(t))).map((x: Raw) => self.type(x)),
      getTypeOfSymbol: (s: any) => self.type(self.memo(`tos:${S(s).id}`, () => c.getTypeOfSymbol(S(s)))),
      getTypeOfSymbolAtLocation: (s: any, at: Raw) => self.type(self.memo(`tosl:${S(s).id}`, () => c.getTypeOfSymbolAtLocation(S(s), at))),
      getDeclaredTypeOfSymbol: (s: any) => self.type(self.memo(`dtos:${S(s).id}`, () => c.getDeclaredTypeOfSymbol(S(s)))),
      getNonNullableType: (t: any) => self.type(self.memo(`nn:${T(t).id}`, () => c.getNonNullableType(T(t)))),
      getWidenedType: (t: any) => self.type(self.memo(`wide:${T(t).id}`, () => c.getWidenedType(T(t)))),
      getBaseTypeOfLiteralType: (t: any) => self.type(self.memo(`blt:${T(t).id}`, () => c.getBaseTypeOfLiteralType(T(t)))),
      getAliasedSymbol: (s: any) => self.symbol(self.memo(`alias:${S(s).id}`, () => c.getAliasedSymbol(S(s)))),
      getBaseTypes: (t: any) => self.memo(`bases:${T(t).id}`, () => c.getBaseTypes(T(t))).map((x: Raw) => self.type(x)),
      getIndexInfosOfType: (t: any) =>
        self.memo(`idx:${T(t).id}`, () => c.getIndexInfosOfType(T(t))).map((i: Raw) => ({
          keyType: self.type(i.keyType),
          type: self.type(i.valueType ?? i.type),
          isReadonly: i.isReadonly,
          declaration: i.declaration ? self.session.ask(() => i.declaration.resolve?.() ?? i.declaration) : undefined,
        })),
      getSignaturesOfType: (t: any, kind: number) => self.memo(`sigs:${T(t).id}:${kind}`, () => c.getSignaturesOfType(T(t), kind)).map((g: Raw) => self.signature(g)),
      getSignatureFromDeclaration: (n: Raw) => self.signature(self.session.ask(() => c.getSignatureFromDeclaration(n))),
      getResolvedSignature: (n: Raw) => self.signature(self.session.ask(() => c.getResolvedSignature(n))),
      getReturnTypeOfSignature: (g: any) => self.type(self.session.ask(() => c.getReturnTypeOfSignature(g.raw))),
      getConstantValue: (n: Raw) => self.session.ask(() => c.getConstantValue(n)),
      getAwaitedType: (t: any) => self.awaited(t),
    };
    return api as unknown as ts.TypeChecker;
  }

  /** `Awaited<T>` as the transformer needs it (a return type): a Promise's or PromiseLike's value, else T. */
  private awaited(t: any): any {
    if (t.isUnion()) return t;
    const symbol = t.getSymbol();
    const name = symbol?.getName();
    if ((name === "Promise" || name === "PromiseLike") && t.objectFlags & this.session.ts.sync.ObjectFlags.Reference) {
      const inner = this.checker().getTypeArguments(t)[0];
      return inner ? this.awaited(inner) : t;
    }
    return t;
  }
}

/** A TypeScript 7 type in `ts.Type`'s shape. */
class FacadeType {
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
    if (this.raw.intrinsicName === undefined && this.flags & this.owner.session.ts.sync.TypeFlags.BooleanLiteral) return this.raw.value === true ? "true" : "false";
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
    return this.owner.memo(`types:${this.id}`, () => this.raw.getTypes() ?? []).map((t: Raw) => this.owner.type(t));
  }
  get target(): FacadeType | undefined {
    if (!this.raw.target) return undefined;
    return this.owner.type(this.owner.memo(`target:${this.id}`, () => this.raw.getTarget()));
  }
  get typeParameters(): FacadeType[] | undefined {
    const list = this.owner.memo(`tparams:${this.id}`, () => (this.raw.typeParameters?.length ? this.raw.getTypeParameters() : []));
    return list.length ? list.map((t: Raw) => this.owner.type(t)) : undefined;
  }
  get aliasSymbol(): FacadeSymbol | undefined {
    if (!this.raw.aliasSymbol) return undefined;
    return this.owner.symbol(this.owner.memo(`aliasSym:${this.id}`, () => this.raw.getAliasSymbol()));
  }
  get aliasTypeArguments(): FacadeType[] | undefined {
    if (!this.raw.aliasTypeArguments?.length) return undefined;
    return this.owner.memo(`aliasArgs:${this.id}`, () => this.raw.getAliasTypeArguments()).map((t: Raw) => this.owner.type(t));
  }
  get symbol(): FacadeSymbol | undefined {
    return this.getSymbol();
  }
  getSymbol(): FacadeSymbol | undefined {
    if (!this.raw.symbol) return undefined;
    return this.owner.symbol(this.owner.memo(`sym:${this.id}`, () => this.raw.getSymbol()));
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
    return this.owner.checker().getSignaturesOfType(this as unknown as ts.Type, this.owner.session.ts.sync.SignatureKind.Call) as unknown[];
  }
  getConstructSignatures(): unknown[] {
    return this.owner.checker().getSignaturesOfType(this as unknown as ts.Type, this.owner.session.ts.sync.SignatureKind.Construct) as unknown[];
  }
  getProperty(name: string): unknown {
    return this.owner.checker().getPropertyOfType(this as unknown as ts.Type, name);
  }
  getProperties(): unknown[] {
    return this.owner.checker().getPropertiesOfType(this as unknown as ts.Type);
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
    this.resolved ??= this.owner.session.ask(() => this.raw.declarations.map((d: Raw) => d.resolve()).filter((d: Raw) => d));
    return this.resolved;
  }
  get valueDeclaration(): Raw | undefined {
    const handle = this.raw.valueDeclaration;
    if (!handle) return undefined;
    const index = this.raw.declarations?.indexOf(handle) ?? -1;
    if (index >= 0) return this.declarations?.[index];
    return this.owner.memo(`valueDecl:${this.id}`, () => handle.resolve());
  }
  getDeclarations(): Raw[] | undefined {
    return this.declarations;
  }
  getDocumentationComment(): { text: string; kind: string }[] {
    const text = this.owner.memo(`doc:${this.id}`, () => this.owner.raw.getDocumentationCommentOfSymbol(this.raw)) as string;
    return text ? [{ text, kind: "text" }] : [];
  }
  getJsDocTags(): { name: string; text?: { text: string; kind: string }[] }[] {
    const tags = this.owner.memo(`tags:${this.id}`, () => this.owner.raw.getJsDocTagsOfSymbol(this.raw)) as { name: string; text?: string | { text: string }[] }[];
    return tags.map((t) => ({ name: t.name, text: typeof t.text === "string" ? [{ text: t.text, kind: "text" }] : t.text?.map((p) => ({ text: p.text, kind: "text" })) }));
  }
}
