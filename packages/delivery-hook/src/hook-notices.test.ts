import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDeliveryWorld, type DeliveryScenario, type DeliveryWorld } from '@agent-checkpoint/core/conformance';
import { afterEach, describe, expect, it } from 'vitest';
import { buildStopPayload } from './test-support/build-stop-payload.ts';
import { CLAUDE_FIXTURE, CODEX_FIXTURE, DELIVERY_FIXTURES, GEMINI_FIXTURE } from './test-support/delivery-fixtures.ts';
import { parseHookOutput, runHookBundle, type HookOutput } from './test-support/run-hook-bundle.ts';
import { trustProjectConfig } from './test-support/trust-project-config.ts';

// Diagnostics reach the user: the built bin, real git repositories and recorded transcripts. A broken
// or untrusted project config, or a transcript the hook cannot read, is told once per session in the
// agent's user-visible `systemMessage`, next to the unchanged verdict, never inside the block reason.

let world: DeliveryWorld | undefined;
afterEach(() => {
  world?.remove();
  world = undefined;
});

function open(fixture: (typeof DELIVERY_FIXTURES)[number]): DeliveryWorld {
  world = createDeliveryWorld(fixture);
  return world;
}

async function stop(scenario: DeliveryScenario): Promise<HookOutput & { readonly stderr: string }> {
  const result = await runHookBundle({ args: [scenario.agent], stdin: JSON.stringify(buildStopPayload(scenario)), env: scenario.env, cwd: scenario.cwd });
  expect(result.signal, result.stderr).toBeNull();
  expect(result.code, result.stderr).toBe(0);
  return { ...parseHookOutput(scenario.agent, result.stdout), stderr: result.stderr };
}

const BROKEN_CONFIG = '{\n  "categories": [\n  }\n';

