import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDeliveryWorld, type DeliveryWorld } from '@agent-checkpoint/core/conformance';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- plain ESM build script without type declarations
import { buildHook, COLD_DEPENDENCIES, coldDependencyFile, mainBundleOptions, markEvaluatedModules } from '../../build-hook.mjs';
import { buildStopPayload } from '../test-support/build-stop-payload.ts';
import { CLAUDE_FIXTURE, DELIVERY_FIXTURES } from '../test-support/delivery-fixtures.ts';
import { type HookProcessResult, parseHookStdout, runHookBundle } from '../test-support/run-hook-bundle.ts';

// Issue 22: a blocking turn end initialises only what it uses. The shipped bin is built again with
// every bundled module marked (its first statement records its path), then run as agents run it on a
// real repository and a recorded transcript; the list it evaluated is checked against a ceiling and
// against modules that have no business on this path. Bundled modules are initialised lazily, so
// the list is what the turn paid for, not what the bundle contains.

/**
 * Modules a full blocking run may evaluate (measured 2026-11-28: Claude 187, Gemini 192, Codex 198;
 * with Copilot CLI and Qwen Code: Claude 190, Gemini 195, Codex 201, Copilot 185, Qwen 186 — the
 * registry imports every profile statically, so each agent's profile is one module on every turn end;
 * Copilot's and Qwen's context-payload readers, imported by their profiles, add two: Codex 203; core's
 * one reader prologue, which replaced each reader's inline copy, is three small modules: Codex 206;
 * Pi's profile one more on every agent's turn end: Codex 207; node:crypto loaded on first use
 * through core's one-function sha256-hex module, one more on every turn end, and the Codex reader's
 * usage-line parser and its field readers, two modules shared with the monitor's bundle, which then
 * carries neither the whole line parser, ts-pattern nor shell-quote after every tool call: Codex 210;
 * Pi's context-payload reader, imported by its profile as Copilot's is: Codex 211; the agents' hook
 * entries, which the profiles share with the monitor as one light module (agents/hook-entries.ts: the
 * monitor must not load the profiles to learn an agent's event names): Codex 212. The next cut is
 * the registry's static import of every profile and its payload reader, not another raise).
 * Lower it with every cut; raise it only with a reason in the commit: every module is deserialized
 * (or compiled) and run on every turn end.
 */
const MODULE_CEILING = 212;

/**
 * Never on a blocking turn end whose configuration is cached: a cold dependency's sibling file
 * (build-hook.mjs's COLD_DEPENDENCIES), classic zod and the JSONC parser
 * (validating a configuration file that changed), fast-glob (the readers' last-resort search), re2js
 * (project patterns that need it), the old lockfile library. zod/mini still validates the payload and
 * the state files (issue 22: to be replaced by build-time validators).
 */
const NEVER_ON_HOT_PATH: readonly RegExp[] = [/^require:agent-checkpoint-hook-dep-/, /\/zod\/v4\/classic\//, /\/zod\/v4\/locales\//, /\/jsonc-parser[@/]/, /\/fast-glob[@/]/, /\/re2js[@/]/, /\/(proper-lockfile|graceful-fs)[@/]/];

let dir: string;
let bin: string;
let mainInputs: readonly string[];
let world: DeliveryWorld | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ac-hot-path-modules-'));
  bin = await buildHook(join(dir, 'agent-checkpoint-hook.cjs'), (outfile: string) => {
    const options = mainBundleOptions(outfile);
    const capture = {
      name: 'capture-metafile',
      setup(pluginBuild: { onEnd(callback: (result: { metafile?: { inputs: Record<string, unknown> } }) => void): void }) {
        pluginBuild.onEnd((result) => void (mainInputs = Object.keys(result.metafile?.inputs ?? {})));
      },
    };
    return { ...options, metafile: true, plugins: [...options.plugins, markEvaluatedModules(), capture] };
  });
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  world?.remove();
  world = undefined;
});

