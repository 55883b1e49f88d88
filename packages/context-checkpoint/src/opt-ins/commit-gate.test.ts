import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, makeTempGitRepo } from '@agent-checkpoint/core/test-support';
import { checkCommitGate, composeCommitGateMessage, COMMIT_GATE_TEXT } from './commit-gate.ts';
import { resolveWithSections } from '../config/context-sections.ts';
import { commitGateConfigOf } from '../config/context-config.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

const config = resolveWithSections([{ source: { kind: 'project-file', name: 't' }, config: { commitGate: {} } }]);

// Real git repositories and processes on a shared, loaded machine: generous limits.
describe('checkCommitGate on real repositories', { timeout: 60_000 }, () => {
  it('lists uncommitted non-docs files (modified, staged, untracked, deleted) and composes the seed message', async () => {
    const repo = makeTempGitRepo();
    cleanups.push(repo.remove);
    repo.write('src/a.py', 'a\n');
    repo.write('src/gone.py', 'g\n');
    repo.write('README.md', 'r\n');
    repo.git(['add', '-A']);
    repo.commit('base');
    repo.write('src/a.py', 'changed\n');
    repo.write('src/new.py', 'new\n');
    repo.write('src/staged.py', 's\n');
    repo.git(['add', 'src/staged.py']);
    repo.git(['rm', '-q', 'src/gone.py']);
    repo.write('README.md', 'docs only\n');
    const check = await checkCommitGate({ cwd: repo.dir, config, gate: commitGateConfigOf(config)!, env: repo.env });
    expect(check.files).toEqual(['src/a.py', 'src/gone.py', 'src/new.py', 'src/staged.py']);
    expect(check.message).toBe(
      `[agent-checkpoint] ${COMMIT_GATE_TEXT}\n\nChanged: \`src/a.py\`, \`src/gone.py\`, \`src/new.py\`, \`src/staged.py\``,
    );
  });

  it('passes when only docs (or nothing gated) changed, and `when` narrows the gate', async () => {
    const repo = makeTempGitRepo();
    cleanups.push(repo.remove);
    repo.write('README.md', 'r\n');
    repo.write('scripts/x.sh', 'x\n');
    repo.git(['add', '-A']);
    repo.commit('base');
    repo.write('README.md', 'edited\n');
    expect(await checkCommitGate({ cwd: repo.dir, config, gate: commitGateConfigOf(config)!, env: repo.env })).toEqual({ files: [], diagnostics: [] });
    repo.write('scripts/x.sh', 'edited\n');
    expect((await checkCommitGate({ cwd: repo.dir, config, gate: { when: ['src/**'] }, env: repo.env })).files).toEqual([]);
    expect((await checkCommitGate({ cwd: repo.dir, config, gate: { when: ['scripts/**'] }, env: repo.env })).files).toEqual(['scripts/x.sh']);
  });

  it('outside a repository or when git fails: no files, a diagnostic (the stop passes)', async () => {
    const dir = makeTempDir();
    cleanups.push(dir.remove);
    const outside = await checkCommitGate({ cwd: dir.dir, config, gate: {}, env: dir.env });
    expect(outside.files).toEqual([]);
    expect(outside.diagnostics).toEqual(['commit gate: not a git repository']);
    const broken = await checkCommitGate({ cwd: dir.dir, config, gate: {}, env: { ...dir.env, PATH: '/nonexistent' } });
    expect(broken.files).toEqual([]);
    expect(broken.diagnostics[0]).toMatch(/^commit gate: git failed/);
  });
});

describe('composeCommitGateMessage', () => {
  it('lists ten files, then how many more', () => {
    const files = Array.from({ length: 12 }, (_, i) => `f${String(i).padStart(2, '0')}.ts`);
    expect(composeCommitGateMessage(files, 'P ')).toMatch(/^P You have uncommitted code changes\. Commit your work before stopping\.\n\nChanged: `f00\.ts`.*`f09\.ts` and 2 more$/);
  });
});
