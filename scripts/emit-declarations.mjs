// Emits the `.d.ts` files of a library package into dist/, for its published form (build-lib.mjs calls
// this when the package's publishConfig.exports has a `types` condition).
//
// Two things differ from a plain `tsc --emitDeclarationOnly`:
// - The sources import each other as `./x.ts` (allowImportingTsExtensions). tsc keeps those specifiers
//   in declaration files even with rewriteRelativeImportExtensions, and a consumer on `nodenext` cannot
//   resolve `./x.ts` next to `x.d.ts`; an afterDeclarations transformer rewrites them to `./x.js`.
// - Workspace packages resolve each other's TypeScript sources (their `exports` point at src/). With
//   symlinks preserved, those sources sit under node_modules/, so tsc treats them as a library: it
//   emits nothing for them and refers to them by package name (`@agent-checkpoint/core`), which the
//   published package declares as a dependency.
// Only declaration diagnostics fail the build; type errors are `pnpm typecheck`'s job.
import { join, resolve } from 'node:path';
import ts from 'typescript';

/** `./a.ts` → `./a.js`, `../b.mts` → `../b.mjs`; bare and already-JS specifiers unchanged. */
export function toJsSpecifier(specifier) {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return specifier;
  return specifier.replace(/\.(m|c)?ts$/, (_, kind) => `.${kind ?? ''}js`).replace(/\.d\.(m|c)?js$/, (_, kind) => `.${kind ?? ''}js`);
}

/** Rewrites the module specifiers of imports, re-exports and `import("…")` types in a declaration file. */
function rewriteSpecifiers(context) {
  const { factory } = context;
  const literal = (node) => (node && ts.isStringLiteral(node) && toJsSpecifier(node.text) !== node.text ? factory.createStringLiteral(toJsSpecifier(node.text)) : undefined);
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) {
      const specifier = literal(node.moduleSpecifier);
      if (specifier) return factory.updateImportDeclaration(node, node.modifiers, node.importClause, specifier, node.attributes);
    } else if (ts.isExportDeclaration(node)) {
      const specifier = literal(node.moduleSpecifier);
      if (specifier) return factory.updateExportDeclaration(node, node.modifiers, node.isTypeOnly, node.exportClause, specifier, node.attributes);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const specifier = literal(node.argument.literal);
      if (specifier) {
        return factory.updateImportTypeNode(node, factory.updateLiteralTypeNode(node.argument, specifier), node.attributes, node.qualifier && ts.visitNode(node.qualifier, visit), ts.visitNodes(node.typeArguments, visit), node.isTypeOf);
      }
    }
    return ts.visitEachChild(node, visit, context);
  };
  return (file) => (ts.isSourceFile(file) ? ts.visitEachChild(file, visit, context) : file);
}

/**
 * Emit declarations for `entries` (paths relative to `packageDir`, under src/) and everything they
 * import from the package, into `packageDir/dist` mirroring src/. Throws with tsc's diagnostics when
 * a declaration cannot be emitted.
 */
export function emitDeclarations(packageDir, entries) {
  const configPath = join(packageDir, 'tsconfig.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  });
  if (parsed === undefined) throw new Error(`cannot read ${configPath}`);
  const options = {
    ...parsed.options,
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    declarationMap: false,
    sourceMap: false,
    outDir: join(packageDir, 'dist'),
    rootDir: join(packageDir, 'src'),
    preserveSymlinks: true,
    // The sources import `./x.ts`; the emitted files are rewritten (above).
    allowImportingTsExtensions: true,
    // Type errors are `pnpm typecheck`'s to report; without the full check the emit takes about half
    // the CPU time (the declarations are the same up to the order of inferred union members).
    noCheck: true,
  };
  const program = ts.createProgram(entries.map((entry) => resolve(packageDir, entry)), options);
  const result = program.emit(undefined, undefined, undefined, true, { afterDeclarations: [rewriteSpecifiers] });
  const diagnostics = [...program.getOptionsDiagnostics(), ...program.getSyntacticDiagnostics(), ...result.diagnostics];
  if (diagnostics.length > 0) {
    const host = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => packageDir, getNewLine: () => '\n' };
    throw new Error(`declarations of ${packageDir} could not be emitted:\n${ts.formatDiagnostics(diagnostics, host)}`);
  }
}
