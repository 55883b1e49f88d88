import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pruneStateDir } from './prune-state-dir.ts';

let stateDir: string;
beforeEach(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'ac-prune-'));
  await mkdir(join(stateDir, 'sessions'));
  await mkdir(join(stateDir, 'switches'));
});
afterEach(async () => {
  await rm(stateDir, { recursive: true, force: true });
});

const NOW = new Date('2026-03-01T00:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;

async function touch(path: string, ageDays: number, dir = false): Promise<void> {
  if (dir) await mkdir(path);
  else await writeFile(path, '{}');
  const t = new Date(NOW.getTime() - ageDays * DAY);
  await utimes(path, t, t);
}

describe('pruneStateDir', () => {
  it('removes session files, locks and session switches older than 30 days, keeps the rest', async () => {
    await touch(join(stateDir, 'sessions', 'claude-old.json'), 31);
    await touch(join(stateDir, 'sessions', 'claude-old.json.lock'), 31, true);
    await touch(join(stateDir, 'sessions', 'codex-new.json'), 1);
    await touch(join(stateDir, 'sessions', 'notes.txt'), 400);
    await touch(join(stateDir, 'switches', 'session-old.off'), 45);
    await touch(join(stateDir, 'switches', 'session-new.off'), 2);
    await touch(join(stateDir, 'switches', 'all.off'), 400);

    expect(await pruneStateDir({ stateDir, now: NOW })).toEqual([]);
    expect((await readdir(join(stateDir, 'sessions'))).sort()).toEqual(['codex-new.json', 'notes.txt']);
    expect((await readdir(join(stateDir, 'switches'))).sort()).toEqual(['all.off', 'session-new.off']);
  });

  it('runs at most once a day unless forced', async () => {
    await pruneStateDir({ stateDir, now: NOW });
    await touch(join(stateDir, 'sessions', 'claude-old.json'), 31);
    await pruneStateDir({ stateDir, now: new Date(NOW.getTime() + 60_000) });
    expect(await readdir(join(stateDir, 'sessions'))).toEqual(['claude-old.json']);
    await pruneStateDir({ stateDir, now: new Date(NOW.getTime() + DAY + 1) });
    expect(await readdir(join(stateDir, 'sessions'))).toEqual([]);
  });

  it('reports failures instead of throwing', async () => {
    const diagnostics = await pruneStateDir({ stateDir: join(stateDir, 'missing', 'deeper'), now: NOW, force: true });
    expect(diagnostics).toHaveLength(1);
  });
});
