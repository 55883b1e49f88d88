import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commitsAroundTurnStart } from '../test-support/commits-around-turn-start.ts';
import { FILE_CLOCK_SLACK_MS, packIndexMayHold, settleStartSecondCommits } from './settle-start-second-commits.ts';
import { makeTempGitRepo, type TempGitRepo } from './temp-git-repo.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

function repo(options?: { commits?: boolean }): TempGitRepo {
  const r = makeTempGitRepo(options);
  cleanups.push(r.remove);
  return r;
}

/** The object directory and HEAD reflog of a repository, as git names them. */
function gitPaths(r: TempGitRepo, cwd = r.dir): { objectsDir: string; headReflog: string } {
  const [objects = '', reflog = ''] = r.git(['rev-parse', '--git-path', 'objects', '--git-path', 'logs/HEAD'], { cwd }).trim().split('\n');
  return { objectsDir: resolve(cwd, objects), headReflog: resolve(cwd, reflog) };
}

function commitFile(r: TempGitRepo, path: string, second: number): string {
  r.write(path, `${path} ${Math.random()}\n`);
  r.git(['add', '-A']);
  r.commit(path, second);
  return r.git(['rev-parse', 'HEAD']).trim();
}

/** Run git with `input` on stdin. */
function gitWithInput(r: TempGitRepo, args: readonly string[], input: string | Buffer): string {
  return execFileSync('git', args, { cwd: r.dir, env: r.env, input, encoding: 'utf8' });
}

function setMtime(path: string, ms: number): void {
  const t = new Date(ms);
  utimesSync(path, t, t);
}

function packFiles(objectsDir: string): string[] {
  return readdirSync(join(objectsDir, 'pack'))
    .filter((n) => n.endsWith('.pack'))
    .map((n) => join(objectsDir, 'pack', n));
}

/** One commit 100 s ago, moved into a pack by `git gc` (no loose copy left), and where its repository keeps things. */
function packedCommit(): { oid: string; second: number; objectsDir: string; headReflog: string } {
  const r = repo();
  const second = Math.floor(Date.now() / 1000) - 100;
  const oid = commitFile(r, 'a.txt', second);
  r.git(['gc', '-q']);
  return { oid, second, ...gitPaths(r) };
}

describe('settleStartSecondCommits: loose objects', () => {
  it('real commits 200 ms before and 200 ms after the start, in one second: before-turn and during-turn', async () => {
    const r = repo();
    const made = await commitsAroundTurnStart(r, {
      before: () => {
        r.write('package.json', '{"name":"x"}\n');
        r.git(['add', '-A']);
      },
      after: () => {
        r.write('src/app.ts', 'export {};\n');
        r.git(['add', '-A']);
      },
    });
    expect(Math.floor(made.turnStartMs / 1000)).toBe(made.second);
    expect(made.beforeDoneMs).toBeLessThanOrEqual(made.turnStartMs - 200);
    expect(made.afterBeganMs).toBeGreaterThanOrEqual(made.turnStartMs + 200);
    const { objectsDir, headReflog } = gitPaths(r);
    const settled = settleStartSecondCommits({
      objectsDir,
      headReflog,
      oids: [made.afterOid ?? '', made.beforeOid],
      tipOid: made.afterOid ?? '',
      turnStartMs: made.turnStartMs,
    });
    expect(settled).toEqual([
      { oid: made.afterOid, verdict: 'during-turn', evidence: 'loose-object' },
      { oid: made.beforeOid, verdict: 'before-turn', evidence: 'loose-object' },
    ]);
  });

  it('an object time within the file-clock slack before the start counts as during the turn', () => {
    const r = repo();
    const second = Math.floor(Date.now() / 1000) - 100;
    const oid = commitFile(r, 'a.txt', second);
    const { objectsDir, headReflog } = gitPaths(r);
    const start = second * 1000 + 500;
    const loose = join(objectsDir, oid.slice(0, 2), oid.slice(2));
    const verdictAt = (mtimeMs: number): string | undefined => {
      setMtime(loose, mtimeMs);
      return settleStartSecondCommits({ objectsDir, headReflog, oids: [oid], tipOid: oid, turnStartMs: start })[0]?.verdict;
    };
    expect(verdictAt(start - FILE_CLOCK_SLACK_MS - 1)).toBe('before-turn');
    expect(verdictAt(start - FILE_CLOCK_SLACK_MS + 1)).toBe('during-turn');
    expect(verdictAt(start + 1)).toBe('during-turn');
  });

  it('a whole-second object time (1 s file systems) proves nothing; a reflog last written before the start does', () => {
    const r = repo();
    const second = Math.floor(Date.now() / 1000) - 100;
    const oid = commitFile(r, 'a.txt', second);
    const { objectsDir, headReflog } = gitPaths(r);
    const start = second * 1000 + 500;
    setMtime(join(objectsDir, oid.slice(0, 2), oid.slice(2)), second * 1000); // what HFS+ would store
    setMtime(headReflog, start + 300);
    const input = { objectsDir, headReflog, oids: [oid], tipOid: oid, turnStartMs: start };
    expect(settleStartSecondCommits(input)).toEqual([{ oid, verdict: 'unknown', evidence: 'none' }]);
    setMtime(headReflog, start - 300);
    expect(settleStartSecondCommits(input)).toEqual([{ oid, verdict: 'before-turn', evidence: 'reflog' }]);
    // The reflog speaks only for the tip it last recorded.
    expect(settleStartSecondCommits({ ...input, tipOid: 'f'.repeat(40) })).toEqual([{ oid, verdict: 'unknown', evidence: 'none' }]);
  });
});

