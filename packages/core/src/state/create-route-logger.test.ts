import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createRouteLogger } from './create-route-logger.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ac-logger-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('createRouteLogger', () => {
  test('warn is one prefixed stderr line even when the message holds line breaks', () => {
    const lines: string[] = [];
    const log = createRouteLogger({ prefix: 'p:', debug: false, stateDir: dir, fields: {}, stderr: (l) => lines.push(l) });
    log.warn('bad path /a\nb\r');
    expect(lines).toEqual(['p: bad path /a\\nb\\r\n']);
  });

  test('warn never sends an escape sequence, C1, BEL or bidi control to the terminal', () => {
    const lines: string[] = [];
    const log = createRouteLogger({ prefix: 'p:', debug: false, stateDir: dir, fields: {}, stderr: (l) => lines.push(l) });
    log.warn('file \u001b]0;pwned\u0007x\u009b2J\u202e.ts');
    expect(lines).toEqual(['p: file \\x1b]0;pwned\\x07x\\x9b2J\\u202e.ts\n']);
  });

  test('a debug log planted as a symlink is refused once on stderr; its target is untouched', () => {
    const target = join(dir, 'target');
    writeFileSync(target, 'precious\n');
    symlinkSync(target, join(dir, 'debug.log'));
    const lines: string[] = [];
    const log = createRouteLogger({ prefix: 'p:', debug: true, stateDir: dir, fields: {}, stderr: (l) => lines.push(l) });
    log.debug('one');
    log.debug('two');
    expect(readFileSync(target, 'utf8')).toBe('precious\n');
    expect(lines.filter((l) => /debug log: refusing to write .*symlink/.test(l))).toHaveLength(1);
  });

  test('debug is silent unless enabled', () => {
    const lines: string[] = [];
    const log = createRouteLogger({ prefix: 'p:', debug: false, stateDir: dir, fields: {}, stderr: (l) => lines.push(l) });
    log.debug('detail');
    expect(lines).toEqual([]);
    expect(log.debugEnabled).toBe(false);
  });

  test('with debug on, events go to <stateDir>/debug.log as JSON lines carrying the route fields, mode 0600', () => {
    const log = createRouteLogger({ prefix: 'p:', debug: true, stateDir: dir, fields: { agent: 'codex', route: 'tmux' }, stderr: () => {} });
    log.debug('decided', { mode: 'actionable' });
    log.warn('careful');
    const path = join(dir, 'debug.log');
    const entries = readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries).toMatchObject([
      { agent: 'codex', route: 'tmux', level: 'debug', message: 'decided', mode: 'actionable' },
      { agent: 'codex', route: 'tmux', level: 'warn', message: 'careful' },
    ]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  test('rotates a log past 1 MiB and never throws when the state dir is unusable', () => {
    writeFileSync(join(dir, 'debug.log'), 'x'.repeat(1024 * 1024 + 1));
    createRouteLogger({ prefix: 'p:', debug: true, stateDir: dir, fields: {}, stderr: () => {} }).debug('fresh');
    expect(statSync(join(dir, 'debug.log.1')).size).toBe(1024 * 1024 + 1);
    expect(readFileSync(join(dir, 'debug.log'), 'utf8')).toContain('"fresh"');
    const file = join(dir, 'not-a-dir');
    writeFileSync(file, '');
    expect(() => createRouteLogger({ prefix: 'p:', debug: true, stateDir: file, fields: {}, stderr: () => {} }).warn('x')).not.toThrow();
  });
});
