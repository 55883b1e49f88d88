/**
 * Test support for `public-api.test.ts`: lists what every workspace package's entry files export and
 * which of those names other workspace packages actually import. Reads source text only (the
 * TypeScript compiler's parser and checker, no emit, no execution). Not exported from any entry.
 */
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** One public entry: a package's `exports` key (`.`, `./hot-path`) and the source file behind it. */
export interface ApiEntry {
  /** e.g. `@agent-checkpoint/core/hot-path` (the specifier importers write). */
  readonly specifier: string;
  readonly packageName: string;
  readonly packageDir: string;
  readonly file: string;
  /** Names the entry exports (values and types), sorted. */
  readonly names: readonly string[];
}

/** Where one imported name is used. */
export interface ApiUse {
  readonly specifier: string;
  readonly name: string;
  /** File path relative to the repository root. */
  readonly file: string;
  /** The importing file's workspace package directory (relative), e.g. `packages/delivery-hook`. */
  readonly packageDir: string;
  readonly isTest: boolean;
}

const SOURCE_EXT = /\.(?:ts|mts|cts|mjs|js)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', '.turbo', 'coverage']);

/** Workspace package directories, relative to `root` (mirrors pnpm-workspace.yaml: packages/*, e2e, bench). */
export function workspacePackageDirs(root: string): string[] {
  const dirs = readdirSync(path.join(root, 'packages'))
    .map((d) => path.join('packages', d))
    .filter((d) => existsSync(path.join(root, d, 'package.json')));
  for (const d of ['e2e', 'bench']) if (existsSync(path.join(root, d, 'package.json'))) dirs.push(d);
  return dirs.sort();
}

