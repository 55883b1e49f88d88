import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configDigest, getCheckpoint, loadConfig, recordTrust, type ToolCall, type TranscriptReader, type TurnTimeline } from '@agent-checkpoint/core';
import { configCacheKey, makeTempGitRepo, type TempGitRepo } from '@agent-checkpoint/core/test-support';
import { contextCheckpointSections, loadTurnEndExtensions } from '../load-turn-end-extensions.ts';
import { runTestsConfigOf } from '../config/context-config.ts';

/*
 * The validated-config cache must not be a way around trust (issue 12 class 1): whoever can write the
 * cache directory — the agent runs as the user — plants an entry under the key of a file's exact bytes.
 * Real repositories, real cache files, and a real test run whose command would create a marker.
 */
const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

interface World {
  readonly r: TempGitRepo;
  readonly home: string;
  readonly stateDir: string;
  readonly cacheDir: string;
  readonly marker: string;
  readonly project: string;
}

function world(): World {
  const r = makeTempGitRepo();
  cleanups.push(r.remove);
  r.write('README.md', '# project\n');
  r.write('src/app.py', 'print(1)\n');
  r.git(['add', '-A']);
  r.commit('base', Math.floor(Date.now() / 1000) - 7200);
  const outer = realpathSync(join(r.dir, '..'));
  const home = join(outer, 'home');
  mkdirSync(home);
  const cacheDir = join(outer, 'cache');
  mkdirSync(cacheDir, { mode: 0o700 });
  return { r, home, stateDir: join(outer, 'state'), cacheDir, marker: join(outer, 'pwned-marker'), project: join(r.dir, '.agent-checkpoint.json') };
}

const ENV = { XDG_CONFIG_HOME: undefined, XDG_CACHE_HOME: undefined, AGENT_CHECKPOINT_CONFIG: undefined, AGENT_CHECKPOINT_STATE_DIR: undefined };
const load = (w: World) => loadConfig({ cwd: w.r.dir, homeDir: w.home, env: ENV, cacheDir: w.cacheDir, stateDir: w.stateDir, sections: contextCheckpointSections });

/** What an attacker writes: a "validated" entry for the exact bytes of `file`. */
function plant(w: World, file: string, entry: string): void {
  writeFileSync(join(w.cacheDir, `${configCacheKey(readFileSync(file), contextCheckpointSections.keys)}.json`), entry);
}
const evil = (w: World) => ({ runTests: { enabled: true, command: `touch ${w.marker}`, timeoutMs: 20_000 } });

const CATEGORIES = { categories: [{ id: 'app', label: 'app code', include: ['src/**'], action: 'Restart the app: `make restart`', evidence: ['make restart'] }] };

/** A turn that edited src/app.py, through getCheckpoint with the loaded config: runs the tests when configured. */
async function runTurn(w: World, config: Awaited<ReturnType<typeof load>>['config']): Promise<void> {
  w.r.write('src/app.py', `print('changed')\n`);
  const at = new Date(Date.now() - 5000).toISOString();
  const edit: ToolCall = { id: 'c1', kind: 'edit', rawName: 'Edit', input: { file_path: join(w.r.dir, 'src/app.py') }, paths: [join(w.r.dir, 'src/app.py')], outcome: 'success', timestamp: at };
  const timeline: TurnTimeline = { agent: 'claude', hasData: true, turnId: 't1', startedAt: new Date(Date.now() - 60_000).toISOString(), prompt: 'go', calls: [edit], checkpointsDelivered: 0, truncated: false, diagnostics: [] };
  const reader: TranscriptReader = { specificationVersion: 'transcript-reader-v1', agent: 'claude', readTurn: () => Promise.resolve(timeline), locateTranscript: () => Promise.resolve(undefined) };
  await getCheckpoint({ agent: 'claude', cwd: w.r.dir, env: { ...w.r.env, AGENT_CHECKPOINT_STATE_DIR: w.stateDir }, config, sessionId: 's1', transcript: { reader, path: '/t.jsonl' }, extensions: await loadTurnEndExtensions(config) });
}

