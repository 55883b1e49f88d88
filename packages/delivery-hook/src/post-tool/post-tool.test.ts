import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDeliveryWorld, type DeliveryFixture, type DeliveryWorld } from '@agent-checkpoint/core/conformance';
import { afterEach, describe, expect, it } from 'vitest';
import { CLAUDE_FIXTURE, CODEX_FIXTURE, COPILOT_FIXTURE, GEMINI_FIXTURE, QWEN_FIXTURE } from '../test-support/delivery-fixtures.ts';
import { FIXTURES_DIR } from '../test-support/recorded-payloads.ts';
import { runHookBundle } from '../test-support/run-hook-bundle.ts';
import { trustProjectConfig } from '../test-support/trust-project-config.ts';

// `agent-checkpoint-hook post-tool <agent>` (the monitor during the turn) as a real process, on real
// repositories and the derived context-level transcripts (fixtures/context-levels/README.md:
// L0 30 %, L1 75 %, L2 86 %, L3 96 % of the window at the last record).

const worlds: DeliveryWorld[] = [];
afterEach(() => {
  while (worlds.length > 0) worlds.pop()?.remove();
});

type Level = 'L0' | 'L1' | 'L2' | 'L3';
// The agents with context-level fixtures: Pi has none (its monitor: agents/pi-context-hooks.test.ts).
type ContextAgent = Exclude<DeliveryFixture['agent'], 'pi'>;
const LEVEL_DIR: Record<ContextAgent, string> = {
  claude: 'claude/2.1.330/context-levels',
  gemini: 'gemini/0.61.0/context-levels',
  codex: 'codex/0.169.0/context-levels',
  copilot: 'copilot/1.0.102/context-levels',
  qwen: 'qwen/0.24.4/context-levels',
};
const FIXTURE = { claude: CLAUDE_FIXTURE, gemini: GEMINI_FIXTURE, codex: CODEX_FIXTURE, copilot: COPILOT_FIXTURE, qwen: QWEN_FIXTURE } as const;

function open(agent: ContextAgent, level: Level, config: Record<string, unknown> = { context: { enabled: true } }): DeliveryWorld {
  const world = createDeliveryWorld({ ...FIXTURE[agent], transcriptFile: join(FIXTURES_DIR, LEVEL_DIR[agent], `${level}.jsonl`) });
  worlds.push(world);
  world.writeConfig({ ...world.actionableConfig, ...config });
  return world;
}

/** Move the session's transcript to another level (the same session climbing or compacting). */
function setLevel(world: DeliveryWorld, agent: ContextAgent, level: Level): void {
  copyFileSync(join(FIXTURES_DIR, LEVEL_DIR[agent], `${level}.jsonl`), world.scenario('actionable').transcriptPath);
}

function payload(world: DeliveryWorld, agent: DeliveryFixture['agent']): string {
  const s = world.scenario('actionable');
  const event = agent === 'gemini' ? 'AfterTool' : 'PostToolUse';
  return JSON.stringify({ session_id: s.sessionId, transcript_path: s.transcriptPath, cwd: s.cwd, hook_event_name: event, tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: 'ok' });
}

function run(world: DeliveryWorld, agent: DeliveryFixture['agent'], env: Record<string, string> = {}) {
  return runHookBundle({ args: ['post-tool', agent], stdin: payload(world, agent), env: { ...world.scenario('actionable').env, ...env }, cwd: world.repo });
}

function handoffs(world: DeliveryWorld): string[] {
  const dir = join(world.repo, '.agent-checkpoint', 'handoffs');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.md')) : [];
}

