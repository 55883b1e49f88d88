import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type CheckpointOutcome,
  type CheckpointRequest,
  claimCheckpoint,
  getCheckpoint,
  readSessionState,
  updateSessionState,
  type ToolCall,
  type TranscriptReader,
  type TurnEndExtension,
  type TurnTimeline,
} from '@agent-checkpoint/core';
import { makeTempGitRepo, type TempGitRepo } from '@agent-checkpoint/core/test-support';
import type { ContextCheckpointDetail } from '../extensions/context-checkpoint-extension.ts';
import { contextCheckpointExtension } from '../extensions/context-checkpoint-extension.ts';
import { wantsContextCheckpoint } from '../wants-context-checkpoint.ts';
import type { ContextStepOutput } from '../steps/run-context-step.ts';
import type { TestRun } from './run-tests.ts';
import { resolveWithSections, type ContextCheckpointConfigFile } from '../config/context-sections.ts';
import { sessionContextOf, withSessionContext } from '../state/session-slots.ts';
import { withDeferral } from '../state/session-context.ts';

// getCheckpoint with the opt-ins on real git repositories and real processes: the hook's own test
// run, and the context step (levels, handoffs, direct execution). The timelines are built here;
// the same features run on real recorded transcripts in delivery-hook's context-levels tests.

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

function repo(): TempGitRepo {
  const r = makeTempGitRepo();
  cleanups.push(r.remove);
  r.write('README.md', '# project\n');
  r.write('src/app.py', 'print(1)\n');
  r.git(['add', '-A']);
  r.commit('base', Math.floor(Date.now() / 1000) - 7200);
  return r;
}

const BASE: ContextCheckpointConfigFile = {
  categories: [{ id: 'app', label: 'app code', include: ['src/**'], action: 'Restart the app: `make restart`', evidence: ['make restart'] }],
  followUps: [{ id: 'tests', action: 'Run the tests: `make test`', evidence: ['make test'] }],
};
const configOf = (file: ContextCheckpointConfigFile) => resolveWithSections([{ config: { ...BASE, ...file }, source: { kind: 'project-file', name: 'test' } }]);

let n = 0;
const at = (msAgo: number): string => new Date(Date.now() - msAgo).toISOString();
const edit = (path: string): ToolCall => ({ id: `c${++n}`, kind: 'edit', rawName: 'Edit', input: { file_path: path }, paths: [path], outcome: 'success', timestamp: at(20_000) });
const readCall = (path: string): ToolCall => ({ ...edit(path), id: `c${++n}`, kind: 'read', rawName: 'Read', timestamp: at(30_000) });
const shell = (command: string): ToolCall => ({
  id: `c${++n}`,
  kind: 'shell',
  rawName: 'Bash',
  input: { command },
  paths: [],
  command,
  exitCode: 0,
  outcome: 'success',
  timestamp: at(5_000),
});

function timeline(calls: ToolCall[], contextTokens?: number): TurnTimeline {
  return {
    agent: 'claude',
    hasData: true,
    turnId: `turn-${++n}`,
    startedAt: at(60_000),
    prompt: 'Implement the feature',
    calls,
    checkpointsDelivered: 0,
    truncated: false,
    diagnostics: [],
    ...(contextTokens === undefined ? {} : { tokenUsage: { contextTokens, model: 'claude-opus-5-5', timestamp: at(1000) } }),
  };
}

function reader(t: TurnTimeline): TranscriptReader {
  return { specificationVersion: 'transcript-reader-v1', agent: 'claude', readTurn: () => Promise.resolve(t), locateTranscript: () => Promise.resolve(undefined) };
}

function request(r: TempGitRepo, t: TurnTimeline, file: ContextCheckpointConfigFile, extra: Partial<CheckpointRequest> = {}): CheckpointRequest {
  const env = { ...r.env, AGENT_CHECKPOINT_STATE_DIR: join(r.dir, '..', 'state') };
  const config = configOf(file);
  return {
    agent: 'claude',
    cwd: r.dir,
    env,
    config,
    sessionId: 'sess-1',
    transcript: { reader: reader(t), path: '/t.jsonl' },
    // What the routes' loader (loadTurnEndExtensions) gives for this config.
    extensions: wantsContextCheckpoint(config) ? [contextCheckpointExtension as TurnEndExtension] : [],
    ...extra,
  };
}

