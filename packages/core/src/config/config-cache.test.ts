import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configCacheKey, readCachedConfig, writeCachedConfig } from './config-cache.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ac-cache-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('validated-config cache', () => {
  it('round-trips a config under a key that depends on the exact text', () => {
    const cacheDir = join(dir, 'nested', 'cache');
    const key = configCacheKey('{"enabled": false}');
    expect(configCacheKey('{"enabled": false}')).toBe(key);
    expect(configCacheKey('{"enabled": false }')).not.toBe(key);
    expect(readCachedConfig(cacheDir, key)).toBeUndefined();
    writeCachedConfig(cacheDir, key, { enabled: false });
    expect(readCachedConfig(cacheDir, key)).toEqual({ enabled: false });
  });

  it('treats a corrupt or non-object entry as a miss', () => {
    writeFileSync(join(dir, 'a.json'), '{not json');
    writeFileSync(join(dir, 'b.json'), '[1,2]');
    expect(readCachedConfig(dir, 'a')).toBeUndefined();
    expect(readCachedConfig(dir, 'b')).toBeUndefined();
  });

  it('keeps at most 32 entries, dropping the oldest', () => {
    for (let i = 0; i < 40; i++) {
      const key = configCacheKey(String(i));
      writeCachedConfig(dir, key, { gitTimeoutMs: 100 + i });
      const t = new Date(Date.now() - (100 - i) * 1000);
      utimesSync(join(dir, `${key}.json`), t, t);
    }
    const names = readdirSync(dir);
    expect(names.length).toBe(32);
    expect(names).toContain(`${configCacheKey('39')}.json`);
    expect(names).not.toContain(`${configCacheKey('0')}.json`);
  });

  it('never throws when the cache directory cannot be created', () => {
    const blocker = join(dir, 'file');
    writeFileSync(blocker, '');
    expect(() => writeCachedConfig(join(blocker, 'cache'), 'k', {})).not.toThrow();
    expect(readCachedConfig(join(blocker, 'cache'), 'k')).toBeUndefined();
  });
});
