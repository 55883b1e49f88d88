import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readRecordedCheckpointState, type RecordedCheckpointState } from '@agent-checkpoint/context-checkpoint';
import { createDeliveryWorld, type DeliveryWorld } from '@agent-checkpoint/core/conformance';
import { sessionStatePath } from '@agent-checkpoint/core/hot-path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLAUDE_FIXTURE } from '../test-support/delivery-fixtures.ts';
import { FIXTURES_DIR } from '../test-support/recorded-payloads.ts';
import { runHookBundle } from '../test-support/run-hook-bundle.ts';
import { trustProjectConfig } from '../test-support/trust-project-config.ts';

// One record of checkpoints (issue 21, build item 2): the monitor's handoff after a tool call, run
// through the real bin, reaches the loop state, the metrics and the status line as the Stop route's
// does; with direct execution its L2 handoff carries the WIP commit. Transcripts: the derived
// context-level fixtures (L2 86 %, L3 96 %).

const LEVELS = join(FIXTURES_DIR, 'claude/2.1.330/context-levels');
const worlds: DeliveryWorld[] = [];
afterEach(() => {
  while (worlds.length > 0) worlds.pop()?.remove();
});

function open(level: 'L0' | 'L1' | 'L2' | 'L3', config: Record<string, unknown>): DeliveryWorld {
  const world = createDeliveryWorld({ ...CLAUDE_FIXTURE, transcriptFile: join(LEVELS, `${level}.jsonl`) });
  worlds.push(world);
  world.writeConfig({ ...world.actionableConfig, ...config });
  return world;
}

function setLevel(world: DeliveryWorld, level: 'L1' | 'L2' | 'L3'): void {
  copyFileSync(join(LEVELS, `${level}.jsonl`), world.scenario('actionable').transcriptPath);
}

async function bin(world: DeliveryWorld, args: readonly string[], stdin?: string) {
  const s = world.scenario('actionable');
  return runHookBundle({ args, ...(stdin !== undefined ? { stdin } : {}), env: s.env, cwd: world.repo });
}

/** One tool call's PostToolUse hook (the monitor). */
async function toolCall(world: DeliveryWorld) {
  const s = world.scenario('actionable');
  const payload = { session_id: s.sessionId, transcript_path: s.transcriptPath, cwd: s.cwd, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: 'ok' };
  const result = await bin(world, ['post-tool', 'claude'], JSON.stringify(payload));
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as { hookSpecificOutput: { additionalContext: string }; systemMessage?: string };
}

function handoffs(world: DeliveryWorld): string[] {
  const dir = join(world.repo, '.agent-checkpoint', 'handoffs');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.md')) : [];
}

function head(world: DeliveryWorld): string {
  return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: world.repo, env: world.scenario('actionable').env, encoding: 'utf8' }).trim();
}

/** `report --json`'s alert counts. */
async function alertCounts(world: DeliveryWorld): Promise<Record<string, number>> {
  const out = await bin(world, ['report', '--json']);
  expect(out.code, out.stderr).toBe(0);
  return (JSON.parse(out.stdout) as { report: { alerts: Record<string, number> } }).report.alerts;
}

describe('the monitor counts its L1 warning for report', () => {
  it('once per session: the tool call that delivered it, not the later calls at the same level', async () => {
    const world = open('L1', { context: { enabled: true } });
    const s = world.scenario('actionable');
    const warned = await toolCall(world);
    expect(warned.hookSpecificOutput.additionalContext).toContain('Context at 75%');
    // The next tool calls at 75 % say nothing (the level mark), and count nothing.
    for (let i = 0; i < 2; i += 1) {
      const again = await bin(world, ['post-tool', 'claude'], JSON.stringify({ session_id: s.sessionId, transcript_path: s.transcriptPath, cwd: s.cwd, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: {}, tool_response: 'ok' }));
      expect(again).toMatchObject({ code: 0, stdout: '', stderr: '' });
    }
    expect(await alertCounts(world)).toEqual({ l1Warnings: 1, estimateWarnings: 0, shardSuggestions: 0 });
    expect((await bin(world, ['report'])).stdout).toContain('Alerts: L1 warnings 1, estimate warnings 0, shard suggestions 0');
    // The event carries the percentage the agent was told.
    const dir = join(world.stateDir, 'metrics');
    const [log] = readdirSync(dir);
    expect(readFileSync(join(dir, log ?? ''), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as unknown)).toEqual([{ type: 'alert', at: expect.any(String), kind: 'l1-warning', percent: 75 }]);
  });

  it('a session whose monitor says nothing (context checkpoints off) counts nothing', async () => {
    const world = open('L1', { context: { enabled: false } });
    const s = world.scenario('actionable');
    const quiet = await bin(world, ['post-tool', 'claude'], JSON.stringify({ session_id: s.sessionId, transcript_path: s.transcriptPath, cwd: s.cwd, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: {}, tool_response: 'ok' }));
    expect(quiet).toMatchObject({ code: 0, stdout: '' });
    expect(await alertCounts(world)).toEqual({ l1Warnings: 0, estimateWarnings: 0, shardSuggestions: 0 });
  });
});