/** The extensions' details, as a route or `explain` reads them. */
const detailOf = (outcome: CheckpointOutcome): ContextCheckpointDetail => (outcome.extensions?.['context-checkpoint'] ?? {}) as ContextCheckpointDetail;
const testsOf = (outcome: CheckpointOutcome): TestRun | undefined => detailOf(outcome).tests;
const contextOf = (outcome: CheckpointOutcome): ContextStepOutput | undefined => detailOf(outcome).context;

/** What a route does after delivering: claim the block (its `onClaimGranted` promotes the pending context line). */
async function deliver(r: TempGitRepo, t: TurnTimeline, outcome: CheckpointOutcome): Promise<void> {
  const claim = await claimCheckpoint({
    stateDir: join(r.dir, '..', 'state'),
    agent: 'claude',
    sessionId: 'sess-1',
    turnId: t.turnId,
    stopHookActive: false,
    config: { maxBlocksPerTurn: 1, minTurnSeconds: 0 },
    ...(outcome.onClaimGranted ? { onGranted: outcome.onClaimGranted } : {}),
  });
  expect(claim.claim.verdict).toBe('allow');
}

const changedTurn = (r: TempGitRepo, tokens?: number): TurnTimeline => {
  r.write('src/app.py', `print('changed', ${++n})\n`);
  return timeline([readCall(join(r.dir, 'src/app.py')), edit(join(r.dir, 'src/app.py'))], tokens);
};

// Real git repositories and processes on a shared, loaded machine: generous limits.
describe('runTests through getCheckpoint', { timeout: 60_000 }, () => {
  it('off by default: no test run, the message is the engine\'s', async () => {
    const r = repo();
    const outcome = await getCheckpoint(request(r, changedTurn(r), {}));
    expect(testsOf(outcome)).toBeUndefined();
    expect(outcome.message).toContain('Run the tests: `make test`');
    expect(outcome.message).not.toContain('Tests:');
  });

  it('a failing run: "Tests: FAILED", the failing output fenced, "Fix the failing tests before proceeding." first', async () => {
    const r = repo();
    r.write('Makefile', 'test:\n\t@echo "FAILED tests/test_app.py::test_x - AssertionError"; exit 1\n');
    r.git(['add', 'Makefile']);
    r.commit('makefile', Math.floor(Date.now() / 1000) - 7000);
    const outcome = await getCheckpoint(request(r, changedTurn(r), { runTests: { command: 'make test', timeoutMs: 20_000 } }));
    expect(testsOf(outcome)).toMatchObject({ status: 'failed', exitCode: 2 });
    expect(outcome.mode).toBe('actionable');
    const message = outcome.message ?? '';
    expect(message).toMatch(/^\[agent-checkpoint\] Before you finish this turn:\nTests: FAILED \(exit 2, \d+\.\ds\)\n\nChanged: app code\n\nRequired actions:\n1\. Fix the failing tests before proceeding\.\n2\. Restart the app/);
    expect(message).toContain('```\nFAILED tests/test_app.py::test_x - AssertionError\n');
  });

  it('a passing run proves the test follow-up: "Tests: N passed" heads the remaining actions, and a turn lacking only tests goes silent', async () => {
    const r = repo();
    const withRestartMissing = await getCheckpoint(request(r, changedTurn(r), { runTests: { command: 'echo "3 passed" && make -v >/dev/null; true # make test' } }));
    // The command does not prove `make test`: the follow-up stays.
    expect(withRestartMissing.message).toContain('Run the tests');
    const proving = { runTests: { command: 'make test' } };
    r.write('Makefile', 'test:\n\t@echo "=== 12 passed in 0.01s ==="\n');
    r.git(['add', 'Makefile']);
    r.commit('makefile', Math.floor(Date.now() / 1000) - 7000);
    const t = changedTurn(r);
    const outcome = await getCheckpoint(request(r, t, proving));
    expect(testsOf(outcome)).toMatchObject({ status: 'passed', passedCount: 12 });
    expect(outcome.message).toMatch(/^\[agent-checkpoint\] Before you finish this turn:\nTests: 12 passed \(\d+\.\ds\)\n/);
    expect(outcome.message).not.toContain('Run the tests');
    // The same turn with the restart done: only the tests were missing, and the hook ran them.
    const done = timeline([...t.calls, shell('make restart')]);
    expect(await getCheckpoint(request(r, done, proving))).toMatchObject({ decision: 'silent', mode: 'all-clear', extensions: { 'context-checkpoint': { tests: { status: 'passed' } } } });
  });

  it('docs-only turns and `when` that matches nothing do not run the tests', async () => {
    const r = repo();
    r.write('README.md', 'edited\n');
    const t = timeline([edit(join(r.dir, 'README.md'))]);
    const outcome = await getCheckpoint(request(r, t, { runTests: { command: 'exit 1' } }));
    expect(outcome).toMatchObject({ decision: 'silent', mode: 'no-changes' });
    expect(testsOf(outcome)).toBeUndefined();
    const scoped = await getCheckpoint(request(r, changedTurn(r), { runTests: { command: 'exit 1', when: ['lib/**'] } }));
    expect(testsOf(scoped)).toBeUndefined();
  });
});

