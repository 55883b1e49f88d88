import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '@agent-checkpoint/core/test-support';
import { LOOP_END_FILE, LOOP_STATE_FILE, MAX_LOOP_HISTORY, newLoopState, parseLoopState, readLoopState, writeLoopState } from './loop-state.ts';
import { recordLoopResume } from '../steps/resume-outcome.ts';
import { nextLoopIteration, pendingLoopHandoff, recordLoopTurn, startLoop } from './loop-steps.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});
function root(): string {
  const d = makeTempDir();
  cleanups.push(d.remove);
  return d.dir;
}
const NOW = new Date('2026-01-07T11:45:00.000Z');
const fileOf = (dir: string): unknown => JSON.parse(readFileSync(join(dir, LOOP_STATE_FILE), 'utf8'));

describe('loop state', () => {
  it('no loop: a turn end writes nothing at all', async () => {
    const dir = root();
    expect(await recordLoopTurn({ projectRoot: dir, percent: 87, level: 'L2', handoffPath: '.agent-checkpoint/handoffs/x.md', now: NOW })).toEqual([]);
    expect(existsSync(join(dir, '.agent-checkpoint'))).toBe(false);
    expect(await readLoopState(dir)).toEqual({ kind: 'none' });
  });

  it('three iterations: peaks per iteration, a handoff in the second with its signal, resumed once in the third', async () => {
    const dir = root();
    await startLoop(dir, NOW);
    expect(fileOf(dir)).toEqual({ version: 1, iteration: 0, started_at: NOW.toISOString(), context_checkpoint: { active: false, handoff_consumed: false }, context_history: [] });
    // The state directory is git-ignored with the rest of .agent-checkpoint/.
    expect(readFileSync(join(dir, '.agent-checkpoint', '.gitignore'), 'utf8')).toContain('*');

    expect(await nextLoopIteration(dir, NOW)).toMatchObject({ resume: false, signalled: false, state: { iteration: 1 } });
    await recordLoopTurn({ projectRoot: dir, percent: 30, level: 'L0', now: NOW });
    await recordLoopTurn({ projectRoot: dir, percent: 45, level: 'L0', now: NOW });

    expect(await nextLoopIteration(dir, NOW)).toMatchObject({ resume: false, state: { iteration: 2 } });
    await recordLoopTurn({ projectRoot: dir, percent: 72, level: 'L1', now: NOW });
    const path = '.agent-checkpoint/handoffs/2026-01-07-1145.md';
    await recordLoopTurn({ projectRoot: dir, percent: 87, level: 'L2', handoffPath: path, now: NOW });
    // A later, lower reading in the same iteration keeps the peak and the checkpoint flag.
    await recordLoopTurn({ projectRoot: dir, percent: 20, level: 'L0', now: NOW });
    expect(readFileSync(join(dir, LOOP_END_FILE), 'utf8')).toBe(`${path}\n`);

    const third = await nextLoopIteration(dir, NOW);
    expect(third).toMatchObject({ resume: true, signalled: true, state: { iteration: 3 } });
    expect(existsSync(join(dir, LOOP_END_FILE))).toBe(false);
    const pending = await pendingLoopHandoff(dir);
    expect(pending).toMatchObject({ kind: 'loop', pending: path });
    if (pending.kind !== 'loop') throw new Error('no loop');
    await recordLoopResume(dir, pending.state, path, { stateDir: join(dir, 'state'), now: NOW });
    await recordLoopTurn({ projectRoot: dir, percent: 12, level: 'L0', now: NOW });

    expect(fileOf(dir)).toEqual({
      version: 1,
      iteration: 3,
      started_at: NOW.toISOString(),
      context_checkpoint: { active: false, level: 'L2', percent_at_checkpoint: 87, timestamp: NOW.toISOString(), handoff_file: path, handoff_iteration: 2, handoff_consumed: true },
      context_history: [
        { iteration: 1, peak_percent: 45, checkpoint: false },
        { iteration: 2, peak_percent: 87, checkpoint: true },
        { iteration: 3, peak_percent: 12, checkpoint: false },
      ],
      last_resume: { handoff_file: path, iteration: 3 },
    });
    // Consumed: the fourth iteration is not told to resume it again.
    expect(await nextLoopIteration(dir, NOW)).toMatchObject({ resume: false, state: { iteration: 4 } });
    expect(await pendingLoopHandoff(dir)).not.toHaveProperty('pending');
  });

  it('keeps at most MAX_LOOP_HISTORY iterations, newest last', async () => {
    const dir = root();
    let state = newLoopState(NOW);
    state = { ...state, iteration: MAX_LOOP_HISTORY + 5, context_history: Array.from({ length: MAX_LOOP_HISTORY }, (_, i) => ({ iteration: i + 1, peak_percent: 10, checkpoint: false })) };
    await writeLoopState(dir, state);
    await recordLoopTurn({ projectRoot: dir, percent: 50, level: 'L0', now: NOW });
    const read = await readLoopState(dir);
    if (read.kind !== 'ok') throw new Error(read.kind);
    expect(read.state.context_history).toHaveLength(MAX_LOOP_HISTORY);
    expect(read.state.context_history.at(-1)).toEqual({ iteration: MAX_LOOP_HISTORY + 5, peak_percent: 50, checkpoint: false });
    expect(read.state.context_history[0]?.iteration).toBe(2);
  });
});

