import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDeliveryWorld, type DeliveryScenario, type DeliveryWorld } from '@agent-checkpoint/core/conformance';
import { claudeProjectSlug } from '@agent-checkpoint/transcript-claude';
import { afterEach, describe, expect, it } from 'vitest';
import { buildStopPayload } from './test-support/build-stop-payload.ts';
import { CLAUDE_FIXTURE, CODEX_FIXTURE, DELIVERY_FIXTURES, GEMINI_FIXTURE } from './test-support/delivery-fixtures.ts';
import { deliverThroughHook } from './test-support/hook-route-adapter.ts';
import { parseHookStdout, runHookBundle } from './test-support/run-hook-bundle.ts';

// The bundled hook end to end on real git repositories and recorded transcripts, beyond the shared
// conformance suite: agent-specific loop behaviour, concurrency, the deadline, locating transcripts.

let world: DeliveryWorld | undefined;
afterEach(() => {
  world?.remove();
  world = undefined;
});

function open(fixture = GEMINI_FIXTURE): DeliveryWorld {
  world = createDeliveryWorld(fixture);
  return world;
}

function withEnv(scenario: DeliveryScenario, env: Record<string, string>): DeliveryScenario {
  return { ...scenario, env: { ...scenario.env, ...env } };
}

describe('the loop guard through the real hook', () => {
  it('Gemini: the AfterAgent after a block, stop_hook_active false after tool calls, still passes', async () => {
    const w = open(GEMINI_FIXTURE);
    const first = await deliverThroughHook(w.scenario('actionable'));
    expect(first).not.toBeNull();
    // The block is on record, under the reader's turn id.
    const status = await runHookBundle({ args: ['status', '--session', GEMINI_FIXTURE.sessionId, '--json'], env: w.scenario('actionable').env });
    const states = (JSON.parse(status.stdout) as { session: { states: Array<{ agent: string; state: { turns: unknown[]; lastCheckpointAt?: string } }> } })
      .session.states;
    expect(states).toHaveLength(1);
    expect(states[0]).toMatchObject({ agent: 'gemini', state: { turns: [{ turnId: expect.any(String), blocks: 1 }] } });
    expect(states[0]?.state.lastCheckpointAt).toEqual(expect.any(String));
    // What Gemini does next: the reason is recorded as an ordinary user message, the model runs a
    // tool, and AfterAgent fires again with stop_hook_active false.
    const transcript = w.scenario('actionable').transcriptPath;
    appendFileSync(
      transcript,
      `${JSON.stringify({ id: 'b1a7e0c2-0000-4000-8000-000000000001', timestamp: new Date().toISOString(), type: 'user', content: [{ text: first }] })}\n`,
    );
    expect(await deliverThroughHook(w.scenario('repeat-stop'))).toBeNull();
    // Even with the state directory lost, the transcript shows our checkpoint in this turn.
    rmSync(w.stateDir, { recursive: true, force: true });
    expect(await deliverThroughHook(w.scenario('repeat-stop'))).toBeNull();
  });

  it.each(DELIVERY_FIXTURES.map((f) => [f.agent, f] as const))(
    '%s: stop_hook_active true passes on an actionable turn, even with no state at all',
    async (_agent, fixture) => {
      const w = open(fixture);
      const scenario = w.scenario('repeat-stop-active');
      expect((await w.expected(scenario)).decision).toBe('message');
      expect(await deliverThroughHook(scenario)).toBeNull();
    },
  );

  it('maxBlocksPerTurn 2 allows exactly two blocks in one turn', async () => {
    const w = open(GEMINI_FIXTURE);
    w.writeConfig({ ...w.actionableConfig, loopGuard: { maxBlocksPerTurn: 2, minTurnSeconds: 0 } });
    expect(await deliverThroughHook(w.scenario('actionable'))).not.toBeNull();
    expect(await deliverThroughHook(w.scenario('repeat-stop'))).not.toBeNull();
    expect(await deliverThroughHook(w.scenario('repeat-stop'))).toBeNull();
  });

  it('every turn is checked however quick; minTurnSeconds only spaces further blocks of the same turn', async () => {
    const w = open(GEMINI_FIXTURE);
    // A minimum of ~30 years: under the old rule (measured from the prompt) no turn was ever checked.
    w.writeConfig({ ...w.actionableConfig, loopGuard: { maxBlocksPerTurn: 2, minTurnSeconds: 1e9 } });
    expect(await deliverThroughHook(w.scenario('actionable'))).not.toBeNull();
    const again = w.scenario('repeat-stop');
    const result = await runHookBundle({ args: ['gemini', '--debug'], stdin: JSON.stringify(payloadOf(again)), env: again.env, cwd: again.cwd });
    expect(parseHookStdout('gemini', result.stdout)).toBeNull();
    expect(result.stderr).toMatch(/too-soon-after-checkpoint: .* since this turn's last checkpoint/);
  });

  it('a turn longer than the byte cap keeps its checkpoint: tail calls, and mtimes for the unread part', async () => {
    const w = open(CLAUDE_FIXTURE);
    const scenario = w.scenario('actionable');
    // Cap the read just before the turn's last tool call (Read notes.txt): the prompt, the Write and the
    // Edit of notes.txt lie in the unread part, and the real reader says `truncated`.
    const transcript = readFileSync(scenario.transcriptPath);
    const readCall = transcript.lastIndexOf('"name":"Read"');
    const lineStart = transcript.lastIndexOf(0x0a, readCall) + 1;
    expect(readCall, 'fixture precondition: the turn ends with a Read').toBeGreaterThan(0);
    w.writeConfig({ ...w.actionableConfig, transcriptMaxBytes: Math.max(4096, transcript.length - lineStart + 8) });
    const expected = await w.expected(scenario);
    expect(expected.timeline).toMatchObject({ hasData: true, truncated: true });
    expect(expected.timeline?.calls.map((c) => c.rawName)).toEqual(['Read']);
    // Before: no call of the tail changed a file and the start was unknown, so "no changes", silent.
    expect(expected.files.map((f) => [f.file.path, f.reason])).toEqual([['notes.txt', 'modified-during-turn']]);
    expect(expected.mode).toBe('actionable');
    const delivered = await deliverThroughHook(scenario);
    expect(delivered).toBe(expected.message);
  });

  it('off --all silences every session until on --all', async () => {
    const w = open(CLAUDE_FIXTURE);
    const env = w.scenario('actionable').env;
    expect((await runHookBundle({ args: ['off', '--all'], env })).code).toBe(0);
    expect(await deliverThroughHook(w.scenario('actionable'))).toBeNull();
    expect((await runHookBundle({ args: ['on', '--all'], env })).code).toBe(0);
    expect(await deliverThroughHook(w.scenario('actionable'))).not.toBeNull();
  });
});

describe('concurrency', () => {
  it('50 hook processes on the same turn at once deliver exactly one block', { timeout: 240_000 }, async () => {
    const w = open(CODEX_FIXTURE);
    const scenario = withEnv(w.scenario('actionable'), { AGENT_CHECKPOINT_HOOK_DEADLINE_MS: '120000' });
    const stdin = JSON.stringify(payloadOf(scenario));
    const results = await Promise.all(
      Array.from({ length: 50 }, () => runHookBundle({ args: ['codex'], stdin, env: scenario.env, cwd: scenario.cwd, killAfterMs: 200_000 })),
    );
    for (const r of results) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.signal).toBeNull();
    }
    const delivered = results.map((r) => parseHookStdout('codex', r.stdout)).filter((reason) => reason !== null);
    expect(delivered).toHaveLength(1);
    const expected = await w.expected(scenario);
    expect(delivered[0]).toBe(expected.message);
  });
});

