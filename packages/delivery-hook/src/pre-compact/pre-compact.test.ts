import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSessionState } from '@agent-checkpoint/core';
import { createDeliveryWorld, type DeliveryFixture, type DeliveryWorld } from '@agent-checkpoint/core/conformance';
import { afterEach, describe, expect, it } from 'vitest';
import { CLAUDE_FIXTURE, CODEX_FIXTURE, GEMINI_FIXTURE, QWEN_FIXTURE } from '../test-support/delivery-fixtures.ts';
import { FIXTURES_DIR } from '../test-support/recorded-payloads.ts';
import { runHookBundle } from '../test-support/run-hook-bundle.ts';
import { trustProjectConfig } from '../test-support/trust-project-config.ts';
import { sessionContextOf } from '@agent-checkpoint/context-checkpoint';

// `agent-checkpoint-hook pre-compact <agent>` as a real process, on real repositories and the
// derived L2 transcripts (fixtures/context-levels/README.md).

const worlds: DeliveryWorld[] = [];
afterEach(() => {
  while (worlds.length > 0) worlds.pop()?.remove();
});

// The agents with context-level fixtures: Pi has none (its pre-compact hook is tested on a recorded
// session in agents/pi-context-hooks.test.ts).
type ContextAgent = Exclude<DeliveryFixture['agent'], 'pi'>;
const L2: Record<ContextAgent, string> = {
  claude: 'claude/2.1.330/context-levels/L2.jsonl',
  gemini: 'gemini/0.61.0/context-levels/L2.jsonl',
  codex: 'codex/0.169.0/context-levels/L2.jsonl',
  copilot: 'copilot/1.0.102/context-levels/L2.jsonl',
  qwen: 'qwen/0.24.4/context-levels/L2.jsonl',
};

function open(base: DeliveryFixture, config: Record<string, unknown> = { handoff: { enabled: true } }): DeliveryWorld {
  const world = createDeliveryWorld({ ...base, transcriptFile: join(FIXTURES_DIR, L2[contextAgent(base.agent)]) });
  worlds.push(world);
  world.writeConfig({ ...world.actionableConfig, ...config });
  return world;
}

/** The PreCompact payload as each CLI sends it (Gemini calls the event PreCompress). */
function contextAgent(agent: DeliveryFixture['agent']): ContextAgent {
  if (agent === 'pi') throw new Error('Pi has no context-level fixtures (agents/pi-context-hooks.test.ts)');
  return agent;
}

function payload(world: DeliveryWorld, agent: ContextAgent): string {
  const s = world.scenario('actionable');
  switch (agent) {
    case 'claude':
      return JSON.stringify({ session_id: s.sessionId, transcript_path: s.transcriptPath, cwd: s.cwd, hook_event_name: 'PreCompact', trigger: 'auto', custom_instructions: null });
    case 'gemini':
      return JSON.stringify({ session_id: s.sessionId, transcript_path: s.transcriptPath, cwd: s.cwd, hook_event_name: 'PreCompress', timestamp: new Date().toISOString(), trigger: 'manual' });
    case 'codex':
      return JSON.stringify({
        session_id: s.sessionId,
        turn_id: s.hint.turnId,
        transcript_path: s.transcriptPath,
        cwd: s.cwd,
        hook_event_name: 'PreCompact',
        model: 'gpt-5.5',
        trigger: 'auto',
      });
    case 'copilot':
      throw new Error("Copilot CLI's preCompact is not registered (copilot-profile.ts hookEntries)");
    case 'qwen':
      // firePreCompactEvent(trigger, customInstructions) in 0.24.4: Claude's fields.
      return JSON.stringify({ session_id: s.sessionId, transcript_path: s.transcriptPath, cwd: s.cwd, hook_event_name: 'PreCompact', trigger: 'auto', custom_instructions: '' });
  }
}

function handoffs(world: DeliveryWorld): string[] {
  const dir = join(world.repo, '.agent-checkpoint', 'handoffs');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.md')) : [];
}

