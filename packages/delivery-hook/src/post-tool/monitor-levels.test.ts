import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AGENT_IDS } from '@agent-checkpoint/core';
import { resolveStateDir, sessionStatePath, toSafeSessionId } from '@agent-checkpoint/core/hot-path';
import { readClaudeLatestUsage } from '@agent-checkpoint/transcript-claude/latest-usage';
import { createDeliveryWorld, type DeliveryFixture, type DeliveryScenario, type DeliveryWorld } from '@agent-checkpoint/core/conformance';
import { afterEach, describe, expect, it } from 'vitest';
import { CLAUDE_FIXTURE, CODEX_FIXTURE, COPILOT_FIXTURE, GEMINI_FIXTURE, QWEN_FIXTURE } from '../test-support/delivery-fixtures.ts';
import { profileOf } from '../agents/profiles.ts';
import { deliverThroughHook } from '../test-support/hook-route-adapter.ts';
import { FIXTURES_DIR } from '../test-support/recorded-payloads.ts';
import { runHookBundle } from '../test-support/run-hook-bundle.ts';
import { actOnMonitorLazily, checkpointCommandLazily, loadMonitorAfterGate, recordMonitorAlertLazily, recordMonitorStateLazily } from './load-monitor-parts.ts';
import type { PostToolContext, PostToolResult } from './post-tool-types.ts';
import { runPostTool } from './run-post-tool.ts';
import { userConfigFile } from './user-config-file.ts';

// The monitor (decide and act parts from source, through `runPostTool`) and the turn end (the real
// bundled Stop hook) on one session (Claude; the basic case for all three agents): real repositories, state directories and the derived
// context-level transcripts (fixtures/context-levels/README.md: L0 30 %, L1 75 %, L2 86 %, L3 96 %).
// docs/context-checkpoints.md, "One record of the levels acted on".

type Level = 'L0' | 'L1' | 'L2' | 'L3';
// The agents with context-level fixtures: Pi has none (its monitor: agents/pi-context-hooks.test.ts).
type Agent = Exclude<DeliveryFixture['agent'], 'pi'>;
const FIXTURE = { claude: CLAUDE_FIXTURE, gemini: GEMINI_FIXTURE, codex: CODEX_FIXTURE, copilot: COPILOT_FIXTURE, qwen: QWEN_FIXTURE } as const;
const LEVEL_DIR: Record<Agent, string> = {
  claude: join(FIXTURES_DIR, 'claude/2.1.330/context-levels'),
  gemini: join(FIXTURES_DIR, 'gemini/0.61.0/context-levels'),
  codex: join(FIXTURES_DIR, 'codex/0.169.0/context-levels'),
  copilot: join(FIXTURES_DIR, 'copilot/1.0.102/context-levels'),
  qwen: join(FIXTURES_DIR, 'qwen/0.24.4/context-levels'),
};
const L1_LINE = '⚠️ Context at 75%';

const worlds: DeliveryWorld[] = [];
afterEach(() => {
  while (worlds.length > 0) worlds.pop()?.remove();
});

function open(level: Level, agent: Agent = 'claude', config: Record<string, unknown> = { context: { enabled: true }, handoff: { enabled: true } }): DeliveryWorld {
  const world = createDeliveryWorld({ ...FIXTURE[agent], transcriptFile: join(LEVEL_DIR[agent], `${level}.jsonl`) });
  worlds.push(world);
  world.writeConfig({ ...world.actionableConfig, ...config });
  return world;
}

/** The same session's transcript at another level (it grew, or was compacted). */
function setLevel(world: DeliveryWorld, level: Level): void {
  const text = readFileSync(join(LEVEL_DIR.claude, `${level}.jsonl`), 'utf8').split(CLAUDE_FIXTURE.recordedCwd ?? '').join(world.repo);
  writeFileSync(world.scenario('actionable').transcriptPath, text);
}