describe('the validated-config cache cannot bypass trust', { timeout: 60_000 }, () => {
  it('self-test: the marker command is live (a user file naming it creates the marker)', async () => {
    const w = world();
    mkdirSync(join(w.home, '.config', 'agent-checkpoint'), { recursive: true });
    writeFileSync(join(w.home, '.config', 'agent-checkpoint', 'config.json'), JSON.stringify({ ...CATEGORIES, ...evil(w) }));
    await runTurn(w, (await load(w)).config);
    expect(existsSync(w.marker)).toBe(true);
  });

  it('an untrusted project file: a planted entry claiming runTests.command (own key or hidden in __proto__) never runs it', async () => {
    const w = world();
    writeFileSync(w.project, JSON.stringify(CATEGORIES));
    for (const entry of [JSON.stringify({ ...CATEGORIES, ...evil(w) }), `{"__proto__": ${JSON.stringify(evil(w))}, "categories": ${JSON.stringify(CATEGORIES.categories)}}`]) {
      plant(w, w.project, entry);
      const { config } = await load(w);
      expect(runTestsConfigOf(config)).toBeUndefined();
      await runTurn(w, config);
      expect(existsSync(w.marker)).toBe(false);
    }
  });

  it('a project file the user trusted: a planted entry under its key cannot swap in another command', async () => {
    const w = world();
    writeFileSync(w.project, JSON.stringify({ ...CATEGORIES, runTests: { command: 'true' } }));
    await recordTrust(w.stateDir, realpathSync(w.project), configDigest(readFileSync(w.project)));
    expect(runTestsConfigOf((await load(w)).config)?.command).toBe('true');
    expect(readdirSync(w.cacheDir)).toEqual([]); // a file with a command is never cached
    plant(w, w.project, JSON.stringify({ ...CATEGORIES, ...evil(w) }));
    const { config } = await load(w);
    expect(runTestsConfigOf(config)?.command).toBe('true');
    await runTurn(w, config);
    expect(existsSync(w.marker)).toBe(false);
  });

  it('the user file (trusted as a whole): a planted entry under its key adds no command', async () => {
    const w = world();
    const userFile = join(w.home, '.config', 'agent-checkpoint', 'config.json');
    mkdirSync(join(w.home, '.config', 'agent-checkpoint'), { recursive: true });
    writeFileSync(userFile, JSON.stringify({ gitTimeoutMs: 1500 }));
    expect((await load(w)).config.gitTimeoutMs).toBe(1500);
    plant(w, userFile, JSON.stringify({ gitTimeoutMs: 1500, ...CATEGORIES, ...evil(w) }));
    const { config } = await load(w);
    expect(runTestsConfigOf(config)).toBeUndefined();
    await runTurn(w, config);
    expect(existsSync(w.marker)).toBe(false);
  });

  it('a cache directory others can write is not used; an entry that is a symlink is not read', async () => {
    const w = world();
    writeFileSync(w.project, JSON.stringify({ gitTimeoutMs: 1500 }));
    plant(w, w.project, JSON.stringify({ gitTimeoutMs: 1234 }));
    chmodSync(w.cacheDir, 0o777);
    expect((await load(w)).config.gitTimeoutMs).toBe(1500);
    chmodSync(w.cacheDir, 0o700);
    const key = configCacheKey(readFileSync(w.project), contextCheckpointSections.keys);
    rmSync(join(w.cacheDir, `${key}.json`));
    const elsewhere = join(w.cacheDir, '..', 'elsewhere.json');
    writeFileSync(elsewhere, JSON.stringify({ gitTimeoutMs: 1234 }));
    symlinkSync(elsewhere, join(w.cacheDir, `${key}.json`));
    expect((await load(w)).config.gitTimeoutMs).toBe(1500);
    expect(readFileSync(elsewhere, 'utf8')).toBe(JSON.stringify({ gitTimeoutMs: 1234 }));
  });

  it('still a cache: a file without privileged keys is served from it (a planted harmless entry is believed, as an untrusted project file would be)', async () => {
    const w = world();
    writeFileSync(w.project, JSON.stringify({ gitTimeoutMs: 1500 }));
    await load(w);
    expect(readdirSync(w.cacheDir)).toHaveLength(1);
    plant(w, w.project, JSON.stringify({ gitTimeoutMs: 1234 }));
    expect((await load(w)).config.gitTimeoutMs).toBe(1234);
  });
});
