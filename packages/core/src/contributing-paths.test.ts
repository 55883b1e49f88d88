import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// CONTRIBUTING.md's checklists name files to touch; a checklist naming a moved or deleted file
// sends contributors to the wrong place. Every link target and every backticked repository path
// (without a `<placeholder>`) must exist.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const ROOTS = /^(?:packages|fixtures|docs|e2e|bench|plugins|hooks|scripts|\.ci)\//;

function namedPaths(markdown: string): string[] {
  const links = [...markdown.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z]+:/.test(target));
  const ticked = [...markdown.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!).filter((p) => ROOTS.test(p) && !p.includes('<'));
  return [...new Set([...links, ...ticked])];
}

describe('CONTRIBUTING.md', () => {
  const text = readFileSync(path.join(ROOT, 'CONTRIBUTING.md'), 'utf8');

  it('names only paths that exist', () => {
    const named = namedPaths(text);
    expect(named.length).toBeGreaterThan(30);
    expect(named.filter((p) => !existsSync(path.join(ROOT, p)))).toEqual([]);
  });

  it('checks links and backticked paths alike', () => {
    expect(namedPaths('see [a](docs/x.md#y) and `packages/core/src/nope.ts`, not `fixtures/<agent>/` or [w](https://e.org)')).toEqual(['docs/x.md', 'packages/core/src/nope.ts']);
  });
});