/** One tool call's PostToolUse through the monitor, from source; `overrides` replace parts of its context (a lazily loaded part that fails to load). */
async function monitor(world: DeliveryWorld, recordAlert: PostToolContext['recordAlert'] = recordMonitorAlertLazily, overrides: Partial<PostToolContext> = {}): Promise<PostToolResult & { warnings: string[] }> {
  const s = world.scenario('actionable');
  const warnings: string[] = [];
  const event = s.agent === 'gemini' ? 'AfterTool' : 'PostToolUse';
  const payload = JSON.stringify({ session_id: s.sessionId, transcript_path: s.transcriptPath, cwd: s.cwd, hook_event_name: event, tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: 'ok' });
  const result = await runPostTool(payload, {
    agent: s.agent,
    env: s.env,
    processCwd: s.cwd,
    stateDir: () => resolveStateDir({ env: s.env }),
    userConfigFile: userConfigFile(s.env),
    now: () => new Date(),
    deadlineAt: Date.now() + 30_000,
    warn: (line) => void warnings.push(line),
    loadMonitor: loadMonitorAfterGate,
    act: actOnMonitorLazily,
    checkpointCommand: checkpointCommandLazily,
    recordAlert,
    recordState: recordMonitorStateLazily,
    ...overrides,
  });
  return { ...result, warnings };
}

/** The turn's end through the real Stop hook; `turn` names a later user turn (a new turn for the loop guard). */
function turnEnd(world: DeliveryWorld, turn?: number): Promise<string | null> {
  const scenario: DeliveryScenario = world.scenario('actionable');
  return deliverThroughHook(turn === undefined ? scenario : { ...scenario, hint: { ...scenario.hint, turnId: `later-turn-${turn}` } });
}

/** `agent-checkpoint-hook checkpoint --defer` as the user runs it, for this session. */
async function defer(world: DeliveryWorld, level: 'L1' | 'L2'): Promise<void> {
  const s = world.scenario('actionable');
  const result = await runHookBundle({ args: ['checkpoint', '--defer', '--level', level, '--session', s.sessionId], env: s.env, cwd: world.repo });
  expect(result.code, result.stderr).toBe(0);
}

/** Undo the turn's file changes: a turn with nothing else to say. */
function revertChanges(world: DeliveryWorld): void {
  const git = (...args: string[]): void => void execFileSync('git', args, { cwd: world.repo, env: world.scenario('actionable').env, stdio: 'ignore' });
  git('checkout', '-q', '--', '.');
  git('clean', '-fdq');
}

/** `report --json`'s count of L1 warnings in the world's project. */
async function l1Warnings(world: DeliveryWorld): Promise<number> {
  const result = await runHookBundle({ args: ['report', '--json'], env: world.scenario('actionable').env, cwd: world.repo });
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as { report: { alerts: { l1Warnings: number } } }).report.alerts.l1Warnings;
}

function handoffs(world: DeliveryWorld): string[] {
  const dir = join(world.repo, '.agent-checkpoint', 'handoffs');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.md')).sort() : [];
}

function statePath(world: DeliveryWorld): string {
  const s = world.scenario('actionable');
  return sessionStatePath({ stateDir: resolveStateDir({ env: s.env }), agent: 'claude', sessionId: s.sessionId });
}