describe.each(DELIVERY_FIXTURES.map((f) => [f.agent, f] as const))('%s', (_agent, fixture) => {
  it('a broken project config: the first stop carries the notice with the verdict the defaults give; the next stop of the session none', async () => {
    const w = open(fixture);
    writeFileSync(join(w.repo, '.agent-checkpoint.json'), BROKEN_CONFIG);
    const scenario = w.scenario('actionable');
    const expected = await w.expected(scenario);
    const first = await stop(scenario);
    expect(first.systemMessage).toMatch(/^agent-checkpoint: configuration problem: .*\.agent-checkpoint\.json: invalid configuration, file ignored: /);
    expect(first.systemMessage).toContain('`agent-checkpoint-hook doctor`');
    // The verdict is the one the defaults give (the file is ignored as a whole), notice or not.
    expect(first.reason).toBe(expected.decision === 'message' ? expected.message : null);
    if (first.reason !== null) expect(first.reason).not.toContain('configuration problem');
    // Still on stderr for the debug log and anyone who runs the hook by hand.
    expect(first.stderr).toMatch(/invalid configuration/);

    const second = await stop(w.scenario('repeat-stop'));
    expect(second.systemMessage).toBeUndefined();
    expect(second.reason).toBeNull();
  });

  it('a transcript path that is a directory: the notice once; the file-based checkpoint as before', async () => {
    const w = open(fixture);
    const scenario = w.scenario('directory-transcript');
    const expected = await w.expected(scenario);
    const first = await stop(scenario);
    expect(first.systemMessage).toMatch(/^agent-checkpoint: cannot read this session's transcript \(.*a-directory\.jsonl is not a regular file\)/);
    expect(first.reason).toBe(expected.decision === 'message' ? expected.message : null);
    const second = await stop(scenario);
    expect(second.systemMessage).toBeUndefined();
  });
});

describe('the commands named by the plugin routes (issue 24): the ones that work where the hook was installed', () => {
  const ROUTES = [
    { fixture: CLAUDE_FIXTURE, env: { CLAUDE_PLUGIN_ROOT: '/p/claude' }, off: '/agent-checkpoint:checkpoint-off --session', doctor: '`/agent-checkpoint:checkpoint-doctor`' },
    { fixture: GEMINI_FIXTURE, env: { AGENT_CHECKPOINT_EXTENSION_PATH: '/p/gemini' }, off: '/checkpoint-off --session', doctor: '`/checkpoint-doctor`' },
    { fixture: CODEX_FIXTURE, env: { PLUGIN_ROOT: '/p/codex' }, off: '/p/codex/bin/agent-checkpoint-hook off --session', doctor: '`/p/codex/bin/agent-checkpoint-hook doctor`' },
  ] as const;

  it.each(ROUTES.map((r) => [r.fixture.agent, r] as const))('%s plugin: the block\'s escape hatch and the config notice name the plugin\'s commands', async (_agent, route) => {
    const w = open(route.fixture);
    writeFileSync(join(w.repo, '.agent-checkpoint.json'), BROKEN_CONFIG);
    const scenario = w.scenario('actionable');
    const first = await stop({ ...scenario, env: { ...scenario.env, ...route.env } });
    expect(first.systemMessage).toContain(route.doctor);
    expect(first.systemMessage).not.toContain('`agent-checkpoint-hook doctor`');
    expect(first.reason).toContain(`(a person can run \`${route.off} ${scenario.sessionId}\`)`);
  });
});

describe('more notices through the real hook', () => {
  it('Claude: an untrusted privileged key → a notice naming `trust` with the usual block; after `trust`, none', async () => {
    const w = open(CLAUDE_FIXTURE);
    w.writeConfig({ ...w.actionableConfig, runTests: { enabled: true, command: 'true' } });
    const first = await stop(w.scenario('actionable'));
    expect(first.reason).not.toBeNull();
    expect(first.systemMessage).toMatch(/^agent-checkpoint: .*\.agent-checkpoint\.json is not trusted, so its runTests\.enabled, runTests\.command are ignored\. .*`agent-checkpoint-hook trust`/);
    // A new session is told again; once trusted, nobody is.
    const other = { ...w.scenario('actionable'), sessionId: 'another-session' };
    expect((await stop(other)).systemMessage).toMatch(/agent-checkpoint-hook trust/);
    await trustProjectConfig(w.repo, w.scenario('actionable').env);
    expect((await stop({ ...w.scenario('actionable'), sessionId: 'third-session' })).systemMessage).toBeUndefined();
  });

  it('Codex: a garbage transcript → a notice once', async () => {
    const w = open(CODEX_FIXTURE);
    const scenario = w.scenario('garbage-transcript');
    const first = await stop(scenario);
    expect(first.systemMessage).toMatch(/^agent-checkpoint: the codex transcript is not in a format it can read/);
    expect((await stop(scenario)).systemMessage).toBeUndefined();
  });

  it('Gemini: with the session state unusable, the notice is shown every time (better twice than never) and the stop still passes', async () => {
    const w = open(GEMINI_FIXTURE);
    writeFileSync(join(w.repo, '.agent-checkpoint.json'), BROKEN_CONFIG);
    // A file where the sessions directory should be: nothing can be recorded (the off switches still read fine).
    mkdirSync(w.stateDir, { recursive: true });
    writeFileSync(join(w.stateDir, 'sessions'), 'not a directory');
    const scenario = w.scenario('actionable');
    expect((await w.expected(scenario)).decision).toBe('message');
    for (let i = 0; i < 2; i += 1) {
      const out = await stop(scenario);
      expect(out.systemMessage, out.stderr).toMatch(/^agent-checkpoint: configuration problem/);
      // The block cannot be recorded either, so it is not delivered (state-unavailable): a notice never blocks.
      expect(out.reason).toBeNull();
    }
  });

  it('a clean turn: the output is exactly as before (no systemMessage)', async () => {
    const w = open(CODEX_FIXTURE);
    const out = await stop(w.scenario('actionable'));
    expect(out.reason).not.toBeNull();
    expect(out.systemMessage).toBeUndefined();
  });
});