describe('settleStartSecondCommits: a file-system clock behind git\'s', () => {
  it('no file time proves "before" when the reflog file is older than the time git stamped its last line with', () => {
    const r = repo();
    const second = Math.floor(Date.now() / 1000) - 100;
    const oid = commitFile(r, 'a.txt', second);
    const { objectsDir, headReflog } = gitPaths(r);
    const lastLine = readFileSync(headReflog, 'utf8').trim().split('\n').at(-1) ?? '';
    expect(lastLine.split('\t')[0]?.split(' ').at(-2)).toBe(String(second)); // git's own time of the entry
    const start = second * 1000 + 600;
    const loose = join(objectsDir, oid.slice(0, 2), oid.slice(2));
    const input = { objectsDir, headReflog, oids: [oid], tipOid: oid, turnStartMs: start };
    // A network file system 2 s behind: the commit was made at S.800 (after the start) but its
    // object file says S-2+0.800, and the reflog line git stamped S was written at S-2+0.801.
    setMtime(loose, start + 200 - 2000);
    setMtime(headReflog, start + 201 - 2000);
    expect(settleStartSecondCommits(input)).toEqual([{ oid, verdict: 'unknown', evidence: 'none' }]);
    // A clock that agrees: the same object time is proof.
    setMtime(headReflog, second * 1000 + 100);
    setMtime(loose, start - 200);
    expect(settleStartSecondCommits(input)).toEqual([{ oid, verdict: 'before-turn', evidence: 'loose-object' }]);
    // Behind or not, a time after the start stays "during".
    setMtime(headReflog, start + 201 - 2000);
    setMtime(loose, start + 200);
    expect(settleStartSecondCommits(input)).toEqual([{ oid, verdict: 'during-turn', evidence: 'loose-object' }]);
  });
});

