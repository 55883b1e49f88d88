import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectPresets } from './detect-presets.ts';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'ac-detect-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const touch = (path: string): void => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), '');
};

const presets = [
  { id: 'node', detect: ['package.json'] },
  { id: 'python', detect: ['pyproject.toml', 'requirements*.txt', 'setup.py'] },
  { id: 'dotnet', detect: ['*.csproj'] },
  { id: 'workflows', detect: ['.github/workflows'] },
  { id: 'monorepo-app', detect: ['apps/*/package.json'] },
  { id: 'never', detect: [] },
];

describe('detectPresets', () => {
  it('detects nothing in an empty directory', async () => {
    expect(await detectPresets(root, presets)).toEqual([]);
  });

  it('detects plain markers, root-level globs, directories and nested globs, in preset order', async () => {
    touch('requirements-dev.txt');
    touch('package.json');
    touch('App.csproj');
    mkdirSync(join(root, '.github', 'workflows'), { recursive: true });
    touch('apps/web/package.json');
    expect(await detectPresets(root, presets)).toEqual(['node', 'python', 'dotnet', 'workflows', 'monorepo-app']);
  });

  it('does not match markers below the root or inside node_modules', async () => {
    touch('sub/package.json');
    touch('sub/requirements.txt');
    touch('node_modules/x/App.csproj');
    touch('apps/node_modules/package.json');
    expect(await detectPresets(root, presets)).toEqual([]);
  });

  it('treats a missing root as "nothing detected"', async () => {
    expect(await detectPresets(join(root, 'missing'), presets)).toEqual([]);
  });
});
