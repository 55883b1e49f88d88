import { execFileSync, spawn } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildBundle } from '../../src/__fixtures__/codex-world.ts';

// `agent-checkpoint-tmux install|uninstall|doctor` on a hostile config.toml (docs/reliability.md,
// "Settings files"): a FIFO, a device, a directory, a symlink loop, an immutable file. Each command
// ends in bounded time with one line (doctor: a failure finding), exit 1, the path exactly as it
// was. Real FIFOs and device nodes (mknod, inside the temp dir only) and the real bundle.

const KILL_AFTER_MS = 15_000;

let bundleDir: string;
let bundle: string;
beforeAll(async () => {
  bundleDir = mkdtempSync(join(tmpdir(), 'ac-tmux-rel-settings-'));
  bundle = await buildBundle(bundleDir);
}, 60_000);
afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));

let root: string;
let env: Record<string, string>;
const cleanups: Array<() => void> = [];
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'ac-tmux-settings-')));
  env = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: join(root, 'home'),
    CODEX_HOME: join(root, 'codex'),
    AGENT_CHECKPOINT_STATE_DIR: join(root, 'state'),
    TMUX_TMPDIR: join(root, 'tmux'),
    NO_COLOR: '1',
  };
  mkdirSync(env['HOME']!);
  mkdirSync(env['CODEX_HOME']!);
});
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
  rmSync(root, { recursive: true, force: true });
});

interface Ran {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The bundle, killed past the deadline (a hang fails fast); `cwd` may be removed before node starts. */
function tmux(args: readonly string[], options: { deleteCwd?: string } = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const [command, argv] =
      options.deleteCwd === undefined
        ? [process.execPath, [bundle, ...args]]
        : ['/bin/sh', ['-c', 'cd "$GONE" && rmdir "$GONE" && exec "$NODE_BIN" "$TMUX_BIN" "$@"', 'sh', ...args]];
    if (options.deleteCwd !== undefined) mkdirSync(options.deleteCwd, { recursive: true });
    const child = spawn(command, argv, {
      cwd: options.deleteCwd ?? root,
      env: { ...env, ...(options.deleteCwd === undefined ? {} : { GONE: options.deleteCwd, NODE_BIN: process.execPath, TMUX_BIN: bundle }) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const killer = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
    child.on('error', (error) => {
      clearTimeout(killer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

const config = (): string => join(env['CODEX_HOME']!, 'config.toml');

function snapshot(path: string): { kind: string; ino: number; mode: number; bytes?: string } {
  const info = lstatSync(path);
  const kind = info.isFIFO() ? 'fifo' : info.isCharacterDevice() ? 'char' : info.isDirectory() ? 'dir' : info.isSymbolicLink() ? 'link' : info.isFile() ? 'file' : 'other';
  return { kind, ino: info.ino, mode: info.mode, ...(info.isFile() ? { bytes: readFileSync(path, 'latin1') } : {}) };
}

function works(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const probe = (() => {
  const dir = mkdtempSync(join(tmpdir(), 'ac-tmux-settings-probe-'));
  try {
    writeFileSync(join(dir, 'file'), '');
    const mknod = works('mknod', [join(dir, 'null'), 'c', '1', '3']);
    const chattr = works('chattr', ['+i', join(dir, 'file')]);
    if (chattr) works('chattr', ['-i', join(dir, 'file')]);
    return { mknod, chattr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
})();

const HOSTILE: ReadonlyArray<{ name: string; skip?: boolean; plant: (path: string) => void; says: RegExp; doctor?: boolean }> = [
  { name: 'a FIFO', plant: (path) => execFileSync('mkfifo', [path]), says: /is a FIFO \(named pipe\), not a regular file/ },
  {
    name: 'a symlink to an endless character device (zero)',
    skip: !probe.mknod,
    plant: (path) => {
      execFileSync('mknod', [join(root, 'zero'), 'c', '1', '5']);
      symlinkSync(join(root, 'zero'), path);
    },
    says: /is a character device \(through the symbolic link to .*zero\), not a regular file/,
  },
  { name: 'a directory', plant: (path) => mkdirSync(path), says: /is a directory, not a regular file/ },
  {
    name: 'a symlink loop',
    plant: (path) => {
      symlinkSync(`${path}.b`, path);
      symlinkSync(path, `${path}.b`);
    },
    says: /is a symbolic link loop/,
  },
];

describe('install, uninstall and doctor refuse a config.toml that is not a regular file', () => {
  for (const hostile of HOSTILE) {
    it.skipIf(hostile.skip === true)(hostile.name, async () => {
      const path = config();
      hostile.plant(path);
      const before = snapshot(path);
      for (const command of ['install', 'uninstall']) {
        const result = await tmux([command]);
        expect(result.signal, `hung: ${result.stderr}`).toBeNull();
        expect(result.code, result.stderr).toBe(1);
        const lines = result.stderr.split('\n').filter((l) => l !== '');
        expect(lines, result.stderr).toHaveLength(1);
        expect(lines[0]).toMatch(new RegExp(`^agent-checkpoint-tmux: ${command} failed: `));
        expect(lines[0]).toContain(path);
        expect(lines[0]).toMatch(hostile.says);
        expect(snapshot(path)).toEqual(before);
      }
      const doctor = await tmux(['doctor']);
      expect(doctor.signal, `hung: ${doctor.stdout}`).toBeNull();
      expect(doctor.code).toBe(1);
      expect(doctor.stderr).not.toMatch(/\n\s+at /);
      expect(doctor.stdout).toMatch(hostile.says);
      expect(snapshot(path)).toEqual(before);
    });
  }

  it.skipIf(!probe.chattr)('an immutable config.toml: one line, exit 1, untouched', async () => {
    const path = config();
    writeFileSync(path, 'model = "gpt-5.5"\n');
    execFileSync('chattr', ['+i', path]);
    cleanups.push(() => execFileSync('chattr', ['-i', path]));
    const before = snapshot(path);
    const result = await tmux(['install']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^agent-checkpoint-tmux: install failed: ${path} cannot be written: operation not permitted \\(EPERM[^\\n]*\\n$`));
    expect(snapshot(path)).toEqual(before);
  });

  it('a symlinked config.toml (dotfiles) stays a symlink: the target is edited, and restored by uninstall', async () => {
    const target = join(root, 'dotfiles', 'codex-config.toml');
    mkdirSync(join(root, 'dotfiles'));
    writeFileSync(target, 'model = "gpt-5.5"\n');
    symlinkSync(target, config());
    expect((await tmux(['install'])).code).toBe(0);
    expect(lstatSync(config()).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toContain('agent-checkpoint-tmux.mjs');
    expect((await tmux(['uninstall'])).code).toBe(0);
    expect(lstatSync(config()).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('model = "gpt-5.5"\n');
  });
});

describe('a deleted working directory', () => {
  it('install, uninstall and doctor still work on an absolute CODEX_HOME (no raw exception)', async () => {
    for (const command of ['install', 'doctor', 'uninstall']) {
      const result = await tmux([command], { deleteCwd: join(root, 'removed-worktree') });
      expect(result.signal).toBeNull();
      expect(result.stderr, command).not.toMatch(/\n\s+at |ENOENT|uv_cwd/);
      if (command !== 'doctor') expect(result.code, `${command}: ${result.stderr}`).toBe(0);
    }
  });
});
