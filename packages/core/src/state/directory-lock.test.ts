import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LockHeldError, lockDirectoryOf, lockSync } from './directory-lock.ts';

let root: string;
let file: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'ac-dirlock-'));
  file = join(root, 'session.json');
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('lockSync', () => {
  it('holds `<file>.lock` until released, and a second taker sees it held', () => {
    const release = lockSync(file, 5000);
    expect(existsSync(`${file}.lock`)).toBe(true);
    expect(() => lockSync(file, 5000)).toThrow(LockHeldError);
    release();
    expect(existsSync(`${file}.lock`)).toBe(false);
    // Releasing twice, or after someone removed the directory, is no error.
    release();
    const again = lockSync(file, 5000);
    rmSync(`${file}.lock`, { recursive: true });
    expect(() => again()).not.toThrow();
  });

  it('takes over a lock whose mtime is older than the stale limit, not a fresh one', () => {
    mkdirSync(`${file}.lock`);
    expect(() => lockSync(file, 5000)).toThrow(expect.objectContaining({ code: 'ELOCKED' }));
    const old = new Date(Date.now() - 10_000);
    utimesSync(`${file}.lock`, old, old);
    const release = lockSync(file, 5000);
    expect(existsSync(`${file}.lock`)).toBe(true);
    release();
  });

  it('throws other failures at once (a file where the lock directory would go)', () => {
    writeFileSync(join(root, 'blocker'), '');
    expect(() => lockSync(join(root, 'blocker', 'session.json'), 5000)).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
  });

  it('excludes proper-lockfile holders and is excluded by them (earlier versions locked with it)', () => {
    expect(lockDirectoryOf(file)).toBe(`${file}.lock`);
    const theirs = lockfile.lockSync(file, { realpath: false, stale: 5000 });
    expect(() => lockSync(file, 5000)).toThrow(LockHeldError);
    theirs();
    const ours = lockSync(file, 5000);
    expect(() => lockfile.lockSync(file, { realpath: false, stale: 5000 })).toThrow(expect.objectContaining({ code: 'ELOCKED' }));
    ours();
    lockfile.lockSync(file, { realpath: false, stale: 5000 })();
  });
});
