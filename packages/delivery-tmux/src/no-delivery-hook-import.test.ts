import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// delivery-tmux and delivery-hook are sibling routes: the set-up code both use lives in the private
// @agent-checkpoint/setup-kit, the turn-end logic in core. Neither route may import the other, or
// installing the tmux bin would drag in the hook package (and its set-up edits) again.

const root = join(import.meta.dirname, '..');

/** Import/export/require/import() specifiers naming the delivery-hook package, or a path into its sources. */
function deliveryHookImports(source: string): string[] {
  const specifiers = [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)(['"])([^'"]+)\1/gm)].map((m) => m[2] ?? '');
  return specifiers.filter((s) => s === '@agent-checkpoint/delivery-hook' || s.startsWith('@agent-checkpoint/delivery-hook/') || /(^|\/)delivery-hook\//.test(s));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.(ts|mts|mjs|js)$/.test(entry.name) ? [path] : [];
  });
}

describe('delivery-tmux does not depend on delivery-hook', () => {
  it('the scanner catches every import form (self-check)', () => {
    const sample = [
      "import { x } from '@agent-checkpoint/delivery-hook';",
      "import type { Y } from '@agent-checkpoint/delivery-hook/manage';",
      "export { z } from \"@agent-checkpoint/delivery-hook\";",
      "const m = await import('@agent-checkpoint/delivery-hook/manage');",
      "import '../../delivery-hook/src/manage/index.ts';",
      "import { ok } from '@agent-checkpoint/setup-kit';",
      "import { core } from '@agent-checkpoint/core';",
    ].join('\n');
    expect(deliveryHookImports(sample)).toEqual([
      '@agent-checkpoint/delivery-hook',
      '@agent-checkpoint/delivery-hook/manage',
      '@agent-checkpoint/delivery-hook',
      '@agent-checkpoint/delivery-hook/manage',
      '../../delivery-hook/src/manage/index.ts',
    ]);
  });

  it('no source in src/ or scripts/ imports @agent-checkpoint/delivery-hook', () => {
    const files = [...sourceFiles(join(root, 'src')), ...sourceFiles(join(root, 'scripts'))].filter((f) => !f.endsWith('no-delivery-hook-import.test.ts'));
    expect(files.length).toBeGreaterThan(20);
    const offenders = files.flatMap((file) => deliveryHookImports(readFileSync(file, 'utf8')).map((s) => `${relative(root, file)}: ${s}`));
    expect(offenders).toEqual([]);
  });

  it('package.json does not list @agent-checkpoint/delivery-hook', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
      expect(Object.keys(pkg[field] ?? {}), field).not.toContain('@agent-checkpoint/delivery-hook');
    }
  });
});
