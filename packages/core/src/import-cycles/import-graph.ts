/**
 * Test support for `import-cycles.test.ts`: the import graph of one source folder (a package's
 * `src`). Specifiers resolve the way the repository's tsconfig resolves them (bundler resolution,
 * `.ts` extensions), so `./x.js`, `./dir` (its index) and the package's own name all land on the file
 * the compiler would load. Edges to files outside the folder are dropped: a circle needs both ends
 * inside it. Not exported from any entry.
 */
import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { collectImports, type ImportKind } from './collect-imports.ts';

/** One import of a file inside the folder by another file inside it. */
export interface ImportEdge {
  /** Importing file, relative to the folder, `/`-separated. */
  readonly from: string;
  /** Imported file, relative to the folder, `/`-separated. */
  readonly to: string;
  readonly kind: ImportKind;
  readonly line: number;
}

/** Files of the folder (relative, sorted) and the imports between them. */
export interface ImportGraph {
  readonly files: readonly string[];
  readonly edges: readonly ImportEdge[];
}

const SOURCE_FILE = /\.(?:ts|mts|cts|tsx|js|mjs|cjs)$/;
const DECLARATION_FILE = /\.d\.(?:ts|mts|cts)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'coverage']);

/** The compiler options module resolution depends on, as tsconfig.base.json sets them. */
const RESOLUTION_OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.Preserve,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowImportingTsExtensions: true,
  resolveJsonModule: true,
  allowJs: true,
};

/** Every source file under `dir` (absolute paths), skipping build output, dependencies and dot folders. */
export function listSourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      // Build output, dependencies and dot folders (`.turbo`, `.work`) hold no source of the package.
      if (!SKIP_DIRS.has(entry.name) && !entry.name.startsWith('.')) out.push(...listSourceFiles(full));
    } else if (entry.isFile() && SOURCE_FILE.test(entry.name) && !DECLARATION_FILE.test(entry.name)) out.push(full);
  }
  return out;
}

const toPosix = (p: string): string => p.split(path.sep).join('/');

/** The import graph of every source file under `folder` (recursively, skipping build output and dependencies). */
export function buildImportGraph(folder: string): ImportGraph {
  const root = realpathSync(folder);
  const files = listSourceFiles(root).sort();
  const known = new Set(files);
  const cache = ts.createModuleResolutionCache(root, (f) => f, RESOLUTION_OPTIONS);
  const edges: ImportEdge[] = [];
  for (const file of files) {
    for (const site of collectImports(file, readFileSync(file, 'utf8'))) {
      const resolved = ts.resolveModuleName(site.specifier, file, RESOLUTION_OPTIONS, ts.sys, cache).resolvedModule;
      if (resolved === undefined) continue;
      // Workspace packages are symlinks under node_modules; the real path says whether it is this folder.
      const target = realpathSync(resolved.resolvedFileName);
      if (!known.has(target)) continue;
      edges.push({ from: toPosix(path.relative(root, file)), to: toPosix(path.relative(root, target)), kind: site.kind, line: site.line });
    }
  }
  return { files: files.map((f) => toPosix(path.relative(root, f))), edges };
}