/** Every public entry of every workspace package, from each package.json's `exports` (wildcards expanded). */
export function listApiEntries(root: string): ApiEntry[] {
  const pending: { specifier: string; packageName: string; packageDir: string; file: string }[] = [];
  for (const dir of workspacePackageDirs(root)) {
    const pkg = JSON.parse(readFileSync(path.join(root, dir, 'package.json'), 'utf8')) as { name: string; exports?: Record<string, unknown> };
    for (const [key, target] of Object.entries(pkg.exports ?? {})) {
      if (typeof target !== 'string' || !/\.(?:ts|mts)$/.test(target)) continue;
      const specifier = key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`;
      if (key.includes('*')) {
        const [prefix, suffix] = target.split('*') as [string, string];
        const folder = path.join(root, dir, prefix);
        for (const f of readdirSync(folder)) {
          if (!f.endsWith(suffix) || f.endsWith(`.test${suffix}`)) continue;
          const stem = f.slice(0, -suffix.length);
          pending.push({ specifier: specifier.replace('*', stem), packageName: pkg.name, packageDir: dir, file: path.join(folder, f) });
        }
      } else {
        pending.push({ specifier, packageName: pkg.name, packageDir: dir, file: path.join(root, dir, target) });
      }
    }
  }
  const program = ts.createProgram(
    pending.map((p) => p.file),
    {
      allowImportingTsExtensions: true,
      module: ts.ModuleKind.Preserve,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      target: ts.ScriptTarget.ES2022,
      noEmit: true,
      skipLibCheck: true,
      resolveJsonModule: true,
      types: [],
    },
  );
  const checker = program.getTypeChecker();
  return pending.map((p) => {
    const source = program.getSourceFile(p.file);
    const symbol = source ? checker.getSymbolAtLocation(source) : undefined;
    const names = symbol ? checker.getExportsOfModule(symbol).map((s) => s.getName()) : [];
    return { ...p, names: [...new Set(names)].sort() };
  });
}

function* walkSources(root: string, dir: string): Generator<string> {
  for (const name of readdirSync(path.join(root, dir))) {
    if (SKIP_DIRS.has(name) || name.startsWith('.')) continue;
    const rel = path.join(dir, name);
    const st = statSync(path.join(root, rel));
    if (st.isDirectory()) yield* walkSources(root, rel);
    else if (SOURCE_EXT.test(name) && !name.endsWith('.d.ts')) yield rel;
  }
}

const TEST_FILE = /(?:\.test|\.bench|\.spec)\.[cm]?[jt]s$|(?:^|\/)(?:test-support|__tests__)\//;

/** Names imported from `@agent-checkpoint/*` specifiers by every source file of every workspace package. */
export function listApiUses(root: string): ApiUse[] {
  const uses: ApiUse[] = [];
  for (const packageDir of workspacePackageDirs(root)) {
    for (const file of walkSources(root, packageDir)) {
      const text = readFileSync(path.join(root, file), 'utf8');
      if (!text.includes('@agent-checkpoint/')) continue;
      const isTest = packageDir === 'e2e' || TEST_FILE.test(file);
      const add = (specifier: string, name: string): void => {
        uses.push({ specifier, name, file, packageDir, isTest });
      };
      collectFromSource(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true), add);
    }
  }
  return uses;
}

function isOurs(specifier: string): boolean {
  return specifier.startsWith('@agent-checkpoint/');
}

function collectFromSource(source: ts.SourceFile, add: (specifier: string, name: string) => void): void {
  // `const core = await import('…')` bindings whose `core.x` accesses are uses of `x`.
  const namespaces = new Map<string, string>();
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const spec = node.moduleSpecifier.text;
      if (isOurs(spec)) {
        if (ts.isImportDeclaration(node)) {
          const bindings = node.importClause?.namedBindings;
          if (bindings && ts.isNamedImports(bindings)) for (const el of bindings.elements) add(spec, (el.propertyName ?? el.name).text);
          else if (bindings && ts.isNamespaceImport(bindings)) namespaces.set(bindings.name.text, spec);
          if (node.importClause?.name) add(spec, 'default');
        } else if (node.exportClause && ts.isNamedExports(node.exportClause)) {
          for (const el of node.exportClause.elements) add(spec, (el.propertyName ?? el.name).text);
        } else {
          add(spec, '*');
        }
      }
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      const spec = node.argument.literal.text;
      if (isOurs(spec) && node.qualifier) add(spec, ts.isIdentifier(node.qualifier) ? node.qualifier.text : leftmost(node.qualifier));
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      if (arg && ts.isStringLiteralLike(arg) && isOurs(arg.text)) dynamicImport(node, arg.text);
    } else if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) {
      const spec = namespaces.get(node.expression.text);
      if (spec) add(spec, node.name.text);
    } else if (ts.isQualifiedName(node) && ts.isIdentifier(node.left)) {
      const spec = namespaces.get(node.left.text);
      if (spec) add(spec, node.right.text);
    }
    ts.forEachChild(node, visit);
  };
  const dynamicImport = (call: ts.CallExpression, spec: string): void => {
    let node: ts.Node = call;
    while (ts.isAwaitExpression(node.parent) || ts.isParenthesizedExpression(node.parent)) node = node.parent;
    const parent = node.parent;
    if (ts.isPropertyAccessExpression(parent) && parent.expression === node) add(spec, parent.name.text);
    else if (ts.isVariableDeclaration(parent) && ts.isObjectBindingPattern(parent.name)) {
      for (const el of parent.name.elements) {
        const key = el.propertyName ?? el.name;
        if (ts.isIdentifier(key)) add(spec, key.text);
      }
    } else if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) namespaces.set(parent.name.text, spec);
    else if (!(ts.isArrayLiteralExpression(parent) && promiseAllElement(parent, node, spec))) add(spec, '*');
  };
  // `const [{ a }, b] = await Promise.all([import('…'), …])`: the names bound at the import's index.
  const promiseAllElement = (array: ts.ArrayLiteralExpression, element: ts.Node, spec: string): boolean => {
    const index = array.elements.indexOf(element as ts.Expression);
    let node: ts.Node = array.parent;
    if (!ts.isCallExpression(node) || node.expression.getText() !== 'Promise.all') return false;
    while (ts.isAwaitExpression(node.parent) || ts.isParenthesizedExpression(node.parent)) node = node.parent;
    const decl = node.parent;
    if (!ts.isVariableDeclaration(decl) || !ts.isArrayBindingPattern(decl.name)) return false;
    const bound = decl.name.elements[index];
    if (!bound || !ts.isBindingElement(bound) || !ts.isObjectBindingPattern(bound.name)) return false;
    for (const el of bound.name.elements) {
      const key = el.propertyName ?? el.name;
      if (ts.isIdentifier(key)) add(spec, key.text);
    }
    return true;
  };
  visit(source);
}

function leftmost(name: ts.EntityName): string {
  return ts.isIdentifier(name) ? name.text : leftmost(name.left);
}
