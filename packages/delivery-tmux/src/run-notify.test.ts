import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  claimCheckpoint,
  deliveredMessageDigest,
  getCheckpoint,
  loadConfig,
  readSessionState,
  runTurnEnd,
  type CheckpointOutcome,
  type ReadTurnRequest,
  type TranscriptReader,
  type TurnEndDecision,
} from '@agent-checkpoint/core';
import { createCodexTranscriptReader } from '@agent-checkpoint/transcript-codex';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runNotify } from './run-notify.ts';
import { sanitizeTypedText } from './sanitize-typed-text.ts';
import { buildBundle, createCodexWorld, RECORDED, runNotifyBundle, type CodexWorld } from './__fixtures__/codex-world.ts';
import { startFakeCodex, startTestTmux, type FakeCodexPane, type TestTmux } from './__fixtures__/tmux-test-server.ts';

/**
 * End to end on real parts: a real git repository, the recorded Codex 0.169 rollout in a temp
 * CODEX_HOME, the real Codex reader and getCheckpoint, the bundled CLI, real tmux and the fake
 * Codex TUI.
 */
let bundleDir: string;
let bundle: string;
beforeAll(async () => {
  bundleDir = mkdtempSync(join(tmpdir(), 'ac-tmux-bundle-'));
  bundle = await buildBundle(bundleDir);
});
afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));

let world: CodexWorld;
let server: TestTmux;
let prefix: string;
beforeEach(async () => {
  world = createCodexWorld();
  server = await startTestTmux();
  prefix = (await loadConfig({ cwd: world.repo, env: world.env })).config.messages.prefix;
});
afterEach(async () => {
  await server.dispose();
  world.remove();
});

/** What getCheckpoint says for turn 1 with exactly the inputs the notify route uses. */
async function expectedForTurn1(transcriptPath: string): Promise<CheckpointOutcome> {
  return getCheckpoint({
    agent: 'codex',
    cwd: world.repo,
    transcript: {
      reader: createCodexTranscriptReader(),
      path: transcriptPath,
      hint: { turnId: RECORDED.turn1, prompt: RECORDED.prompt, lastAssistantMessage: 'Fixed calc.add and added NOTES.md.' },
    },
    sessionId: RECORDED.threadId,
    env: world.env,
  });
}

const notify = (fake: FakeCodexPane, payload: string, args: readonly string[] = []) =>
  runNotifyBundle(bundle, [...args, payload], { ...world.env, ...fake.env });

