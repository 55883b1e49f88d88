import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptySessionState, type SessionStateLocation } from '@agent-checkpoint/core';
import { afterEach, describe, expect, it } from 'vitest';
import { claimMark, monitorMarksDir, readMarks } from '../monitor/level-marks.ts';
import { sessionContextOf, withSessionContext } from '../state/session-slots.ts';
import { claimTurnEndHandoff, promoteAndMark, readTurnEndMarks } from './turn-end-marks.ts';

const NOW = new Date('2026-01-10T10:00:00.000Z');
const roots: string[] = [];
afterEach(() => {
  while (roots.length > 0) rmSync(roots.pop() ?? '', { recursive: true, force: true });
});

function location(): SessionStateLocation {
  const root = mkdtempSync(join(tmpdir(), 'turn-end-marks-'));
  roots.push(root);
  return { stateDir: join(root, 'state'), agent: 'codex', sessionId: 's-1' };
}

describe('the turn end\'s side of the level marks', () => {
  it('a handoff the monitor claimed meanwhile is not written twice; the turn end\'s own older mark does not stop it', async () => {
    const loc = location();
    const diagnostics: string[] = [];
    const marks = await readTurnEndMarks(loc, 'L2', diagnostics);
    expect(marks.monitorActed).toBeUndefined();
    // The monitor wins the race for L2 after the turn end read the marks.
    expect(await claimMark(marks.dir, { level: 'L2', by: 'monitor', readingLevel: 'L2' }, NOW)).toBe(true);
    expect(await claimTurnEndHandoff(marks, 'L2', NOW, diagnostics)).toBe(false);
    // L3 is free: claimed by the turn end, and claiming it again is still the turn end's own.
    expect(await claimTurnEndHandoff(marks, 'L3', NOW, diagnostics)).toBe(true);
    expect(await claimTurnEndHandoff(marks, 'L3', NOW, diagnostics)).toBe(true);
    expect((await readTurnEndMarks(loc, 'L3', diagnostics)).monitorActed).toBe('L2');
    expect(diagnostics).toEqual([]);
  });

  it('an unusable marks directory is a diagnostic, never a lost handoff', async () => {
    const loc = location();
    const dir = monitorMarksDir(loc.stateDir, loc.agent, loc.sessionId);
    rmSync(loc.stateDir, { recursive: true, force: true });
    writeFileSync(loc.stateDir, 'not a directory');
    const diagnostics: string[] = [];
    expect(await claimTurnEndHandoff({ dir }, 'L2', NOW, diagnostics)).toBe(true);
    expect(diagnostics).toEqual([expect.stringContaining(`context: cannot mark L2 in ${dir}`)]);
  });

  it('a granted block promotes the pending line and marks its level for the monitor; no pending line, no mark', async () => {
    const loc = location();
    const dir = monitorMarksDir(loc.stateDir, loc.agent, loc.sessionId);
    const plain = emptySessionState('codex', 's-1');
    expect(promoteAndMark(loc)(plain, NOW)).toBe(plain);
    expect(await readMarks(dir)).toEqual([]);
    const pending = withSessionContext(plain, { pendingLevel: 'L1' });
    const promoted = promoteAndMark(loc)(pending, NOW);
    expect(sessionContextOf(promoted)).toEqual({ announcedLevel: 'L1', announcedAt: NOW.toISOString() });
    expect(await readMarks(dir)).toEqual([{ level: 'L1', by: 'turn-end', base: 'L1' }]);
    // Without a location (no state directory) it still promotes.
    expect(sessionContextOf(promoteAndMark(undefined)(pending, NOW))?.announcedLevel).toBe('L1');
    expect(readdirSync(dir)).toEqual(['L1']);
  });
});
