/**
 * Test support for `import-cycles.test.ts`: every module one source file imports, with the
 * TypeScript compiler's parser (no checker, no emit, no execution). Type-only imports count: a
 * circle of types still ties the files' designs together and reorders their evaluation as soon as
 * one `import type` becomes a value import. Not exported from any entry.
 */
import ts from 'typescript';

/** How a file names another module. Every kind is an edge of the import graph. */
export type ImportKind =
  /** `import … from`, `import './x'`, `import x = require()` */
  | 'import'
  /** `import type …`, or `import { type A, type B }` with every specifier type-only */
  | 'import type'
  /** `export … from`, `export * from` */
  | 'export from'
  /** `export type … from`, or `export { type A }` with every specifier type-only */
  | 'export type from'
  /** `import('./x')` as an expression */
  | 'dynamic import'
  /** `require('./x')` */
  | 'require'
  /** `import('./x').T` or `typeof import('./x')` in a type position */
  | 'import() type';

/** One module specifier written in a file. */
export interface ImportSite {
  readonly specifier: string;
  readonly kind: ImportKind;
  /** 1-based line of the specifier. */
  readonly line: number;
}

/** Whether every named binding of an import or export clause is an inline `type` specifier. */
function allSpecifiersTypeOnly(elements: ts.NodeArray<ts.ImportSpecifier | ts.ExportSpecifier>): boolean {
  return elements.length > 0 && elements.every((e) => e.isTypeOnly);
}

function importDeclarationKind(node: ts.ImportDeclaration): ImportKind {
  const clause = node.importClause;
  if (clause === undefined) return 'import';
  if (clause.isTypeOnly) return 'import type';
  const bindings = clause.namedBindings;
  if (clause.name === undefined && bindings !== undefined && ts.isNamedImports(bindings) && allSpecifiersTypeOnly(bindings.elements)) return 'import type';
  return 'import';
}

function exportDeclarationKind(node: ts.ExportDeclaration): ImportKind {
  if (node.isTypeOnly) return 'export type from';
  const clause = node.exportClause;
  if (clause !== undefined && ts.isNamedExports(clause) && allSpecifiersTypeOnly(clause.elements)) return 'export type from';
  return 'export from';
}

function isRequireCall(node: ts.CallExpression): boolean {
  return ts.isIdentifier(node.expression) && node.expression.text === 'require';
}

/**
 * Every literal module specifier in `text`, in source order. A specifier that is not a string literal
 * (`import(name)`) names no file the graph could follow and is left out.
 */
export function collectImports(fileName: string, text: string): ImportSite[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const sites: ImportSite[] = [];
  const add = (literal: ts.Node | undefined, kind: ImportKind): void => {
    if (literal === undefined || !ts.isStringLiteralLike(literal)) return;
    sites.push({ specifier: literal.text, kind, line: source.getLineAndCharacterOfPosition(literal.getStart(source)).line + 1 });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, importDeclarationKind(node));
    else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier, exportDeclarationKind(node));
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node.isTypeOnly ? 'import type' : 'import');
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal, 'import() type');
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0], 'dynamic import');
    else if (ts.isCallExpression(node) && isRequireCall(node)) add(node.arguments[0], 'require');
    ts.forEachChild(node, visit);
  };
  visit(source);
  return sites;
}
