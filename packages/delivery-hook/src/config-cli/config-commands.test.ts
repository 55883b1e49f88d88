import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '@agent-checkpoint/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHookSandbox, type HookSandbox } from '../test-support/hook-sandbox.ts';
import { runHookBundle } from '../test-support/run-hook-bundle.ts';
import { contextCheckpointSections, runTestsConfigOf } from '@agent-checkpoint/context-checkpoint/load';

// init, config and presets through the built bin, in temp git repositories and temp HOMEs.

let sandbox: HookSandbox;
let repo: string;
beforeEach(() => {
  sandbox = createHookSandbox();
  repo = join(sandbox.root, 'repo');
  mkdirSync(join(repo, 'src'), { recursive: true });
  execFileSync('git', ['init', '-q', repo], { env: sandbox.env });
  writeFileSync(join(repo, 'package.json'), '{"name":"demo"}\n');
  writeFileSync(join(repo, 'pnpm-lock.yaml'), 'lockfileVersion: 9.0\n');
});
afterEach(() => {
  sandbox.remove();
});

const run = (args: string[], cwd = repo) => runHookBundle({ args, env: sandbox.env, cwd });
const PROJECT_FILE = () => join(repo, '.agent-checkpoint.json');

/** Every `// "key": …` example line of the file uncommented (the example block is valid JSONC). */
function uncommentExamples(text: string): string {
  return text.replace(/^(\s*)\/\/ (\s*["\]{])/gm, '$1$2');
}

describe('init', () => {
  it('writes the detected presets, a $schema that exists, and examples that validate', async () => {
    const result = await run(['init'], join(repo, 'src'));
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('node-pnpm');
    const text = readFileSync(PROJECT_FILE(), 'utf8');
    expect(text).toContain('"extends": ["node-pnpm"]');
    // One form everywhere: core's published schema of this version; nothing of this machine in it.
    const core = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'core', 'package.json'), 'utf8')) as { version: string };
    expect(/"\$schema": "([^"]+)"/.exec(text)?.[1]).toBe(`https://unpkg.com/@agent-checkpoint/core@${core.version}/schema.json`);
    expect(text).not.toContain(sandbox.root);
    expect(text).not.toContain('file:');

    // Valid as written, and with every example uncommented (trusted, so runTests applies too).
    const env = { ...sandbox.env };
    const asWritten = await loadConfig({ cwd: repo, env, cacheDir: false, sections: contextCheckpointSections });
    expect(asWritten.diagnostics).toEqual([]);
    writeFileSync(PROJECT_FILE(), uncommentExamples(text));
    expect(readFileSync(PROJECT_FILE(), 'utf8')).toContain('\n  "runTests"');
    expect((await run(['trust'])).code).toBe(0);
    const uncommented = await loadConfig({ cwd: repo, env, cacheDir: false, sections: contextCheckpointSections });
    expect(uncommented.diagnostics).toEqual([]);
    expect(uncommented.config.categories.map((c) => c.id)).toContain('migrations');
    expect(runTestsConfigOf(uncommented.config)?.command).toBe('npm test');
  });

  it('writes the same $schema whether or not the project installs the package (a file to commit)', async () => {
    const first = await run(['init', '--print']);
    const installed = join(repo, 'node_modules', '@agent-checkpoint', 'core');
    mkdirSync(installed, { recursive: true });
    writeFileSync(join(installed, 'schema.json'), '{}');
    const second = await run(['init', '--print']);
    expect(first).toMatchObject({ code: 0 });
    expect(second.stdout).toBe(first.stdout);
    // …and the same as the repository's example project file.
    const example = readFileSync(join(import.meta.dirname, '..', '..', '..', '..', 'fixtures', 'example', 'project', '.agent-checkpoint.json'), 'utf8');
    expect(/"\$schema": "([^"]+)"/.exec(example)?.[1]).toBe(/"\$schema": "([^"]+)"/.exec(first.stdout)?.[1]);
  });

  it('refuses to overwrite an existing file; --force keeps a backup', async () => {
    writeFileSync(PROJECT_FILE(), '{ "enabled": false }\n');
    const refused = await run(['init']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--force');
    expect(readFileSync(PROJECT_FILE(), 'utf8')).toBe('{ "enabled": false }\n');

    const forced = await run(['init', '--force']);
    expect(forced.code).toBe(0);
    expect(readFileSync(`${PROJECT_FILE()}.bak`, 'utf8')).toBe('{ "enabled": false }\n');
    expect(readFileSync(PROJECT_FILE(), 'utf8')).toContain('"extends"');
    // A second --force keeps the first backup and adds another.
    expect((await run(['init', '--force'])).code).toBe(0);
    expect(readFileSync(`${PROJECT_FILE()}.bak`, 'utf8')).toBe('{ "enabled": false }\n');
  });

  it('never writes through a link or waits on a FIFO: a dangling link, --force on a link, a FIFO, a linked backup (issue 23)', async () => {
    const outside = join(sandbox.root, 'outside');
    mkdirSync(outside);
    // A dangling link: "nothing there" to existsSync, and writing would create its target outside.
    symlinkSync(join(outside, 'created.json'), PROJECT_FILE());
    const dangling = await run(['init', '--force'], repo);
    expect(dangling.code).toBe(1);
    expect(dangling.stderr).toMatch(/^agent-checkpoint: init: .*\.agent-checkpoint\.json: .*symlink.*; nothing written\n$/);
    expect(readdirSync(outside)).toEqual([]);
    // --force on a link to a file elsewhere: neither the file nor a backup written through it.
    const victim = join(outside, 'victim.json');
    writeFileSync(victim, 'precious\n');
    execFileSync('rm', [PROJECT_FILE()]);
    symlinkSync(victim, PROJECT_FILE());
    expect((await run(['init', '--force'])).code).toBe(1);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(lstatSync(PROJECT_FILE()).isSymbolicLink()).toBe(true);
    // A FIFO nobody writes to: refused at once (the old copy to the backup waited for a writer).
    execFileSync('rm', [PROJECT_FILE()]);
    execFileSync('mkfifo', [PROJECT_FILE()]);
    const fifo = await runHookBundle({ args: ['init', '--force'], env: sandbox.env, cwd: repo, killAfterMs: 15_000 });
    expect(fifo.signal).toBeNull();
    expect(fifo.code).toBe(1);
    expect(fifo.stderr).toMatch(/not a regular file/);
    // A backup name planted as a link: the backup goes to a fresh name, the link's target untouched.
    execFileSync('rm', [PROJECT_FILE()]);
    writeFileSync(PROJECT_FILE(), '{ "enabled": false }\n');
    symlinkSync(victim, `${PROJECT_FILE()}.bak`);
    const forced = await run(['init', '--force']);
    expect(forced.code).toBe(0);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    const backups = readdirSync(repo).filter((name) => name.startsWith('.agent-checkpoint.json.bak.'));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(repo, backups[0]!), 'utf8')).toBe('{ "enabled": false }\n');
  });

  it('--print writes nothing', async () => {
    const result = await run(['init', '--print']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('"extends"');
    expect(existsSync(PROJECT_FILE())).toBe(false);
  });
});