describe('the monitor records its checkpoints where every route does', () => {
  it('a monitor handoff at 86 % ends the loop iteration, is counted once per level in report, and shows on the status line', async () => {
    const world = open('L2', { context: { enabled: true }, handoff: { enabled: true } });
    expect((await bin(world, ['loop', 'start'])).code).toBe(0);
    expect(await bin(world, ['loop', 'next'])).toMatchObject({ code: 0, stdout: 'iteration 1\n' });

    const out = await toolCall(world);
    expect(out.hookSpecificOutput.additionalContext).toContain('Handoff written to');
    const [name] = handoffs(world);
    expect(name).toBeDefined();
    // A second tool call at the same level acts on nothing (the level mark): still one event.
    await bin(world, ['post-tool', 'claude'], JSON.stringify({ session_id: world.scenario('actionable').sessionId, transcript_path: world.scenario('actionable').transcriptPath, cwd: world.repo, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: {}, tool_response: 'ok' }));
    setLevel(world, 'L3');
    await toolCall(world);
    expect(handoffs(world)).toHaveLength(2);

    // The loop runner heard it: the status names the checkpoint, `loop next` says "resume" (exit 10).
    const status = await bin(world, ['loop', 'status']);
    expect(status.stdout).not.toContain('Checkpoint: none in this loop');
    expect(status.stdout).toMatch(/Checkpoint: L3 at 96% in iteration 1, \.agent-checkpoint\/handoffs\/.+\.md/);
    expect(existsSync(join(world.repo, '.agent-checkpoint', 'loop-end-iteration'))).toBe(true);
    expect((await bin(world, ['loop', 'next'])).code).toBe(10);

    // Metrics: each monitor handoff once, automatic.
    const report = JSON.parse((await bin(world, ['report', '--json'])).stdout) as { report: { handoffs: { total: number; auto: number; user: number; byLevel: Record<string, number> } } };
    expect(report.report.handoffs).toMatchObject({ total: 2, auto: 2, user: 0, byLevel: { L2: 1, L3: 1 } });

    // The status line reads the same record.
    const s = world.scenario('actionable');
    const line = await bin(world, ['statusline'], JSON.stringify({ session_id: s.sessionId, transcript_path: s.transcriptPath, cwd: world.repo, model: { id: 'claude-opus-5-5' }, workspace: { current_dir: world.repo } }));
    expect(line.stdout).toMatch(/\[CKPT: handoff \d\d:\d\d\]/);
  });

  it('with direct execution the monitor\'s L2 checkpoint makes the WIP commit and says so at L2', async () => {
    const world = open('L2', { context: { enabled: true }, handoff: { enabled: true }, directExecution: { enabled: true } });
    await trustProjectConfig(world.repo, world.scenario('actionable').env);
    const before = head(world);
    const out = await toolCall(world);
    const after = head(world);
    expect(after).not.toBe(before);
    expect(out.systemMessage).toContain(`(L2)`);
    expect(out.systemMessage).toContain(`WIP commit ${after.slice(0, 7)} created`);
    expect(handoffs(world)).toHaveLength(1);
  });

  it('autonomous mode: with duringLoop, between loop start and loop end the monitor\'s checkpoint makes the WIP commit (directExecution.enabled false)', async () => {
    const world = open('L2', { context: { enabled: true }, handoff: { enabled: true }, directExecution: { duringLoop: true } });
    await trustProjectConfig(world.repo, world.scenario('actionable').env);
    expect((await bin(world, ['loop', 'start'])).code).toBe(0);
    const before = head(world);
    const out = await toolCall(world);
    const after = head(world);
    expect(after).not.toBe(before);
    expect(out.systemMessage).toContain(`WIP commit ${after.slice(0, 7)} created`);
    expect((await bin(world, ['loop', 'end'])).code).toBe(0);
    setLevel(world, 'L3');
    // Off again: the L3 alert says no commit is made (direct execution is off in the configuration).
    const said = (await toolCall(world)).hookSpecificOutput.additionalContext;
    expect(said).toContain('no WIP commit');
    expect(head(world)).toBe(after);
    expect(handoffs(world)).toHaveLength(2);
  });

  it('the L3 alert promises a WIP commit only when direct execution makes one', async () => {
    const off = open('L3', { context: { enabled: true }, handoff: { enabled: true } });
    const said = (await toolCall(off)).hookSpecificOutput.additionalContext;
    expect(said).toMatch(/^🔴 Context at 96% - Emergency checkpoint!/);
    expect(said).not.toContain('Committing WIP changes');
    expect(said).toContain('no WIP commit');

    const on = open('L3', { context: { enabled: true }, handoff: { enabled: true }, directExecution: { enabled: true } });
    await trustProjectConfig(on.repo, on.scenario('actionable').env);
    expect((await toolCall(on)).hookSpecificOutput.additionalContext).toContain('Committing WIP changes and generating handoff NOW.');
  });
});