describe('the monitor honours checkpoint --defer', () => {
  it('holds back L2 (no handoff, nothing said) while the deferral is live; L3 is never deferred', async () => {
    const world = open('L2');
    await defer(world, 'L2');
    const held = await monitor(world);
    expect(held).toMatchObject({ output: '', code: 'none:deferred', warnings: [] });
    expect(handoffs(world)).toEqual([]);
    setLevel(world, 'L3');
    const emergency = await monitor(world);
    expect(emergency.code).toBe('emergency-written');
    expect(emergency.output).toContain('🔴 Context at 96% - Emergency checkpoint!');
    expect(handoffs(world)).toHaveLength(1);
  });

  it('an L1 deferral holds back the L1 warning only, not the L2 handoff', async () => {
    const world = open('L1');
    await defer(world, 'L1');
    expect(await monitor(world)).toMatchObject({ output: '', code: 'none:deferred' });
    setLevel(world, 'L2');
    expect((await monitor(world)).code).toBe('handoff-written');
    expect(handoffs(world)).toHaveLength(1);
  });

  it('once the turn end consumed the deferral, the monitor acts again', async () => {
    const world = open('L2');
    revertChanges(world);
    await defer(world, 'L2');
    expect((await monitor(world)).code).toBe('none:deferred');
    // The turn's end: deferred too (silent, no handoff), and the deferral is gone from the state.
    expect(await turnEnd(world)).toBeNull();
    expect(handoffs(world)).toEqual([]);
    expect(readFileSync(statePath(world), 'utf8')).not.toContain('deferredLevel');
    // The next task's tool call at L2: the handoff is written now.
    const acted = await monitor(world);
    expect(acted.code).toBe('handoff-written');
    expect(acted.output).toContain('Initiating checkpoint sequence');
    expect(handoffs(world)).toHaveLength(1);
  });

  it('a corrupt session state is a diagnostic, and the monitor acts as if nothing was deferred', async () => {
    const world = open('L2');
    const path = statePath(world);
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(path, '{"version":1,"extensions":{"context":{"deferredLevel":"L2"', { mode: 0o600 });
    const acted = await monitor(world);
    expect(acted.code).toBe('handoff-written');
    expect(acted.warnings).toEqual([
      expect.stringMatching(/^post-tool: session state .+ is not valid JSON; acting as if nothing was deferred$/),
      // Recording the handoff (the status line's slot) replaces the corrupt file, and says so.
      expect.stringMatching(/^post-tool: state: .+ is not valid JSON; starting afresh$/),
    ]);
  });
});

/**
 * The agents `install --with-context` registers the monitor for, from the profiles, less Copilot CLI
 * and Pi: {@link monitor} sends a snake_case payload; Copilot's camelCase one (its log found from the
 * session id) is covered by `agents/copilot-qwen-context-hooks.test.ts`, our Pi extension's
 * `tool_result` by `agents/pi-context-hooks.test.ts` (no context-level fixtures of Pi's here).
 */
const REGISTERED = AGENT_IDS.filter((agent) => profileOf(agent).hookEntries.some((entry) => entry.args[0] === 'post-tool'));
const MONITORED = REGISTERED.filter((agent): agent is Agent => agent !== 'copilot' && agent !== 'pi');

it('the monitor is registered for every agent', () => {
  expect(REGISTERED).toEqual(['claude', 'gemini', 'codex', 'copilot', 'qwen', 'pi']);
});

describe.each(MONITORED)('%s: one record of the levels acted on', (agent) => {
  it('the monitor handed off at L2 during the turn; the turn end writes no second handoff and does not block for it', async () => {
    const world = open('L2', agent);
    revertChanges(world);
    const acted = await monitor(world);
    expect(acted.code).toBe('handoff-written');
    expect(acted.output).toContain('Initiating checkpoint sequence');
    expect(await turnEnd(world)).toBeNull();
    expect(handoffs(world)).toHaveLength(1);
  });
});

describe('the L1 warning\'s count never costs the warning', () => {
  it('an acting part that cannot load (the metrics write) is one stderr line; the warning still reaches the agent', async () => {
    const world = open('L1');
    const result = await monitor(world, () => Promise.reject(new Error('cannot load agent-checkpoint-hook-monitor-act.cjs')));
    expect(result.output).toContain(L1_LINE);
    expect(result.warnings).toEqual(['post-tool: metrics: alert not recorded: cannot load agent-checkpoint-hook-monitor-act.cjs']);
  });

  it("an acting part that cannot give the route's checkpoint command is one stderr line; the warning still goes out (naming the command-line form) and is counted", async () => {
    const world = open('L1');
    const result = await monitor(world, undefined, { checkpointCommand: () => Promise.reject(new Error('cannot load agent-checkpoint-hook-monitor-act.cjs')) });
    expect(result.output).toContain(L1_LINE);
    expect(result.output).toContain('agent-checkpoint-hook checkpoint');
    expect(result.output).not.toContain('{checkpointCommand}');
    expect(result.warnings).toEqual(["post-tool: the route's checkpoint command is unknown (cannot load agent-checkpoint-hook-monitor-act.cjs); the L1 warning names `agent-checkpoint-hook checkpoint`"]);
    expect(await l1Warnings(world)).toBe(1);
  });
});

