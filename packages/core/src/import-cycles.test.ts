import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findImportCycles, formatChain, type ImportCycle } from './import-cycles/find-cycles.ts';
import { buildImportGraph } from './import-cycles/import-graph.ts';
import { workspacePackageDirs } from './public-api/collect-api-usage.ts';

// No import circles inside any workspace package (issue 21): a circle, even of types only, ties its
// files' designs together, and the first `import type` that becomes a value import turns it into an
// evaluation-order bug (a binding read before its module ran). Every edge counts: `import type`,
// `export type … from`, inline `type` specifiers, `import('./x').T`, dynamic `import()` and
// `require()`. A circle is cut by moving what both sides need into a leaf file, never by hiding an
// import behind `import()`. Each circle is printed as chains of files with the importing line.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Circles that may stay for now, keyed `<package dir>: <folder inside it>/`, each with why. An entry
 * must match a circle: one no circle lies wholly inside fails, so a cut circle cannot stay allowed.
 */
const ALLOWED: Readonly<Record<string, string>> = {};

interface PackageCycles {
  readonly packageDir: string;
  readonly cycles: readonly ImportCycle[];
}

function allowedBy(packageDir: string, cycle: ImportCycle): string | undefined {
  return Object.keys(ALLOWED).find((key) => {
    const [dir, folder] = key.split(': ') as [string, string];
    return dir === packageDir && cycle.files.every((f) => f.startsWith(folder));
  });
}

function report(found: readonly PackageCycles[]): string {
  return found
    .flatMap(({ packageDir, cycles }) =>
      cycles.map((c) => [`${packageDir}: ${c.files.length} files import each other (${c.files.join(', ')})`, ...c.chains.map((chain) => `  ${formatChain(chain)}`)].join('\n')),
    )
    .join('\n');
}

describe('import cycles', () => {
  // Parsing and resolving ~1000 files: ~3-6 s, more on a loaded machine (the hook timeout bounds it).
  let found: PackageCycles[] = [];
  beforeAll(() => {
    found = workspacePackageDirs(ROOT).map((packageDir) => ({ packageDir, cycles: findImportCycles(buildImportGraph(path.join(ROOT, packageDir))) }));
  });

  it('no workspace package has an import circle (type-only and dynamic imports included)', () => {
    const unallowed = found.map((p) => ({ ...p, cycles: p.cycles.filter((c) => allowedBy(p.packageDir, c) === undefined) })).filter((p) => p.cycles.length > 0);
    expect(report(unallowed), 'cut each circle by moving what both sides need into a leaf file').toBe('');
  });

  it('every allowed circle still exists (a cut one leaves the list)', () => {
    const used = new Set(found.flatMap((p) => p.cycles.map((c) => allowedBy(p.packageDir, c))));
    expect(Object.keys(ALLOWED).filter((key) => !used.has(key))).toEqual([]);
  });

  it('reads every package', () => {
    expect(found.map((p) => p.packageDir)).toEqual(expect.arrayContaining(['packages/core', 'packages/delivery-hook', 'packages/context-checkpoint', 'e2e', 'bench']));
  });
});

// The scanner itself, on small packages written here: each import form closes a circle, and a
// package whose files only import leaves has none.
describe('the import-cycle scanner', () => {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  function scan(files: Record<string, string>): ImportCycle[] {
    const dir = mkdtempSync(path.join(tmpdir(), 'import-cycles-'));
    made.push(dir);
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), text);
    }
    return findImportCycles(buildImportGraph(dir));
  }

  const chainsOf = (cycles: readonly ImportCycle[]): string[] => cycles.flatMap((c) => c.chains.map(formatChain));

  it.each([
    ['import type', "import type { B } from './b.ts';", 'import type'],
    ['inline type specifiers only', "import { type B, type C } from './b.ts';", 'import type'],
    ['export type from', "export type { B } from './b.ts';", 'export type from'],
    ['export from', "export * from './b.ts';", 'export from'],
    ['import() type', "export type T = import('./b.ts').B;", 'import() type'],
    ['typeof import() type', "export type T = typeof import('./b.ts');", 'import() type'],
    ['dynamic import', "export const load = () => import('./b.ts');", 'dynamic import'],
    ['require', "export const load = () => require('./b.ts');", 'require'],
    ['import with a .js extension', "import { b } from './b.js';", 'import'],
    ['a side-effect import without extension', "import './b';", 'import'],
  ])('finds a circle closed by %s', (_name, line, kind) => {
    const cycles = scan({ 'src/a.ts': `${line}\nexport type A = 1;\n`, 'src/b.ts': "import type { A } from './a.ts';\nexport type B = 2;\nexport const b = 1;\n" });
    expect(chainsOf(cycles)).toEqual([`src/a.ts:1 (${kind}) -> src/b.ts:1 (import type) -> src/a.ts`]);
  });

  it('follows a folder index and the package importing itself by name', () => {
    const cycles = scan({
      'package.json': JSON.stringify({ name: 'self-importer', type: 'module', exports: { '.': './src/index.ts' } }),
      'src/index.ts': "export * from './lib';\n",
      'src/lib/index.ts': "export { a } from './a.ts';\n",
      'src/lib/a.ts': "import type {} from 'self-importer';\nexport const a = 1;\n",
    });
    expect(chainsOf(cycles)).toEqual(['src/index.ts:1 (export from) -> src/lib/index.ts:1 (export from) -> src/lib/a.ts:1 (import type) -> src/index.ts']);
  });

  it('reports one component with a shortest chain through each file', () => {
    const cycles = scan({
      'a.ts': "import './b.ts';\n",
      'b.ts': "import './c.ts';\nimport './a.ts';\n",
      'c.ts': "import './b.ts';\n",
      'self.ts': "import type {} from './self.ts';\n",
    });
    expect(cycles.map((c) => c.files)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['self.ts']]);
    expect(chainsOf(cycles)).toEqual(['a.ts:1 (import) -> b.ts:2 (import) -> a.ts', 'c.ts:1 (import) -> b.ts:1 (import) -> c.ts', 'self.ts:1 (import type) -> self.ts']);
  });

  it('finds none where files import only leaves, other packages or computed names', () => {
    const cycles = scan({
      'leaf.ts': 'export type Leaf = 1;\n',
      'a.ts': "import type { Leaf } from './leaf.ts';\nimport { z } from 'zod';\nexport const a = (name: string) => import(name);\n",
      'b.ts': "import { a } from './a.ts';\nimport type { Leaf } from './leaf.ts';\n",
      'dist/c.js': "import './c.js';\n",
    });
    expect(cycles).toEqual([]);
  });
});