describe('bounded time', () => {
  it('the hard deadline: passes and exits 0 when the run is still waiting', async () => {
    const w = open(GEMINI_FIXTURE);
    const scenario = withEnv(w.scenario('actionable'), { AGENT_CHECKPOINT_HOOK_DEADLINE_MS: '800', AGENT_CHECKPOINT_STDIN_TIMEOUT_MS: '60000' });
    // The payload never arrives and stdin stays open; the deadline (not the stdin limit) ends the run.
    const result = await runHookBundle({ args: ['gemini'], stdin: { keepOpen: '' }, env: scenario.env, killAfterMs: 30_000 });
    expect(result).toMatchObject({ code: 0, signal: null, stdout: '' });
    expect(result.stderr).toMatch(/deadline of 800 ms reached/);
    expect(result.ms).toBeLessThan(10_000);
  });

  it('a hanging git is cut short within the deadline: the generic message, exit 0', async () => {
    const w = open(CLAUDE_FIXTURE);
    const bin = join(w.root, 'slow-bin');
    mkdirSync(bin);
    // A git that never answers (think: a hung network filesystem). It records its pid so the test
    // can end exactly the processes it started.
    const pids = join(w.root, 'git-pids');
    writeFileSync(join(bin, 'git'), `#!/bin/sh\necho $$ >> '${pids}'\nexec sleep 60\n`);
    chmodSync(join(bin, 'git'), 0o755);
    const scenario = withEnv(w.scenario('actionable'), { PATH: `${bin}:${process.env['PATH'] ?? ''}`, AGENT_CHECKPOINT_HOOK_DEADLINE_MS: '1500' });
    const result = await runHookBundle({ args: ['claude'], stdin: JSON.stringify(payloadOf(scenario)), env: scenario.env, killAfterMs: 30_000 });
    killRecordedPids(pids);
    expect(result).toMatchObject({ code: 0, signal: null });
    expect(result.ms).toBeLessThan(10_000);
    // Git failed (aborted at the run's budget): core's fail-open answer is the generic checkpoint.
    const reason = parseHookStdout('claude', result.stdout);
    expect(reason?.startsWith('[agent-checkpoint] ')).toBe(true);
    expect(reason).not.toContain('Required actions');
    expect(readFileSync(pids, 'utf8').trim()).not.toBe('');
  });

  it('a FIFO as the transcript does not block the hook', async () => {
    const w = open(CLAUDE_FIXTURE);
    const fifo = join(w.root, 'transcript.fifo');
    execFileSync('mkfifo', [fifo]);
    const scenario = { ...w.scenario('actionable'), transcriptPath: fifo };
    const result = await runHookBundle({ args: ['claude', '--debug'], stdin: JSON.stringify(payloadOf(scenario)), env: scenario.env, killAfterMs: 30_000 });
    expect(result).toMatchObject({ code: 0, signal: null });
    expect(result.stderr).toMatch(/is not a regular file; ignoring it/);
    // Without transcript data the checkpoint is file-based: still delivered, from git alone.
    expect(parseHookStdout('claude', result.stdout)).toMatch(/^\[agent-checkpoint\] /);
  });

  it('a FIFO as the project config file does not wedge the hook (it passes with a warning)', async () => {
    const w = open(CODEX_FIXTURE);
    const config = join(w.repo, '.agent-checkpoint.json');
    rmSync(config);
    execFileSync('mkfifo', [config]);
    const scenario = w.scenario('actionable');
    const result = await runHookBundle({ args: ['codex'], stdin: JSON.stringify(payloadOf(scenario)), env: scenario.env, killAfterMs: 30_000 });
    expect(result).toMatchObject({ code: 0, signal: null });
    // The stop passes; the user is told once, in Codex's user-visible systemMessage (no decision).
    expect(JSON.parse(result.stdout)).toEqual({ systemMessage: expect.stringMatching(/^agent-checkpoint: .*\.agent-checkpoint\.json is not a regular file, so no checkpoint runs here\./) });
    expect(parseHookStdout('codex', result.stdout)).toBeNull();
    expect(result.stderr).toMatch(/is not a regular file/);
  });
});