describe("the monitor records seed 004's checkpoint state between turn ends", () => {
  /** The session's state file (the session state: context slot with `checkpointState`). */
  function stateFile(world: DeliveryWorld): string {
    const s = world.scenario('actionable');
    return sessionStatePath({ stateDir: world.stateDir, agent: 'claude', sessionId: s.sessionId });
  }
  function recorded(world: DeliveryWorld): Promise<RecordedCheckpointState | undefined> {
    const s = world.scenario('actionable');
    return readRecordedCheckpointState({ stateDir: world.stateDir, agent: 'claude', sessionId: s.sessionId });
  }
  async function quietCall(world: DeliveryWorld) {
    const s = world.scenario('actionable');
    const result = await bin(world, ['post-tool', 'claude'], JSON.stringify({ session_id: s.sessionId, transcript_path: s.transcriptPath, cwd: s.cwd, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: {}, tool_response: 'ok' }));
    expect(result, result.stderr).toMatchObject({ code: 0, stderr: '' });
    return result;
  }

  it('a call that crosses a level records the snapshot; a call within 30 s at the same level writes nothing', async () => {
    const world = open('L0', { context: { enabled: true }, handoff: { enabled: true } });
    // The first reading of the session (30 %): recorded, though the monitor does nothing else.
    expect((await quietCall(world)).stdout).toBe('');
    expect((await recorded(world))?.state).toMatchObject({ level: 'L0', percent: 30, by: 'monitor' });
    const before = { text: readFileSync(stateFile(world), 'utf8'), mtimeMs: statSync(stateFile(world)).mtimeMs };
    // More calls at the same level within the window: the state file is neither rewritten nor touched.
    await quietCall(world);
    await quietCall(world);
    expect({ text: readFileSync(stateFile(world), 'utf8'), mtimeMs: statSync(stateFile(world)).mtimeMs }).toEqual(before);

    // The context climbs to 75 %: the L1 warning and, at once, the new snapshot.
    setLevel(world, 'L1');
    expect((await toolCall(world)).hookSpecificOutput.additionalContext).toContain('Context at 75%');
    const l1 = (await recorded(world))?.state;
    expect(l1).toMatchObject({ level: 'L1', percent: 75, by: 'monitor' });
    expect(l1?.trend).toBe('increasing');

    // `checkpoint --status` (which finds the session's transcript where Claude keeps it) and the status
    // line read the monitor's snapshot.
    const s = world.scenario('actionable');
    const projects = join(s.env['HOME'] ?? '', '.claude', 'projects', world.repo.replace(/[^a-zA-Z0-9]/g, '-'));
    mkdirSync(projects, { recursive: true });
    copyFileSync(s.transcriptPath, join(projects, `${s.sessionId}.jsonl`));
    const status = await bin(world, ['checkpoint', '--status']);
    expect(status.stdout, status.stderr).toMatch(/Recorded by the monitor after a tool call \(.+\): L1 at 75 %, increasing/);
    const line = await bin(world, ['statusline'], JSON.stringify({ session_id: s.sessionId, transcript_path: s.transcriptPath, cwd: world.repo, model: { id: 'claude-opus-5-5' }, workspace: { current_dir: world.repo } }));
    expect(line.stdout).toMatch(/\[CTX: █+░* 75% L1 ↑[^\]]*\] \[CKPT: ready\]/);

    // At L2 the monitor's handoff is the last checkpoint, and the snapshot says L2 (0 min to L2).
    setLevel(world, 'L2');
    copyFileSync(s.transcriptPath, join(projects, `${s.sessionId}.jsonl`));
    expect((await toolCall(world)).hookSpecificOutput.additionalContext).toContain('Handoff written to');
    const l2 = await recorded(world);
    expect(l2?.state).toMatchObject({ level: 'L2', percent: 86, minutesToL2: 0, by: 'monitor' });
    expect(l2?.lastCheckpoint).toMatchObject({ route: 'monitor', handoff: expect.stringMatching(/^\.agent-checkpoint\/handoffs\/.+\.md$/) });
    const after = await bin(world, ['checkpoint', '--status']);
    expect(after.stdout).toMatch(/Recorded by the monitor after a tool call \(.+\): L2 at 86 %.*at or past L2\nLast checkpoint: \.agent-checkpoint\/handoffs\/.+\.md \(monitor, /);
    const l2Line = await bin(world, ['statusline'], JSON.stringify({ session_id: s.sessionId, transcript_path: s.transcriptPath, cwd: world.repo, model: { id: 'claude-opus-5-5' }, workspace: { current_dir: world.repo } }));
    expect(l2Line.stdout).toMatch(/\[CTX: █+░* 86% L2 [↑→↓]\] \[CKPT: handoff \d\d:\d\d\]/);
  });
});
