import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDeliveryWorld, type DeliveryScenario, type DeliveryWorld } from '@agent-checkpoint/core/conformance';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildStopPayload } from '../test-support/build-stop-payload.ts';
import { CLAUDE_FIXTURE, CODEX_FIXTURE } from '../test-support/delivery-fixtures.ts';
import { HOOK_BUNDLE, runHookBundle, type HookProcessResult } from '../test-support/run-hook-bundle.ts';
import { readCodeCache } from './code-cache-file.ts';

// The bin as agents run it: the launcher, the bundle it runs through a V8 code cache, and what the
// cache must never change — the answer.

const worlds: DeliveryWorld[] = [];
let cacheRoot: string;
beforeEach(() => {
  cacheRoot = mkdtempSync(join(tmpdir(), 'ac-launcher-'));
});
afterEach(() => {
  for (const world of worlds.splice(0)) world.remove();
  rmSync(cacheRoot, { recursive: true, force: true });
});

function world(fixture = CLAUDE_FIXTURE): DeliveryWorld {
  const w = createDeliveryWorld(fixture);
  worlds.push(w);
  return w;
}

async function run(scenario: DeliveryScenario, env: Record<string, string> = {}, bin = HOOK_BUNDLE): Promise<HookProcessResult> {
  const payload = buildStopPayload(scenario);
  return runHookBundle({
    bin,
    args: [scenario.agent],
    stdin: JSON.stringify(payload),
    env: { ...scenario.env, AGENT_CHECKPOINT_CACHE_DIR: join(cacheRoot, 'cache'), AGENT_CHECKPOINT_DEBUG: '1', ...env },
    cwd: scenario.cwd,
  });
}

/** The code cache status the run wrote to its debug log (the last line of the state dir's log). */
function lastCacheStatus(scenario: DeliveryScenario): unknown {
  const lines = readFileSync(join(scenario.stateDir, 'debug.log'), 'utf8').trim().split('\n');
  return (JSON.parse(lines.at(-1) ?? '{}') as { codeCache?: unknown }).codeCache;
}

function cacheFiles(): string[] {
  const dir = join(cacheRoot, 'cache');
  return existsSync(dir) ? readdirSync(dir).map((name) => join(dir, name)) : [];
}

describe('the launcher and its code cache', () => {
  it('writes a cache on the first run, uses it afterwards, and deepens it once a run blocks', async () => {
    const w = world();
    const escape = w.scenario('repeat-stop-active');
    const first = await run(escape);
    expect([first.code, first.stdout]).toEqual([0, '']);
    expect(lastCacheStatus(escape)).toBe('missing');
    const [file] = cacheFiles();
    expect(file).toBeDefined();
    expect(readCodeCache(file!)?.coverage).toBe(0);

    // A full run that blocks reaches code the escape hatch never compiled: the cache is rewritten.
    const actionable = w.scenario('actionable');
    const blocked = await run(actionable);
    expect(blocked.code).toBe(0);
    expect(blocked.stdout).toContain('"decision":"block"');
    expect(lastCacheStatus(actionable)).toBe('accepted');
    expect(readCodeCache(file!)?.coverage).toBe(2);
    const written = readFileSync(file!);

    // From then on the cache is used and left alone.
    const again = await run(w.scenario('repeat-stop-active'));
    expect(again.stdout).toBe('');
    expect(lastCacheStatus(escape)).toBe('accepted');
    expect(readFileSync(file!).equals(written)).toBe(true);
    expect(cacheFiles()).toHaveLength(1);
  });

  it('gives byte-identical answers with a cache, without one, and with the cache switched off', async () => {
    const answers: string[] = [];
    const scenario = world(CODEX_FIXTURE).scenario('actionable');
    for (const env of [{}, {}, { AGENT_CHECKPOINT_CODE_CACHE: '0' }]) {
      // A fresh loop guard each time, so each run is the turn's first stop.
      rmSync(scenario.stateDir, { recursive: true, force: true });
      const result = await run(scenario, env);
      expect(result.code, result.stderr).toBe(0);
      answers.push(result.stdout);
    }
    expect(answers[0]).toContain('"decision":"block"');
    expect(new Set(answers).size).toBe(1);
    expect(cacheFiles()).toHaveLength(1);
  });

  it('treats a corrupted cache as missing: correct answer, cache rewritten', async () => {
    const seed = world().scenario('repeat-stop-active');
    await run(seed);
    const [file] = cacheFiles();
    const bytes = readFileSync(file!);
    bytes[bytes.length - 100] = bytes[bytes.length - 100]! ^ 0x5a;
    writeFileSync(file!, bytes);

    const scenario = world().scenario('actionable');
    const result = await run(scenario);
    expect(result.stdout).toContain('"decision":"block"');
    expect(lastCacheStatus(scenario)).toBe('missing');
    expect(readCodeCache(file!)?.coverage).toBe(2);
  });

  it('leaves a cache directory others can write to alone: no cache read, none written, same answer', async () => {
    const shared = join(cacheRoot, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    const scenario = world().scenario('actionable');
    const result = await run(scenario, { AGENT_CHECKPOINT_CACHE_DIR: shared });
    expect(result.stdout).toContain('"decision":"block"');
    expect(lastCacheStatus(scenario)).toBe('off');
    expect(readdirSync(shared)).toEqual([]);
  });

  it('still answers when the cache directory cannot be written', async () => {
    const blocker = join(cacheRoot, 'not-a-dir');
    writeFileSync(blocker, '');
    const scenario = world().scenario('actionable');
    const result = await run(scenario, { AGENT_CHECKPOINT_CACHE_DIR: join(blocker, 'cache') });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('"decision":"block"');
  });

  it('with its bundle missing, lets a hook run pass (exit 0, empty stdout) and says why; other commands fail', async () => {
    const lonely = join(cacheRoot, 'agent-checkpoint-hook.cjs');
    copyFileSync(HOOK_BUNDLE, lonely);
    const scenario = world().scenario('actionable');
    const hook = await run(scenario, {}, lonely);
    expect([hook.code, hook.stdout]).toEqual([0, '']);
    expect(hook.stderr).toMatch(/agent-checkpoint-hook: cannot start .*agent-checkpoint-hook-main\.cjs.*Letting the stop pass/);
    const doctor = await runHookBundle({ bin: lonely, args: ['doctor'], env: scenario.env });
    expect(doctor.code).toBe(1);
  });

  it('keeps hook entries of earlier versions working: the .mjs shim answers like the bin', async () => {
    const scenario = world().scenario('actionable');
    const legacy = HOOK_BUNDLE.replace(/\.cjs$/, '.mjs');
    const viaShim = await run(scenario, {}, legacy);
    expect(viaShim.code, viaShim.stderr).toBe(0);
    rmSync(scenario.stateDir, { recursive: true, force: true });
    const viaBin = await run(scenario);
    expect(viaShim.stdout).toContain('"decision":"block"');
    expect(viaShim.stdout).toBe(viaBin.stdout);
  });
});
