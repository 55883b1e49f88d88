import { mkdirSync, writeFileSync } from 'node:fs';
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

afterAll(() => {
  small.remove();
  large.remove();
});

describe('readGitSnapshot', () => {
  bench('small repo (3 changes)', async () => {
    await readGitSnapshot(small.dir, { timeoutMs: 10_000, env: small.env });
  });
  bench('small repo + committed-since log', async () => {
    await readGitSnapshot(small.dir, { timeoutMs: 10_000, env: small.env, sinceMs });
  });
  bench('5,000 changed files', async () => {
    const s = await readGitSnapshot(large.dir, { timeoutMs: 30_000, env: large.env });
    if (s.kind !== 'repo' || s.files.length !== 5_000) throw new Error(`unexpected snapshot: ${s.kind}`);
  });
});
