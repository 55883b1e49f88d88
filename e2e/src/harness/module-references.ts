import ts from 'typescript';

/**
 * One module a built file refers to. `specifier` is null for a computed one (`require(name)`,
 * `import(url)`): nothing can be said about what it loads, so a caller decides whether it is allowed.
 */
export interface ModuleReference {
  kind: 'import' | 'export' | 'dynamic-import' | 'require' | 'import-type';
  specifier: string | null;
}

/** `require` as written and as esbuild renames it in an ES module bundle that inlined CommonJS. */
const REQUIRE_NAMES = new Set(['require', '__require']);

function literalText(node: ts.Node | undefined): string | null {
  return node !== undefined && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : null;
}

/**
 * `const name = "literal"` declarations of a file, by name; a name declared twice with different
 * values (or once without a literal) maps to null. Lets `import(specifier)` after `const specifier =
 * "node:sqlite"` (written so to keep bundlers from resolving it) count as the literal it is.
 */
function constantStrings(source: ts.SourceFile): Map<string, string | null> {
  const constants = new Map<string, string | null>();
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclarationList(node)) {
      const isConst = (node.flags & ts.NodeFlags.Const) !== 0;
      for (const declaration of node.declarations) {
        if (!ts.isIdentifier(declaration.name)) continue;
        const value = isConst ? literalText(declaration.initializer) : null;
        const name = declaration.name.text;
        constants.set(name, constants.has(name) && constants.get(name) !== value ? null : value);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return constants;
}

/**
 * Every module reference in a JavaScript or declaration file, found by parsing it (TypeScript's
 * parser; a regex over minified code matches text inside strings and misses requires in odd
 * positions): static imports and re-exports, `import()`, `require()`/`__require()`, and in
 * declaration files `import("…")` types and `import x = require("…")`. An identifier argument counts
 * as the string constant it names ({@link constantStrings}), else it is computed (null).
 */
export function moduleReferences(fileName: string, text: string): ModuleReference[] {
  const kind = fileName.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const found: ModuleReference[] = [];
  let constants: Map<string, string | null> | undefined;
  const argument = (node: ts.Node | undefined): string | null => {
    if (node === undefined || !ts.isIdentifier(node)) return literalText(node);
    constants ??= constantStrings(source);
    return constants.get(node.text) ?? null;
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      found.push({ kind: 'import', specifier: literalText(node.moduleSpecifier) });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined) {
      found.push({ kind: 'export', specifier: literalText(node.moduleSpecifier) });
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      found.push({ kind: 'require', specifier: literalText(node.moduleReference.expression) });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      found.push({ kind: 'import-type', specifier: literalText(node.argument.literal) });
    } else if (ts.isCallExpression(node)) {
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        found.push({ kind: 'dynamic-import', specifier: argument(node.arguments[0]) });
      } else if (ts.isIdentifier(node.expression) && REQUIRE_NAMES.has(node.expression.text) && node.arguments.length === 1) {
        found.push({ kind: 'require', specifier: argument(node.arguments[0]) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
