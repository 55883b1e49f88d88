import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDeliveryWorld, type DeliveryFixture, type DeliveryScenario, type DeliveryWorld } from '@agent-checkpoint/core/conformance';
import { afterEach, describe, expect, it } from 'vitest';
import { CLAUDE_FIXTURE, CODEX_FIXTURE, GEMINI_FIXTURE, QWEN_FIXTURE } from './test-support/delivery-fixtures.ts';
import { deliverThroughHook } from './test-support/hook-route-adapter.ts';
import { trustProjectConfig } from './test-support/trust-project-config.ts';
import { FIXTURES_DIR } from './test-support/recorded-payloads.ts';
import { runHookBundle } from './test-support/run-hook-bundle.ts';

// The end-of-turn context step through the real bundled hook, on real git repositories, with real
// recorded transcripts whose token usage was raised to each level (fixtures/context-levels/README.md).

type Level = 'L0' | 'L1' | 'L2' | 'L3';
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
const PERCENT: Record<Level, number> = { L0: 30, L1: 75, L2: 86, L3: 96 };

const worlds: DeliveryWorld[] = [];
afterEach(() => {
  while (worlds.length > 0) worlds.pop()?.remove();
});

function levelFixture(base: DeliveryFixture, level: Level): DeliveryFixture {
  return { ...base, transcriptFile: join(FIXTURES_DIR, levelDir(base.agent), `${level}.jsonl`) };
}

function open(base: DeliveryFixture, level: Level, config: Record<string, unknown> = {}): DeliveryWorld {
  const world = createDeliveryWorld(levelFixture(base, level));
  worlds.push(world);
  world.writeConfig({ ...world.actionableConfig, context: { enabled: true }, handoff: { enabled: true }, ...config });
  return world;
}

/** {@link open}, then trusted by the user: a project file's directExecution applies only then. */
async function openTrusted(base: DeliveryFixture, level: Level, config: Record<string, unknown>): Promise<DeliveryWorld> {
  const world = open(base, level, config);
  await trustProjectConfig(world.repo, world.scenario('actionable').env);
  return world;
}

/** The same transcript at another level (the agent kept working; its usage grew). */
function raiseTo(world: DeliveryWorld, base: DeliveryFixture, level: Level): void {
  const scenario = world.scenario('actionable');
  const text = readFileSync(join(FIXTURES_DIR, levelDir(base.agent), `${level}.jsonl`), 'utf8').split(recordedCwd(base)).join(world.repo);
  writeFileSync(scenario.transcriptPath, text);
}

function recordedCwd(base: DeliveryFixture): string {
  return JSON.stringify(base.recordedCwd ?? '').slice(1, -1);
}

/**
 * The stop of a later user turn. Claude and Codex name the turn in the payload (a new prompt id /
 * turn id is a new turn for the loop guard). Gemini's turn identity comes from the transcript, so a
 * new prompt and answer are appended (same message shapes as the recording, the usage of its last
 * answer) and the turn's files are touched, as an agent editing them again would.
 */
function newTurn(world: DeliveryWorld, scenario: DeliveryScenario, n: number): DeliveryScenario {
  if (scenario.agent !== 'gemini') return { ...scenario, hint: { ...scenario.hint, turnId: `later-turn-${n}` } };
  const prompt = `next prompt ${n}`;
  const text = readFileSync(scenario.transcriptPath, 'utf8');
  const tokens = [...text.matchAll(/"tokens":(\{[^}]*\})/g)].at(-1)?.[1];
  const at = new Date(Date.now() - 1000).toISOString();
  const user = { id: `next-user-${n}`, timestamp: at, type: 'user', content: [{ text: prompt }] };
  const answer = `{"id":"next-gemini-${n}","timestamp":"${at}","type":"gemini","content":"Done.","thoughts":[],"tokens":${tokens},"model":"gemini-2.5-flash"}`;
  writeFileSync(scenario.transcriptPath, `${text.trimEnd()}\n${JSON.stringify(user)}\n${answer}\n`);
  for (const file of Object.keys(GEMINI_FIXTURE.changedFiles)) {
    const path = join(world.repo, file);
    if (existsSync(path)) writeFileSync(path, readFileSync(path));
  }
  return { ...scenario, hint: { prompt } };
}

