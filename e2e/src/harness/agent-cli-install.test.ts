import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliInstallDir, completedCliInstall, ensureCliInstall, type CliInstallSpec } from './agent-cli-install.ts';

// A real npm project pinned by a real lockfile: one local tarball (no registry needed), whose
// sha512 `npm ci` checks. The package has its own postinstall (must not run: only allow-listed
// scripts do) and a build script the spec allow-lists (must run, as Claude Code's install.cjs).
let dir: string;
let spec: CliInstallSpec;

function npm(cwd: string, ...args: string[]): string {
  return execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8' });
}

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'ac-cli-install-'));
  const source = path.join(dir, 'source');
  mkdirSync(path.join(source, 'bin'), { recursive: true });
  writeFileSync(path.join(source, 'package.json'), JSON.stringify({ name: 'fake-cli', version: '1.2.3', bin: { fake: 'bin/fake.js' }, scripts: { postinstall: 'node -e "require(\'fs\').writeFileSync(\'own-script-ran\', \'\')"' } }));
  writeFileSync(path.join(source, 'bin', 'fake.js'), '#!/usr/bin/env node\nconsole.log("fake 1.2.3");\n');
  writeFileSync(path.join(source, 'build.cjs'), "require('fs').writeFileSync('built.txt', 'ok');\n");
  const pins = path.join(dir, 'pins');
  mkdirSync(pins);
  npm(source, 'pack', '--pack-destination', pins);
  writeFileSync(path.join(pins, 'package.json'), JSON.stringify({ name: 'pins', private: true, dependencies: { 'fake-cli': 'file:fake-cli-1.2.3.tgz' } }));
  npm(pins, 'install', '--package-lock-only', '--ignore-scripts');
  spec = { pinsDir: pins, cacheRoot: path.join(dir, 'cache'), entries: ['fake-cli/bin/fake.js'], postinstall: [['fake-cli', 'build.cjs']] };
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('ensureCliInstall', () => {
  it('installs with npm ci, runs only the allow-listed script, then reuses the intact install', () => {
    expect(completedCliInstall(spec)).toBeUndefined();
    const first = ensureCliInstall(spec);
    expect(first).toEqual({ kind: 'installed', dir: cliInstallDir(spec), replacedDamaged: false });
    const pkg = path.join(first.dir, 'node_modules', 'fake-cli');
    expect(execFileSync(process.execPath, [path.join(pkg, 'bin', 'fake.js')], { encoding: 'utf8' })).toBe('fake 1.2.3\n');
    expect(existsSync(path.join(pkg, 'built.txt'))).toBe(true);
    expect(existsSync(path.join(pkg, 'own-script-ran'))).toBe(false);
    expect(completedCliInstall(spec)).toBe(first.dir);
    expect(ensureCliInstall(spec)).toEqual({ kind: 'reused', dir: first.dir });
    // Only the install directory is left in the cache: no temporary copies.
    expect(readdirSync(spec.cacheRoot)).toEqual([path.basename(first.dir)]);
  });

  it('reinstalls when an entry file was damaged', () => {
    const { dir: installed } = ensureCliInstall(spec);
    const bin = path.join(installed, 'node_modules', 'fake-cli', 'bin', 'fake.js');
    writeFileSync(bin, '');
    expect(ensureCliInstall(spec)).toEqual({ kind: 'installed', dir: installed, replacedDamaged: true });
    expect(readFileSync(bin, 'utf8')).toContain('fake 1.2.3');
    expect(readdirSync(spec.cacheRoot)).toEqual([path.basename(installed)]);
  });

  it('refuses a tarball whose sha512 differs from the lockfile, leaving nothing installed', () => {
    const lockFile = path.join(spec.pinsDir, 'package-lock.json');
    const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as { packages: Record<string, { integrity?: string }> };
    const entry = lock.packages['node_modules/fake-cli'];
    expect(entry?.integrity).toMatch(/^sha512-/);
    entry!.integrity = `sha512-${Buffer.alloc(64, 7).toString('base64')}`;
    writeFileSync(lockFile, JSON.stringify(lock, null, 2));
    expect(() => ensureCliInstall(spec)).toThrow(/Command failed: npm ci/);
    expect(completedCliInstall(spec)).toBeUndefined();
    expect(readdirSync(spec.cacheRoot)).toEqual([]);
  });

  it('installs anew when the lockfile changes (another pin gets another directory)', () => {
    const first = ensureCliInstall(spec);
    const lockFile = path.join(spec.pinsDir, 'package-lock.json');
    writeFileSync(lockFile, `${readFileSync(lockFile, 'utf8').trimEnd()}\n\n`);
    expect(completedCliInstall(spec)).toBeUndefined();
    const second = ensureCliInstall(spec);
    expect(second.kind).toBe('installed');
    expect(second.dir).not.toBe(first.dir);
  });
});
