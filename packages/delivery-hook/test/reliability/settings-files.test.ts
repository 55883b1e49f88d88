import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, readdirSync, realpathSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse } from 'jsonc-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHookSandbox, type HookSandbox } from '../../src/test-support/hook-sandbox.ts';
import { HOOK_BUNDLE, runHookBundle, type HookProcessResult } from '../../src/test-support/run-hook-bundle.ts';

// install, uninstall and doctor on hostile settings files (docs/reliability.md, "Settings files"):
// whatever sits at a settings path — a FIFO, a device, a directory, a symlink loop, an immutable
// file, duplicate keys — each command ends in bounded time with one clear line, exit 1, and the
// path exactly as it was. Real FIFOs, real device nodes (mknod, inside the temp dir only), real bins.

/** A hang fails the test fast instead of wedging it: the bin is killed past this. */
const KILL_AFTER_MS = 15_000;

let sandbox: HookSandbox;
const cleanups: Array<() => void> = [];
beforeEach(() => {
  sandbox = createHookSandbox('ac-settings-');
});
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
  sandbox.remove();
});

const run = (args: string[]): Promise<HookProcessResult> => runHookBundle({ args, env: { ...sandbox.env, NO_COLOR: '1' }, cwd: sandbox.root, killAfterMs: KILL_AFTER_MS });

const NODE = realpathSync(process.execPath);
const BUNDLE = realpathSync(HOOK_BUNDLE);

/** lstat identity + bytes (regular files only) of a path, to prove it was left exactly as it was. */
function snapshot(path: string): { kind: string; ino: number; mode: number; bytes?: string } {
  const info = lstatSync(path);
  const kind = info.isFIFO() ? 'fifo' : info.isCharacterDevice() ? 'char' : info.isDirectory() ? 'dir' : info.isSymbolicLink() ? 'link' : info.isFile() ? 'file' : 'other';
  return { kind, ino: info.ino, mode: info.mode, ...(info.isFile() ? { bytes: readFileSync(path, 'latin1') } : {}) };
}

/** One line on stderr, prefixed, naming the path; no stack trace. */
function expectOneLine(result: HookProcessResult, path: string, says: RegExp): void {
  expect(result.signal, `killed after ${KILL_AFTER_MS} ms (hung): ${result.stderr}`).toBeNull();
  expect(result.code, `stdout:\n${result.stdout}\nstderr:\n${result.stderr}`).toBe(1);
  const lines = result.stderr.split('\n').filter((l) => l !== '');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^agent-checkpoint: /);
  expect(lines[0]).toContain(path);
  expect(lines[0]).toMatch(says);
  expect(result.stderr).not.toMatch(/\n\s+at [^\n]+:\d+:\d+/);
}

const claudeSettings = (): string => join(sandbox.home, '.claude', 'settings.json');

