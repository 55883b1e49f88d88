import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createDeliveryWorld, type DeliveryFixture, type DeliveryScenario, type DeliveryWorld } from '@agent-checkpoint/core/conformance';
import { afterEach, describe, expect, it } from 'vitest';
import { CLAUDE_FIXTURE, CODEX_FIXTURE, GEMINI_FIXTURE } from '../test-support/delivery-fixtures.ts';
import { deliverThroughHook } from '../test-support/hook-route-adapter.ts';
import { trustProjectConfig } from '../test-support/trust-project-config.ts';

// The seed 001 opt-ins through the real bundled hook on real repositories: the commit gate (one
// extra block, never more) and the hook's own test run.

const worlds: DeliveryWorld[] = [];
afterEach(() => {
  while (worlds.length > 0) worlds.pop()?.remove();
});

function open(base: DeliveryFixture, config: Record<string, unknown>): DeliveryWorld {
  const world = createDeliveryWorld(base);
  worlds.push(world);
  world.writeConfig({ ...world.actionableConfig, ...config });
  return world;
}

/** {@link open}, then trusted by the user: a project file's runTests.command applies only then. */
async function openTrusted(base: DeliveryFixture, config: Record<string, unknown>): Promise<DeliveryWorld> {
  const world = open(base, config);
  await trustProjectConfig(world.repo, world.scenario('actionable').env);
  return world;
}

const gateText = (files: string[]): string =>
  `[agent-checkpoint] You have uncommitted code changes. Commit your work before stopping.\n\nChanged: ${files.map((f) => `\`${f}\``).join(', ')}`;

function markers(world: DeliveryWorld): string[] {
  const dir = join(world.stateDir, 'sessions');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.gate')) : [];
}

/** The stop after our block, as each agent sends it (Gemini after a tool call: stop_hook_active false). */
function afterBlock(world: DeliveryWorld): DeliveryScenario {
  const s = world.scenario('actionable');
  return s.agent === 'gemini' ? world.scenario('repeat-stop') : world.scenario('repeat-stop-active');
}

describe('commitGate', () => {
  it('off (the default): the stop after our block passes and nothing is armed', async () => {
    const world = open(CLAUDE_FIXTURE, {});
    expect(await deliverThroughHook(world.scenario('actionable'))).not.toBeNull();
    expect(markers(world)).toEqual([]);
    expect(await deliverThroughHook(afterBlock(world))).toBeNull();
  });

  it.each([
    ['claude', CLAUDE_FIXTURE],
    ['gemini', GEMINI_FIXTURE],
    ['codex', CODEX_FIXTURE],
  ] as const)('%s: one more block while gated files are uncommitted, then the turn may end', async (_agent, base) => {
    const world = open(base, { commitGate: {} });
    const first = await deliverThroughHook(world.scenario('actionable'));
    expect(first).toMatch(/^\[agent-checkpoint\] Before you finish this turn:/);
    const gated = Object.keys(base.changedFiles).filter((f) => !f.endsWith('.md')).sort();
    expect(await deliverThroughHook(afterBlock(world))).toBe(gateText(gated));
    // The hard cap: every later stop of the turn passes, whatever git says.
    expect(await deliverThroughHook(afterBlock(world))).toBeNull();
    expect(await deliverThroughHook(world.scenario('repeat-stop-active'))).toBeNull();
    expect(markers(world)).toEqual([]);
  });

  it('passes when the agent committed its work (and when only ungated files are left)', async () => {
    const world = open(CLAUDE_FIXTURE, { commitGate: {} });
    expect(await deliverThroughHook(world.scenario('actionable'))).not.toBeNull();
    const env = world.scenario('actionable').env;
    execFileSync('git', ['add', 'notes.txt'], { cwd: world.repo, env });
    execFileSync('git', ['commit', '-q', '-m', 'work'], { cwd: world.repo, env });
    expect(await deliverThroughHook(world.scenario('repeat-stop-active'))).toBeNull();

    const scoped = open(CLAUDE_FIXTURE, { commitGate: { when: ['src/**'] } });
    expect(await deliverThroughHook(scoped.scenario('actionable'))).not.toBeNull();
    expect(await deliverThroughHook(scoped.scenario('repeat-stop-active'))).toBeNull();
  });

  it('a gate armed in one turn does not block another turn', async () => {
    const world = open(CODEX_FIXTURE, { commitGate: {} });
    expect(await deliverThroughHook(world.scenario('actionable'))).not.toBeNull();
    const other = { ...world.scenario('repeat-stop-active'), hint: { ...world.scenario('actionable').hint, turnId: 'another-turn' } };
    expect(await deliverThroughHook(other)).toBeNull();
  });
});

describe('runTests through the hook', () => {
  it('off (the default): no test run, no Tests line', async () => {
    const world = open(CLAUDE_FIXTURE, {});
    expect(await deliverThroughHook(world.scenario('actionable'))).not.toContain('Tests:');
  });

  it('a failing run heads the checkpoint, with its output and the fix-first action', async () => {
    const world = await openTrusted(CLAUDE_FIXTURE, { runTests: { command: 'echo "FAILED tests/test_notes.py::test_alpha - AssertionError"; exit 1', timeoutMs: 5000 } });
    const delivered = await deliverThroughHook(world.scenario('actionable'));
    expect(delivered).toMatch(/^\[agent-checkpoint\] Before you finish this turn:\nTests: FAILED \(exit 1, \d+\.\ds\)\n\nChanged: /);
    expect(delivered).toContain('Required actions:\n1. Fix the failing tests before proceeding.\n2. ');
    expect(delivered).toContain('```\nFAILED tests/test_notes.py::test_alpha - AssertionError\n```');
  });

  it('a passing run is reported in the header; a hung one is cut at its limit', async () => {
    const world = await openTrusted(CLAUDE_FIXTURE, { runTests: { command: 'echo "=== 7 passed in 0.01s ==="', timeoutMs: 5000 } });
    expect(await deliverThroughHook(world.scenario('actionable'))).toMatch(/^\[agent-checkpoint\] Before you finish this turn:\nTests: 7 passed \(\d+\.\ds\)\n/);
    const hung = await openTrusted(CLAUDE_FIXTURE, { runTests: { command: 'sleep 30', timeoutMs: 1000 } });
    const delivered = await deliverThroughHook(hung.scenario('actionable'));
    expect(delivered).toMatch(/\nTests: TIMED OUT after 1\.\ds\n/);
    expect(delivered).toContain("1. Run the tests (`sleep 30`): the checkpoint's own run was stopped after 1.");
  });
});