describe('configuration problems', () => {
  it('an invalid project config is reported on stderr and ignored as a whole (defaults apply)', async () => {
    const w = open(CLAUDE_FIXTURE);
    writeFileSync(join(w.repo, '.agent-checkpoint.json'), '{ "categories": [ { "id": "Bad Id", "include": [] } ] }');
    const scenario = w.scenario('actionable');
    const result = await runHookBundle({ args: ['claude'], stdin: JSON.stringify(payloadOf(scenario)), env: scenario.env });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^agent-checkpoint: config: .*\.agent-checkpoint\.json: invalid configuration, file ignored/m);
    expect(parseHookStdout('claude', result.stdout)).toBe((await w.expected(scenario)).message);
  });
});

describe('finding the transcript without transcript_path', () => {
  it('Claude: locates <home>/.claude/projects/<slug>/<session>.jsonl from session id and cwd', async () => {
    const w = open(CLAUDE_FIXTURE);
    const scenario = w.scenario('actionable');
    const home = scenario.env['HOME'] ?? '';
    const located = join(home, '.claude', 'projects', claudeProjectSlug(scenario.cwd), `${scenario.sessionId}.jsonl`);
    mkdirSync(join(located, '..'), { recursive: true });
    copyFileSync(scenario.transcriptPath, located);
    const payload = payloadOf(scenario);
    delete payload['transcript_path'];
    const result = await runHookBundle({ args: ['claude'], stdin: JSON.stringify(payload), env: scenario.env, cwd: scenario.cwd });
    expect(result.code).toBe(0);
    expect(parseHookStdout('claude', result.stdout)).toBe((await w.expected({ ...scenario, transcriptPath: located })).message);
  });
});

describe('debug logging', () => {
  it('keeps stdout pure and writes a user-only JSON-lines log in the state dir', async () => {
    const w = open(GEMINI_FIXTURE);
    const scenario = withEnv(w.scenario('actionable'), { AGENT_CHECKPOINT_DEBUG: '1' });
    const result = await runHookBundle({ args: ['gemini'], stdin: JSON.stringify(payloadOf(scenario)), env: scenario.env });
    expect(result.code).toBe(0);
    expect(parseHookStdout('gemini', result.stdout)).toBe((await w.expected(scenario)).message);
    expect(result.stderr).toMatch(/^agent-checkpoint: checkpoint: /m);
    const log = join(w.stateDir, 'debug.log');
    expect(statSync(log).mode & 0o777).toBe(0o600);
    const lines = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.at(-1)).toMatchObject({ agent: 'gemini', level: 'debug', verdict: 'block' });
    expect(String(lines.at(-1)?.['message'])).toMatch(/^checkpoint: actionable/);
    // Per-phase timings, for measuring the hook on a user's machine.
    expect(lines.at(-1)?.['timings']).toEqual({ config: expect.any(Number), checkpoint: expect.any(Number), claim: expect.any(Number) });
  });
});

function payloadOf(scenario: DeliveryScenario): Record<string, unknown> {
  return buildStopPayload(scenario);
}

/** The fake git's `sleep` may outlive the hook: end those processes, by pid. */
function killRecordedPids(file: string): void {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return;
  }
  for (const pid of text.split('\n').filter(Boolean).map(Number)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}