describe('the checkpoint state\'s write never costs the answer', () => {
  it('a write that fails is one stderr line; the warning still reaches the agent', async () => {
    const world = open('L1');
    const result = await monitor(world, undefined, { recordState: () => Promise.reject(new Error('cannot load agent-checkpoint-hook-monitor-act.cjs')) });
    expect(result.output).toContain(L1_LINE);
    expect(result.warnings).toEqual(['post-tool: the checkpoint state is not recorded: cannot load agent-checkpoint-hook-monitor-act.cjs']);
  });

  it('too close to the deadline it is skipped with a line, not raced against it', async () => {
    // Under the write's 1500 ms reserve from the start, so the skip does not depend on the machine's speed.
    const world = open('L1');
    const recorded: unknown[] = [];
    const keep: PostToolContext['recordState'] = (record) => {
      recorded.push(record);
      return Promise.resolve([]);
    };
    const result = await monitor(world, undefined, { deadlineAt: Date.now() + 1490, recordState: keep });
    expect(result.output).toContain(L1_LINE);
    expect(recorded).toEqual([]);
    expect(result.warnings).toContain('post-tool: the checkpoint state is not recorded: too close to the deadline');
    // With time left, the same kind of call records it (the level is new for this session).
    const other = open('L1');
    const done = await monitor(other, undefined, { recordState: keep });
    expect(done.output).toContain(L1_LINE);
    expect(recorded).toMatchObject([{ agent: 'claude', snapshot: { level: 'L1', percent: 75, by: 'monitor' } }]);
  });
});

describe('one record of the levels acted on: monitor and turn end', () => {
  it('L1: the monitor warned during the turn, so the turn end does not repeat the line', async () => {
    const world = open('L1');
    expect((await monitor(world)).output).toContain(L1_LINE);
    const delivered = await turnEnd(world);
    expect(delivered).toContain('Required actions:');
    expect(delivered).not.toContain('Context at');
    // Said once, counted once: the monitor's warning, not a second one at the turn end.
    expect(await l1Warnings(world)).toBe(1);
  });

  it('L2: the monitor wrote the handoff, so the turn end writes no second one and does not block for it', async () => {
    const world = open('L2');
    revertChanges(world);
    expect((await monitor(world)).code).toBe('handoff-written');
    expect(handoffs(world)).toHaveLength(1);
    expect(await turnEnd(world)).toBeNull();
    expect(handoffs(world)).toHaveLength(1);
    // L3 is a new level for both: the turn end writes the emergency handoff.
    setLevel(world, 'L3');
    expect(await turnEnd(world, 1)).toContain('Context at 96%');
    expect(handoffs(world)).toHaveLength(2);
  });

  it('L1: the turn end\'s line reached the agent, so the monitor does not warn again during the next turn', async () => {
    const world = open('L1');
    expect(await turnEnd(world)).toContain(L1_LINE);
    expect(await monitor(world)).toMatchObject({ output: '', code: 'none:already-announced' });
    // The turn end's line counted when its block was granted; the monitor adds nothing.
    expect(await l1Warnings(world)).toBe(1);
  });

  it('L2: the turn end handed off, so the monitor does not hand off again; a compaction re-arms both', async () => {
    const world = open('L2');
    revertChanges(world);
    expect(await turnEnd(world)).toContain('Context at 86%');
    expect(handoffs(world)).toHaveLength(1);
    expect(await monitor(world)).toMatchObject({ output: '', code: 'none:already-announced' });
    expect(handoffs(world)).toHaveLength(1);
    // Compacted during the next turn (seen by the monitor only), then climbing back to L2 in it.
    setLevel(world, 'L0');
    expect((await monitor(world)).output).toBe('');
    setLevel(world, 'L2');
    const again = await monitor(world);
    expect(again.code).toBe('handoff-written');
    expect(handoffs(world)).toHaveLength(2);
    // That turn's end: the monitor already handed off at L2.
    expect(await turnEnd(world, 1)).toBeNull();
    expect(handoffs(world)).toHaveLength(2);
    // Compacted at a turn end this time: the monitor is re-armed by it too.
    setLevel(world, 'L0');
    expect(await turnEnd(world, 2)).toBeNull();
    setLevel(world, 'L2');
    expect((await monitor(world)).code).toBe('handoff-written');
    expect(handoffs(world)).toHaveLength(3);
  });
});