describe('settleStartSecondCommits: packed objects', () => {
  it('packed by gc before the start: before-turn by the pack, whatever gc did to the reflog', () => {
    const { oid, second, objectsDir, headReflog } = packedCommit();
    expect(() => statSync(join(objectsDir, oid.slice(0, 2), oid.slice(2)))).toThrow(/ENOENT/); // no loose copy left
    const start = second * 1000 + 600;
    for (const pack of packFiles(objectsDir)) setMtime(pack, start - 300);
    setMtime(headReflog, start + 300); // gc rewrites the reflog; it must not matter here
    expect(settleStartSecondCommits({ objectsDir, headReflog, oids: [oid], tipOid: oid, turnStartMs: start })).toEqual([
      { oid, verdict: 'before-turn', evidence: 'pack' },
    ]);
  });

  it('in a pack written since the start: unknown, unless the reflog predates the start', () => {
    const { oid, second, objectsDir, headReflog } = packedCommit();
    const start = second * 1000 + 600;
    for (const pack of packFiles(objectsDir)) setMtime(pack, start + 100);
    setMtime(headReflog, start + 150);
    const input = { objectsDir, headReflog, oids: [oid], tipOid: oid, turnStartMs: start };
    expect(settleStartSecondCommits(input)).toEqual([{ oid, verdict: 'unknown', evidence: 'none' }]);
    setMtime(headReflog, start - 300);
    expect(settleStartSecondCommits(input)).toEqual([{ oid, verdict: 'before-turn', evidence: 'reflog' }]);
  });

  it('a pack written since the start that lacks the commit does not hold it back', () => {
    const { oid, second, objectsDir, headReflog } = packedCommit();
    const start = second * 1000 + 600;
    for (const pack of packFiles(objectsDir)) setMtime(pack, start - 300);
    // A later fetch-like pack with other objects only (a blob), written after the start.
    const other = repo();
    other.write('other.txt', 'other\n');
    other.git(['add', '-A']);
    const blob = other.git(['rev-parse', ':other.txt']).trim();
    const packed = gitWithInput(other, ['pack-objects', join(objectsDir, 'pack', 'pack')], `${blob}\n`);
    expect(packed.trim()).toMatch(/^[0-9a-f]{40}$/);
    for (const pack of packFiles(objectsDir)) if (pack.includes(packed.trim())) setMtime(pack, start + 100);
    expect(settleStartSecondCommits({ objectsDir, headReflog, oids: [oid], tipOid: oid, turnStartMs: start })).toEqual([
      { oid, verdict: 'before-turn', evidence: 'pack' },
    ]);
  });

  it('more than 1,000 packs (a broken or hostile repository) prove nothing: unknown', () => {
    const { oid, second, objectsDir, headReflog } = packedCommit();
    const start = second * 1000 + 600;
    for (let i = 0; i < 1000; i++) writeFileSync(join(objectsDir, 'pack', `pack-junk-${i}.pack`), '');
    for (const pack of packFiles(objectsDir)) setMtime(pack, start - 300);
    setMtime(headReflog, start + 300);
    expect(settleStartSecondCommits({ objectsDir, headReflog, oids: [oid], tipOid: oid, turnStartMs: start })).toEqual([
      { oid, verdict: 'unknown', evidence: 'none' },
    ]);
  });

  it('borrowed from an alternate object store (clone --shared): unknown, since it may live there', () => {
    const source = repo();
    const second = Math.floor(Date.now() / 1000) - 100;
    const oid = commitFile(source, 'a.txt', second);
    const clone = join(source.dir, '..', 'shared-clone');
    source.git(['clone', '-q', '--shared', source.dir, clone]);
    const paths = gitPaths(source, clone);
    const start = second * 1000 + 600;
    setMtime(paths.headReflog, start + 300);
    expect(settleStartSecondCommits({ ...paths, oids: [oid], tipOid: oid, turnStartMs: start })).toEqual([
      { oid, verdict: 'unknown', evidence: 'none' },
    ]);
  });
});

describe('packIndexMayHold', () => {
  it('answers exactly for every object of a real pack and for random names; "may hold" for unreadable indexes', () => {
    const r = repo();
    for (let i = 0; i < 30; i++) commitFile(r, `f-${i}.txt`, Math.floor(Date.now() / 1000) - 1000 + i);
    r.git(['gc', '-q']);
    const { objectsDir } = gitPaths(r);
    const [pack] = packFiles(objectsDir);
    const idx = `${pack?.slice(0, -'.pack'.length)}.idx`;
    const listed = gitWithInput(r, ['show-index'], readFileSync(idx))
      .trim()
      .split('\n')
      .map((line) => line.split(' ')[1] ?? '');
    expect(listed.length).toBeGreaterThan(90); // commits, trees and blobs
    for (const oid of listed) expect(packIndexMayHold(idx, oid)).toBe(true);
    const known = new Set(listed);
    for (let i = 0; i < 500; i++) {
      const oid = randomBytes(20).toString('hex');
      expect(packIndexMayHold(idx, oid)).toBe(known.has(oid));
    }
    // Names sharing the first byte with a listed one, but not listed.
    for (const oid of listed.slice(0, 20)) {
      const sibling = `${oid.slice(0, 38)}${oid.endsWith('00') ? '01' : '00'}`;
      expect(packIndexMayHold(idx, sibling)).toBe(known.has(sibling));
    }
    const truncated = join(r.dir, '..', 'truncated.idx');
    writeFileSync(truncated, readFileSync(idx).subarray(0, 600));
    expect(packIndexMayHold(truncated, randomBytes(20).toString('hex'))).toBe(true);
    expect(packIndexMayHold(join(r.dir, '..', 'missing.idx'), randomBytes(20).toString('hex'))).toBe(true);
    expect(packIndexMayHold(idx, 'not-hex')).toBe(true);
  });

  it('a hostile index (fan-out claiming 4M names in a 1 KiB file) is "may hold", without allocating for it', () => {
    const r = repo();
    const hostile = join(r.dir, '..', 'hostile.idx');
    const bytes = Buffer.alloc(8 + 256 * 4);
    bytes.writeUInt32BE(0xff744f63, 0);
    bytes.writeUInt32BE(2, 4);
    bytes.writeUInt32BE(0x00400000, 8 + 255 * 4); // 4M names starting with 0xff: 80 MiB to read
    writeFileSync(hostile, bytes);
    const before = process.memoryUsage().arrayBuffers;
    expect(packIndexMayHold(hostile, `ff${'0'.repeat(38)}`)).toBe(true);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(16 * 1024 * 1024);
  });
});
