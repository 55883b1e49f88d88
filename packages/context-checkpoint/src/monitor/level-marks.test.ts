import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claimMark, claimMarkSync, highestMark, lowerMarks, monitorMarksDir, readMarks } from './level-marks.ts';

const NOW = new Date('2026-01-10T10:00:00.000Z');
const dirs: string[] = [];
afterEach(() => {
  while (dirs.length > 0) rmSync(dirs.pop() ?? '', { recursive: true, force: true });
});

function marksDir(): string {
  const root = mkdtempSync(join(tmpdir(), 'level-marks-'));
  dirs.push(root);
  return monitorMarksDir(join(root, 'state'), 'claude', 'session/with odd id');
}

describe('level marks (one record of the levels acted on)', () => {
  it('a level is claimed once across both routes, even by parallel claims', async () => {
    const dir = marksDir();
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => claimMark(dir, { level: 'L2', by: i % 2 === 0 ? 'monitor' : 'turn-end', readingLevel: 'L2' }, NOW)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(claimMarkSync(dir, { level: 'L2', by: 'turn-end', readingLevel: 'L2' }, NOW)).toBe(false);
    expect(claimMarkSync(dir, { level: 'L1', by: 'turn-end', readingLevel: 'L1' }, NOW)).toBe(true);
    expect((await readMarks(dir)).map((m) => m.level)).toEqual(['L1', 'L2']);
  });

  it('reads who acted and at which reading; old, corrupt and unknown files are tolerated', async () => {
    const dir = marksDir();
    expect(await readMarks(dir)).toEqual([]);
    await claimMark(dir, { level: 'L2', by: 'monitor', readingLevel: 'L1' }, NOW);
    await claimMark(dir, { level: 'L1', by: 'turn-end', readingLevel: 'L0' }, NOW);
    writeFileSync(join(dir, 'L3'), `${NOW.toISOString()}\n`);
    writeFileSync(join(dir, 'notes'), 'x');
    expect(await readMarks(dir)).toEqual([
      { level: 'L1', by: 'turn-end', base: 'L1' },
      { level: 'L2', by: 'monitor', base: 'L1' },
      // A mark of the version before the turn end shared them: the monitor's, forgotten at L0.
      { level: 'L3', by: 'monitor', base: 'L1' },
    ]);
    writeFileSync(join(dir, 'L3'), '{"by":"someone","base":"L9"}');
    expect((await readMarks(dir))[2]).toEqual({ level: 'L3', by: 'monitor', base: 'L1' });
    rmSync(join(dir, 'L3'));
    mkdirSync(join(dir, 'L3'));
    expect((await readMarks(dir))[2]).toEqual({ level: 'L3', by: 'monitor', base: 'L1' });
    expect(highestMark(await readMarks(dir), 'turn-end')).toBe('L1');
    expect(highestMark([], 'monitor')).toBeUndefined();
  });

  it('a reading below a mark\'s base forgets it; an early action is kept at the reading it was taken at', async () => {
    const dir = marksDir();
    await claimMark(dir, { level: 'L2', by: 'monitor', readingLevel: 'L1' }, NOW);
    await claimMark(dir, { level: 'L3', by: 'turn-end', readingLevel: 'L3' }, NOW);
    const atL1 = await lowerMarks(dir, await readMarks(dir), 'L1');
    expect(atL1.map((m) => m.level)).toEqual(['L2']);
    expect(readdirSync(dir)).toEqual(['L2']);
    expect(await lowerMarks(dir, atL1, 'L0')).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('an action below L1 (base L0) keeps the percent it was taken at: kept while the readings stay near, forgotten after a compaction', async () => {
    const dir = marksDir();
    await claimMark(dir, { level: 'L1', by: 'monitor', readingLevel: 'L0', readingPercent: 61.26 }, NOW);
    expect(await readMarks(dir)).toEqual([{ level: 'L1', by: 'monitor', base: 'L0', atPercent: 61.3 }]);
    expect(await lowerMarks(dir, await readMarks(dir), { level: 'L0', percent: 50 })).toHaveLength(1);
    // The level alone (a caller without the percent) keeps it too.
    expect(await lowerMarks(dir, await readMarks(dir), 'L0')).toHaveLength(1);
    expect(await lowerMarks(dir, await readMarks(dir), { level: 'L0', percent: 46 })).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
    // Without a percent, an early claim keeps the old meaning: base L1, forgotten at the next L0 reading.
    await claimMark(dir, { level: 'L1', by: 'monitor', readingLevel: 'L0' }, NOW);
    expect(await readMarks(dir)).toEqual([{ level: 'L1', by: 'monitor', base: 'L1' }]);
  });

  it('a marks directory (or monitor/ above it) planted as a symlink is never read, written or deleted through (issue 23)', async () => {
    const dir = marksDir();
    const outside = mkdtempSync(join(tmpdir(), 'level-marks-outside-'));
    dirs.push(outside);
    writeFileSync(join(outside, 'L2'), 'precious\n');
    mkdirSync(dirname(dir), { recursive: true, mode: 0o700 });
    symlinkSync(outside, dir);
    await expect(readMarks(dir)).rejects.toThrow(/symlink/);
    await expect(lowerMarks(dir, [{ level: 'L2', by: 'monitor', base: 'L3' }], 'L0')).rejects.toThrow(/symlink/);
    expect(() => claimMarkSync(dir, { level: 'L1', by: 'monitor', readingLevel: 'L1' }, NOW)).toThrow(/symlink/);
    expect(readdirSync(outside)).toEqual(['L2']);
    expect(readFileSync(join(outside, 'L2'), 'utf8')).toBe('precious\n');
    // The same one level up: `monitor/` itself a link.
    rmSync(dirname(dir), { recursive: true });
    symlinkSync(outside, dirname(dir));
    expect(() => claimMarkSync(dir, { level: 'L1', by: 'monitor', readingLevel: 'L1' }, NOW)).toThrow(/symlink/);
    await expect(readMarks(dir)).rejects.toThrow(/symlink/);
    expect(readdirSync(outside)).toEqual(['L2']);
  });

  it('a marks directory others can write to is refused like a shared state directory (issue 23)', async () => {
    const dir = marksDir();
    expect(claimMarkSync(dir, { level: 'L1', by: 'monitor', readingLevel: 'L1' }, NOW)).toBe(true);
    chmodSync(dir, 0o777);
    await expect(readMarks(dir)).rejects.toThrow(/not private/);
    expect(() => claimMarkSync(dir, { level: 'L2', by: 'monitor', readingLevel: 'L2' }, NOW)).toThrow(/not private/);
    expect(existsSync(join(dir, 'L2'))).toBe(false);
  });
});
