import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CODE_CACHE_MAX_AGE_MS, codeCacheFileName, isTrustedCacheDir, readCodeCache, resolveCodeCacheDir, writeCodeCache } from './code-cache-file.ts';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'ac-code-cache-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const RUNTIME = { version: 'v20.20.2', arch: 'x64', v8: '11.3.244.8' };
const home = () => '/home/u';

describe('resolveCodeCacheDir', () => {
  it('prefers the explicit variable, then XDG_CACHE_HOME, then ~/.cache', () => {
    expect(resolveCodeCacheDir({ AGENT_CHECKPOINT_CACHE_DIR: '/x/c', XDG_CACHE_HOME: '/xdg' }, home)).toBe('/x/c');
    expect(resolveCodeCacheDir({ XDG_CACHE_HOME: '/xdg' }, home)).toBe('/xdg/agent-checkpoint');
    expect(resolveCodeCacheDir({}, home)).toBe('/home/u/.cache/agent-checkpoint');
  });

  it('ignores relative values, which would scatter caches across the repositories hooks run in', () => {
    expect(resolveCodeCacheDir({ AGENT_CHECKPOINT_CACHE_DIR: 'rel', XDG_CACHE_HOME: 'also-rel' }, home)).toBe('/home/u/.cache/agent-checkpoint');
  });

  it.each(['0', 'false', 'off', 'NO'])('is switched off by AGENT_CHECKPOINT_CODE_CACHE=%s', (value) => {
    expect(resolveCodeCacheDir({ AGENT_CHECKPOINT_CODE_CACHE: value, AGENT_CHECKPOINT_CACHE_DIR: '/x' }, home)).toBeUndefined();
  });

  it('has no directory when there is no home and no variable', () => {
    expect(resolveCodeCacheDir({}, () => '')).toBeUndefined();
    expect(
      resolveCodeCacheDir({}, () => {
        throw new Error('no passwd entry');
      }),
    ).toBeUndefined();
  });
});

describe('codeCacheFileName', () => {
  it('differs per build, Node version, architecture and V8 flags, and is stable otherwise', () => {
    const base = codeCacheFileName('build-a', RUNTIME);
    expect(codeCacheFileName('build-a', { ...RUNTIME })).toBe(base);
    expect(new Set([base, codeCacheFileName('build-b', RUNTIME), codeCacheFileName('build-a', { ...RUNTIME, version: 'v22.1.0' }), codeCacheFileName('build-a', { ...RUNTIME, arch: 'arm64' }), codeCacheFileName('build-a', { ...RUNTIME, v8: `${RUNTIME.v8}\0--max-semi-space-size=1` })]).size).toBe(5);
    expect(base).toMatch(/^hook-[0-9a-f]{24}\.v8cache$/);
  });
});

describe('writeCodeCache / readCodeCache', () => {
  it('round-trips data and coverage, in a 0700 directory and a 0600 file, leaving no temp files', () => {
    const dir = join(root, 'cache', 'agent-checkpoint');
    const file = join(dir, 'hook-x.v8cache');
    const data = Buffer.from('compiled code'.repeat(1000));
    expect(writeCodeCache(dir, file, { coverage: 2, data })).toBe(true);
    expect(readCodeCache(file)).toEqual({ coverage: 2, data });
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['hook-x.v8cache']);
  });

  it('replaces an existing cache atomically', () => {
    const file = join(root, 'hook-x.v8cache');
    chmodSync(root, 0o700);
    writeCodeCache(root, file, { coverage: 0, data: Buffer.from('old') });
    writeCodeCache(root, file, { coverage: 1, data: Buffer.from('new and longer') });
    expect(readCodeCache(file)).toEqual({ coverage: 1, data: Buffer.from('new and longer') });
  });

  it('rejects a torn or corrupted file instead of handing it to V8', () => {
    chmodSync(root, 0o700);
    const file = join(root, 'hook-x.v8cache');
    writeCodeCache(root, file, { coverage: 1, data: Buffer.from('x'.repeat(4096)) });
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, bytes.length - 10));
    expect(readCodeCache(file)).toBeUndefined();
    const flipped = Buffer.from(bytes);
    flipped[flipped.length - 1] = flipped[flipped.length - 1]! ^ 0xff;
    writeFileSync(file, flipped);
    expect(readCodeCache(file)).toBeUndefined();
    writeFileSync(file, Buffer.concat([Buffer.from('NOPE'), bytes.subarray(4)]));
    expect(readCodeCache(file)).toBeUndefined();
    writeFileSync(file, '');
    expect(readCodeCache(file)).toBeUndefined();
  });

  it('returns at once for a missing file, a directory or a FIFO planted at the path', () => {
    expect(readCodeCache(join(root, 'missing'))).toBeUndefined();
    expect(readCodeCache(root)).toBeUndefined();
    const fifo = join(root, 'fifo.v8cache');
    try {
      execFileSync('mkfifo', [fifo]);
    } catch {
      return; // No mkfifo on this platform.
    }
    expect(readCodeCache(fifo)).toBeUndefined();
  }, 5_000);

  it('does not follow a symlink at the cache file', () => {
    chmodSync(root, 0o700);
    const real = join(root, 'real.v8cache');
    writeCodeCache(root, real, { coverage: 0, data: Buffer.from('data') });
    symlinkSync(real, join(root, 'link.v8cache'));
    expect(readCodeCache(join(root, 'link.v8cache'))).toBeUndefined();
  });
});

describe('isTrustedCacheDir', () => {
  it('trusts only a real directory of ours that nobody else can write to', () => {
    const dir = join(root, 'd');
    mkdirSync(dir, { mode: 0o700 });
    expect(isTrustedCacheDir(dir)).toBe(true);
    chmodSync(dir, 0o777);
    expect(isTrustedCacheDir(dir)).toBe(process.platform === 'win32');
    chmodSync(dir, 0o700);
    symlinkSync(dir, join(root, 'link'));
    expect(isTrustedCacheDir(join(root, 'link'))).toBe(false);
    expect(isTrustedCacheDir(join(root, 'missing'))).toBe(false);
  });

  it('makes writeCodeCache refuse a group- or world-writable directory (anyone there could plant code)', () => {
    const dir = join(root, 'shared');
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    expect(writeCodeCache(dir, join(dir, 'hook-x.v8cache'), { coverage: 0, data: Buffer.from('x') })).toBe(process.platform === 'win32');
  });
});

describe('pruning', () => {
  it('deletes our caches and temp leftovers that are long unused when a new cache is written, nothing else', () => {
    chmodSync(root, 0o700);
    const old = Date.now() - CODE_CACHE_MAX_AGE_MS - 60_000;
    const seed = (name: string, mtime: number): void => {
      writeFileSync(join(root, name), 'x');
      utimesSync(join(root, name), mtime / 1000, mtime / 1000);
    };
    seed('hook-old.v8cache', old);
    seed('hook-recent.v8cache', Date.now() - 60_000);
    seed('hook-dead.v8cache.123.abc.tmp', Date.now() - 2 * 60 * 60 * 1000);
    seed('hook-live.v8cache.456.def.tmp', Date.now());
    seed('notes.txt', old);
    seed('other-old.v8cache', old);
    expect(writeCodeCache(root, join(root, 'hook-new.v8cache'), { coverage: 0, data: Buffer.from('x') })).toBe(true);
    expect(readdirSync(root).sort()).toEqual(['hook-live.v8cache.456.def.tmp', 'hook-new.v8cache', 'hook-recent.v8cache', 'notes.txt', 'other-old.v8cache']);
  });
});
