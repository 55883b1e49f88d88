import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConfigFile } from './config/config-schema.ts';
import { resolveConfig } from './config/resolve-config.ts';
import { getCheckpoint } from './get-checkpoint.ts';
import { makeTempGitRepo, type TempGitRepo } from './git/temp-git-repo.ts';
import { commitsAroundTurnStart } from './test-support/commits-around-turn-start.ts';
import type { ToolCall } from './timeline/tool-call.ts';
import type { TurnTimeline } from './timeline/turn-timeline.ts';
import type { TranscriptReader } from './transcript/transcript-reader.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

function repo(): TempGitRepo {
  const r = makeTempGitRepo();
  cleanups.push(r.remove);
  return r;
}

/** Three categories, each with an action, as a project with a daemon would configure them. */
const PROJECT: ConfigFile = {
  categories: [
    { id: 'daemon', label: 'daemon code', include: ['daemon/**'], action: 'Restart the daemon: `make restart`', evidence: ['make restart'] },
    { id: 'deps', label: 'dependencies', include: ['package.json'], action: 'Install: `npm install`', evidence: ['npm install'] },
    { id: 'config', label: 'config', include: ['config/**'], action: 'Reload the config: `make reload`', evidence: ['make reload'] },
  ],
};
const config = resolveConfig([{ config: PROJECT, source: { kind: 'project-file', name: 'test' } }]);

/** The turn as the agent's transcript records it: the prompt time (ms) and the calls. */
function reader(startedAtMs: number, calls: readonly ToolCall[]): TranscriptReader {
  return timelineReader({
    agent: 'codex',
    hasData: true,
    startedAt: new Date(startedAtMs).toISOString(),
    calls,
    checkpointsDelivered: 0,
    truncated: false,
    diagnostics: [],
  });
}

function timelineReader(t: TurnTimeline): TranscriptReader {
  return {
    specificationVersion: 'transcript-reader-v1',
    agent: 'codex',
    readTurn: () => Promise.resolve(t),
    locateTranscript: () => Promise.resolve(undefined),
  };
}

let seq = 0;
const call = (kind: 'read' | 'edit', path: string): ToolCall => ({
  id: `c${++seq}`,
  kind,
  rawName: kind === 'read' ? 'read_file' : 'apply_patch',
  input: {},
  paths: [path],
  outcome: 'success',
});
const shell = (command: string): ToolCall => ({
  id: `c${++seq}`,
  kind: 'shell',
  rawName: 'exec_command',
  input: { cmd: command },
  paths: [],
  command,
  exitCode: 0,
  outcome: 'success',
});

/** What the loop runner's `git commit` after the previous run takes in: every category at once. */
function stagePreviousRun(r: TempGitRepo): void {
  r.write('package.json', '{"name":"svc","dependencies":{"left-pad":"1.3.0"}}\n');
  r.write('daemon/server.mjs', 'export const port = 8080;\n');
  r.write('config/app.json', '{"debug":false}\n');
  r.git(['add', '-A']);
}

describe('getCheckpoint: a loop runner commits after each run, the next run starts in the same second', () => {
  it('the previous run\'s commit, 200 ms before the prompt, is not this turn\'s: no block', async () => {
    const r = repo();
    const made = await commitsAroundTurnStart(r, { before: () => stagePreviousRun(r) });
    // `codex exec "…"`: this run only looked around and answered.
    const turn = reader(made.turnStartMs, [shell('git log --oneline -3'), call('read', join(r.dir, 'daemon/server.mjs'))]);
    const outcome = await getCheckpoint({ agent: 'codex', cwd: r.dir, env: r.env, config, sessionId: 's', transcript: { reader: turn, path: '/t.jsonl' } });
    expect(outcome.files).toEqual([]);
    expect(outcome).toMatchObject({ decision: 'silent', mode: 'no-changes' });
    expect(outcome.git).toMatchObject({ startSecondCommits: [{ oid: made.beforeOid, verdict: 'before-turn', evidence: 'loose-object' }] });
  });

  it('the same run doing real work is judged on its own work only', async () => {
    const r = repo();
    const made = await commitsAroundTurnStart(r, { before: () => stagePreviousRun(r) });
    r.write('config/app.json', '{"debug":true}\n');
    const turn = reader(made.turnStartMs, [call('read', join(r.dir, 'config/app.json')), call('edit', join(r.dir, 'config/app.json')), shell('make reload')]);
    const outcome = await getCheckpoint({ agent: 'codex', cwd: r.dir, env: r.env, config, sessionId: 's', transcript: { reader: turn, path: '/t.jsonl' } });
    expect(outcome.files.map((f) => `${f.file.path}:${f.reason}`)).toEqual(['config/app.json:tool-mutation']);
    expect(outcome).toMatchObject({ decision: 'silent', mode: 'all-clear' });
  });

  it('a commit the agent made 200 ms after the prompt, in that same second, is still the turn\'s', async () => {
    const r = repo();
    const made = await commitsAroundTurnStart(r, {
      before: () => stagePreviousRun(r),
      after: () => {
        r.write('daemon/server.mjs', 'export const port = 9090;\n');
        r.git(['add', '-A']);
      },
    });
    const turn = reader(made.turnStartMs, [call('read', join(r.dir, 'daemon/server.mjs')), call('edit', join(r.dir, 'daemon/server.mjs')), shell('git commit -am "port"')]);
    const outcome = await getCheckpoint({ agent: 'codex', cwd: r.dir, env: r.env, config, sessionId: 's', transcript: { reader: turn, path: '/t.jsonl' } });
    expect(outcome.files.map((f) => `${f.file.path}:${f.reason}`)).toEqual(['daemon/server.mjs:tool-mutation']);
    expect(outcome).toMatchObject({ decision: 'message', mode: 'actionable' });
    expect(outcome.message).toContain('Restart the daemon');
    expect(outcome.message).not.toContain('npm install');
    expect(outcome.message).not.toContain('make reload');
  });
});

describe('getCheckpoint: a truncated turn (no prompt time, only its tail calls)', () => {
  it('a commit of the unread part, in the second of the first call read but before it, is still the turn\'s', async () => {
    const r = repo();
    // The unread part committed at S.0xx; the first call read is at S.600.
    const made = await commitsAroundTurnStart(r, { before: () => stagePreviousRun(r) });
    const tail: ToolCall = { ...shell('make test'), timestamp: new Date(made.turnStartMs).toISOString() };
    const turn = timelineReader({ agent: 'codex', hasData: true, calls: [tail], checkpointsDelivered: 0, truncated: true, diagnostics: [] });
    const outcome = await getCheckpoint({ agent: 'codex', cwd: r.dir, env: r.env, config, sessionId: 's', transcript: { reader: turn, path: '/t.jsonl' } });
    expect(outcome.files.map((f) => `${f.file.path}:${f.reason}`)).toEqual([
      'config/app.json:committed-during-turn',
      'daemon/server.mjs:committed-during-turn',
      'package.json:committed-during-turn',
    ]);
    expect(outcome).toMatchObject({ decision: 'message', mode: 'actionable' });
  });
});