/** Undo the turn's file changes: a turn with nothing else to say. */
function revertChanges(world: DeliveryWorld): void {
  const git = (...args: string[]): void => {
    execFileSync('git', args, { cwd: world.repo, env: world.scenario('actionable').env, stdio: 'ignore' });
  };
  git('checkout', '-q', '--', '.');
  git('clean', '-fdq');
}

/** `report --json`'s alert counts in the world's project. */
async function alertsOf(world: DeliveryWorld): Promise<unknown> {
  const result = await runHookBundle({ args: ['report', '--json'], env: world.scenario('actionable').env, cwd: world.repo });
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as { report: { alerts: unknown } }).report.alerts;
}

function handoffs(world: DeliveryWorld): string[] {
  const dir = join(world.repo, '.agent-checkpoint', 'handoffs');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.md')).sort() : [];
}

describe.each([
  ['claude', CLAUDE_FIXTURE],
  ['gemini', GEMINI_FIXTURE],
  ['codex', CODEX_FIXTURE],
  ['qwen', QWEN_FIXTURE],
] as const)('%s: context levels at the end of a turn', (_agent, base) => {
  it('L0: no context line; the checkpoint is what it is without monitoring', async () => {
    const world = open(base, 'L0');
    const delivered = await deliverThroughHook(world.scenario('actionable'));
    expect(delivered).not.toBeNull();
    expect(delivered).not.toContain('Context at');
    const plain = createDeliveryWorld(base);
    worlds.push(plain);
    expect(await deliverThroughHook(plain.scenario('actionable'))).toBe(delivered?.replaceAll(world.stateDir, plain.stateDir));
  });

  it('L1 rides along on the turn\'s checkpoint once per session; it never blocks a silent turn', async () => {
    const world = open(base, 'L1');
    const first = await deliverThroughHook(world.scenario('actionable'));
    expect(first).toContain(`⚠️ Context at ${PERCENT.L1}% - Consider completing current task before starting new work.\nRun \`agent-checkpoint-hook checkpoint\` to checkpoint`);
    expect(first?.indexOf('Context at')).toBeGreaterThan(first?.indexOf('Required actions:') ?? Infinity);
    // Said: the next turn's checkpoint does not repeat it.
    const second = await deliverThroughHook(newTurn(world, world.scenario('actionable'), 1));
    expect(second).not.toBeNull();
    expect(second).not.toContain('Context at');
    // A silent turn at L1 stays silent.
    const quiet = open(base, 'L1');
    revertChanges(quiet);
    expect(await deliverThroughHook(quiet.scenario('actionable'))).toBeNull();
    expect(handoffs(quiet)).toEqual([]);
  });

  it('issue 21: report counts the turn end\'s L1 line once, when a block carried it; a silent turn at L1 counts nothing', async () => {
    const world = open(base, 'L1');
    expect(await deliverThroughHook(world.scenario('actionable'))).toContain(`Context at ${PERCENT.L1}%`);
    expect(await deliverThroughHook(newTurn(world, world.scenario('actionable'), 1))).not.toContain('Context at');
    expect(await alertsOf(world)).toEqual({ l1Warnings: 1, estimateWarnings: 0, shardSuggestions: 0 });
    const dir = join(world.stateDir, 'metrics');
    const events = readdirSync(dir).flatMap((f) => readFileSync(join(dir, f), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as unknown));
    expect(events).toEqual([{ type: 'alert', at: expect.any(String), kind: 'l1-warning', percent: PERCENT.L1 }]);
    const quiet = open(base, 'L1');
    revertChanges(quiet);
    expect(await deliverThroughHook(quiet.scenario('actionable'))).toBeNull();
    expect(await alertsOf(quiet)).toEqual({ l1Warnings: 0, estimateWarnings: 0, shardSuggestions: 0 });
  });

  it('L2 blocks an otherwise silent turn once, with a handoff written first; L3 writes the emergency handoff', async () => {
    const world = open(base, 'L2');
    revertChanges(world);
    const scenario = world.scenario('actionable');
    const delivered = await deliverThroughHook(scenario);
    const [written] = handoffs(world);
    expect(written).toMatch(/^\d{4}-\d{2}-\d{2}-\d{4}\.md$/);
    expect(delivered).toMatch(
      new RegExp(
        `^\\[agent-checkpoint\\] 🔶 Context at ${PERCENT.L2}% - Initiating checkpoint sequence\\.\\nCompleting current edit, then generating handoff document\\.\\nA handoff draft is at \`\\.agent-checkpoint/handoffs/${written}\``,
      ),
    );
    const handoff = readFileSync(join(world.repo, '.agent-checkpoint', 'handoffs', written ?? ''), 'utf8');
    expect(handoff).toContain(`checkpoint_trigger: L2 (context at ${PERCENT.L2}%)`);
    expect(handoff).toContain(`agent: ${base.agent}`);
    expect(handoff).toContain('## What Was Done This Turn');
    // The checkpoint's own files never show up in git status.
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: world.repo, env: scenario.env, encoding: 'utf8' })).toBe('');

    // The stop after our block, and later turns at the same level: nothing more.
    expect(await deliverThroughHook({ ...scenario, stopHookActive: true })).toBeNull();
    expect(await deliverThroughHook(newTurn(world, scenario, 1))).toBeNull();
    expect(handoffs(world)).toHaveLength(1);

    raiseTo(world, base, 'L3');
    const emergency = await deliverThroughHook(newTurn(world, scenario, 2));
    expect(emergency).toContain(`🔴 Context at ${PERCENT.L3}% - Emergency checkpoint!`);
    expect(handoffs(world)).toHaveLength(2);
    expect(await deliverThroughHook(newTurn(world, scenario, 3))).toBeNull();
    // Success metrics: both handoffs, automatic, at their levels.
    const dir = join(world.stateDir, 'metrics');
    const events = readdirSync(dir).flatMap((f) => readFileSync(join(dir, f), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string }));
    expect(events.filter((e) => e.type === 'handoff')).toEqual([
      expect.objectContaining({ level: 'L2', trigger: 'auto', handoff: written?.replace(/\.md$/, '') }),
      expect.objectContaining({ level: 'L3', trigger: 'auto' }),
    ]);
  });
});

