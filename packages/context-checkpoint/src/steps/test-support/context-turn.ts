import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, type ConfigFile, type ToolCall, type TranscriptReader, type TurnTimeline } from '@agent-checkpoint/core';
import { contextCheckpointSections } from '../../load-turn-end-extensions.ts';
import { makeTempGitRepo, type TempGitRepo } from '@agent-checkpoint/core/test-support';

// Shared fixtures of the context step's tests through getCheckpoint: a real repository with one
// commit (optionally on an issue branch), a turn whose newest usage record puts the context at a
// chosen size, and a reader that returns that turn.

/** A temp repository with `src/app.py` committed two hours ago, on `branch` when given; removed by `cleanups`. */
export function committedRepo(cleanups: (() => void | Promise<void>)[], branch?: string): TempGitRepo {
  const r = makeTempGitRepo();
  cleanups.push(r.remove);
  r.write('src/app.py', 'print(1)\n');
  r.git(['add', '-A']);
  r.commit('base', Math.floor(Date.now() / 1000) - 7200);
  if (branch !== undefined) r.git(['checkout', '-q', '-b', branch]);
  return r;
}

let n = 0;
const at = (msAgo: number): string => new Date(Date.now() - msAgo).toISOString();

/** A successful shell call five seconds ago. */
function shellCall(command: string): ToolCall {
  return { id: `c${++n}`, kind: 'shell', rawName: 'Bash', input: { command }, paths: [], command, exitCode: 0, outcome: 'success', timestamp: at(5_000) };
}

/** A Claude turn of one `ls` whose newest usage record holds `contextTokens` (a fresh turn id each call). */
export function contextTimeline(contextTokens: number, prompt = 'Implement the feature'): TurnTimeline {
  return {
    agent: 'claude',
    hasData: true,
    turnId: `turn-${++n}`,
    startedAt: at(60_000),
    prompt,
    calls: [shellCall('ls')],
    checkpointsDelivered: 0,
    truncated: false,
    diagnostics: [],
    tokenUsage: { contextTokens, model: 'claude-opus-5-5', timestamp: at(1000) },
  };
}

/** A reader that returns `timeline` for any transcript. */
export function staticReader(timeline: TurnTimeline): TranscriptReader {
  return { specificationVersion: 'transcript-reader-v1', agent: 'claude', readTurn: () => Promise.resolve(timeline), locateTranscript: () => Promise.resolve(undefined) };
}

/** The state directory the tests give the hook, beside the repository. */
export function stateDirOf(r: TempGitRepo): string {
  return join(r.dir, '..', 'state');
}

/**
 * Load the configuration as a hook does when the only file is `file`, written as the repository's
 * untrusted `.agent-checkpoint.json` (an empty home, no user file, no cache): what privileged keys
 * such a file can and cannot turn on.
 */
export function loadUntrustedProjectConfig(r: TempGitRepo, file: ConfigFile): ReturnType<typeof loadConfig> {
  writeFileSync(join(r.dir, '.agent-checkpoint.json'), JSON.stringify(file));
  const home = join(r.dir, '..', 'home');
  mkdirSync(home, { recursive: true });
  return loadConfig({
    cwd: realpathSync(r.dir),
    homeDir: home,
    env: { XDG_CONFIG_HOME: undefined, XDG_CACHE_HOME: undefined, AGENT_CHECKPOINT_CONFIG: undefined, AGENT_CHECKPOINT_STATE_DIR: undefined },
    cacheDir: false,
    stateDir: stateDirOf(r),
    sections: contextCheckpointSections,
  });
}
