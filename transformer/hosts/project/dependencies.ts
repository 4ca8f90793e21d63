/**
 * The files a module's schemas may depend on, for watch mode: every project file the module imports, directly or
 * through any chain of imports (barrels with `export *`, `import type`, `import("...")` types, a base interface in
 * another file), plus the project's global scripts and module augmentations (`declare module "x"` in a file
 * nobody imports reaches every module of x without an import).
 * A conservative superset of what the tools' types touch: rebuilding a module too often costs a little time,
 * rebuilding it too rarely would serve a stale schema. Packages (node_modules) and TypeScript's libs are left out.
 */
import type * as ts from "typescript";
import type { TS } from "../../compat";

interface Graph {
  /** Direct imports of each project file, resolved by the checker. */
  imports: Map<string, string[]>;
  /** Project files that declare for everyone: scripts (no import or export) and module augmentations. */
  globals: string[];
}

const graphs = new WeakMap<ts.Program, Graph>();

export function dependenciesOf(tsi: TS, program: ts.Program, source: ts.SourceFile): string[] {
  const graph = graphOf(tsi, program);
  const seen = new Set<string>([source.fileName]);
  const queue = [source.fileName];
  while (queue.length > 0) {
    const file = queue.pop()!;
    for (const next of directImports(tsi, program, graph, file)) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  for (const file of graph.globals) seen.add(file);
  seen.delete(source.fileName);
  return [...seen];
}

function graphOf(tsi: TS, program: ts.Program): Graph {
  let graph = graphs.get(program);
  if (!graph) {
    const globals = program
      .getSourceFiles()
      .filter((f) => isProjectFile(program, f) && (!tsi.isExternalModule(f) || augments(tsi, f)))
      .map((f) => f.fileName);
    graph = { imports: new Map(), globals };
    graphs.set(program, graph);
  }
  return graph;
}

function augments(tsi: TS, file: ts.SourceFile): boolean {
  return file.statements.some(
    (s) => tsi.isModuleDeclaration(s) && (tsi.isStringLiteral(s.name) || s.name.text === "global"),
  );
}

function isProjectFile(program: ts.Program, file: ts.SourceFile): boolean {
  return (
    !program.isSourceFileDefaultLibrary(file) &&
    !program.isSourceFileFromExternalLibrary(file) &&
    !file.fileName.includes("/node_modules/")
  );
}

function directImports(tsi: TS, program: ts.Program, graph: Graph, fileName: string): string[] {
  const cached = graph.imports.get(fileName);
  if (cached) return cached;
  const file = program.getSourceFile(fileName);
  const found = new Set<string>();
  if (file) {
    const checker = program.getTypeChecker();
    const add = (target: ts.SourceFile | undefined): void => {
      if (target && target !== file && isProjectFile(program, target)) found.add(target.fileName);
    };
    for (const specifier of moduleSpecifiers(tsi, file)) {
      const symbol = checker.getSymbolAtLocation(specifier);
      for (const declaration of symbol?.declarations ?? []) add(declaration.getSourceFile());
    }
    for (const reference of [...file.referencedFiles, ...file.typeReferenceDirectives]) {
      const resolved = tsi.resolveTripleslashReference(reference.fileName, file.fileName);
      add(program.getSourceFile(resolved));
    }
  }
  const imports = [...found];
  graph.imports.set(fileName, imports);
  return imports;
}

/** Every module name a file mentions: imports, re-exports, `import x = require()`, `import()` and import types, augmentations. */
function moduleSpecifiers(tsi: TS, file: ts.SourceFile): ts.StringLiteralLike[] {
  const out: ts.StringLiteralLike[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (tsi.isImportDeclaration(node) || tsi.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      tsi.isStringLiteral(node.moduleSpecifier)
    ) {
      out.push(node.moduleSpecifier);
    } else if (tsi.isExternalModuleReference(node) && tsi.isStringLiteral(node.expression)) {
      out.push(node.expression);
    } else if (tsi.isModuleDeclaration(node) && tsi.isStringLiteral(node.name)) {
      out.push(node.name);
    } else if (
      tsi.isImportTypeNode(node) &&
      tsi.isLiteralTypeNode(node.argument) &&
      tsi.isStringLiteral(node.argument.literal)
    ) {
      out.push(node.argument.literal);
    } else if (
      tsi.isCallExpression(node) &&
      node.expression.kind === tsi.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      tsi.isStringLiteral(node.arguments[0])
    ) {
      out.push(node.arguments[0]);
    }
    tsi.forEachChild(node, visit);
  };
  visit(file);
  return out;
}