describe('pre-compact', () => {
  it.each([
    ['claude', CLAUDE_FIXTURE],
    ['gemini', GEMINI_FIXTURE],
    ['codex', CODEX_FIXTURE],
    ['qwen', QWEN_FIXTURE],
  ] as const)('%s: writes a pre-compact handoff of the turn so far and leaves the compaction alone', async (agent, base) => {
    const world = open(base);
    const result = await runHookBundle({ args: ['pre-compact', agent], stdin: payload(world, agent), env: world.scenario('actionable').env, cwd: world.repo });
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const [name] = handoffs(world);
    const handoff = readFileSync(join(world.repo, '.agent-checkpoint', 'handoffs', name ?? ''), 'utf8');
    expect(handoff).toContain('checkpoint_trigger: pre-compact (context at 86%)');
    expect(handoff).toContain(`agent: ${agent}`);
    for (const file of Object.keys(base.changedFiles)) expect(handoff).toContain(file);
    // The session remembers it (status lines show it).
    const { state } = await readSessionState({ stateDir: world.stateDir, agent, sessionId: base.sessionId });
    expect(sessionContextOf(state)?.handoffPath).toBe(`.agent-checkpoint/handoffs/${name}`);
  });

  it('success metrics: each compaction is recorded, with whether a handoff preserved the work', async () => {
    const metrics = (world: DeliveryWorld): unknown[] => {
      const dir = join(world.stateDir, 'metrics');
      return existsSync(dir) ? readdirSync(dir).flatMap((f) => readFileSync(join(dir, f), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as unknown)) : [];
    };
    const kept = open(CLAUDE_FIXTURE);
    await runHookBundle({ args: ['pre-compact', 'claude'], stdin: payload(kept, 'claude'), env: kept.scenario('actionable').env, cwd: kept.repo });
    // The handoff is counted as every route's is (automatic), and the compaction after it.
    expect(metrics(kept)).toEqual([expect.objectContaining({ type: 'handoff', trigger: 'auto' }), expect.objectContaining({ type: 'compaction', handoffBefore: true })]);
    // Context levels on, handoffs off: the compaction loses the work.
    const lost = open(CLAUDE_FIXTURE, { context: { enabled: true } });
    await runHookBundle({ args: ['pre-compact', 'claude'], stdin: payload(lost, 'claude'), env: lost.scenario('actionable').env, cwd: lost.repo });
    expect(handoffs(lost)).toEqual([]);
    expect(metrics(lost)).toEqual([expect.objectContaining({ type: 'compaction', handoffBefore: false })]);
  });

  it('does nothing without handoff.enabled, or when switched off', async () => {
    const world = open(CLAUDE_FIXTURE, {});
    expect(await runHookBundle({ args: ['pre-compact', 'claude'], stdin: payload(world, 'claude'), env: world.scenario('actionable').env })).toMatchObject({ code: 0, stdout: '' });
    expect(handoffs(world)).toEqual([]);
    const off = open(CLAUDE_FIXTURE);
    const env = { ...off.scenario('actionable').env, AGENT_CHECKPOINT_DISABLE: '1' };
    expect(await runHookBundle({ args: ['pre-compact', 'claude'], stdin: payload(off, 'claude'), env })).toMatchObject({ code: 0, stdout: '' });
    expect(handoffs(off)).toEqual([]);
  });

  it('with direct execution: the whole checkpoint (memory file and WIP commit) before the compaction', async () => {
    const world = open(CLAUDE_FIXTURE, { handoff: { enabled: true }, directExecution: { enabled: true } });
    await trustProjectConfig(world.repo, world.scenario('actionable').env);
    const env = world.scenario('actionable').env;
    const result = await runHookBundle({ args: ['pre-compact', 'claude'], stdin: payload(world, 'claude'), env, cwd: world.repo });
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(execFileSync('git', ['log', '-1', '--format=%s'], { cwd: world.repo, env, encoding: 'utf8' })).toMatch(/^\[WIP\] checkpoint at pre-compact/);
    expect(handoffs(world)).toHaveLength(1);
  });

  it('bad input and a missing transcript: exit 0, nothing on stdout', async () => {
    const world = open(CLAUDE_FIXTURE);
    const env = world.scenario('actionable').env;
    expect(await runHookBundle({ args: ['pre-compact', 'claude'], stdin: '{', env })).toMatchObject({ code: 0, stdout: '' });
    const missing = JSON.stringify({ session_id: 's', transcript_path: join(world.root, 'missing.jsonl'), cwd: world.repo, hook_event_name: 'PreCompact', trigger: 'manual' });
    expect(await runHookBundle({ args: ['pre-compact', 'claude'], stdin: missing, env, cwd: world.repo })).toMatchObject({ code: 0, stdout: '' });
    // Without a transcript the handoff still records git's side of the session.
    expect(handoffs(world)).toHaveLength(1);
  });
});