describe('direct execution at L2 through the hook (Claude, real repositories)', () => {
  const DIRECT = { directExecution: { enabled: true, push: true } };
  const git = (world: DeliveryWorld, ...args: string[]): string =>
    execFileSync('git', args, { cwd: world.repo, env: world.scenario('actionable').env, encoding: 'utf8' });

  it('no remote: WIP commit of the memory file only; the push is skipped; the user\'s change stays uncommitted', async () => {
    const world = await openTrusted(CLAUDE_FIXTURE, 'L2', DIRECT);
    const delivered = await deliverThroughHook(world.scenario('actionable'));
    const sha = git(world, 'rev-parse', '--short=7', 'HEAD').trim();
    expect(delivered).toContain(`Context is at ${PERCENT.L2}% (L2).\nCheckpoint: handoff written to .agent-checkpoint/handoffs/`);
    expect(delivered).toContain(`CLAUDE.md "## Last Session" updated, WIP commit ${sha}. Read the handoff before continuing; do not redo this checkpoint.`);
    expect(git(world, 'show', '--name-only', '--format=%s', 'HEAD').trim().split('\n')).toEqual(['[WIP] checkpoint at L2 (context at 86%)', '', 'CLAUDE.md']);
    expect(git(world, 'status', '--porcelain').trim()).toBe('?? notes.txt');
  });

  it('a failing push: the commit stays local and the message says so', async () => {
    const world = await openTrusted(CLAUDE_FIXTURE, 'L2', DIRECT);
    git(world, 'remote', 'add', 'origin', join(world.root, 'no-such-remote.git'));
    const delivered = await deliverThroughHook(world.scenario('actionable'));
    expect(delivered).toMatch(/WIP commit [0-9a-f]{7}, push failed \(the commit is local\)\./);
    expect(git(world, 'log', '-1', '--format=%s')).toMatch(/^\[WIP\] checkpoint at L2/);
  });

  it('by default the WIP commit carries the work: a changed tracked file goes in with the memory file, untracked files stay out', async () => {
    const world = await openTrusted(CLAUDE_FIXTURE, 'L2', DIRECT);
    const tracked = git(world, 'ls-files').split('\n').find((f) => f !== '' && !f.startsWith('.') && f !== 'CLAUDE.md') ?? '';
    expect(tracked).not.toBe('');
    writeFileSync(join(world.repo, tracked), 'the agent\'s work in progress\n');
    await deliverThroughHook(world.scenario('actionable'));
    expect(git(world, 'show', '--name-only', '--format=', 'HEAD').trim().split('\n').sort()).toEqual(['CLAUDE.md', tracked].sort());
    expect(git(world, 'status', '--porcelain').trim()).toBe('?? notes.txt');
  });

  it('a dirty index, tracked changes off: what the user staged stays staged and out of the commit', async () => {
    const world = await openTrusted(CLAUDE_FIXTURE, 'L2', { directExecution: { ...DIRECT.directExecution, includeTrackedChanges: false } });
    writeFileSync(join(world.repo, 'staged.txt'), 'staged by the user\n');
    git(world, 'add', 'staged.txt');
    await deliverThroughHook(world.scenario('actionable'));
    expect(git(world, 'show', '--name-only', '--format=', 'HEAD').trim()).toBe('CLAUDE.md');
    expect(git(world, 'diff', '--cached', '--name-only').trim()).toBe('staged.txt');
  });

  it('a detached HEAD: the commit is made where HEAD is, no branch moves, nothing is pushed', async () => {
    const world = await openTrusted(CLAUDE_FIXTURE, 'L2', DIRECT);
    const bare = join(world.root, 'remote.git');
    execFileSync('git', ['init', '-q', '--bare', bare], { env: world.scenario('actionable').env });
    git(world, 'remote', 'add', 'origin', bare);
    const main = git(world, 'rev-parse', 'main').trim();
    git(world, 'checkout', '-q', '--detach');
    const delivered = await deliverThroughHook(world.scenario('actionable'));
    expect(delivered).toMatch(/WIP commit [0-9a-f]{7}\./);
    expect(delivered).not.toContain('push');
    expect(git(world, 'rev-parse', 'main').trim()).toBe(main);
    expect(git(world, 'rev-parse', 'HEAD~1').trim()).toBe(main);
    expect(execFileSync('git', ['--git-dir', bare, 'for-each-ref'], { encoding: 'utf8' })).toBe('');
  });

  it('repeating the level does not commit again; the handoff directory is not committed', async () => {
    const world = await openTrusted(CLAUDE_FIXTURE, 'L2', DIRECT);
    await deliverThroughHook(world.scenario('actionable'));
    const head = git(world, 'rev-parse', 'HEAD').trim();
    expect(await deliverThroughHook(newTurn(world, world.scenario('actionable'), 1))).not.toContain('WIP commit');
    expect(git(world, 'rev-parse', 'HEAD').trim()).toBe(head);
    expect(git(world, 'ls-files').split('\n')).not.toContain('.agent-checkpoint/.gitignore');
  });
});