// Real git repositories and processes on a shared, loaded machine: generous limits.
describe('the context step through getCheckpoint', { timeout: 60_000 }, () => {
  const CONTEXT: ContextCheckpointConfigFile = { context: { enabled: true }, handoff: { enabled: true } };

  it('off by default: no context work even at 96 %', async () => {
    const r = repo();
    const outcome = await getCheckpoint(request(r, timeline([], 192_000), {}));
    expect(outcome).toMatchObject({ decision: 'silent', mode: 'no-changes' });
    expect(contextOf(outcome)).toBeUndefined();
    expect(existsSync(join(r.dir, '.agent-checkpoint'))).toBe(false);
  });

  it('L1 rides along on a message, never blocks a silent turn, and is said once per session', async () => {
    const r = repo();
    const quiet = await getCheckpoint(request(r, timeline([], 150_000), CONTEXT));
    expect(quiet).toMatchObject({ decision: 'silent', extensions: { 'context-checkpoint': { context: { action: { kind: 'warn', level: 'L1' }, lines: [] } } } });

    const t = changedTurn(r, 150_000);
    const outcome = await getCheckpoint(request(r, t, CONTEXT));
    expect(outcome.mode).toBe('actionable');
    expect(outcome.message).toContain(
      '\n\n⚠️ Context at 75% - Consider completing current task before starting new work.\nRun `agent-checkpoint-hook checkpoint` to checkpoint, or continue if task is nearly complete.\n\nDo the required actions',
    );
    await deliver(r, t, outcome);
    const again = await getCheckpoint(request(r, changedTurn(r, 151_000), CONTEXT));
    expect(again.message).not.toContain('Context at');
  });

  it('L2 blocks an otherwise silent turn once, with a handoff draft on disk; L3 writes the emergency handoff', async () => {
    const r = repo();
    const t = timeline([shell('ls')], 172_000);
    const outcome = await getCheckpoint(request(r, t, CONTEXT));
    expect(outcome.mode).toBe('context');
    const path = contextOf(outcome)?.handoff?.path ?? '';
    expect(path).toMatch(/^\.agent-checkpoint\/handoffs\/\d{4}-\d{2}-\d{2}-\d{4}\.md$/);
    expect(outcome.message).toBe(
      `[agent-checkpoint] 🔶 Context at 86% - Initiating checkpoint sequence.\nCompleting current edit, then generating handoff document.\n` +
        `A handoff draft is at \`${path}\` (what was done, files in progress, failing commands). Complete its Next Steps with what only you know (decisions, open questions) before continuing.\n\n` +
        'If this checkpoint is wrong and cannot be satisfied, turn it off for this session by running ' +
        `\`mkdir -p '${join(r.dir, '..', 'state', 'switches')}' && touch '${join(r.dir, '..', 'state', 'switches', 'session-sess-1.off')}'\` (a person can run \`agent-checkpoint-hook off --session sess-1\`).`,
    );
    const handoff = readFileSync(join(r.dir, path), 'utf8');
    expect(handoff).toContain('checkpoint_trigger: L2 (context at 86%)');
    expect(handoff).toContain('# Session Handoff: Implement the feature');
    // The handoff directory is ignored: git status shows nothing new.
    expect(r.git(['status', '--porcelain'])).toBe('');
    const state = (await readSessionState({ stateDir: join(r.dir, '..', 'state'), agent: 'claude', sessionId: 'sess-1' })).state;
    expect(sessionContextOf(state)).toMatchObject({ pendingLevel: 'L2', handoffLevel: 'L2', handoffPath: path });

    // The block was not delivered (e.g. the loop guard passed it): the line is said again, the handoff is not rewritten.
    const retry = await getCheckpoint(request(r, timeline([shell('ls')], 173_000), CONTEXT));
    expect(retry.mode).toBe('context');
    expect(retry.message).toContain('🔶 Context at 86% - Initiating checkpoint sequence.');
    expect(retry.message).toContain(`A handoff draft is at \`${path}\``);
    expect(contextOf(retry)?.handoff).toBeUndefined();
    await deliver(r, t, retry);
    expect(await getCheckpoint(request(r, timeline([shell('ls')], 174_000), CONTEXT))).toMatchObject({ decision: 'silent' });

    const l3 = await getCheckpoint(request(r, timeline([shell('ls')], 192_000), CONTEXT));
    expect(l3.mode).toBe('context');
    expect(l3.message).toContain('🔴 Context at 96% - Emergency checkpoint!');
    expect(contextOf(l3)?.handoff?.path).not.toBe(path);
    expect(readdirSync(join(r.dir, '.agent-checkpoint', 'handoffs')).filter((f) => f.endsWith('.md'))).toHaveLength(2);
  });

  it('handoffs off: every level is a warning that only rides along', async () => {
    const r = repo();
    const outcome = await getCheckpoint(request(r, timeline([], 192_000), { context: { enabled: true } }));
    expect(outcome).toMatchObject({ decision: 'silent', extensions: { 'context-checkpoint': { context: { action: { kind: 'warn', level: 'L3' } } } } });
    expect(existsSync(join(r.dir, '.agent-checkpoint'))).toBe(false);
  });

  it('without a session id the step is skipped (a level could not be said once)', async () => {
    const r = repo();
    const { sessionId: _drop, ...withoutSession } = request(r, timeline([], 172_000), CONTEXT);
    const outcome = await getCheckpoint(withoutSession);
    expect(outcome.decision).toBe('silent');
    expect(outcome.diagnostics.join('\n')).toMatch(/no session id or state directory/);
  });

  it('a deferral ("one more task", checkpoint --defer) keeps the next L2 turn end quiet and handoff-free, once', async () => {
    const r = repo();
    const location = { stateDir: join(r.dir, '..', 'state'), agent: 'claude' as const, sessionId: 'sess-1' };
    await updateSessionState(location, (state) => ({ state: withSessionContext(state, withDeferral(sessionContextOf(state), 'L2', new Date())), value: true }));
    const quiet = await getCheckpoint(request(r, timeline([shell('ls')], 172_000), CONTEXT));
    expect(quiet.decision).toBe('silent');
    expect(existsSync(join(r.dir, '.agent-checkpoint', 'handoffs'))).toBe(false);
    expect(sessionContextOf((await readSessionState(location)).state)?.deferredLevel).toBeUndefined();
    // Consumed: the next turn end at L2 blocks and writes the handoff as usual.
    const next = await getCheckpoint(request(r, timeline([shell('ls')], 173_000), CONTEXT));
    expect(next.mode).toBe('context');
    expect(contextOf(next)?.handoff?.path).toMatch(/^\.agent-checkpoint\/handoffs\//);
  });

  it('direct execution at L2: handoff, memory file and a WIP commit, reported in one line', async () => {
    const r = repo();
    const t = changedTurn(r, 172_000);
    const outcome = await getCheckpoint(request(r, t, { ...CONTEXT, directExecution: { enabled: true } }));
    expect(contextOf(outcome)?.handoff).toMatchObject({ mode: 'direct', status: 'done' });
    const sha = r.git(['rev-parse', '--short=7', 'HEAD']).trim();
    expect(outcome.message).toContain(`Context is at 86% (L2).\nCheckpoint: handoff written to ${contextOf(outcome)?.handoff?.path}, CLAUDE.md "## Last Session" updated, WIP commit ${sha}.`);
    expect(r.git(['log', '-1', '--format=%s'])).toMatch(/^\[WIP\] checkpoint at L2/);
    // By default the WIP commit carries the work (the changed tracked file) with the memory file (issue 14 point 8).
    expect(r.git(['show', '--name-only', '--format=', 'HEAD']).trim()).toBe('CLAUDE.md\nsrc/app.py');
    expect(r.git(['status', '--porcelain']).trim()).toBe('');
    // Not delivered (no claim): said again next turn, pointing at the same checkpoint, no new commit.
    const commits = r.git(['rev-list', '--count', 'HEAD']);
    const retry = await getCheckpoint(request(r, changedTurn(r, 173_000), { ...CONTEXT, directExecution: { enabled: true } }));
    expect(retry.message).toContain(`Context is at 86% (L2).\nCheckpoint: already written at this level, handoff \`${contextOf(outcome)?.handoff?.path}\`.`);
    expect(r.git(['rev-list', '--count', 'HEAD'])).toBe(commits);
  });
});
