import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendSafelySync, ensureDirSafelySync, privateDirProblem, UnsafePathError, writeFileSafelySync } from './safe-write.ts';

const IS_ROOT = typeof process.getuid === 'function' && process.getuid() === 0;
const POSIX = process.platform !== 'win32';

let base: string;
let root: string;
let outside: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'ac-safe-write-')));
  root = join(base, 'root');
  outside = join(base, 'outside');
  mkdirSync(root, { mode: 0o700 });
  mkdirSync(outside);
  writeFileSync(join(outside, 'victim'), 'precious\n');
});
afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

/** The error a call throws, for assertions on its reason. */
function refusal(fn: () => unknown): UnsafePathError {
  try {
    fn();
  } catch (error) {
    if (error instanceof UnsafePathError) return error;
    throw error;
  }
  throw new Error('not refused');
}

const writes = {
  replace: (rel: string) => writeFileSafelySync(root, rel, 'attacker-controlled?\n'),
  append: (rel: string) => appendSafelySync(root, rel, 'attacker-controlled?\n'),
} as const;

describe.each(Object.entries(writes))('%s', (_name, write) => {
  it('writes a new file, creating missing directories 0700', () => {
    const path = write('a/b/file.txt');
    expect(path).toBe(join(root, 'a', 'b', 'file.txt'));
    expect(readFileSync(path, 'utf8')).toBe('attacker-controlled?\n');
    if (POSIX) expect(statSync(join(root, 'a')).mode & 0o777).toBe(0o700);
  });

  it('refuses a symlink as the final component; its target is untouched', () => {
    symlinkSync(join(outside, 'victim'), join(root, 'file'));
    expect(refusal(() => write('file')).reason).toMatch(/symlink/);
    expect(readFileSync(join(outside, 'victim'), 'utf8')).toBe('precious\n');
    expect(lstatSync(join(root, 'file')).isSymbolicLink()).toBe(true);
  });

  it('refuses a dangling symlink (it would create the file elsewhere)', () => {
    symlinkSync(join(outside, 'created'), join(root, 'file'));
    refusal(() => write('file'));
    expect(() => lstatSync(join(outside, 'created'))).toThrow(/ENOENT/);
  });

  it('refuses a symlinked directory on the way, even one pointing inside the root', () => {
    symlinkSync(outside, join(root, 'sub'));
    expect(refusal(() => write('sub/victim')).reason).toMatch(/symlink/);
    expect(readFileSync(join(outside, 'victim'), 'utf8')).toBe('precious\n');
    mkdirSync(join(root, 'real'));
    symlinkSync(join(root, 'real'), join(root, 'alias'));
    refusal(() => write('alias/x'));
  });

  it('refuses paths that leave the root or name nothing', () => {
    expect(refusal(() => write('../outside/victim')).reason).toMatch(/outside/);
    expect(refusal(() => write('a/../../outside/victim')).reason).toMatch(/outside/);
    refusal(() => write(join(outside, 'victim')));
    refusal(() => write(''));
    refusal(() => write('x\0y'));
    expect(readFileSync(join(outside, 'victim'), 'utf8')).toBe('precious\n');
  });

  it('refuses a directory and a file where a directory should be', () => {
    mkdirSync(join(root, 'dir'));
    expect(refusal(() => write('dir')).reason).toMatch(/directory/);
    writeFileSync(join(root, 'plain'), '');
    expect(refusal(() => write('plain/x')).reason).toMatch(/not a directory/);
  });

  it.skipIf(!POSIX)('refuses a FIFO at once (no writer waits for a reader)', () => {
    execFileSync('mkfifo', [join(root, 'fifo')]);
    expect(refusal(() => write('fifo')).reason).toMatch(/FIFO/);
    expect(lstatSync(join(root, 'fifo')).isFIFO()).toBe(true);
  });

  // A device node made inside the temp dir (major 1, minor 3: the null device), never a real one.
  it.skipIf(!IS_ROOT || !POSIX)('refuses a character device, which stays a device', () => {
    execFileSync('mknod', [join(root, 'dev'), 'c', '1', '3']);
    expect(refusal(() => write('dev')).reason).toMatch(/character device/);
    expect(lstatSync(join(root, 'dev')).isCharacterDevice()).toBe(true);
  });
});

describe('writeFileSafelySync', () => {
  it('replaces atomically: the old inode is left alone (a hard link to it keeps the old content)', () => {
    writeFileSync(join(root, 'f'), 'old\n');
    linkSync(join(root, 'f'), join(outside, 'hard'));
    writeFileSafelySync(root, 'f', 'new\n');
    expect(readFileSync(join(root, 'f'), 'utf8')).toBe('new\n');
    expect(readFileSync(join(outside, 'hard'), 'utf8')).toBe('old\n');
  });

  it.skipIf(!POSIX)('keeps an existing file mode unless one is given; a given mode is exact', () => {
    writeFileSync(join(root, 'f'), 'old\n');
    chmodSync(join(root, 'f'), 0o640);
    writeFileSafelySync(root, 'f', 'new\n');
    expect(statSync(join(root, 'f')).mode & 0o777).toBe(0o640);
    writeFileSafelySync(root, 'g', 'x', { mode: 0o600 });
    expect(statSync(join(root, 'g')).mode & 0o777).toBe(0o600);
  });

  it('leaves no temp file behind when refused', () => {
    mkdirSync(join(root, 'dir'));
    refusal(() => writeFileSafelySync(root, 'dir', 'x'));
    expect(readdir(root)).toEqual(['dir']);
  });
});

