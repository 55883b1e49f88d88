import * as fs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';

// Which `lstat` calls a snapshot makes: at 5,000 changed files they are the snapshot's largest cost
// (docs/benchmarks.md). Real calls, counted: `node:fs` is wrapped, not replaced.
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  return { ...actual, lstatSync: vi.fn<typeof actual.lstatSync>(actual.lstatSync) };
});

const { readGitSnapshot } = await import('./read-git-snapshot.ts');
const { makeTempGitRepo } = await import('./temp-git-repo.ts');

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

describe('readGitSnapshot: lstat calls', () => {
  it('stats UTF-8 names by string and raw-byte names by bytes, and never a deleted file', async () => {
    const r = makeTempGitRepo();
    cleanups.push(r.remove);
    r.write('gone.txt', 'bye\n');
    r.git(['add', '-A']);
    r.git(['commit', '-qm', 'one']);
    fs.rmSync(`${r.dir}/gone.txt`);
    r.write('new é.txt', 'x\n');
    fs.writeFileSync(Buffer.concat([Buffer.from(`${r.dir}/caf`), Buffer.from([0xe9]), Buffer.from('.txt')]), 'latin1 name\n');
    const lstat = vi.mocked(fs.lstatSync);
    lstat.mockClear();
    const s = await readGitSnapshot(r.dir, { timeoutMs: 10_000, env: r.env });
    if (s.kind !== 'repo') throw new Error(s.kind);
    expect(s.files.map((f) => [f.path, f.status, typeof f.mtimeMs]).sort()).toEqual([
      ['caf\uFFFD.txt', 'untracked', 'number'],
      ['gone.txt', 'deleted', 'undefined'],
      ['new é.txt', 'untracked', 'number'],
    ]);
    const statted = lstat.mock.calls.map(([path]) => (typeof path === 'string' ? path.slice(r.dir.length + 1) : Buffer.isBuffer(path) ? 'bytes' : String(path)));
    expect(statted.filter((p) => p !== '.git' && !p.startsWith('.git/')).sort()).toEqual(['bytes', 'new é.txt']);
  });
});
