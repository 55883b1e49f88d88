import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createDeliveryWorld, type DeliveryFixture, type DeliveryWorld } from '@agent-checkpoint/core/conformance';
import { afterEach, describe, expect, it } from 'vitest';
import { CLAUDE_FIXTURE, CODEX_FIXTURE, GEMINI_FIXTURE, QWEN_FIXTURE } from './test-support/delivery-fixtures.ts';
import { buildStopPayload } from './test-support/build-stop-payload.ts';
import { FIXTURES_DIR } from './test-support/recorded-payloads.ts';
import { runHookBundle } from './test-support/run-hook-bundle.ts';
import { trustProjectConfig } from './test-support/trust-project-config.ts';

// Issue 14 point 8: when the Stop route writes a handoff (or a WIP commit), the user is told on the
// agent's user-visible channel (`systemMessage`), next to the block the model gets. The real bundled
// hook, real repositories, recorded transcripts raised to L2 (fixtures/context-levels/README.md).

// The agents whose context-level fixtures exist (Pi has none; its context hooks: agents/pi-context-hooks.test.ts).
const LEVEL_DIRS: Partial<Record<DeliveryFixture['agent'], string>> = {
  claude: 'claude/2.1.330/context-levels',
  codex: 'codex/0.169.0/context-levels',
  gemini: 'gemini/0.61.0/context-levels',
  copilot: 'copilot/1.0.102/context-levels',
  qwen: 'qwen/0.24.4/context-levels',
};
function levelDir(agent: DeliveryFixture['agent']): string {
  const dir = LEVEL_DIRS[agent];
  if (dir === undefined) throw new Error(`no context-level fixtures for ${agent}`);
  return dir;
}
const worlds: DeliveryWorld[] = [];
afterEach(() => {
  while (worlds.length > 0) worlds.pop()?.remove();
});

function open(base: DeliveryFixture, config: Record<string, unknown> = {}): DeliveryWorld {
  const world = createDeliveryWorld({ ...base, transcriptFile: join(FIXTURES_DIR, levelDir(base.agent), 'L2.jsonl') });
  worlds.push(world);
  world.writeConfig({ ...world.actionableConfig, context: { enabled: true }, handoff: { enabled: true }, ...config });
  return world;
}

async function stop(world: DeliveryWorld, agent: DeliveryFixture['agent']): Promise<Record<string, unknown>> {
  const scenario = world.scenario('actionable');
  const result = await runHookBundle({ args: [agent], stdin: JSON.stringify(buildStopPayload(scenario)), env: scenario.env, cwd: scenario.cwd });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

describe.each([
  ['claude', CLAUDE_FIXTURE],
  ['gemini', GEMINI_FIXTURE],
  ['codex', CODEX_FIXTURE],
  ['qwen', QWEN_FIXTURE],
] as const)('%s: the user is told when the Stop route wrote a handoff', (agent, base) => {
  it('systemMessage names the handoff and the level, next to the block', async () => {
    const world = open(base);
    const out = await stop(world, agent);
    const [written] = readdirSync(join(world.repo, '.agent-checkpoint', 'handoffs')).filter((f) => f.endsWith('.md'));
    expect(out['systemMessage']).toBe(`agent-checkpoint: handoff written to .agent-checkpoint/handoffs/${written} (context at 86%, L2).`);
    // The model's block is unchanged and does not carry the notice.
    expect(JSON.stringify(out)).toMatch(/Context at 86% - Initiating checkpoint sequence/);
  });
});

describe('direct execution: the notice names the WIP commit (Claude)', () => {
  it('handoff and commit', async () => {
    const world = open(CLAUDE_FIXTURE, { directExecution: { enabled: true } });
    await trustProjectConfig(world.repo, world.scenario('actionable').env);
    const out = await stop(world, 'claude');
    const sha = execFileSync('git', ['rev-parse', '--short=7', 'HEAD'], { cwd: world.repo, env: world.scenario('actionable').env, encoding: 'utf8' }).trim();
    expect(out['systemMessage']).toMatch(new RegExp(`^agent-checkpoint: handoff written to \\.agent-checkpoint/handoffs/[\\d-]+\\.md, WIP commit ${sha} \\(context at 86%, L2\\)\\.$`));
  });
});
