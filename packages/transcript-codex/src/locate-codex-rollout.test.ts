import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCodexTranscriptReader } from './index.ts';
import { candidateDays, locateCodexRollout, uuidV7Time } from './locate-codex-rollout.ts';
import { RolloutTestFiles } from './rollout-test-files.ts';

const files = new RolloutTestFiles();
afterEach(() => files.cleanup());

const THREAD = '01a20107-4527-7350-b64a-84c60742cd58'; // UUIDv7 created 2026-11-22T02:13:03.399Z
const NOW = new Date('2027-03-10T12:00:00Z');

function rolloutIn(codexHome: string, day: string, thread = THREAD, time = '02-13-03'): string {
  const dir = join(codexHome, 'sessions', day);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `rollout-${day.replaceAll('/', '-')}T${time}-${thread}.jsonl`);
  writeFileSync(path, '{}\n');
  return path;
}

describe('locateCodexRollout', () => {
  it('finds the rollout in the date directory encoded in the UUIDv7 thread id (CODEX_HOME)', async () => {
    const home = files.dir();
    const expected = rolloutIn(home, '2026/11/22');
    rolloutIn(home, '2026/11/22', '01a20107-52ce-7eb2-962c-1aee279e5435');
    await expect(locateCodexRollout({ sessionId: THREAD, env: { CODEX_HOME: home } }, { now: () => NOW })).resolves.toBe(expected);
  });

  it('uses ~/.codex under homeDir when CODEX_HOME is not set', async () => {
    const homeDir = files.dir();
    const expected = rolloutIn(join(homeDir, '.codex'), '2026/11/22');
    await expect(locateCodexRollout({ sessionId: THREAD, homeDir, env: {} }, { now: () => NOW })).resolves.toBe(expected);
  });

  it('tries recent days for thread ids that carry no time (UUIDv4)', async () => {
    const home = files.dir();
    const v4 = '6f1c2b0e-8a3d-4c1e-9b7a-2d5e8f0a1b2c';
    const expected = rolloutIn(home, '2027/03/08', v4);
    await expect(locateCodexRollout({ sessionId: v4, env: { CODEX_HOME: home } }, { now: () => NOW })).resolves.toBe(expected);
  });

  it('falls back to a search of every date directory', async () => {
    const home = files.dir();
    const v4 = '6f1c2b0e-8a3d-4c1e-9b7a-2d5e8f0a1b2c';
    const expected = rolloutIn(home, '2025/01/02', v4);
    await expect(locateCodexRollout({ sessionId: v4, env: { CODEX_HOME: home } }, { now: () => NOW })).resolves.toBe(expected);
  });

  it('prefers the most recently modified file when several match', async () => {
    const home = files.dir();
    const older = rolloutIn(home, '2026/11/22', THREAD, '02-13-03');
    const newer = rolloutIn(home, '2026/11/22', THREAD, '09-00-00');
    utimesSync(older, new Date('2026-11-22T03:00:00Z'), new Date('2026-11-22T03:00:00Z'));
    utimesSync(newer, new Date('2026-11-23T03:00:00Z'), new Date('2026-11-23T03:00:00Z'));
    await expect(locateCodexRollout({ sessionId: THREAD, env: { CODEX_HOME: home } }, { now: () => NOW })).resolves.toBe(newer);
  });

  it('refuses ids that are not UUIDs, so no path can be smuggled in', async () => {
    const home = files.dir();
    rolloutIn(home, '2026/11/22');
    for (const sessionId of ['', '   ', '../../etc/passwd', '*', `${THREAD}/../x`, '01a20107-4527-7350-b64a-84c60742cd5', undefined]) {
      await expect(locateCodexRollout({ ...(sessionId !== undefined ? { sessionId } : {}), env: { CODEX_HOME: home } })).resolves.toBeUndefined();
    }
  });

  it('resolves undefined when nothing matches or the home does not exist', async () => {
    const home = files.dir();
    rolloutIn(home, '2026/11/22', '01a20107-52ce-7eb2-962c-1aee279e5435');
    await expect(locateCodexRollout({ sessionId: THREAD, env: { CODEX_HOME: home } }, { now: () => NOW })).resolves.toBeUndefined();
    await expect(locateCodexRollout({ sessionId: THREAD, env: { CODEX_HOME: join(home, 'missing') } })).resolves.toBeUndefined();
  });

  it('ignores directories named like rollouts', async () => {
    const home = files.dir();
    mkdirSync(join(home, 'sessions', '2026', '11', '22', `rollout-2026-11-22T02-13-03-${THREAD}.jsonl`), { recursive: true });
    await expect(locateCodexRollout({ sessionId: THREAD, env: { CODEX_HOME: home } }, { now: () => NOW })).resolves.toBeUndefined();
  });

  it('finds rollouts when the sessions directory is a symlink to another disk', async () => {
    const home = files.dir();
    const disk = files.dir();
    const v4 = '6f1c2b0e-8a3d-4c1e-9b7a-2d5e8f0a1b2c';
    const target = rolloutIn(disk, '2024/06/30', v4);
    symlinkSync(join(disk, 'sessions'), join(home, 'sessions'));
    const found = await locateCodexRollout({ sessionId: v4, env: { CODEX_HOME: home } }, { now: () => NOW });
    expect(found).toBe(join(home, 'sessions', '2024', '06', '30', target.split('/').pop() ?? ''));
  });

  it('is what the reader exposes as locateTranscript, and the result is readable', async () => {
    const home = files.dir();
    const expected = rolloutIn(home, '2026/11/22');
    const reader = createCodexTranscriptReader({ now: () => NOW });
    await expect(reader.locateTranscript({ sessionId: THREAD, env: { CODEX_HOME: home } })).resolves.toBe(expected);
  });
});