describe('config', () => {
  it('shows each value with its origin, and the project keys ignored as untrusted', async () => {
    writeFileSync(PROJECT_FILE(), '// team settings\n{ "loopGuard": { "maxBlocksPerTurn": 3 }, "runTests": { "command": "pnpm test" } }\n');
    const userDir = join(sandbox.home, '.config', 'agent-checkpoint');
    mkdirSync(userDir, { recursive: true });
    writeFileSync(join(userDir, 'config.json'), '{ "gitTimeoutMs": 4321 }\n');

    const text = await run(['config']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/loopGuard\.maxBlocksPerTurn = 3 +\(project file .*\.agent-checkpoint\.json\)/);
    expect(text.stdout).toMatch(/gitTimeoutMs = 4321 +\(user file .*config\.json\)/);
    expect(text.stdout).toMatch(/categories\.node-dependencies = .*\(preset node-pnpm \(detected\)\)/);
    expect(text.stdout).toMatch(/silentWhenAllClear = \w+ +\(default\)/);
    expect(text.stdout).toContain('not trusted');
    expect(text.stdout).toContain('runTests.command');

    const json = JSON.parse((await run(['config', '--json'])).stdout) as {
      origins: Record<string, string>;
      untrusted: { ignoredKeys: string[] } | null;
      config: { loopGuard: { maxBlocksPerTurn: number } };
    };
    expect(json.config.loopGuard.maxBlocksPerTurn).toBe(3);
    expect(json.origins['loopGuard.maxBlocksPerTurn']).toMatch(/^project file /);
    expect(json.origins['gitTimeoutMs']).toMatch(/^user file /);
    expect(json.origins['categories.typescript']).toBe('preset node-pnpm (detected)');
    expect(json.untrusted?.ignoredKeys).toContain('runTests.command');
  });

  it("credits a file's extends to the preset, not the file", async () => {
    writeFileSync(PROJECT_FILE(), '{ "extends": ["rust"], "detectPresets": false }\n');
    const json = JSON.parse((await run(['config', '--json'])).stdout) as { origins: Record<string, string> };
    expect(Object.entries(json.origins).filter(([, o]) => o.startsWith('project file'))).toEqual([]);
    expect(Object.values(json.origins)).toContain('preset rust');
  });

  it('exits 1 when a configuration file is ignored as a whole, with the reason on stderr', async () => {
    writeFileSync(PROJECT_FILE(), '{ "loopGuard": { "maxBlocksPerTurn": "many" } }\n');
    const result = await run(['config']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('problems:');
    expect(result.stdout).toContain('maxBlocksPerTurn');
    expect(result.stderr).toMatch(new RegExp(`^agent-checkpoint: config: ${PROJECT_FILE().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is ignored as a whole: invalid configuration, file ignored:; .*maxBlocksPerTurn`));
    const json = await run(['config', '--json']);
    expect(json.code).toBe(1);
    expect((JSON.parse(json.stdout) as { ignoredFiles: Array<{ path: string }> }).ignoredFiles.map((f) => f.path)).toEqual([PROJECT_FILE()]);
  });

  it('exits 1 for a project file below the repository root and for an unreadable user file; 0 for an untrusted one', async () => {
    writeFileSync(join(repo, 'src', '.agent-checkpoint.json'), '{}\n');
    const stray = await run(['config'], join(repo, 'src'));
    expect(stray.code).toBe(1);
    expect(stray.stderr).toContain(`${join(repo, 'src', '.agent-checkpoint.json')} is ignored as a whole: ignored; only ${PROJECT_FILE()} (the repository root) is read`);

    const userDir = join(sandbox.root, 'user-config-dir');
    mkdirSync(userDir);
    const unreadable = await runHookBundle({ args: ['config'], env: { ...sandbox.env, AGENT_CHECKPOINT_CONFIG: userDir }, cwd: repo });
    expect(unreadable.code).toBe(1);
    expect(unreadable.stderr).toContain(`${userDir} is ignored as a whole:`);

    // Untrusted privileged keys: the rest of the file applies, and config says which keys are ignored.
    writeFileSync(PROJECT_FILE(), '{ "runTests": { "enabled": true, "command": "npm test" } }\n');
    const untrusted = await run(['config']);
    expect(untrusted).toMatchObject({ code: 0, stderr: '' });
    expect(untrusted.stdout).toContain('ignored (');
    expect((await run(['config'])).code).toBe(0);
  });
});

describe('presets', () => {
  it('lists every preset with what it checks and needs, and whether it is detected here', async () => {
    const json = JSON.parse((await run(['presets', '--json'])).stdout) as {
      presets: Array<{ id: string; detect: string[]; categories: string[]; detected: boolean; applied: boolean }>;
    };
    const byId = new Map(json.presets.map((p) => [p.id, p]));
    expect(byId.get('node-pnpm')).toMatchObject({ detected: true, applied: true });
    expect(byId.get('node')).toMatchObject({ detected: true, applied: false });
    expect(byId.get('rust')).toMatchObject({ detected: false, applied: false });
    expect(byId.get('rust')?.detect).toContain('Cargo.toml');
    expect(byId.get('node-pnpm')?.categories.length).toBeGreaterThan(0);

    const text = await run(['presets']);
    expect(text.stdout).toMatch(/node-pnpm +applied/);
    expect(text.stdout).toMatch(/rust +not detected/);
  });
});
