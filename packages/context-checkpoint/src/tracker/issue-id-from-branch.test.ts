import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueIdFromBranch, readBranchIssueId } from './issue-id-from-branch.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function repo(branch: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'tracker-branch-'));
  dirs.push(dir);
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir });
  git('init', '-q', '-b', branch);
  git('commit', '-q', '--allow-empty', '-m', 'init');
  return dir;
}

describe('issueIdFromBranch', () => {
  it('finds the first id with the default pattern', () => {
    expect(issueIdFromBranch('feature/ANV-123-new-feature')).toBe('ANV-123');
    expect(issueIdFromBranch('ANV-7')).toBe('ANV-7');
    expect(issueIdFromBranch('fix/OPS2-45-and-ANV-1')).toBe('OPS2-45');
    expect(issueIdFromBranch('main')).toBeUndefined();
    expect(issueIdFromBranch('feature/anv-123')).toBeUndefined();
  });

  it('uses a configured pattern; an invalid one finds nothing', () => {
    expect(issueIdFromBranch('feature/anv-123', '[a-z]+-\\d+')).toBe('anv-123');
    expect(issueIdFromBranch('feature/ANV-123', '([A-Z')).toBeUndefined();
  });
});

describe('readBranchIssueId (real git)', () => {
  it('reads the branch of a repository', async () => {
    expect(await readBranchIssueId({ cwd: repo('feature/ANV-123-oauth') })).toBe('ANV-123');
    expect(await readBranchIssueId({ cwd: repo('topic'), pattern: 'top(ic)' })).toBe('topic');
  });

  it('is undefined on a detached HEAD, without a match, or outside a repository', async () => {
    const dir = repo('feature/ANV-9');
    execFileSync('git', ['checkout', '-q', '--detach'], { cwd: dir });
    expect(await readBranchIssueId({ cwd: dir })).toBeUndefined();
    expect(await readBranchIssueId({ cwd: repo('main') })).toBeUndefined();
    const plain = mkdtempSync(join(tmpdir(), 'tracker-nogit-'));
    dirs.push(plain);
    expect(await readBranchIssueId({ cwd: plain, env: { ...process.env, GIT_CEILING_DIRECTORIES: tmpdir() } })).toBeUndefined();
  });
});