describe('post-tool monitor', () => {
  it('with context checkpoints off (the default) it prints nothing, even at L3', async () => {
    const world = open('claude', 'L3', {});
    expect(await run(world, 'claude')).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  // Copilot is left out: its camelCase payload names a session log this file's payload() does not build.
  it.each((Object.keys(LEVEL_DIR) as ContextAgent[]).filter((agent) => agent !== 'copilot'))('%s: a call that needs nothing does not load node:crypto (issue 24: the per-tool-call cost)', async (agent) => {
    // node:crypto is 36 internal modules, ~2.5 ms against a ~25 ms node start: the monitor hashes only
    // when it must (an unsafe session id, a project off switch that exists). A preload records the
    // built-ins the run loaded after it.
    const world = open(agent, 'L0');
    const preload = join(world.root, 'record-builtins.cjs');
    const out = join(world.root, 'builtins.json');
    writeFileSync(
      preload,
      `const before = new Set(process.moduleLoadList);\nprocess.on('exit', () => require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify({ builtins: process.moduleLoadList.filter((m) => !before.has(m)), files: Object.keys(require.cache) })));\n`,
    );
    // A session's switch exists, so the switches directory is listed, not just missing.
    mkdirSync(join(world.stateDir, 'switches'), { recursive: true, mode: 0o700 });
    writeFileSync(join(world.stateDir, 'switches', 'session-other.off'), '');
    // The session's first reading is recorded by the state writer (which may hash); the next call,
    // within its 30 s and at the same level, only decides.
    expect(await run(world, agent)).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const result = await run(world, agent, { NODE_OPTIONS: `--require=${preload}` });
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const recorded = JSON.parse(readFileSync(out, 'utf8')) as { builtins: string[]; files: string[] };
    // The decision part ran (the marks, the usage reader), and nothing on its way hashed.
    expect(recorded.files.some((file) => file.endsWith('agent-checkpoint-hook-monitor-decide.cjs'))).toBe(true);
    expect(recorded.builtins.map((entry) => entry.replace(/^NativeModule /, '')).filter((name) => /^crypto$|^internal\/crypto\//.test(name))).toEqual([]);
  });

  it.each(['claude', 'codex', 'qwen'] as const)('%s: L1 adds the seed warning as context for the model, once per session', async (agent) => {
    const world = open(agent, 'L1');
    const first = await run(world, agent);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    const out = JSON.parse(first.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string }; decision?: unknown };
    expect(out.hookSpecificOutput.hookEventName).toBe('PostToolUse');
    expect(out.hookSpecificOutput.additionalContext).toMatch(/^⚠️ Context at 75% - Consider completing current task before starting new work\./);
    expect(out).not.toHaveProperty('decision');
    // The next tool call of the same session: already said.
    expect(await run(world, agent)).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('a level marks directory planted as a symlink is never written through: one stderr line, no warning, nothing outside (issue 23)', async () => {
    const world = open('claude', 'L1');
    const outside = join(world.root, 'outside');
    mkdirSync(outside);
    mkdirSync(world.stateDir, { recursive: true, mode: 0o700 });
    symlinkSync(outside, join(world.stateDir, 'monitor'));
    const result = await run(world, 'claude');
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(result.stderr).toMatch(/^agent-checkpoint-hook: post-tool: level marks unusable \(.*symlink.*\); doing nothing\n$/);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('gemini: AfterTool gets the warning as hookSpecificOutput.additionalContext', async () => {
    const world = open('gemini', 'L1');
    const result = await run(world, 'gemini');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const out = JSON.parse(result.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(out.hookSpecificOutput).toMatchObject({ hookEventName: 'AfterTool' });
    expect(out.hookSpecificOutput.additionalContext).toContain('Context at 75%');
  });

  it('parallel tool calls of one session warn once', async () => {
    const world = open('claude', 'L1');
    const results = await Promise.all([run(world, 'claude'), run(world, 'claude'), run(world, 'claude'), run(world, 'claude')]);
    expect(results.every((r) => r.code === 0 && r.stderr === '')).toBe(true);
    expect(results.filter((r) => r.stdout !== '')).toHaveLength(1);
  });

  it('L2: writes the handoff under the configured dir, asks the agent to finish the step and hand off, tells the user', async () => {
    const world = open('claude', 'L1', { context: { enabled: true }, handoff: { enabled: true, dir: 'notes/handoffs' } });
    await trustProjectConfig(world.repo, world.scenario('actionable').env);
    expect(JSON.parse((await run(world, 'claude')).stdout)).toHaveProperty('hookSpecificOutput');
    setLevel(world, 'claude', 'L2');
    const result = await run(world, 'claude');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const out = JSON.parse(result.stdout) as { hookSpecificOutput: { additionalContext: string }; systemMessage: string };
    expect(out.hookSpecificOutput.additionalContext).toMatch(/^🔶 Context at 86% - Initiating checkpoint sequence\./);
    expect(out.hookSpecificOutput.additionalContext).toMatch(/Handoff written to notes\/handoffs\/.+\.md\. Finish the current step, then stop and hand off/);
    expect(out.systemMessage).toMatch(/^agent-checkpoint: context at 86% \(L2\); handoff written to notes\/handoffs\/.+\.md\.$/);
    const files = readdirSync(join(world.repo, 'notes', 'handoffs')).filter((f) => f.endsWith('.md'));
    expect(files).toHaveLength(1);
    expect(readFileSync(join(world.repo, 'notes', 'handoffs', files[0] ?? ''), 'utf8')).toContain('agent: claude');
    // Once: the next call at L2 writes nothing more.
    expect(await run(world, 'claude')).toMatchObject({ code: 0, stdout: '' });
    expect(readdirSync(join(world.repo, 'notes', 'handoffs')).filter((f) => f.endsWith('.md'))).toHaveLength(1);
  });

  it('L2 without handoff.enabled only asks the agent to run the checkpoint command (nothing written, no user line)', async () => {
    const world = open('claude', 'L2');
    const out = JSON.parse((await run(world, 'claude')).stdout) as Record<string, unknown> & { hookSpecificOutput: { additionalContext: string } };
    expect(out.hookSpecificOutput.additionalContext).toContain('run `agent-checkpoint-hook checkpoint`');
    expect(out).not.toHaveProperty('systemMessage');
    expect(handoffs(world)).toEqual([]);
  });

  it('L3 with direct execution: emergency handoff and WIP commit, and the user is told', async () => {
    const world = open('claude', 'L3', { context: { enabled: true }, handoff: { enabled: true }, directExecution: { enabled: true } });
    const env = world.scenario('actionable').env;
    await trustProjectConfig(world.repo, env);
    const before = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: world.repo, env, encoding: 'utf8' }).trim();
    const result = await run(world, 'claude');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const out = JSON.parse(result.stdout) as { hookSpecificOutput: { additionalContext: string }; systemMessage: string };
    expect(out.hookSpecificOutput.additionalContext).toMatch(/^🔴 Context at 96% - Emergency checkpoint!/);
    const after = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: world.repo, env, encoding: 'utf8' }).trim();
    expect(after).not.toBe(before);
    expect(out.systemMessage).toContain(`WIP commit ${after.slice(0, 7)} created`);
    expect(handoffs(world)).toHaveLength(1);
  });

  it('after a compaction (back to L0) the next climb is announced again', async () => {
    const world = open('claude', 'L1');
    expect((await run(world, 'claude')).stdout).not.toBe('');
    setLevel(world, 'claude', 'L0');
    expect((await run(world, 'claude')).stdout).toBe('');
    setLevel(world, 'claude', 'L1');
    expect((await run(world, 'claude')).stdout).toContain('Context at 75%');
  });

  it('switched off, bad input, a missing transcript, an unknown agent: exit 0, nothing on stdout', async () => {
    const world = open('claude', 'L3');
    expect(await run(world, 'claude', { AGENT_CHECKPOINT_DISABLE: '1' })).toMatchObject({ code: 0, stdout: '' });
    const env = world.scenario('actionable').env;
    const bad = await runHookBundle({ args: ['post-tool', 'claude'], stdin: '{', env, cwd: world.repo });
    expect(bad).toMatchObject({ code: 0, stdout: '' });
    expect(bad.stderr).toMatch(/post-tool: stdin is not JSON/);
    const wrongType = await runHookBundle({ args: ['post-tool', 'claude'], stdin: JSON.stringify({ session_id: 5 }), env, cwd: world.repo });
    expect(wrongType).toMatchObject({ code: 0, stdout: '' });
    expect(wrongType.stderr).toMatch(/session_id must be a string/);
    const missing = JSON.stringify({ session_id: 's', transcript_path: join(world.root, 'missing.jsonl'), cwd: world.repo, hook_event_name: 'PostToolUse' });
    expect(await runHookBundle({ args: ['post-tool', 'claude'], stdin: missing, env, cwd: world.repo })).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const unknown = await runHookBundle({ args: ['post-tool', 'vim'], stdin: payload(world, 'claude'), env, cwd: world.repo });
    expect(unknown).toMatchObject({ code: 0, stdout: '' });
    expect(unknown.stderr).toMatch(/unknown agent "vim"/);
  });

  it('cost: off, the gate loads neither later part nor node:crypto; on without an action, the decide part (and the state writer when a write is due) but not the act part', async () => {
    // A preload reports, at exit, the files required and whether node:crypto was loaded.
    const dir = mkdtempSync(join(tmpdir(), 'monitor-cost-'));
    try {
      const preload = join(dir, 'report-modules.cjs');
      writeFileSync(
        preload,
        "process.on('exit', () => process.stderr.write('MODULES=' + JSON.stringify({ files: Object.keys(require.cache).map((f) => require('path').basename(f)), crypto: process.moduleLoadList.some((m) => m === 'NativeModule crypto') }) + '\\n'));\n",
      );
      const loaded = (stderr: string): { files: string[]; crypto: boolean } => JSON.parse(/MODULES=(.*)/.exec(stderr)?.[1] ?? 'null') as { files: string[]; crypto: boolean };
      const off = open('claude', 'L3', {});
      const offRun = await run(off, 'claude', { NODE_OPTIONS: `--require=${preload}` });
      expect(offRun).toMatchObject({ code: 0, stdout: '' });
      expect(loaded(offRun.stderr)).toEqual({ files: ['report-modules.cjs', 'agent-checkpoint-hook.cjs', 'agent-checkpoint-hook-monitor.cjs'], crypto: false });
      const on = open('claude', 'L0');
      // The session's first reading is recorded (seed 004's checkpoint state) by the small writer part, not the act part.
      const first = await run(on, 'claude', { NODE_OPTIONS: `--require=${preload}` });
      expect(first).toMatchObject({ code: 0, stdout: '' });
      expect(loaded(first.stderr).files).toEqual(['report-modules.cjs', 'agent-checkpoint-hook.cjs', 'agent-checkpoint-hook-monitor.cjs', 'agent-checkpoint-hook-monitor-decide.cjs', 'agent-checkpoint-hook-monitor-record.cjs']);
      // The calls after it, at the same level within 30 s, record nothing and never parse the act part.
      const onRun = await run(on, 'claude', { NODE_OPTIONS: `--require=${preload}` });
      expect(onRun).toMatchObject({ code: 0, stdout: '' });
      expect(loaded(onRun.stderr).files).toEqual(['report-modules.cjs', 'agent-checkpoint-hook.cjs', 'agent-checkpoint-hook-monitor.cjs', 'agent-checkpoint-hook-monitor-decide.cjs']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