/** The package directory of a transcript reader (`packages/transcript-<agent>/`) in a module path. */
function readerPackageOf(module: string): string | undefined {
  return /packages\/(transcript-[a-z0-9-]+)\//.exec(module)?.[1];
}

describe('the modules a blocking turn end initialises', () => {
  it.each(DELIVERY_FIXTURES.map((fixture) => [fixture.agent, fixture] as const))('%s: under the ceiling, only its own reader, no config schema or parser', async (agent, fixture) => {
    world = createDeliveryWorld(fixture);
    const scenario = world.scenario('actionable');
    const out = join(dir, `modules-${agent}.json`);
    const run = (): Promise<HookProcessResult> =>
      runHookBundle({
        bin,
        args: [agent],
        stdin: JSON.stringify(buildStopPayload(scenario)),
        env: { ...scenario.env, AGENT_CHECKPOINT_MODULES_OUT: out, AGENT_CHECKPOINT_CODE_CACHE: '0' },
        cwd: scenario.cwd,
      });
    // The first run validates the project's configuration file and caches it; every later turn end
    // is a cache hit, the path measured here. Its state is removed so the measured run blocks again.
    const first = await run();
    expect(first.code, first.stderr).toBe(0);
    // That first run parsed the file with the JSONC parser from its sibling beside the bundle.
    expect(JSON.parse(readFileSync(out, 'utf8'))).toContain(`require:${coldDependencyFile('jsonc-parser')}`);
    rmSync(world.stateDir, { recursive: true, force: true });
    const result = await run();
    expect(result.code, result.stderr).toBe(0);
    // A blocking run: the checkpoint was delivered, so the list covers the whole path.
    expect(parseHookStdout(agent, result.stdout), result.stderr).not.toBeNull();
    const modules = JSON.parse(readFileSync(out, 'utf8')) as string[];

    expect(modules.filter((module) => NEVER_ON_HOT_PATH.some((pattern) => pattern.test(module)))).toEqual([]);
    const readers = new Set(modules.map(readerPackageOf).filter((name) => name !== undefined));
    expect([...readers]).toEqual([`transcript-${agent}`]);
    expect(modules.length, modules.join('\n')).toBeLessThanOrEqual(MODULE_CEILING);
  });
});

describe('the cold dependencies', () => {
  it('are siblings of the main bundle, not part of it', () => {
    // Their source was read on every hook start and compiled on the first run after install.
    const names = COLD_DEPENDENCIES as readonly string[];
    expect(mainInputs.filter((input) => names.some((name) => input.includes(`/node_modules/${name}/`)))).toEqual([]);
    for (const name of names) expect(existsSync(join(dir, coldDependencyFile(name))), name).toBe(true);
  });

  it('load from their sibling when a turn needs them: a project pattern runs on re2js', async () => {
    world = createDeliveryWorld(CLAUDE_FIXTURE);
    const scenario = world.scenario('actionable');
    // The project file's `/…/` patterns run on the linear-time engine (core's safe-pattern.ts).
    const configFile = join(scenario.cwd, '.agent-checkpoint.json');
    const config = JSON.parse(readFileSync(configFile, 'utf8')) as { categories: { evidence: string[] }[] };
    for (const category of config.categories) category.evidence = ['/conformance-(check|run)/'];
    writeFileSync(configFile, JSON.stringify(config));
    const out = join(dir, 'modules-re2js.json');
    const result = await runHookBundle({
      bin,
      args: ['claude'],
      stdin: JSON.stringify(buildStopPayload(scenario)),
      env: { ...scenario.env, AGENT_CHECKPOINT_MODULES_OUT: out, AGENT_CHECKPOINT_CODE_CACHE: '0' },
      cwd: scenario.cwd,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(parseHookStdout('claude', result.stdout), result.stderr).not.toBeNull();
    expect(JSON.parse(readFileSync(out, 'utf8'))).toContain(`require:${coldDependencyFile('re2js')}`);
  });
});