const ITEM = { file: 'PLAN.md', line: 3, text: 'Refactor the tax module', estimated_tokens: 10_400, estimated_percent: 5.2, band: 'small' } as const;

describe('loop state: untrusted input', () => {
  const valid = () => JSON.parse(JSON.stringify(newLoopState(NOW))) as Record<string, unknown>;
  it.each([
    ['not an object', []],
    ['a wrong version', { ...valid(), version: 2 }],
    ['a negative iteration', { ...valid(), iteration: -1 }],
    ['a fractional iteration', { ...valid(), iteration: 1.5 }],
    ['a bad level', { ...valid(), context_checkpoint: { active: true, handoff_consumed: false, level: 'L9' } }],
    ['an absolute handoff path', { ...valid(), context_checkpoint: { active: true, handoff_consumed: false, handoff_file: '/etc/passwd' } }],
    ['a handoff path leaving the project', { ...valid(), context_checkpoint: { active: true, handoff_consumed: false, handoff_file: 'a/../../x.md' } }],
    ['terminal escapes in the handoff path', { ...valid(), context_checkpoint: { active: true, handoff_consumed: false, handoff_file: 'x\u001b]0;pwned\u0007.md' } }],
    ['a history entry of the wrong shape', { ...valid(), context_history: [{ iteration: 1, peak_percent: '87' }] }],
    ['an over-long history', { ...valid(), context_history: Array.from({ length: MAX_LOOP_HISTORY + 1 }, () => ({ iteration: 1, peak_percent: 1, checkpoint: false })) }],
    ['a next item outside the project', { ...valid(), next_item: { ...ITEM, file: '../PLAN.md' } }],
    ['a next item of an unknown band', { ...valid(), next_item: { ...ITEM, band: 'huge' } }],
    ['a next item with an over-long text', { ...valid(), next_item: { ...ITEM, text: 'x'.repeat(301) } }],
    ['a next item without an estimate', { ...valid(), next_item: { ...ITEM, estimated_tokens: undefined } }],
  ])('refuses %s', (_name, value) => {
    expect(parseLoopState(value)).toMatchObject({ ok: false });
  });

  it('RLP-006: a valid next item survives the round trip, and a turn end keeps it', async () => {
    const dir = root();
    await writeLoopState(dir, { ...newLoopState(NOW), iteration: 1, next_item: ITEM });
    expect(await readLoopState(dir)).toEqual({ kind: 'ok', state: { ...newLoopState(NOW), iteration: 1, next_item: ITEM } });
    await recordLoopTurn({ projectRoot: dir, percent: 40, level: 'L0', now: NOW });
    expect(fileOf(dir)).toMatchObject({ next_item: ITEM });
    // `loop next` without an item (the plan is done) drops it.
    const next = await nextLoopIteration(dir, NOW);
    expect(next).toMatchObject({ state: { iteration: 2 } });
    expect('state' in next ? next.state : undefined).not.toHaveProperty('next_item');
    expect(fileOf(dir)).not.toHaveProperty('next_item');
  });

  it('a bad file is reported, left alone by the Stop route, and refused by `loop next`', async () => {
    const dir = root();
    mkdirSync(join(dir, '.agent-checkpoint'));
    writeFileSync(join(dir, LOOP_STATE_FILE), '{"version":1,');
    expect(await readLoopState(dir)).toEqual({ kind: 'invalid', detail: `${LOOP_STATE_FILE} is not JSON` });
    expect(await recordLoopTurn({ projectRoot: dir, percent: 87, level: 'L2', handoffPath: 'h.md', now: NOW })).toEqual([`loop: ${LOOP_STATE_FILE} is not JSON; the loop state is left alone`]);
    expect(readFileSync(join(dir, LOOP_STATE_FILE), 'utf8')).toBe('{"version":1,');
    expect(existsSync(join(dir, LOOP_END_FILE))).toBe(false);
    expect(await nextLoopIteration(dir, NOW)).toEqual({ error: `${LOOP_STATE_FILE} is not JSON` });
  });

  it('a symlink planted as the state file is neither read nor written through', async () => {
    const dir = root();
    const outside = root();
    writeFileSync(join(outside, 'target.json'), JSON.stringify(newLoopState(NOW)));
    mkdirSync(join(dir, '.agent-checkpoint'));
    symlinkSync(join(outside, 'target.json'), join(dir, LOOP_STATE_FILE));
    expect(await readLoopState(dir)).toMatchObject({ kind: 'invalid' });
    await expect(writeLoopState(dir, newLoopState(NOW))).rejects.toThrow(/not a regular file \(symlink\)|symlink/);
    expect(JSON.parse(readFileSync(join(outside, 'target.json'), 'utf8'))).toMatchObject({ iteration: 0 });
  });

  it('a symlinked .agent-checkpoint directory is refused: the turn end only reports it', async () => {
    const dir = root();
    const outside = root();
    mkdirSync(join(outside, 'ac'));
    writeFileSync(join(outside, 'ac', 'loop-state.json'), JSON.stringify(newLoopState(NOW)));
    symlinkSync(join(outside, 'ac'), join(dir, '.agent-checkpoint'));
    const notes = await recordLoopTurn({ projectRoot: dir, percent: 87, level: 'L2', handoffPath: 'h.md', now: NOW });
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^loop: cannot record the turn/);
    expect(JSON.parse(readFileSync(join(outside, 'ac', 'loop-state.json'), 'utf8'))).toMatchObject({ context_history: [] });
    expect(existsSync(join(outside, 'ac', 'loop-end-iteration'))).toBe(false);
  });
});

