import { readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { GitSnapshot } from '../git/changed-file.ts';
import { readGitSnapshot } from '../git/read-git-snapshot.ts';
import { makeTempGitRepo, type TempGitRepo } from '../git/temp-git-repo.ts';
import { commitsAroundTurnStart } from '../test-support/commits-around-turn-start.ts';
import type { ToolCall } from '../timeline/tool-call.ts';
import type { TurnTimeline } from '../timeline/turn-timeline.ts';
import { attributeFiles } from './attribute-files.ts';
import { context, edit, noTranscript, read, shell, timeline } from './build-test-timeline.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

function repo(): TempGitRepo {
  const r = makeTempGitRepo();
  cleanups.push(r.remove);
  return r;
}

type Repo = Extract<GitSnapshot, { kind: 'repo' }>;

async function snapshotSince(r: TempGitRepo, sinceMs: number): Promise<Repo> {
  const s = await readGitSnapshot(r.dir, { timeoutMs: 10_000, env: r.env, sinceMs });
  if (s.kind !== 'repo') throw new Error(`expected a repo, got ${s.kind}`);
  return s;
}

function attributed(snapshot: Repo, t: TurnTimeline, turnStartMs: number): string[] {
  return attributeFiles({ snapshot, timeline: t, context: context({ cwd: snapshot.root, projectRoot: snapshot.root }), turnStartMs }).map(
    (f) => `${f.file.path}:${f.reason}`,
  );
}

/**
 * A commit of the start second that nothing on disk can place: packed by gc into a pack dated after
 * the start, with HEAD's reflog rewritten after it too (what a detached auto-gc right after the
 * previous turn's commit leaves).
 */
function unplaceableStartSecondCommit(r: TempGitRepo): number {
  const second = Math.floor(Date.now() / 1000) - 100;
  const start = second * 1000 + 600;
  r.write('package.json', '{"name":"x"}\n');
  r.write('daemon/server.ts', 'export {};\n');
  r.git(['add', '-A']);
  r.commit('previous turn', second);
  r.git(['gc', '-q']);
  const packDir = join(r.dir, '.git', 'objects', 'pack');
  for (const p of readdirSync(packDir)) utimesSync(join(packDir, p), new Date(start + 100), new Date(start + 100));
  utimesSync(join(r.dir, '.git', 'logs', 'HEAD'), new Date(start + 150), new Date(start + 150));
  return start;
}

describe('attribution of commits made in the second the turn started', () => {
  test('unplaceable: the turn owns it only if it could have committed', async () => {
    const r = repo();
    const start = unplaceableStartSecondCommit(r);
    const s = await snapshotSince(r, start);
    expect(s.files.every((f) => f.uncertainCommit === true)).toBe(true);
    const at = (calls: ToolCall[], options: Partial<TurnTimeline> = {}): string[] =>
      attributed(s, timeline(calls, { startedAt: new Date(start).toISOString(), ...options }), start);
    const both = ['daemon/server.ts:committed-during-turn', 'package.json:committed-during-turn'];

    // A turn that only read, looked and edited elsewhere cannot have made a commit.
    expect(at([])).toEqual([]);
    expect(at([read(join(r.dir, 'package.json')), shell('git status && git diff'), shell('cat daemon/server.ts')])).toEqual([]);
    // Any call that may commit keeps it: git commit, a script, a subagent's call, an unknown tool.
    expect(at([shell('git commit -am "wip"')])).toEqual(both);
    expect(at([shell('make release')])).toEqual(both);
    expect(at([{ ...shell('git commit -m x'), origin: { kind: 'subagent', agentId: 'a1' } }])).toEqual(both);
    // The unread part of a truncated transcript, or a missing transcript, may hold such a call.
    expect(at([read(join(r.dir, 'package.json'))], { truncated: true })).toEqual(both);
    expect(attributed(s, noTranscript(), start)).toEqual(both);
  });

  test('an edit of a file of an unplaceable commit does not make the commit the turn\'s', async () => {
    const r = repo();
    const start = unplaceableStartSecondCommit(r);
    const s = await snapshotSince(r, start);
    // The edit left the file as committed (a no-op edit): nothing of the turn is in that commit.
    expect(attributed(s, timeline([edit(join(r.dir, 'package.json'))], { startedAt: new Date(start).toISOString() }), start)).toEqual([]);
  });

  test('missing transcript: a real commit 200 ms before the start is still not the turn\'s; dirty files are', async () => {
    const r = repo();
    const made = await commitsAroundTurnStart(r, {
      before: () => {
        r.write('package.json', '{"name":"x"}\n');
        r.git(['add', '-A']);
      },
    });
    r.write('notes.txt', 'dirty, uncommitted\n');
    const s = await snapshotSince(r, made.turnStartMs);
    expect(s.startSecondCommits).toEqual([{ oid: made.beforeOid, verdict: 'before-turn', evidence: 'loose-object' }]);
    expect(attributed(s, noTranscript(), made.turnStartMs)).toEqual(['notes.txt:fallback-all-uncommitted']);
  });
});