function canUse(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Whether this process can make device nodes and immutable files here (root on a local file system). */
const probe = (() => {
  const sandboxProbe = createHookSandbox('ac-settings-probe-');
  try {
    const device = join(sandboxProbe.root, 'null');
    const file = join(sandboxProbe.root, 'file');
    writeFileSync(file, '');
    const mknod = canUse('mknod', [device, 'c', '1', '3']);
    const chattr = canUse('chattr', ['+i', file]);
    if (chattr) canUse('chattr', ['-i', file]);
    return { mknod, chattr };
  } finally {
    sandboxProbe.remove();
  }
})();

function immutable(path: string): void {
  execFileSync('chattr', ['+i', path]);
  cleanups.push(() => execFileSync('chattr', ['-i', path]));
}

/** What to plant at the settings path, and what the one line must say. */
interface Hostile {
  readonly name: string;
  readonly skip?: boolean;
  /** Creates the thing at `path` (its directory exists). */
  readonly plant: (path: string) => void;
  readonly says: RegExp;
}

const HOSTILE: readonly Hostile[] = [
  { name: 'a FIFO', plant: (path) => execFileSync('mkfifo', [path]), says: /is a FIFO \(named pipe\), not a regular file/ },
  {
    name: 'a symlink to a character device that never ends (zero)',
    skip: !probe.mknod,
    plant: (path) => {
      execFileSync('mknod', [join(sandbox.root, 'zero'), 'c', '1', '5']);
      symlinkSync(join(sandbox.root, 'zero'), path);
    },
    says: /is a character device \(through the symbolic link to .*zero\), not a regular file/,
  },
  {
    name: 'a symlink to an empty character device (null)',
    skip: !probe.mknod,
    plant: (path) => {
      execFileSync('mknod', [join(sandbox.root, 'null'), 'c', '1', '3']);
      symlinkSync(join(sandbox.root, 'null'), path);
    },
    says: /is a character device \(through the symbolic link to .*null\), not a regular file/,
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
  { name: 'a dangling symlink', plant: (path) => symlinkSync(join(sandbox.root, 'nowhere.json'), path), says: /symbolic link to a file that does not exist/ },
  {
    name: 'a file over the size cap (sparse, 5 MiB)',
    plant: (path) => {
      writeFileSync(path, '{}');
      truncateSync(path, 5 * 1024 * 1024);
    },
    says: /over the 4194304-byte limit/,
  },
];

describe('install and uninstall refuse a settings path that is not a regular file: one line, exit 1, untouched', () => {
  for (const hostile of HOSTILE) {
    it.skipIf(hostile.skip === true)(`${hostile.name}`, async () => {
      const path = claudeSettings();
      mkdirSync(dirname(path), { recursive: true });
      hostile.plant(path);
      const before = snapshot(path);
      for (const command of ['install', 'uninstall']) {
        const result = await run([command, '--agent', 'claude']);
        expectOneLine(result, path, hostile.says);
        expect(snapshot(path)).toEqual(before);
      }
      // Nothing recorded, nothing backed up: no change was made.
      expect(readdirSafe(join(sandbox.stateDir, 'installs'))).toEqual([]);
    });
  }

  it('the same for Gemini settings.json and Codex hooks.json (a FIFO each), with --agent all going on past the refused one', async () => {
    const gemini = join(sandbox.home, '.gemini', 'settings.json');
    const codex = join(sandbox.home, '.codex', 'hooks.json');
    mkdirSync(dirname(gemini), { recursive: true });
    mkdirSync(dirname(codex), { recursive: true });
    execFileSync('mkfifo', [gemini]);
    execFileSync('mkfifo', [codex]);
    const result = await run(['install', '--agent', 'all']);
    expect(result.signal, result.stderr).toBeNull();
    expect(result.code).toBe(1);
    const lines = result.stderr.split('\n').filter((l) => l !== '');
    expect(lines).toEqual([expect.stringContaining(`Gemini CLI (user): install failed: ${gemini} is a FIFO`), expect.stringContaining(`Codex CLI (user): install failed: ${codex} is a FIFO`)]);
    expect(lstatSync(gemini).isFIFO() && lstatSync(codex).isFIFO()).toBe(true);
  });
});

describe('write faults: an immutable file or directory is one line, exit 1, untouched', () => {
  it.skipIf(!probe.chattr)('an immutable settings file (chattr +i: EPERM on the rename)', async () => {
    const path = claudeSettings();
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, '{\n  "model": "opus"\n}\n');
    immutable(path);
    const before = snapshot(path);
    const result = await run(['install', '--agent', 'claude']);
    expectOneLine(result, path, /cannot be written: operation not permitted \(EPERM/);
    expect(snapshot(path)).toEqual(before);
  });

  it.skipIf(!probe.chattr)('an immutable settings directory (no temp file can be created next to the file)', async () => {
    const path = claudeSettings();
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, '{}\n');
    immutable(dirname(path));
    const before = snapshot(path);
    const result = await run(['install', '--agent', 'claude']);
    expectOneLine(result, path, /cannot be written: operation not permitted \(EPERM/);
    expect(snapshot(path)).toEqual(before);
    expect(readdirSync(dirname(path))).toEqual(['settings.json']);
  });

  it.skipIf(!probe.chattr)('uninstall of an installed file made immutable afterwards', async () => {
    const path = claudeSettings();
    expect((await run(['install', '--agent', 'claude'])).code).toBe(0);
    immutable(path);
    const before = snapshot(path);
    const result = await run(['uninstall', '--agent', 'claude']);
    expectOneLine(result, path, /cannot be deleted|cannot be written/);
    expect(snapshot(path)).toEqual(before);
  });
});

describe('duplicate keys on the hooks path: refused, never the wrong copy edited', () => {
  const cases: Array<[string, string, RegExp]> = [
    [
      'two "hooks" objects (the agent reads the last one; install edited the first)',
      `{\n  "hooks": { "Stop": [] },\n  "model": "opus",\n  "hooks": { "PreToolUse": [] }\n}\n`,
      /the key "hooks" appears more than once in the top level/,
    ],
    ['two "Stop" arrays', `{ "hooks": { "Stop": [], "Stop": [ { "hooks": [] } ] } }\n`, /the key "Stop" appears more than once in "hooks"/],
    [
      'two "hooks" arrays in one matcher group',
      `{ "hooks": { "Stop": [ { "hooks": [ { "type": "command", "command": "${NODE} ${BUNDLE} claude" } ], "hooks": [] } ] } }\n`,
      /the key "hooks" appears more than once in "hooks.Stop\[0\]"/,
    ],
  ];
  for (const [name, text, says] of cases) {
    it(name, async () => {
      const path = claudeSettings();
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      for (const command of ['install', 'uninstall']) {
        const result = await run([command, '--agent', 'claude']);
        expectOneLine(result, path, says);
        expect(readFileSync(path, 'utf8')).toBe(text);
      }
      const doctor = await run(['doctor', '--cwd', sandbox.root]);
      expect(doctor.signal).toBeNull();
      expect(doctor.code).toBe(1);
      expect(doctor.stdout).toMatch(says);
    });
  }
});

describe('doctor on hostile settings files: a failure finding each, bounded time, no stack trace', () => {
  it('a FIFO settings.json, a FIFO config.toml, a symlink-loop Gemini settings', async () => {
    const claude = claudeSettings();
    const gemini = join(sandbox.home, '.gemini', 'settings.json');
    const codexDir = join(sandbox.home, '.codex');
    for (const dir of [dirname(claude), dirname(gemini), codexDir]) mkdirSync(dir, { recursive: true });
    execFileSync('mkfifo', [claude]);
    symlinkSync(`${gemini}.b`, gemini);
    symlinkSync(gemini, `${gemini}.b`);
    // A registered Codex hook makes doctor read config.toml for the trust state: that one is a FIFO.
    writeFileSync(join(codexDir, 'hooks.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: `${NODE} ${BUNDLE} codex`, timeout: 30 }] }] } }));
    execFileSync('mkfifo', [join(codexDir, 'config.toml')]);
    const before = [claude, gemini, join(codexDir, 'config.toml')].map(snapshot);

    const result = await run(['doctor', '--cwd', sandbox.root]);
    expect(result.signal, `hung: ${result.stdout}`).toBeNull();
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain(`${claude} is a FIFO (named pipe), not a regular file`);
    expect(result.stdout).toContain(`${gemini} is a symbolic link loop`);
    expect(result.stdout).toContain(`${join(codexDir, 'config.toml')} is a FIFO (named pipe), not a regular file`);
    expect([claude, gemini, join(codexDir, 'config.toml')].map(snapshot)).toEqual(before);
  });

  it.skipIf(!probe.mknod)('a settings.json symlinked to an endless character device', async () => {
    const claude = claudeSettings();
    mkdirSync(dirname(claude), { recursive: true });
    execFileSync('mknod', [join(sandbox.root, 'zero'), 'c', '1', '5']);
    symlinkSync(join(sandbox.root, 'zero'), claude);
    const result = await run(['doctor', '--cwd', sandbox.root]);
    expect(result.signal, 'hung or ran out of memory').toBeNull();
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`${claude} is a character device`);
  });
});

describe("a user's hooks are never ours: exact matching only", () => {
  it('uninstall without any install record removes only the exact forms older installs wrote, never a command that mentions our name', async () => {
    const path = claudeSettings();
    const legacy = `${NODE} '/old place/agent-checkpoint-hook.mjs' claude`;
    const theirs = [
      `/home/me/bin/wrap.sh ${NODE} ${BUNDLE} claude`,
      'echo "agent-checkpoint-hook finished" >> /tmp/log',
      `${NODE} ${BUNDLE} claude 2>/dev/null`,
      `${NODE} ${BUNDLE}  claude`,
      `node ${BUNDLE} claude`,
    ];
    const groups = [legacy, ...theirs].map((c) => `      { "hooks": [ { "type": "command", "command": ${JSON.stringify(c)} } ] }`);
    const text = `{\n  "hooks": {\n    "Stop": [\n${groups.join(',\n')}\n    ],\n    "SessionStart": [\n      { "hooks": [ { "type": "command", "command": ${JSON.stringify(`${NODE} ${BUNDLE} session-start claude`)} } ] }\n    ]\n  }\n}\n`;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    const result = await run(['uninstall', '--agent', 'claude']);
    expect(result.code, result.stderr).toBe(0);
    const value = parse(readFileSync(path, 'utf8')) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
    expect(Object.keys(value.hooks)).toEqual(['Stop']);
    expect(value.hooks['Stop']!.map((g) => g.hooks[0]!.command)).toEqual(theirs);
  });

  it('install records the exact commands it wrote; a later uninstall removes those', async () => {
    const path = claudeSettings();
    expect((await run(['install', '--agent', 'claude', '--with-context'])).code).toBe(0);
    const records = readdirSync(join(sandbox.stateDir, 'installs')).filter((n) => n.endsWith('.json'));
    expect(records).toHaveLength(1);
    const record = JSON.parse(readFileSync(join(sandbox.stateDir, 'installs', records[0]!), 'utf8')) as { commands: string[] };
    // --with-context also installs the monitor (PostToolUse), the estimate at prompt submit and, as the
    // settings had no status line, ours.
    expect(record.commands).toEqual([
      `${NODE} ${BUNDLE} claude`,
      `${NODE} ${BUNDLE} session-start claude`,
      `${NODE} ${BUNDLE} pre-compact claude`,
      `${NODE} ${BUNDLE} post-tool claude`,
      `${NODE} ${BUNDLE} prompt-submit claude`,
      `${NODE} ${BUNDLE} statusline`,
    ]);
    // Changed since install: the surgical path removes exactly the recorded entries, nothing else.
    const edited = readFileSync(path, 'utf8').replace('{', '{\n  "model": "opus",');
    writeFileSync(path, edited);
    const removed = await run(['uninstall', '--agent', 'claude']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(parse(readFileSync(path, 'utf8'))).toEqual({ model: 'opus' });
  });
});

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