describe('the handoff\'s work in the loop state (seed RLP-001)', () => {
  it('a handoff\'s files with their lines, the current item and its progress are kept in context_checkpoint; bad ones are refused on read', async () => {
    const dir = root();
    await startLoop(dir, NOW);
    await nextLoopIteration(dir, NOW);
    const work = {
      filesInProgress: [{ path: 'src/auth/oauth.ts', ranges: [{ start: 45, end: 120 }] }, { path: 'notes.txt' }],
      progress: { source: 'task-list' as const, current: 'Implement OAuth\u001b[31m callback', done: 3, total: 7 },
    };
    await recordLoopTurn({ projectRoot: dir, percent: 87, level: 'L2', handoffPath: '.agent-checkpoint/handoffs/h.md', work, now: NOW });
    const read = await readLoopState(dir);
    expect(read.kind === 'ok' ? read.state.context_checkpoint : undefined).toMatchObject({
      files_in_progress: [{ path: 'src/auth/oauth.ts', lines: '45-120' }, { path: 'notes.txt' }],
      current_todo_item: 'Implement OAuth\\x1b[31m callback',
      progress: '3 of 7 done',
    });
    const base = (fileOf(dir) as { context_checkpoint: Record<string, unknown> });
    for (const bad of [{ files_in_progress: [{ path: '/etc/passwd' }] }, { files_in_progress: [{ path: 'a.ts', lines: '1; rm -rf' }] }, { current_todo_item: 'x\u0007' }, { progress: 5 }]) {
      expect(parseLoopState({ ...base, context_checkpoint: { ...base.context_checkpoint, ...bad } }).ok).toBe(false);
    }
  });
});