/** `node:sqlite` exists on Node >= 22.5 (unflagged from 22.13); Node 20 has none. */
const sqlite = await import(/* @vite-ignore */ 'node:' + 'sqlite').catch(() => undefined);

describe('state_5.sqlite shortcut', () => {
  it('is skipped silently when node:sqlite is unavailable or the database is unreadable', async () => {
    const home = files.dir();
    const v4 = '6f1c2b0e-8a3d-4c1e-9b7a-2d5e8f0a1b2c';
    writeFileSync(join(home, 'state_5.sqlite'), 'not a database');
    const expected = rolloutIn(home, '2025/01/02', v4);
    await expect(locateCodexRollout({ sessionId: v4, env: { CODEX_HOME: home } }, { now: () => NOW })).resolves.toBe(expected);
  });

  it.runIf(sqlite !== undefined)('maps a thread id to threads.rollout_path (Node >= 22.5 only)', async () => {
    const home = files.dir();
    const v4 = '6f1c2b0e-8a3d-4c1e-9b7a-2d5e8f0a1b2c';
    // A rollout outside the date layout, so only the database can find it.
    const elsewhere = join(files.dir(), `rollout-2025-01-02T00-00-00-${v4}.jsonl`);
    writeFileSync(elsewhere, '{}\n');
    const { DatabaseSync } = sqlite as { DatabaseSync: new (path: string) => { exec(sql: string): void; prepare(sql: string): { run(...args: unknown[]): void }; close(): void } };
    const db = new DatabaseSync(join(home, 'state_5.sqlite'));
    db.exec('CREATE TABLE threads (id TEXT PRIMARY KEY, rollout_path TEXT)');
    db.prepare('INSERT INTO threads VALUES (?, ?)').run(v4, elsewhere);
    db.close();
    await expect(locateCodexRollout({ sessionId: v4, env: { CODEX_HOME: home } }, { now: () => NOW })).resolves.toBe(elsewhere);
  });
});

describe('candidateDays', () => {
  it('starts with the creation day of a UUIDv7 id, then the days around it, then recent days', () => {
    const days = candidateDays(THREAD, { now: () => NOW, recentDays: 2 });
    expect(days[0]).toBe('2026/11/22');
    expect(days).toEqual(expect.arrayContaining(['2026/11/21', '2026/11/23', '2027/03/10', '2027/03/09', '2027/03/08']));
    expect(new Set(days).size).toBe(days.length);
  });

  it('decodes UUIDv7 times and ignores other versions', () => {
    expect(uuidV7Time(THREAD)?.toISOString()).toBe('2026-11-22T02:13:03.399Z');
    expect(uuidV7Time('6f1c2b0e-8a3d-4c1e-9b7a-2d5e8f0a1b2c')).toBeUndefined();
  });
});
