import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, bench, describe } from 'vitest';
import { readGitSnapshot } from './read-git-snapshot.ts';
import { makeTempGitRepo } from './temp-git-repo.ts';

// Small repo: a few tracked files, three changes.
const small = makeTempGitRepo();
for (let i = 0; i < 20; i++) small.write(`src/file-${i}.ts`, `export const v = ${i};\n`);
small.git(['add', '-A']);
small.commit('files');
small.write('src/file-1.ts', 'changed\n');
small.write('src/new.ts', 'new\n');
small.git(['rm', '-q', 'src/file-2.ts']);

// Large: 5,000 changed files (2,500 modified tracked files + 2,500 untracked) in 50 directories.
const large = makeTempGitRepo();
for (let d = 0; d < 50; d++) {
  mkdirSync(join(large.dir, `dir-${d}`), { recursive: true });
  for (let f = 0; f < 50; f++) writeFileSync(join(large.dir, `dir-${d}`, `tracked-${f}.txt`), `${d}/${f}\n`);
}
large.git(['add', '-A']);
large.commit('tracked');
for (let d = 0; d < 50; d++) {
  for (let f = 0; f < 50; f++) {
    writeFileSync(join(large.dir, `dir-${d}`, `tracked-${f}.txt`), `${d}/${f} changed\n`);
    writeFileSync(join(large.dir, `dir-${d}`, `untracked-${f}.txt`), 'new\n');
  }
}
large.git(['status', '--porcelain']); // settle the index once, like a real working copy
const sinceMs = Date.now() - 60_000;

// History: 5,000 commits packed by gc, the newest one made in the second the turn started (a loop
// runner's commit 200 ms before the prompt) — the only case that pays for the start-second check.
const history = makeTempGitRepo();
const historyBase = Math.floor(Date.now() / 1000) - 100_000;
let stream = '';
for (let i = 0; i < 5_000; i++) {
  const data = `line ${i}\n`;
  const from = i === 0 ? `from ${history.git(['rev-parse', 'HEAD']).trim()}\n` : '';
  stream += `commit refs/heads/main\ncommitter T <t@x> ${historyBase + i * 10} +0000\ndata 2\nc\n${from}M 100644 inline src/f${i % 500}.txt\ndata ${data.length}\n${data}\n`;
}
execFileSync('git', ['fast-import', '--quiet'], { cwd: history.dir, env: history.env, input: stream });
history.git(['reset', '-q', '--hard', 'main']);
const startSecond = Math.floor(Date.now() / 1000) - 50;
history.write('loop.txt', 'previous run\n');
history.git(['add', '-A']);
history.commit('loop runner', startSecond);
history.git(['gc', '-q']);
const historyStartMs = startSecond * 1000 + 600;
// gc packed it before the prompt (a pack written since would also need an index lookup and the reflog).
const packDir = join(history.dir, '.git', 'objects', 'pack');
for (const name of readdirSync(packDir)) utimesSync(join(packDir, name), new Date(historyStartMs - 300), new Date(historyStartMs - 300));

afterAll(() => {
  small.remove();
  large.remove();
  history.remove();
});

describe('readGitSnapshot', () => {
  bench('small repo (3 changes)', async () => {
    await readGitSnapshot(small.dir, { timeoutMs: 10_000, env: small.env });
  });
  bench('small repo + committed-since log', async () => {
    await readGitSnapshot(small.dir, { timeoutMs: 10_000, env: small.env, sinceMs });
  });
  bench('5,000 packed commits, the newest a second before the start second (no extra work)', async () => {
    const s = await readGitSnapshot(history.dir, { timeoutMs: 10_000, env: history.env, sinceMs: historyStartMs - 1000 });
    if (s.kind !== 'repo' || s.files.length !== 1 || s.startSecondCommits !== undefined) throw new Error('unexpected snapshot');
  });
  bench('5,000 packed commits, the newest in the start second (rev-parse + pack evidence)', async () => {
    const s = await readGitSnapshot(history.dir, { timeoutMs: 10_000, env: history.env, sinceMs: historyStartMs });
    if (s.kind !== 'repo' || s.files.length !== 0 || s.startSecondCommits?.[0]?.verdict !== 'before-turn') throw new Error('unexpected snapshot');
  });
  bench('5,000 changed files', async () => {
    const s = await readGitSnapshot(large.dir, { timeoutMs: 30_000, env: large.env });
    if (s.kind !== 'repo' || s.files.length !== 5_000) throw new Error(`unexpected snapshot: ${s.kind}`);
  });
});