describe('notify → getCheckpoint → typed into the Codex pane', () => {
  it('types exactly the text getCheckpoint returns, as one submission (parity)', async () => {
    const rollout = world.writeRollout(RECORDED.turn1End, prefix);
    const expected = await expectedForTurn1(rollout);
    expect(expected.decision, expected.diagnostics.join('; ')).toBe('message');
    const message = expected.message ?? '';
    expect(sanitizeTypedText(message)).toBe(message);

    const fake = await startFakeCodex(server, ['--hold-open', world.rolloutPath, '--busy-ms', '200']);
    const run = await notify(fake, world.payload(RECORDED.turn1, [RECORDED.prompt]));
    expect(run.code).toBe(0);
    expect(run.outcome, `${JSON.stringify(run.outcome)} ${run.stderr}`).toMatchObject({ kind: 'delivered' });
    expect(fake.submissions()).toEqual([message.replace(/\s+$/, '')]);
    expect(fake.submissions()[0]?.startsWith(prefix.trim())).toBe(true);
    expect(fake.events().map((e) => e.type)).toEqual(['ready', 'paste', 'submit']);
    // The loop guard recorded the delivery under the thread id and turn id.
    const state = await readSessionState({ stateDir: world.stateDir, agent: 'codex', sessionId: RECORDED.threadId });
    expect(state.state.turns.map((t) => [t.turnId, t.blocks])).toEqual([[RECORDED.turn1, 1]]);
  });

  it('types nothing for the turn that answered our checkpoint', async () => {
    const fake = await startFakeCodex(server, ['--hold-open', world.rolloutPath, '--busy-ms', '200']);
    world.writeRollout(RECORDED.turn1End, prefix);
    const first = await notify(fake, world.payload(RECORDED.turn1, [RECORDED.prompt]));
    expect(first.outcome, first.stderr).toMatchObject({ kind: 'delivered' });
    const typed = fake.submissions()[0] ?? '';

    // Codex ran our message as turn 2; its notify arrives with the cumulative input messages.
    world.writeRollout(RECORDED.turn2End, prefix, typed);
    const second = await notify(fake, world.payload(RECORDED.turn2, [RECORDED.prompt, typed]));
    expect(second.outcome).toEqual({ kind: 'skipped', reason: 'this turn answered our own checkpoint' });

    // Even when the payload does not show it, the rollout's last user message does.
    const third = await notify(fake, world.payload(RECORDED.turn2, [RECORDED.prompt]));
    expect(third.outcome).toMatchObject({ kind: 'skipped', reason: expect.stringMatching(/own checkpoint/) });
    expect(fake.submissions()).toEqual([typed]);
  });

  it('delivers at most once per turn: a repeated notify for the same turn types nothing', async () => {
    world.writeRollout(RECORDED.turn1End, prefix);
    const fake = await startFakeCodex(server, ['--hold-open', world.rolloutPath, '--busy-ms', '200']);
    const payload = world.payload(RECORDED.turn1, [RECORDED.prompt]);
    expect((await notify(fake, payload)).outcome).toMatchObject({ kind: 'delivered' });
    const again = await notify(fake, payload);
    expect(again.outcome).toMatchObject({ kind: 'skipped', reason: expect.stringMatching(/^loop guard/) });
    expect(fake.submissions()).toHaveLength(1);
  });

  it('types nothing when the Stop hook already checkpointed this turn (shared state)', async () => {
    world.writeRollout(RECORDED.turn1End, prefix);
    const hookClaim = await claimCheckpoint({
      stateDir: world.stateDir,
      agent: 'codex',
      sessionId: RECORDED.threadId,
      turnId: RECORDED.turn1,
      stopHookActive: false,
      config: { maxBlocksPerTurn: 1, minTurnSeconds: 0 },
    });
    expect(hookClaim.claim.verdict).toBe('allow');
    const fake = await startFakeCodex(server, ['--hold-open', world.rolloutPath]);
    const run = await notify(fake, world.payload(RECORDED.turn1, [RECORDED.prompt]));
    expect(run.outcome).toMatchObject({ kind: 'skipped', reason: expect.stringMatching(/^loop guard/) });
    expect(fake.events().map((e) => e.type)).toEqual(['ready']);
  });

  it('refuses a busy pane without using up the turn’s checkpoint', async () => {
    world.writeRollout(RECORDED.turn1End, prefix);
    const fake = await startFakeCodex(server, ['--hold-open', world.rolloutPath, '--start-busy-ms', '60000']);
    const run = await notify(fake, world.payload(RECORDED.turn1, [RECORDED.prompt]), ['--idle-wait-ms=300']);
    expect(run.outcome).toEqual({ kind: 'refused', reason: 'Codex is busy (a turn is running)' });
    expect(fake.events().map((e) => e.type)).toEqual(['ready']);
    const state = await readSessionState({ stateDir: world.stateDir, agent: 'codex', sessionId: RECORDED.threadId });
    expect(state.state.turns).toEqual([]);
  });

  it('skips a thread without a rollout', async () => {
    const fake = await startFakeCodex(server);
    const run = await notify(fake, world.payload(RECORDED.turn1, [RECORDED.prompt]));
    expect(run.outcome).toEqual({ kind: 'skipped', reason: `no rollout found for thread ${RECORDED.threadId}` });
    expect(fake.events().map((e) => e.type)).toEqual(['ready']);
  });

  it('types nothing into a pane whose Codex runs another thread (its rollout is not open there)', async () => {
    // notify runs in Codex's shared daemon and inherits the TMUX_PANE of whichever TUI started it:
    // the pane named there may run another session. Without proof that it runs this thread: nothing.
    world.writeRollout(RECORDED.turn1End, prefix);
    const other = join(world.root, 'other-thread-rollout.jsonl');
    writeFileSync(other, '');
    const fake = await startFakeCodex(server, ['--hold-open', other]);
    const run = await notify(fake, world.payload(RECORDED.turn1, [RECORDED.prompt]));
    expect(run.outcome).toEqual({ kind: 'skipped', reason: expect.stringMatching(/^not typing: pane %\d+: its Codex does not have this thread's rollout open/) });
    expect(fake.events().map((e) => e.type)).toEqual(['ready']);
    const state = await readSessionState({ stateDir: world.stateDir, agent: 'codex', sessionId: RECORDED.threadId });
    expect(state.state.turns).toEqual([]);
  });

  it('leaves `codex exec` turns to the Stop hook (a queued message would be dequeued and lost there)', async () => {
    world.writeRollout(RECORDED.turn1End, prefix);
    const fake = await startFakeCodex(server, ['--hold-open', world.rolloutPath]);
    const exec = JSON.stringify({ ...(JSON.parse(world.payload(RECORDED.turn1, [RECORDED.prompt])) as Record<string, unknown>), client: 'codex_exec' });
    const run = await notify(fake, exec);
    expect(run.outcome).toEqual({ kind: 'skipped', reason: 'client "codex_exec" is not the interactive TUI (use the Stop hook)' });
    expect(fake.events().map((e) => e.type)).toEqual(['ready']);
  });

  it('honours the per-session off switch', async () => {
    world.writeRollout(RECORDED.turn1End, prefix);
    const { setOffSwitch } = await import('@agent-checkpoint/core');
    await setOffSwitch({ stateDir: world.stateDir, scope: { kind: 'session', sessionId: RECORDED.threadId }, off: true });
    const fake = await startFakeCodex(server, ['--hold-open', world.rolloutPath]);
    const run = await notify(fake, world.payload(RECORDED.turn1, [RECORDED.prompt]));
    expect(run.outcome).toMatchObject({ kind: 'skipped', reason: expect.stringMatching(/^switched off \(session/) });
    expect(fake.events().map((e) => e.type)).toEqual(['ready']);
  });

  it('honours the per-project off switch (agent-checkpoint-hook off --project)', async () => {
    world.writeRollout(RECORDED.turn1End, prefix);
    const { findProjectRoot, setOffSwitch } = await import('@agent-checkpoint/core');
    const payload = world.payload(RECORDED.turn1, [RECORDED.prompt]);
    const cwd = (JSON.parse(payload) as { cwd: string }).cwd;
    await setOffSwitch({ stateDir: world.stateDir, scope: { kind: 'project', projectRoot: findProjectRoot(cwd) }, off: true });
    const fake = await startFakeCodex(server, ['--hold-open', world.rolloutPath]);
    const run = await notify(fake, payload);
    expect(run.outcome).toMatchObject({ kind: 'skipped', reason: expect.stringMatching(/^switched off \(project/) });
    expect(fake.events().map((e) => e.type)).toEqual(['ready']);
  });
});

describe('only what we delivered counts as ours (issue 11 class 5)', () => {
  it('a user prompt that starts with our prefix gets its checkpoint; our own message is still skipped', async () => {
    // The user typed our prefix into the prompt: the rollout and the payload both show it.
    const typedPrompt = `${prefix}please check X`;
    const rollout = world.writeRollout(RECORDED.turn1End, prefix);
    const escaped = (text: string): string => JSON.stringify(text).slice(1, -1);
    writeFileSync(rollout, readFileSync(rollout, 'utf8').split(escaped(RECORDED.prompt)).join(escaped(typedPrompt)));
    const fake = await startFakeCodex(server, ['--hold-open', world.rolloutPath, '--busy-ms', '200']);
    const first = await notify(fake, world.payload(RECORDED.turn1, [typedPrompt]));
    expect(first.outcome, `${JSON.stringify(first.outcome)} ${first.stderr}`).toMatchObject({ kind: 'delivered' });
    const typed = fake.submissions()[0] ?? '';
    expect(typed.startsWith(prefix.trim())).toBe(true);
    // The delivery is recorded by its digest (never its text).
    const state = await readSessionState({ stateDir: world.stateDir, agent: 'codex', sessionId: RECORDED.threadId });
    expect(state.state.delivered).toEqual([deliveredMessageDigest(typed)]);

    // Codex runs our message as turn 2: skipped by its recorded digest (no loop).
    world.writeRollout(RECORDED.turn2End, prefix, typed);
    const second = await notify(fake, world.payload(RECORDED.turn2, [typedPrompt, typed]));
    expect(second.outcome).toEqual({ kind: 'skipped', reason: 'this turn answered our own checkpoint' });
    expect(fake.submissions()).toEqual([typed]);
  });

  it('without a delivery record (state directory lost) our own message is still recognised by its whole structure', async () => {
    const fake = await startFakeCodex(server, ['--hold-open', world.rolloutPath, '--busy-ms', '200']);
    world.writeRollout(RECORDED.turn1End, prefix);
    const first = await notify(fake, world.payload(RECORDED.turn1, [RECORDED.prompt]));
    expect(first.outcome, first.stderr).toMatchObject({ kind: 'delivered' });
    const typed = fake.submissions()[0] ?? '';
    rmSync(world.stateDir, { recursive: true, force: true });

    world.writeRollout(RECORDED.turn2End, prefix, typed);
    const second = await notify(fake, world.payload(RECORDED.turn2, [RECORDED.prompt, typed]));
    expect(second.outcome).toEqual({ kind: 'skipped', reason: 'this turn answered our own checkpoint' });
    const third = await notify(fake, world.payload(RECORDED.turn2, [RECORDED.prompt]));
    expect(third.outcome).toMatchObject({ kind: 'skipped', reason: expect.stringMatching(/own checkpoint/) });
    expect(fake.submissions()).toEqual([typed]);
  });
});

describe('the route passes its deadline and delivery record to the pipeline', () => {
  /** The real Codex reader, recording what the pipeline asks it. */
  const recordingReader = (requests: ReadTurnRequest[]): TranscriptReader => {
    const real = createCodexTranscriptReader();
    return { ...real, readTurn: (request) => (requests.push(request), real.readTurn(request)), locateTranscript: (request) => real.locateTranscript(request) };
  };

  it('a huge CPU-bound rollout tail stops at the route budget with the `deadline` diagnostic', { timeout: 120_000 }, async () => {
    const rollout = world.writeRollout(RECORDED.turn1End, prefix);
    // 48 MiB of tiny JSON lines after the turn: parsing them all takes far longer than the budget,
    // and the parse is synchronous (no timer fires during it): only `deadlineAt` can stop it.
    const block = '{}\n'.repeat(1 << 20);
    for (let i = 0; i < 16; i++) appendFileSync(rollout, block);
    // A user config file (outside the repository) raises the byte cap so the whole tail is read.
    const configDir = mkdtempSync(join(tmpdir(), 'ac-tmux-config-'));
    try {
      const userConfig = join(configDir, 'config.json');
      writeFileSync(userConfig, JSON.stringify({ transcriptMaxBytes: 64 * 1024 * 1024 }));
      const fake = await startFakeCodex(server, ['--hold-open', world.rolloutPath, '--busy-ms', '200']);
      const requests: ReadTurnRequest[] = [];
      const decisions: TurnEndDecision[] = [];
      const stderr: string[] = [];
      const run = await runNotify([world.payload(RECORDED.turn1, [RECORDED.prompt])], {
        env: { ...world.env, ...fake.env, AGENT_CHECKPOINT_CONFIG: userConfig },
        runTurnEnd: async (event) => {
          const decision = await runTurnEnd(event);
          decisions.push(decision);
          return decision;
        },
        createReader: () => recordingReader(requests),
        checkpointBudgetMs: 1500,
        stderr: (line) => stderr.push(line),
      });
      expect(requests).toHaveLength(1);
      expect(requests[0]?.maxBytes).toBe(64 * 1024 * 1024);
      expect(requests[0]?.deadlineAt).toEqual(expect.any(Number));
      const diagnostics = decisions[0]?.outcome?.diagnostics;
      expect(diagnostics, JSON.stringify(diagnostics)).toContainEqual(expect.stringMatching(/^transcript: deadline: /));
      expect(run.outcome.kind, `${JSON.stringify(run.outcome)} ${stderr.join('\n')}`).not.toBe('failed');
    } finally {
      rmSync(configDir, { recursive: true, force: true });
    }
  });

  it('passes the session’s delivered digests to the reader', async () => {
    world.writeRollout(RECORDED.turn1End, prefix);
    const fake = await startFakeCodex(server, ['--hold-open', world.rolloutPath, '--busy-ms', '200']);
    const earlier = await claimCheckpoint({
      stateDir: world.stateDir,
      agent: 'codex',
      sessionId: RECORDED.threadId,
      turnId: 'an-earlier-turn',
      stopHookActive: false,
      config: { maxBlocksPerTurn: 1, minTurnSeconds: 0 },
      messageDigest: 'sha256:0123456789abcdef0123456789abcdef',
    });
    expect(earlier.claim.verdict).toBe('allow');
    const requests: ReadTurnRequest[] = [];
    await runNotify([world.payload(RECORDED.turn1, [RECORDED.prompt])], {
      env: { ...world.env, ...fake.env },
      runTurnEnd,
      createReader: () => recordingReader(requests),
      stderr: () => undefined,
    });
    expect(requests.map((r) => r.deliveredDigests)).toEqual([['sha256:0123456789abcdef0123456789abcdef']]);
  });
});
