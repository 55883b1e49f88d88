import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHookSandbox, type HookSandbox } from '../test-support/hook-sandbox.ts';
import { runHookBundle } from '../test-support/run-hook-bundle.ts';

// uninstall --purge through the built bin, on a temp HOME: the hooks, then our state and caches.

let sandbox: HookSandbox;
beforeEach(() => {
  sandbox = createHookSandbox('ac-purge-');
});
afterEach(() => sandbox.remove());

const run = (args: string[], env: Record<string, string> = {}) => runHookBundle({ args, env: { ...sandbox.env, NO_COLOR: '1', ...env }, cwd: sandbox.home });

function writeFile(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

describe('uninstall --purge', () => {
  it('removes the hooks, then the state directory and the caches, listing each; --dry-run changes nothing', async () => {
    const settings = join(sandbox.home, '.claude', 'settings.json');
    const original = '{ "model": "opus" }\n';
    writeFile(settings, original);
    const userConfig = join(sandbox.home, '.config', 'agent-checkpoint', 'config.json');
    writeFile(userConfig, '{ "gitTimeoutMs": 4000 }\n');
    expect((await run(['install', '--agent', 'claude'])).code).toBe(0);
    expect((await run(['off', '--all'])).code).toBe(0);
    // The config cache is filled by a load of the user file (here through `config`).
    expect((await run(['config'])).code).toBe(0);
    const cacheDir = join(sandbox.home, '.cache', 'agent-checkpoint');
    writeFile(join(cacheDir, 'hook-test.v8cache'), 'x');
    expect(existsSync(join(sandbox.stateDir, 'installs'))).toBe(true);

    const dry = await run(['uninstall', '--agent', 'all', '--purge', '--dry-run']);
    expect(dry.code).toBe(0);
    // The sandbox names the state directory through AGENT_CHECKPOINT_STATE_DIR: a directory the user chose.
    expect(dry.stdout).toContain(`would remove our files in ${sandbox.stateDir}`);
    expect(dry.stdout).toContain(`would remove ${cacheDir}`);
    expect(existsSync(sandbox.stateDir)).toBe(true);
    expect(existsSync(cacheDir)).toBe(true);
    expect(readFileSync(settings, 'utf8')).not.toBe(original);

    const purged = await run(['uninstall', '--agent', 'all', '--purge']);
    expect(purged).toMatchObject({ code: 0, stderr: '' });
    expect(purged.stdout).toContain(`removed our files in ${sandbox.stateDir}`);
    expect(purged.stdout).toContain(`removed ${cacheDir}`);
    expect(readFileSync(settings, 'utf8')).toBe(original);
    expect(existsSync(sandbox.stateDir)).toBe(false);
    expect(existsSync(cacheDir)).toBe(false);
    // The user's own files stay.
    expect(readFileSync(userConfig, 'utf8')).toBe('{ "gitTimeoutMs": 4000 }\n');
  });

  it('a state and a cache directory the user chose keep their own files: only ours go (issue 23)', async () => {
    const settings = join(sandbox.home, '.claude', 'settings.json');
    writeFile(settings, '{}\n');
    const state = join(sandbox.root, 'my-dir');
    const cache = join(sandbox.root, 'my-cache');
    writeFile(join(state, 'notes.txt'), 'mine\n');
    writeFile(join(state, 'projects', 'plan.md'), 'mine too\n');
    writeFile(join(cache, 'build.o'), 'mine\n');
    const env = { AGENT_CHECKPOINT_STATE_DIR: state, AGENT_CHECKPOINT_CACHE_DIR: cache };
    expect((await run(['install', '--agent', 'claude'], env)).code).toBe(0);
    expect((await run(['off', '--all'], env)).code).toBe(0);
    writeFile(join(cache, 'hook-0123456789abcdef01234567.v8cache'), 'x');
    expect(existsSync(join(state, 'installs'))).toBe(true);
    const purged = await run(['uninstall', '--agent', 'all', '--purge'], env);
    expect(purged).toMatchObject({ code: 0, stderr: '' });
    expect(purged.stdout).toContain(`removed our files in ${state}`);
    expect(purged.stdout).toContain(`kept ${state}: it holds 2 entries that are not ours`);
    expect(purged.stdout).toContain(`kept ${cache}: it holds 1 entry that is not ours`);
    expect(readdirSync(state).sort()).toEqual(['notes.txt', 'projects']);
    expect(readFileSync(join(state, 'projects', 'plan.md'), 'utf8')).toBe('mine too\n');
    expect(readdirSync(cache)).toEqual(['build.o']);
  });

  it('refuses to remove a state directory that is the home directory', async () => {
    writeFile(join(sandbox.home, 'keep.txt'), 'mine');
    const result = await run(['uninstall', '--agent', 'all', '--purge'], { AGENT_CHECKPOINT_STATE_DIR: sandbox.home });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('home directory');
    expect(readFileSync(join(sandbox.home, 'keep.txt'), 'utf8')).toBe('mine');
  });

  it('refuses while another install is still recorded (its original could no longer be restored)', async () => {
    const repo = join(sandbox.root, 'repo');
    mkdirSync(join(repo, '.git'), { recursive: true });
    expect((await runHookBundle({ args: ['install', '--agent', 'claude', '--scope', 'project'], env: { ...sandbox.env, NO_COLOR: '1' }, cwd: repo })).code).toBe(0);
    const result = await run(['uninstall', '--agent', 'all', '--purge']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(join(repo, '.claude', 'settings.json'));
    expect(existsSync(sandbox.stateDir)).toBe(true);
  });

  it('an install record planted as a FIFO is named as unreadable at once, never waited on (issue 23)', async () => {
    mkdirSync(join(sandbox.stateDir, 'installs'), { recursive: true, mode: 0o700 });
    execFileSync('mkfifo', [join(sandbox.stateDir, 'installs', 'planted.json')]);
    const result = await runHookBundle({ args: ['uninstall', '--agent', 'all', '--purge'], env: { ...sandbox.env, NO_COLOR: '1' }, cwd: sandbox.home, killAfterMs: 15_000 });
    expect(result.signal).toBeNull();
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('planted.json  (unreadable record)');
  });

  it('is for uninstall only', async () => {
    const result = await run(['install', '--agent', 'claude', '--purge']);
    expect(result.code).toBe(2);
  });
});
