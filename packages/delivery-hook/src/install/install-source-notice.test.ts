import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createDeliveryWorld, type DeliveryScenario, type DeliveryWorld } from '@agent-checkpoint/core/conformance';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildStopPayload } from '../test-support/build-stop-payload.ts';
import { CODEX_FIXTURE } from '../test-support/delivery-fixtures.ts';
import { HOOK_BUNDLE, parseHookOutput, runHookBundle } from '../test-support/run-hook-bundle.ts';

// A Codex plugin added from a local marketplace folder keeps running from Codex's cache after the
// folder moves; the built bin, copied where `codex plugin add` puts it, says so once per session.

let world: DeliveryWorld;
let root: string;
let bin: string;
let marketplace: string;
beforeEach(() => {
  world = createDeliveryWorld(CODEX_FIXTURE);
  root = mkdtempSync(join(tmpdir(), 'ac-source-notice-'));
  const codexHome = join(root, '.codex');
  const dist = join(codexHome, 'plugins', 'cache', 'agent-checkpoint', 'agent-checkpoint', '0.1.0', 'dist');
  cpSync(dirname(HOOK_BUNDLE), dist, { recursive: true });
  bin = join(dist, 'agent-checkpoint-hook.cjs');
  marketplace = join(root, 'clone');
  mkdirSync(marketplace);
  writeFileSync(join(codexHome, 'config.toml'), `[marketplaces.agent-checkpoint]\nsource_type = "local"\nsource = "${marketplace}"\n\n[plugins."agent-checkpoint@agent-checkpoint"]\nenabled = true\n`);
});
afterEach(() => {
  world.remove();
  rmSync(root, { recursive: true, force: true });
});

async function stop(scenario: DeliveryScenario) {
  const result = await runHookBundle({ bin, args: ['codex'], stdin: JSON.stringify(buildStopPayload(scenario)), env: scenario.env, cwd: scenario.cwd });
  expect(result.code, result.stderr).toBe(0);
  return parseHookOutput('codex', result.stdout);
}

describe('the Codex plugin whose local marketplace moved', () => {
  it('says so once per session, beside the unchanged verdict', async () => {
    // Codex starts a plugin's hooks with PLUGIN_ROOT, the plugin's (cached) root.
    const scenario = world.scenario('actionable', { PLUGIN_ROOT: dirname(dirname(bin)) });
    const expected = await world.expected(scenario);
    rmSync(marketplace, { recursive: true });
    const first = await stop(scenario);
    expect(first.systemMessage).toContain(`the Codex marketplace agent-checkpoint was added from ${marketplace}, which is gone`);
    expect(first.systemMessage).toContain('codex plugin marketplace add <git-url>');
    // Doctor as this plugin's user runs it: its own tool by path (no agent puts it on a terminal's PATH).
    const tool = join(dirname(dirname(bin)), 'bin', 'agent-checkpoint-hook');
    expect(first.systemMessage).toContain(`(${tool} doctor shows the details)`);
    // The verdict is unchanged; its "a person can run …" names the plugin's tool too.
    expect(expected.decision).toBe('message');
    expect(first.reason).toBe(expected.message?.replace('agent-checkpoint-hook off --session', `${tool} off --session`));
    const second = await stop(world.scenario('repeat-stop', { PLUGIN_ROOT: dirname(dirname(bin)) }));
    expect(second.systemMessage).toBeUndefined();
  });

  it('says nothing while the folder is there', async () => {
    const first = await stop(world.scenario('actionable'));
    expect(first.systemMessage).toBeUndefined();
  });
});