describe('appendSafelySync', () => {
  it('appends to an existing file', () => {
    appendSafelySync(root, 'log', 'a\n');
    appendSafelySync(root, 'log', 'b\n');
    expect(readFileSync(join(root, 'log'), 'utf8')).toBe('a\nb\n');
  });

  it('refuses a file with another hard link (it would append to that file too)', () => {
    linkSync(join(outside, 'victim'), join(root, 'log'));
    expect(refusal(() => appendSafelySync(root, 'log', 'x\n')).reason).toMatch(/hard link/);
    expect(readFileSync(join(outside, 'victim'), 'utf8')).toBe('precious\n');
  });
});

describe('ensureDirSafelySync', () => {
  it('creates nested directories and refuses a symlink among them', () => {
    expect(ensureDirSafelySync(root, 'x/y')).toBe(join(root, 'x', 'y'));
    symlinkSync(outside, join(root, 'link'));
    refusal(() => ensureDirSafelySync(root, 'link/y'));
    expect(() => lstatSync(join(outside, 'y'))).toThrow(/ENOENT/);
  });
});

describe.skipIf(!POSIX)('private roots (the state directory)', () => {
  it('creates a missing root 0700 and writes in it', () => {
    const state = join(base, 'state', 'agent-checkpoint');
    writeFileSafelySync(state, 'sessions/s.json', '{}', { rootKind: 'private' });
    expect(statSync(state).mode & 0o777).toBe(0o700);
    expect(privateDirProblem(state)).toBeUndefined();
  });

  it('a checked state directory removed later is created and checked again', () => {
    const state = join(base, 'again');
    writeFileSafelySync(state, 'f', 'x', { rootKind: 'private' });
    rmSync(state, { recursive: true });
    appendSafelySync(state, 'log', 'y', { rootKind: 'private' });
    expect(readFileSync(join(state, 'log'), 'utf8')).toBe('y');
    expect(statSync(state).mode & 0o777).toBe(0o700);
  });

  it('refuses a group- or world-writable state directory', () => {
    chmodSync(root, 0o770);
    expect(refusal(() => writeFileSafelySync(root, 'f', 'x', { rootKind: 'private' })).reason).toMatch(/not private: .*writable by its group or others/);
    chmodSync(root, 0o707);
    refusal(() => appendSafelySync(root, 'f', 'x', { rootKind: 'private' }));
    expect(readdir(root)).toEqual([]);
  });

  it('refuses a state directory under a parent others can write to (not sticky)', () => {
    const shared = join(base, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    expect(refusal(() => writeFileSafelySync(join(shared, 'state'), 'f', 'x', { rootKind: 'private' })).reason).toMatch(/parent .*shared is writable/);
    // A sticky one (the /tmp pattern) is fine: others cannot rename or remove our entries.
    chmodSync(shared, 0o1777);
    writeFileSafelySync(join(shared, 'state2'), 'f', 'x', { rootKind: 'private' });
  });

  it('refuses a state sub-directory others can write to, like the state directory itself (issue 23)', () => {
    mkdirSync(join(root, 'monitor'), { mode: 0o700 });
    chmodSync(join(root, 'monitor'), 0o777);
    expect(refusal(() => writeFileSafelySync(root, 'monitor/L1', 'x', { rootKind: 'private' })).reason).toMatch(/state sub-directory that is not private: writable by its group or others/);
    expect(refusal(() => ensureDirSafelySync(root, 'monitor/s1', { rootKind: 'private' })).reason).toMatch(/not private/);
    expect(refusal(() => appendSafelySync(root, 'monitor/log', 'x', { rootKind: 'private' })).reason).toMatch(/not private/);
    expect(readdir(join(root, 'monitor'))).toEqual([]);
    // A project root's directories are the user's business: their modes are not checked.
    writeFileSafelySync(root, 'monitor/L1', 'x');
  });

  it.skipIf(!IS_ROOT)('refuses a state sub-directory owned by another user', () => {
    mkdirSync(join(root, 'sessions'), { mode: 0o700 });
    chownSync(join(root, 'sessions'), 12345, 12345);
    expect(refusal(() => writeFileSafelySync(root, 'sessions/s.json', '{}', { rootKind: 'private' })).reason).toMatch(/not private: owned by uid 12345/);
  });

  it.skipIf(!IS_ROOT)('refuses a state directory owned by another user, and a parent owned by one', () => {
    chownSync(root, 12345, 12345);
    expect(refusal(() => writeFileSafelySync(root, 'f', 'x', { rootKind: 'private' })).reason).toMatch(/owned by uid 12345/);
    const theirs = join(base, 'theirs');
    mkdirSync(theirs);
    chownSync(theirs, 12345, 12345);
    expect(refusal(() => writeFileSafelySync(join(theirs, 'state'), 'f', 'x', { rootKind: 'private' })).reason).toMatch(/parent .*theirs is owned by uid 12345/);
  });
});

function readdir(dir: string): string[] {
  return execFileSync('ls', ['-A', dir], { encoding: 'utf8' }).split('\n').filter((l) => l !== '');
}
