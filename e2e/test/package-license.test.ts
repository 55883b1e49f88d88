import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { E2E_PACKAGE_DIR } from '../src/harness/agent-clis.ts';

/**
 * The MIT license every package.json declares ships as a file: at the repository root, in the plugin
 * directory (installed on its own by Claude Code and Codex CLI) and in every package under packages/,
 * byte-identical to the root's; each published package names it in `files`, and it is in what
 * `npm pack` would publish.
 */

const REPO_ROOT = path.dirname(E2E_PACKAGE_DIR);
const PACKAGES = readdirSync(path.join(REPO_ROOT, 'packages')).sort();
const rootLicense = (): string => readFileSync(path.join(REPO_ROOT, 'LICENSE'), 'utf8');

describe('LICENSE', () => {
  it('the root LICENSE is the MIT license of the agent-checkpoint contributors, 2026', () => {
    const text = rootLicense();
    expect(text.startsWith('MIT License\n\nCopyright (c) 2026 agent-checkpoint contributors\n')).toBe(true);
    expect(text).toContain('THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND');
    const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { license?: string };
    expect(manifest.license).toBe('MIT');
  });

  it('the plugin directory carries the same LICENSE', () => {
    expect(readFileSync(path.join(REPO_ROOT, 'plugins', 'agent-checkpoint', 'LICENSE'), 'utf8')).toBe(rootLicense());
  });

  it.each(PACKAGES)('packages/%s: LICENSE is the root one; published packages list it in `files` and `npm pack`', (name) => {
    const dir = path.join(REPO_ROOT, 'packages', name);
    const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { license?: string; files?: string[]; private?: boolean };
    expect(manifest.license).toBe('MIT');
    expect(readFileSync(path.join(dir, 'LICENSE'), 'utf8')).toBe(rootLicense());
    // A private package (bundled into the bins, never published) has nothing to pack.
    if (manifest.private === true) return;
    expect(manifest.files).toContain('LICENSE');
    // What would be published, without running prepack (no build): the file list only.
    const packed = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: dir, encoding: 'utf8', timeout: 60_000 })) as { files: { path: string }[] }[];
    expect(packed[0]?.files.map((f) => f.path)).toContain('LICENSE');
  });
});