describe('the task size from the prompt hook\'s estimate drives the monitor (seed 004, Principle 1)', () => {
  /** A window that puts the session's transcript at `percent` %. */
  function windowAt(world: DeliveryWorld, percent: number): number {
    const tokens = readClaudeLatestUsage({ transcriptPath: world.scenario('actionable').transcriptPath })?.usage?.contextTokens;
    if (tokens === undefined) throw new Error('the fixture has no usage');
    return Math.round(tokens / (percent / 100));
  }

  /** The estimate the prompt hook records at submit (`estimates/pending/<session>.json`), `estimatedTokens` of the task. */
  function pendingEstimate(world: DeliveryWorld, estimatedTokens: number | string): void {
    const s = world.scenario('actionable');
    const path = join(resolveStateDir({ env: s.env }), 'estimates', 'pending', `${toSafeSessionId(s.sessionId)}.json`);
    mkdirSync(dirname(path), { recursive: true });
    const features = { promptChars: 400, pathMentions: 3, bulletItems: 6, broadScope: 1, narrowScope: 0, planOpenItems: 12 };
    writeFileSync(path, typeof estimatedTokens === 'string' ? estimatedTokens : `${JSON.stringify({ at: new Date().toISOString(), features, estimatedTokens, contextTokensAtSubmit: 1000 })}\n`);
  }

  function at(world: DeliveryWorld, percent: number): void {
    world.writeConfig({ ...world.actionableConfig, context: { enabled: true, windowTokens: windowAt(world, percent) }, handoff: { enabled: true } });
  }

  it('a large task: warned once at 60 % (not again at the next calls), handed off at 70 %, before L2', async () => {
    const world = open('L0');
    at(world, 62);
    pendingEstimate(world, 200_000); // far over 60 % of any window here: large
    const early = await monitor(world);
    expect(early.code).toBe('warned');
    expect(early.output).toContain('62%');
    // Still below L1 and the task still large: the early warning is not repeated after every tool call.
    expect((await monitor(world)).code).toBe('none:already-announced');
    at(world, 64);
    expect((await monitor(world)).code).toBe('none:already-announced');
    at(world, 71);
    const handoff = await monitor(world);
    expect(handoff.code, handoff.detail).toMatch(/^handoff/);
    expect(handoffs(world)).toHaveLength(1);
  });

  it('the same readings without an estimate (or with a small task) say nothing below L1', async () => {
    const world = open('L0');
    at(world, 62);
    expect((await monitor(world)).code).toBe('none:below-threshold');
    pendingEstimate(world, 1_000);
    expect((await monitor(world)).code).toBe('none:below-threshold');
  });

  it('a compaction re-arms the early warning; a corrupt estimate is a diagnostic and no task size', async () => {
    const world = open('L0');
    at(world, 61);
    pendingEstimate(world, 200_000);
    expect((await monitor(world)).code).toBe('warned');
    at(world, 20); // compacted
    expect((await monitor(world)).code).toBe('none:below-threshold');
    at(world, 61);
    expect((await monitor(world)).code).toBe('warned');
    pendingEstimate(world, '{"not": "an estimate"');
    at(world, 20);
    await monitor(world);
    at(world, 61);
    const corrupt = await monitor(world);
    expect(corrupt.code).toBe('none:below-threshold');
    expect(corrupt.warnings.join('\n')).toContain('not a valid record');
  });
});
