import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type CheckpointOutcome, type ConfigFile, getCheckpoint, resolveConfig, type TurnEndExtension, type TurnTimeline } from '@agent-checkpoint/core';
import type { TempGitRepo } from '@agent-checkpoint/core/test-support';
import { contextCheckpointExtension, type ContextCheckpointDetail } from '../extensions/context-checkpoint-extension.ts';
import { LOOP_END_FILE, LOOP_STATE_FILE } from './loop-state.ts';
import { nextLoopIteration, startLoop } from './loop-steps.ts';
import { CONTEXT_SECTION } from '../config/context-sections.ts';
import { committedRepo, contextTimeline, staticReader } from '../steps/test-support/context-turn.ts';

// The Stop route's context step inside a loop iteration, through getCheckpoint on real git
// repositories: the loop state records the iteration's context and a handoff, the signal file
// appears, and a direct checkpoint's WIP commit names the iteration.

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

const repo = (): TempGitRepo => committedRepo(cleanups);

const timeline = (contextTokens: number): TurnTimeline => contextTimeline(contextTokens, 'Implement the feature');
const reader = staticReader;

function check(r: TempGitRepo, t: TurnTimeline, file: ConfigFile, sessionId: string): Promise<CheckpointOutcome> {
  return getCheckpoint({
    agent: 'claude',
    cwd: r.dir,
    env: { ...r.env, AGENT_CHECKPOINT_STATE_DIR: join(r.dir, '..', 'state') },
    config: resolveConfig([{ config: file, source: { kind: 'project-file', name: 'test' } }], [CONTEXT_SECTION]),
    sessionId,
    transcript: { reader: reader(t), path: '/t.jsonl' },
    extensions: [contextCheckpointExtension as TurnEndExtension],
  });
}
const handoffOf = (o: CheckpointOutcome) => ((o.extensions?.['context-checkpoint'] ?? {}) as ContextCheckpointDetail).context?.handoff;
const CONTEXT = { context: { enabled: true }, handoff: { enabled: true } } as ConfigFile;

describe('the context step in a loop iteration', { timeout: 60_000 }, () => {
  it('records each iteration\'s peak; an L2 handoff becomes the loop\'s pending checkpoint with the end-this-iteration signal', async () => {
    const r = repo();
    await startLoop(r.dir, new Date());
    await nextLoopIteration(r.dir, new Date());
    await check(r, timeline(80_000), CONTEXT, 'iter-1');
    expect(existsSync(join(r.dir, LOOP_END_FILE))).toBe(false);
    await nextLoopIteration(r.dir, new Date());
    const outcome = await check(r, timeline(172_000), CONTEXT, 'iter-2');
    expect(outcome.mode).toBe('context');
    const path = handoffOf(outcome)?.path ?? '';
    expect(path).toMatch(/^\.agent-checkpoint\/handoffs\//);
    expect(readFileSync(join(r.dir, LOOP_END_FILE), 'utf8')).toBe(`${path}\n`);
    expect(JSON.parse(readFileSync(join(r.dir, LOOP_STATE_FILE), 'utf8'))).toMatchObject({
      iteration: 2,
      context_checkpoint: { active: true, level: 'L2', percent_at_checkpoint: 86, handoff_file: path, handoff_iteration: 2, handoff_consumed: false },
      context_history: [
        { iteration: 1, peak_percent: 40, checkpoint: false },
        { iteration: 2, peak_percent: 86, checkpoint: true },
      ],
    });
    // Nothing of the loop shows in git status.
    expect(r.git(['status', '--porcelain'])).toBe('');
  });

  it('a direct checkpoint in iteration 3 says so in the WIP commit (subject and Loop-Iteration trailer)', async () => {
    const r = repo();
    await startLoop(r.dir, new Date());
    for (let i = 0; i < 3; i += 1) await nextLoopIteration(r.dir, new Date());
    r.write('src/app.py', 'print(2)\n');
    const outcome = await check(r, timeline(172_000), ({ ...CONTEXT, directExecution: { enabled: true } } as ConfigFile), 'iter-3');
    expect(handoffOf(outcome)).toMatchObject({ mode: 'direct', status: 'done' });
    expect(r.git(['log', '-1', '--format=%s'])).toMatch(/^\[WIP\] checkpoint at L2 \(context at 86%\) \(loop iteration 3\)\n$/);
    expect(r.git(['log', '-1', '--format=%(trailers:key=Loop-Iteration,valueonly)']).trim()).toBe('3');
  });

  it('outside a loop the WIP commit message is unchanged', async () => {
    const r = repo();
    r.write('src/app.py', 'print(2)\n');
    await check(r, timeline(172_000), ({ ...CONTEXT, directExecution: { enabled: true } } as ConfigFile), 'plain');
    expect(r.git(['log', '-1', '--format=%B'])).not.toContain('Loop-Iteration');
    expect(existsSync(join(r.dir, LOOP_STATE_FILE))).toBe(false);
  });
});
