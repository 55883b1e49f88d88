import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ContextLevel } from '../context/read-context-level.ts';
import type { CheckpointStateSnapshot } from '../state/session-slots.ts';
import { CHECKPOINT_STATE_INTERVAL_MS, claimCheckpointStateWrite } from './checkpoint-state-due.ts';
import { claimMark, monitorMarksDir } from './level-marks.ts';

// The monitor's checkpoint-state throttle: a write at a new level, on an action, or 30 s after the
// last; nothing in between (the note is not touched either). Real files in a temp state directory.

const T0 = new Date('2026-01-10T10:00:00.000Z');
const at = (ms: number): Date => new Date(T0.getTime() + ms);
const dirs: string[] = [];
afterEach(() => {
  while (dirs.length > 0) rmSync(dirs.pop() ?? '', { recursive: true, force: true });
});

function marksDir(): string {
  const root = mkdtempSync(join(tmpdir(), 'state-due-'));
  dirs.push(root);
  return monitorMarksDir(join(root, 'state'), 'claude', 'session-1');
}

const snapshot = (level: ContextLevel): CheckpointStateSnapshot => ({ level, percent: 50, trend: 'increasing', at: T0.toISOString(), by: 'monitor' });

describe('claimCheckpointStateWrite', () => {
  it('writes the first snapshot, then not again within 30 s at the same level (the note untouched), then once the 30 s are up', () => {
    const dir = marksDir();
    expect(claimCheckpointStateWrite(dir, snapshot('L0'), false, T0)).toBe('first');
    const note = join(dir, 'state');
    const before = { text: readFileSync(note, 'utf8'), mtimeMs: statSync(note).mtimeMs, mode: statSync(note).mode & 0o777 };
    expect(before.mode).toBe(0o600);
    expect(JSON.parse(before.text)).toEqual({ level: 'L0', at: T0.toISOString() });
    for (const ms of [1, 10_000, CHECKPOINT_STATE_INTERVAL_MS - 1]) expect(claimCheckpointStateWrite(dir, snapshot('L0'), false, at(ms)), `${ms} ms`).toBeUndefined();
    expect({ text: readFileSync(note, 'utf8'), mtimeMs: statSync(note).mtimeMs }).toEqual({ text: before.text, mtimeMs: before.mtimeMs });
    expect(claimCheckpointStateWrite(dir, snapshot('L0'), false, at(CHECKPOINT_STATE_INTERVAL_MS))).toBe('interval');
    // The window starts again from that write.
    expect(claimCheckpointStateWrite(dir, snapshot('L0'), false, at(CHECKPOINT_STATE_INTERVAL_MS + 1000))).toBeUndefined();
  });

  it('a new level (up or down) and an action write at once, inside the window', () => {
    const dir = marksDir();
    expect(claimCheckpointStateWrite(dir, snapshot('L0'), false, T0)).toBe('first');
    expect(claimCheckpointStateWrite(dir, snapshot('L1'), false, at(1000))).toBe('level');
    expect(claimCheckpointStateWrite(dir, snapshot('L1'), false, at(2000))).toBeUndefined();
    expect(claimCheckpointStateWrite(dir, snapshot('L1'), true, at(3000))).toBe('acted');
    expect(claimCheckpointStateWrite(dir, snapshot('L0'), false, at(4000))).toBe('level');
  });

  it('a clock set back or an unreadable note does not silence the writes', () => {
    const dir = marksDir();
    expect(claimCheckpointStateWrite(dir, snapshot('L1'), false, T0)).toBe('first');
    expect(claimCheckpointStateWrite(dir, snapshot('L1'), false, at(-60_000))).toBe('interval');
    writeFileSync(join(dir, 'state'), 'not json');
    expect(claimCheckpointStateWrite(dir, snapshot('L1'), false, at(-59_000))).toBe('first');
  });

  it('lives beside the level marks without being one, and never writes through a planted link', async () => {
    const dir = marksDir();
    await claimMark(dir, { level: 'L1', by: 'monitor', readingLevel: 'L1' }, T0);
    expect(claimCheckpointStateWrite(dir, snapshot('L1'), true, T0)).toBe('acted');
    const target = join(dirs[0]!, 'elsewhere');
    writeFileSync(target, 'keep');
    rmSync(join(dir, 'state'));
    symlinkSync(target, join(dir, 'state'));
    expect(() => claimCheckpointStateWrite(dir, snapshot('L2'), false, at(1000))).toThrow(/not a regular file/);
    expect(readFileSync(target, 'utf8')).toBe('keep');
  });
});
