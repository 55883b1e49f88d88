import { join } from 'node:path';
import { afterAll, bench, describe } from 'vitest';
import { loadConfig } from './config/load-config.ts';
import { resolveConfig } from './config/resolve-config.ts';
import { getCheckpoint } from './get-checkpoint.ts';
import { readGitSnapshot } from './git/read-git-snapshot.ts';
import { makeTempGitRepo } from './git/temp-git-repo.ts';
import type { TurnTimeline } from './timeline/turn-timeline.ts';
import type { TranscriptReader } from './transcript/transcript-reader.ts';

// A small repository with one changed file and an edit in the transcript: the common actionable turn.
const repo = makeTempGitRepo();
repo.write('server/app.ts', 'changed\n');
const startedAt = new Date(Date.now() - 60_000).toISOString();
const timeline: TurnTimeline = {
  agent: 'claude',
  hasData: true,
  startedAt,
  calls: [
    {
      id: 'c1',
      kind: 'edit',
      rawName: 'Edit',
      input: {},
      paths: [join(repo.dir, 'server/app.ts')],
      outcome: 'success',
      timestamp: startedAt,
    },
  ],
  checkpointsDelivered: 0,
  truncated: false,
  diagnostics: [],
};
const reader: TranscriptReader = {
  specificationVersion: 'transcript-reader-v1',
  agent: 'claude',
  // A transcript read of a few milliseconds, like a real tail read of a large session.
  readTurn: () => new Promise((resolve) => setTimeout(() => resolve(timeline), 3)),
  locateTranscript: () => Promise.resolve(undefined),
};
const config = resolveConfig([
  {
    config: { categories: [{ id: 'server', include: ['server/**'], action: 'Restart the server', evidence: ['make restart'] }] },
    source: { kind: 'project-file', name: 'bench' },
  },
]);
const request = { agent: 'claude' as const, cwd: repo.dir, env: repo.env, config, transcript: { reader, path: '/t.jsonl' } };

afterAll(() => repo.remove());

const readTurn = () => reader.readTurn({ transcriptPath: '/t.jsonl', checkpointPrefix: config.messages.prefix });

describe('getCheckpoint (small repo, actionable turn)', () => {
  bench('end to end (config given)', async () => {
    const outcome = await getCheckpoint(request);
    if (outcome.mode !== 'actionable') throw new Error(outcome.mode);
  });
});

describe('reading both axes', () => {
  bench('pipelined: status ‖ transcript, git log as soon as the turn start is known (getCheckpoint)', async () => {
    const turn = readTurn();
    await Promise.all([turn, readGitSnapshot(repo.dir, { timeoutMs: 5_000, env: repo.env, sinceMs: turn.then((t) => Date.parse(t.startedAt ?? '')) })]);
  });
  bench('sequential: transcript first, then the whole git snapshot', async () => {
    const t = await readTurn();
    await readGitSnapshot(repo.dir, { timeoutMs: 5_000, env: repo.env, sinceMs: Date.parse(t.startedAt ?? '') });
  });
});

describe('loadConfig (in-process, modules already loaded)', () => {
  bench('no configuration file', async () => {
    await loadConfig({ cwd: repo.dir, env: repo.env, homeDir: join(repo.dir, '..'), cacheDir: false });
  });
});
