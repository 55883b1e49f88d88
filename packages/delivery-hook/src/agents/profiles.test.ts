import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT_IDS } from '@agent-checkpoint/core';
import { withoutSessionStartContext } from '@agent-checkpoint/transcript-gemini/session-start-context';
import { build } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';
import { codexHome } from './codex-profile.ts';
import { AGENT_PROFILES } from './profiles.ts';

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('agent profiles', () => {
  it.each(AGENT_IDS)('%s: the profile is registered under its own id, with a title', (agent) => {
    expect(AGENT_PROFILES[agent].id).toBe(agent);
    expect(AGENT_PROFILES[agent].title).not.toBe('');
  });

  it.each(AGENT_IDS)('%s: the first hook entry is the turn-end hook the payload reader recognises, run as `<bundle> <agent>`', (agent) => {
    const profile = AGENT_PROFILES[agent];
    const [turnEnd, ...features] = profile.hookEntries;
    expect(turnEnd?.args).toEqual([agent]);
    expect(turnEnd?.feature).toBeUndefined();
    const read = profile.readTurnEndPayload({ hook_event_name: turnEnd?.event, session_id: 's' });
    expect(read).toMatchObject({ kind: 'event', event: { agent, isTurnEnd: true } });
    expect(profile.readTurnEndPayload({ hook_event_name: 'SomethingElse' })).toMatchObject({ kind: 'event', event: { isTurnEnd: false } });
    // The other entries are opt-in features, each running a subcommand for this agent.
    for (const entry of features) {
      expect(entry.feature).toBeDefined();
      expect(entry.args.at(-1)).toBe(agent);
    }
  });

  it.each(AGENT_IDS)('%s: the handler carries the timeout in the unit the profile declares (doctor checks it in that unit)', (agent) => {
    const profile = AGENT_PROFILES[agent];
    const entry = profile.hookEntries[0]!;
    const handler = profile.hookHandler(entry, '/abs/node /abs/agent-checkpoint-hook.cjs x');
    expect(handler['timeout']).toBe(profile.hookTimeoutUnit === 'milliseconds' ? entry.timeoutSeconds * 1000 : entry.timeoutSeconds);
    expect(profile.hookGroup(handler)['hooks']).toEqual([handler]);
  });

  // The profiles are on the hook's hot path (payload → escape hatch → output): their static imports
  // must stay light. Heavy parts are imported inside the methods that need them.
  it('profile files statically import nothing heavy (transcript readers, globbing, TOML, JSONC, set-up code)', async () => {
    const result = await build({
      entryPoints: [join(import.meta.dirname, 'profiles.ts')],
      bundle: true,
      write: false,
      metafile: true,
      platform: 'node',
      format: 'esm',
      logLevel: 'silent',
    });
    const inputs = result.metafile.inputs;
    const entry = Object.keys(inputs).find((path) => path.endsWith('agents/profiles.ts'))!;
    const seen = new Set<string>();
    const stack = [entry];
    while (stack.length > 0) {
      const path = stack.pop()!;
      if (seen.has(path)) continue;
      seen.add(path);
      for (const imported of inputs[path]?.imports ?? []) if (imported.kind !== 'dynamic-import' && imported.external !== true) stack.push(imported.path);
    }
    const heavy = [...seen].filter((path) =>
      /transcript-(claude|gemini|codex|copilot|qwen)\/|fast-glob|smol-toml|jsonc-parser|setup-kit\/|core\/src\/index\.ts|delivery-hook\/src\/(install|doctor|explain)\/|agents\/transcript-files\.ts/.test(path),
    );
    expect(heavy).toEqual([]);
    // Sanity: the walk did follow the profiles' real static imports.
    expect([...seen].some((path) => path.endsWith('agents/claude-profile.ts'))).toBe(true);
    expect([...seen].some((path) => path.includes('zod'))).toBe(true);
  }, 60_000);

  it('gemini: the prompt is stripped of the SessionStart context by the reader\'s own rule, not a copy', async () => {
    expect(await AGENT_PROFILES.gemini.loadUserPromptOf?.()).toBe(withoutSessionStartContext);
  });

  it('codex: a relative $CODEX_HOME is resolved against the project directory, for install and the latest-transcript lookup alike', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'profiles-codex-')));
    temps.push(root);
    const rollouts = join(root, 'state', 'sessions', '2026', '11', '26');
    mkdirSync(rollouts, { recursive: true });
    const rollout = join(rollouts, 'rollout-2026-11-26T06-00-00-0199a1b2-c3d4-4e5f-8a9b-0c1d2e3f4a5b.jsonl');
    writeFileSync(rollout, `${JSON.stringify({ type: 'session_meta', payload: { id: '0199a1b2-c3d4-4e5f-8a9b-0c1d2e3f4a5b', cwd: root } })}\n`);
    const env = { CODEX_HOME: 'state' };
    expect(codexHome({ env, home: '/nonexistent-home', cwd: root })).toBe(join(root, 'state'));
    expect(AGENT_PROFILES.codex.settingsPath('user', { env, home: '/nonexistent-home', cwd: root, projectRoot: undefined })).toBe(join(root, 'state', 'hooks.json'));
    // The test process runs elsewhere (the package directory): the lookup must not depend on it.
    expect(process.cwd()).not.toBe(root);
    const found = await AGENT_PROFILES.codex.findLatestTranscript({ env, home: '/nonexistent-home', cwd: root, dirs: [root] });
    expect(found).toBe(rollout);
    expect(await AGENT_PROFILES.codex.sessionIdOfTranscript(rollout)).toBe('0199a1b2-c3d4-4e5f-8a9b-0c1d2e3f4a5b');
  });
});
