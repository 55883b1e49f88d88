import { chmodSync, existsSync, lstatSync, readFileSync, readlinkSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_DIRECT_EXECUTION_CONFIG, type ResolvedDirectExecutionConfig } from '../config/context-config.ts';
import { makeTempDir, makeTempGitRepo, type TempGitRepo } from '@agent-checkpoint/core/test-support';
import { readContextLevel, type KnownContextReading } from '../context/read-context-level.ts';
import { fileCall, shellCall, timelineOf } from '../handoff/test-timeline.ts';
import type { CheckpointLogEntry } from './checkpoint-log.ts';
import { executeCheckpoint, type ExecuteCheckpointOptions, type ExecuteCheckpointResult } from './execute-checkpoint.ts';
import { renderDirectResultLine } from './render-direct-result.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

function repo(options?: { commits?: boolean }): TempGitRepo {
  const r = makeTempGitRepo(options);
  cleanups.push(r.remove);
  return r;
}

function tempDir() {
  const d = makeTempDir();
  cleanups.push(d.remove);
  return d;
}

const NOW = new Date('2026-01-07T11:45:00.000Z');
const reading = readContextLevel({ contextTokens: 172_000, contextWindow: 200_000 }) as KnownContextReading;
/** Most tests pin down the memory-file commit on its own; the default (tracked changes too) has its own tests. */
const CONFIG: ResolvedDirectExecutionConfig = { ...DEFAULT_DIRECT_EXECUTION_CONFIG, enabled: true, includeTrackedChanges: false, timeoutMs: 20_000 };

function execute(
  r: { dir: string; env: Readonly<Record<string, string | undefined>> },
  config: Partial<ResolvedDirectExecutionConfig> = {},
  extra: Partial<ExecuteCheckpointOptions> = {},
): Promise<ExecuteCheckpointResult> {
  return executeCheckpoint({
    projectRoot: r.dir,
    agent: 'claude',
    handoff: {
      trigger: { kind: 'context', reading },
      timeline: timelineOf([fileCall('e1', 'edit', ['src/app.ts']), shellCall('s1', 'pnpm test', 'error', 1, 'FAIL app.test.ts')], {
        prompt: 'Build the app',
        lastAssistantMessage: 'Step 1 done; the test still fails.',
      }),
      failures: [{ text: 'Tests failed', command: 'pnpm test', exitCode: 1 }],
    },
    config: { ...CONFIG, ...config },
    now: NOW,
    timeZone: 'UTC',
    env: r.env,
    ...extra,
  });
}

const head = (r: TempGitRepo): string => r.git(['rev-parse', 'HEAD']).trim();
const commitCount = (r: TempGitRepo): number => Number(r.git(['rev-list', '--count', '--all']).trim());
const filesOf = (r: TempGitRepo, rev = 'HEAD'): string[] =>
  r
    .git(['show', '--name-only', '--format=', rev])
    .split('\n')
    .filter((l) => l !== '');
const steps = (result: ExecuteCheckpointResult): string[] => result.log.map((e) => `${e.step}:${e.status}`);

/**
 * A repository to push to: bare, or with `reject` a non-bare one with `main` checked out, which
 * refuses the push (`receive.denyCurrentBranch`; a receiving hook would not run: local receive-pack
 * runs without hooks, see direct-git-profile.test.ts).
 */
function bareRemote(r: TempGitRepo, options: { reject?: boolean } = {}): string {
  const d = tempDir();
  const bare = join(d.dir, 'remote.git');
  r.git(options.reject ? ['init', '-q', '-b', 'main', bare] : ['init', '-q', '--bare', bare]);
  r.git(['remote', 'add', 'origin', bare]);
  return bare;
}

describe('executeCheckpoint: commits and idempotency', { timeout: 60_000 }, () => {
  it('does nothing but the handoff in a clean tree', async () => {
    const r = repo();
    const before = head(r);
    const result = await execute(r);
    expect(result.status).toBe('nothing-changed');
    expect(result.handoff?.relativePath).toBe('.agent-checkpoint/handoffs/2026-01-07-1145.md');
    expect(head(r)).toBe(before);
    expect(existsSync(join(r.dir, 'CLAUDE.md'))).toBe(false);
    expect(steps(result)).toEqual(['repository:ok', 'handoff:ok', 'changes:skipped']);
    expect(renderDirectResultLine(result)).toBe(
      'Checkpoint: handoff written to .agent-checkpoint/handoffs/2026-01-07-1145.md; nothing changed since the last checkpoint, so no commit.',
    );
  });

  it('names the branch\'s issue in the seed\'s subject ("[WIP] ANV-123 - checkpoint"), and drops "{issue} - " without one', async () => {
    const r = repo();
    r.write('src/app.ts', 'v1\n');
    r.git(['add', 'src/app.ts']);
    r.commit('app');
    r.write('src/app.ts', 'v2\n');
    await execute(r, {}, { issueId: 'ANV-123' });
    expect(r.git(['log', '-1', '--format=%s']).trim()).toBe('[WIP] ANV-123 - checkpoint at L2 (context at 86%)');
    r.write('src/app.ts', 'v3\n');
    await execute(r, { commitMessage: 'wip {issue}: {trigger} on {branch}' });
    expect(r.git(['log', '-1', '--format=%s']).trim()).toMatch(/^wip L2 \(context at 86%\) on /);
  });

  it('creates CLAUDE.md and commits exactly it, leaving the user\'s changes and untracked files alone', async () => {
    const r = repo();
    r.write('src/app.ts', 'v1\n');
    r.git(['add', 'src/app.ts']);
    r.commit('app');
    r.write('src/app.ts', 'v2 (uncommitted)\n');
    r.write('junk.log', 'untracked junk\n');
    const before = head(r);
    const seen: CheckpointLogEntry[] = [];
    const result = await execute(r, {}, { log: (e) => seen.push(e) });

    expect(result.status).toBe('done');
    expect(result.memoryFile).toBe('CLAUDE.md');
    expect(result.commit?.paths).toEqual(['CLAUDE.md']);
    expect(result.commit?.sha).toBe(head(r));
    expect(r.git(['rev-parse', 'HEAD~1']).trim()).toBe(before);
    expect(filesOf(r)).toEqual(['CLAUDE.md']);
    expect(r.git(['log', '-1', '--format=%B'])).toBe(
      '[WIP] checkpoint at L2 (context at 86%)\n\nAutomatic checkpoint by agent-checkpoint (claude).\nHandoff: .agent-checkpoint/handoffs/2026-01-07-1145.md\n\nCo-Authored-By: Claude <noreply@anthropic.com>\n\n',
    );
    expect(r.git(['status', '--porcelain=v1', '--untracked-files=all'])).toBe(' M src/app.ts\n?? junk.log\n');
    expect(readFileSync(join(r.dir, 'src/app.ts'), 'utf8')).toBe('v2 (uncommitted)\n');

    const claude = readFileSync(join(r.dir, 'CLAUDE.md'), 'utf8');
    expect(claude).toBe(`# CLAUDE.md

## Last Session

<!-- Maintained by agent-checkpoint: this section is replaced at every automatic checkpoint. -->

- **When**: 2026-01-07 11:45 UTC
- **Checkpoint**: L2 (context at 86%)
- **Branch**: main
- **Handoff**: \`.agent-checkpoint/handoffs/2026-01-07-1145.md\` (local file, not committed)
- **Files in progress**: \`src/app.ts\`, \`junk.log\`
- **Failing**: \`pnpm test (exit 1)\`
- **Next**: Step 1 done; the test still fails.
`);
    expect(steps(result)).toEqual(['repository:ok', 'handoff:ok', 'changes:ok', 'memory-file:ok', 'commit:ok', 'state:ok']);
    expect(seen).toEqual(result.log);
    expect(renderDirectResultLine(result)).toMatch(/^Checkpoint: handoff written to \.agent-checkpoint\/handoffs\/2026-01-07-1145\.md, CLAUDE\.md "## Last Session" updated, WIP commit [0-9a-f]{7}\. /);
  });

  it('makes no second commit when nothing changed, and a new one after the next edit', async () => {
    const r = repo();
    r.write('README.md', 'edited\n');
    const first = await execute(r);
    expect(first.status).toBe('done');
    const count = commitCount(r);

    const second = await execute(r, {}, { now: new Date('2026-01-07T12:00:00Z') });
    expect(second.status).toBe('nothing-changed');
    expect(second.log.at(-1)?.message).toMatch(/^nothing changed since the last checkpoint \([0-9a-f]{7}\)$/);
    expect(commitCount(r)).toBe(count);
    expect(second.handoff?.name).toBe('2026-01-07-1200');

    r.write('README.md', 'edited again\n');
    utimesSync(join(r.dir, 'README.md'), new Date('2026-01-07T12:10:00Z'), new Date('2026-01-07T12:10:00Z'));
    const third = await execute(r, {}, { now: new Date('2026-01-07T12:15:00Z') });
    expect(third.status).toBe('done');
    expect(commitCount(r)).toBe(count + 1);
    expect(readFileSync(join(r.dir, 'CLAUDE.md'), 'utf8')).toContain('- **When**: 2026-01-07 12:15 UTC');
  });

  it('keeps everything outside "## Last Session" byte for byte (CRLF file, other sections, no trailing newline)', async () => {
    const r = repo();
    const head1 = '# Rules\r\n\r\nUse pnpm. Ünïcode — ok.\r\n\r\n';
    const tail = '## Commands\r\n\r\n`make test`';
    r.write('CLAUDE.md', `${head1}## Last Session\r\n\r\nold notes\r\n\r\n${tail}`);
    r.git(['add', 'CLAUDE.md']);
    r.commit('rules');
    chmodSync(join(r.dir, 'CLAUDE.md'), 0o640);
    r.write('src/x.ts', 'x\n');
    const result = await execute(r);
    expect(result.status).toBe('done');
    const text = readFileSync(join(r.dir, 'CLAUDE.md'), 'utf8');
    expect(text.startsWith(`${head1}## Last Session\r\n\r\n<!-- Maintained`)).toBe(true);
    expect(text.endsWith(`\r\n\r\n${tail}`)).toBe(true);
    expect(text).not.toContain('old notes');
    expect(text.replace(/\r\n/g, '')).not.toContain('\n');
    expect(statSync(join(r.dir, 'CLAUDE.md')).mode & 0o777).toBe(0o640);
    expect(filesOf(r)).toEqual(['CLAUDE.md']);
  });

  it('leaves changes the user staged for other paths staged and out of the commit', async () => {
    const r = repo();
    r.write('tracked.txt', 'base\n');
    r.git(['add', 'tracked.txt']);
    r.commit('base');
    r.write('tracked.txt', 'staged change\n');
    r.write('new-staged.txt', 'new\n');
    r.git(['add', 'tracked.txt', 'new-staged.txt']);
    r.write('tracked.txt', 'staged change\nplus an unstaged line\n');
    const indexBefore = r.git(['ls-files', '-s', 'tracked.txt', 'new-staged.txt']);
    const result = await execute(r);
    expect(result.status).toBe('done');
    expect(filesOf(r)).toEqual(['CLAUDE.md']);
    expect(r.git(['ls-files', '-s', 'tracked.txt', 'new-staged.txt'])).toBe(indexBefore);
    expect(r.git(['diff', '--cached', '--name-status'])).toBe('A\tnew-staged.txt\nM\ttracked.txt\n');
    expect(readFileSync(join(r.dir, 'tracked.txt'), 'utf8')).toBe('staged change\nplus an unstaged line\n');
  });

  it('by default the WIP commit carries the work: changed tracked files with the memory file, never untracked ones (issue 14 point 8)', async () => {
    const r = repo();
    r.write('src/app.ts', 'v1\n');
    r.git(['add', '-A']);
    r.commit('base');
    r.write('src/app.ts', 'v2\n');
    r.write('notes-untracked.txt', 'private\n');
    const result = await execute(r, { ...DEFAULT_DIRECT_EXECUTION_CONFIG, enabled: true, timeoutMs: 20_000 });
    expect(result.status).toBe('done');
    expect(filesOf(r)).toEqual(['CLAUDE.md', 'src/app.ts']);
    expect(r.git(['status', '--porcelain=v1', '--untracked-files=all'])).toBe('?? notes-untracked.txt\n');
  });

  it('with includeTrackedChanges, also commits changed tracked files (renames with both sides), never untracked ones', async () => {
    const r = repo();
    r.write('a.txt', 'a\n');
    r.write('old.txt', 'rename me\n'.repeat(10));
    r.write('gone.txt', 'bye\n');
    r.git(['add', '-A']);
    r.commit('base');
    r.write('a.txt', 'a2\n');
    r.git(['mv', 'old.txt', 'new.txt']);
    r.git(['rm', '-q', 'gone.txt']);
    r.write('secret.env', 'TOKEN=1\n');
    const result = await execute(r, { includeTrackedChanges: true });
    expect(result.status).toBe('done');
    expect([...(result.commit?.paths ?? [])].sort()).toEqual(['CLAUDE.md', 'a.txt', 'gone.txt', 'new.txt', 'old.txt']);
    expect(r.git(['show', '--name-status', '--format=', 'HEAD']).split('\n').filter(Boolean).sort()).toEqual([
      'A\tCLAUDE.md',
      'D\tgone.txt',
      'M\ta.txt',
      'R100\told.txt\tnew.txt',
    ]);
    expect(r.git(['status', '--porcelain=v1', '--untracked-files=all'])).toBe('?? secret.env\n');
    // Nothing left to commit but the untracked file: the next call is a no-op.
    expect((await execute(r, { includeTrackedChanges: true })).status).toBe('nothing-changed');
  });

  it('commits on a detached HEAD with a warning, moves no branch and never pushes', async () => {
    const r = repo();
    bareRemote(r);
    const main = head(r);
    r.git(['checkout', '-q', '--detach']);
    r.write('README.md', 'detached work\n');
    const result = await execute(r, { push: true });
    expect(result.status).toBe('done');
    expect(result.log.find((e) => e.step === 'commit' && e.status === 'warning')?.message).toMatch(/^HEAD is detached at [0-9a-f]{7}: the WIP commit will not be on any branch$/);
    expect(head(r)).toBe(result.commit?.sha);
    expect(r.git(['rev-parse', 'refs/heads/main']).trim()).toBe(main);
    expect(result.push).toEqual({ status: 'skipped', message: 'HEAD is detached: not pushing' });
    expect(readFileSync(join(r.dir, 'CLAUDE.md'), 'utf8')).toContain(`- **Branch**: (detached at ${main.slice(0, 7)})`);
  });

  it('makes the root commit in a repository without commits, with only the memory file', async () => {
    const r = repo({ commits: false });
    r.write('src/a.ts', 'a\n');
    r.write('staged.ts', 's\n');
    r.git(['add', 'staged.ts']);
    const result = await execute(r);
    expect(result.status).toBe('done');
    expect(r.git(['rev-list', '--count', 'HEAD']).trim()).toBe('1');
    expect(filesOf(r)).toEqual(['CLAUDE.md']);
    expect(r.git(['status', '--porcelain=v1', '--untracked-files=all'])).toBe('A  staged.ts\n?? src/a.ts\n');
    expect(readFileSync(join(r.dir, 'CLAUDE.md'), 'utf8')).toContain('- **Branch**: (no commits yet)');
  });
});

describe('executeCheckpoint: push', { timeout: 60_000 }, () => {
  it('skips the push without the remote', async () => {
    const r = repo();
    r.write('README.md', 'x\n');
    const result = await execute(r, { push: true });
    expect(result.status).toBe('done');
    expect(result.push).toEqual({ status: 'skipped', message: 'no remote "origin"' });
  });

  it('pushes the commit to a local bare repository', async () => {
    const r = repo();
    const bare = bareRemote(r);
    r.write('README.md', 'x\n');
    const result = await execute(r, { push: true });
    expect(result.push).toEqual({ status: 'pushed', message: 'pushed to origin main', attempts: 1 });
    expect(r.git(['--git-dir', bare, 'rev-parse', 'refs/heads/main']).trim()).toBe(result.commit?.sha);
    expect(renderDirectResultLine(result)).toContain(', pushed to origin main.');
  });

  it('reports a rejected push and keeps the local commit', async () => {
    const r = repo();
    const bare = bareRemote(r, { reject: true });
    r.write('README.md', 'x\n');
    const result = await execute(r, { push: true });
    expect(result.status).toBe('done');
    expect(result.push).toMatchObject({ status: 'failed', attempts: 1 });
    expect(result.push?.message).toMatch(/^git push origin HEAD:refs\/heads\/main failed \(the local commit stands\): /);
    expect(head(r)).toBe(result.commit?.sha);
    expect(() => r.git(['--git-dir', bare, 'rev-parse', '--verify', '-q', 'refs/heads/main'])).toThrow(/^Command failed: git /);
    expect(renderDirectResultLine(result)).toContain('push failed (the commit is local)');
  });

  it('reports an unreachable remote the same way', async () => {
    const r = repo();
    r.git(['remote', 'add', 'backup', join(tempDir().dir, 'does-not-exist.git')]);
    r.write('README.md', 'x\n');
    const result = await execute(r, { push: true, remote: 'backup' });
    expect(result.status).toBe('done');
    expect(result.push?.status).toBe('failed');
    expect(result.commit).toBeDefined();
  });
});

describe('executeCheckpoint: failures fall back and roll back', { timeout: 60_000 }, () => {
  /** A pre-commit hook that fails; it runs only because the (trusted) config names it in `gitHooks`. */
  function rejectingPreCommit(r: TempGitRepo): void {
    const hook = join(r.dir, '.git', 'hooks', 'pre-commit');
    writeFileSync(hook, '#!/bin/sh\necho "lint failed" >&2\nexit 1\n');
    chmodSync(hook, 0o755);
  }
  const HOOKED: Partial<ResolvedDirectExecutionConfig> = { gitHooks: ['pre-commit'] };

  it('restores an existing memory file byte for byte when the commit fails', async () => {
    const r = repo();
    const original = '# Rules\n\n## Last Session\n\nprevious\n\n## Keep\nme';
    r.write('CLAUDE.md', original);
    r.git(['add', 'CLAUDE.md']);
    r.commit('rules');
    r.write('README.md', 'x\n');
    rejectingPreCommit(r);
    const before = head(r);
    const result = await execute(r, HOOKED);
    expect(result.status).toBe('fallback');
    expect(result.fallbackReason).toBe('git commit failed: exit 1: lint failed');
    expect(readFileSync(join(r.dir, 'CLAUDE.md'), 'utf8')).toBe(original);
    expect(head(r)).toBe(before);
    expect(result.handoff).toBeDefined();
    expect(steps(result)).toEqual(['repository:ok', 'handoff:ok', 'changes:ok', 'memory-file:ok', 'commit:failed', 'rollback:ok']);
    expect(renderDirectResultLine(result)).toBeUndefined();
  });

  it('removes a memory file it created, and its index entry, when the commit fails', async () => {
    const r = repo();
    r.write('README.md', 'x\n');
    rejectingPreCommit(r);
    const result = await execute(r, HOOKED);
    expect(result.status).toBe('fallback');
    expect(existsSync(join(r.dir, 'CLAUDE.md'))).toBe(false);
    expect(r.git(['ls-files', 'CLAUDE.md'])).toBe('');
    expect(r.git(['status', '--porcelain=v1'])).toBe(' M README.md\n');
  });

  it('commits past the hook with noVerify', async () => {
    const r = repo();
    r.write('README.md', 'x\n');
    rejectingPreCommit(r);
    expect((await execute(r, { ...HOOKED, noVerify: true })).status).toBe('done');
  });

  it('falls back when git cannot run, and when the memory file is not UTF-8', async () => {
    const r = repo();
    r.write('README.md', 'x\n');
    const noGit = await execute(r, {}, { gitBinary: join(r.dir, 'no-such-git') });
    expect(noGit.status).toBe('fallback');
    expect(noGit.fallbackReason).toMatch(/^git status failed: /);

    const bytes = Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a]);
    writeFileSync(join(r.dir, 'CLAUDE.md'), bytes);
    const latin = await execute(r);
    expect(latin.status).toBe('fallback');
    expect(latin.fallbackReason).toBe('CLAUDE.md is not valid UTF-8; left untouched');
    expect(readFileSync(join(r.dir, 'CLAUDE.md')).equals(bytes)).toBe(true);
  });
});

describe('executeCheckpoint: memory file and repository variants', { timeout: 60_000 }, () => {
  it('follows a symlinked memory file (AGENTS.md -> CLAUDE.md) and commits the target', async () => {
    const r = repo();
    r.write('CLAUDE.md', '# Shared rules\n');
    symlinkSync('CLAUDE.md', join(r.dir, 'AGENTS.md'));
    r.git(['add', 'CLAUDE.md', 'AGENTS.md']);
    r.commit('rules');
    r.write('README.md', 'x\n');
    const result = await execute(r, {}, { agent: 'codex' });
    expect(result.status).toBe('done');
    expect(result.memoryFile).toBe('CLAUDE.md');
    expect(lstatSync(join(r.dir, 'AGENTS.md')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(r.dir, 'AGENTS.md'))).toBe('CLAUDE.md');
    expect(readFileSync(join(r.dir, 'CLAUDE.md'), 'utf8')).toMatch(/^# Shared rules\n\n## Last Session\n/);
    expect(filesOf(r)).toEqual(['CLAUDE.md']);
    expect(r.git(['log', '-1', '--format=%B'])).toContain('agent-checkpoint (codex)');
  });

  it('refuses a memory symlink that leaves the repository', async () => {
    const r = repo();
    const outside = join(tempDir().dir, 'elsewhere.md');
    writeFileSync(outside, '# outside\n');
    symlinkSync(outside, join(r.dir, 'GEMINI.md'));
    r.write('README.md', 'x\n');
    const result = await execute(r, {}, { agent: 'gemini' });
    expect(result.status).toBe('fallback');
    expect(result.fallbackReason).toMatch(/^GEMINI\.md points outside the repository/);
    expect(readFileSync(outside, 'utf8')).toBe('# outside\n');
  });

  it('updates but does not commit a git-ignored memory file', async () => {
    const r = repo();
    r.write('.gitignore', 'CLAUDE.md\n');
    r.git(['add', '.gitignore']);
    r.commit('ignore');
    r.write('README.md', 'x\n');
    const before = head(r);
    const result = await execute(r);
    expect(result.status).toBe('done');
    expect(result.commit).toBeUndefined();
    expect(head(r)).toBe(before);
    expect(readFileSync(join(r.dir, 'CLAUDE.md'), 'utf8')).toContain('## Last Session');
    expect(result.log.filter((e) => e.step === 'commit').map((e) => e.message)).toEqual([
      'CLAUDE.md is git-ignored: it is updated but not committed',
      'nothing to commit',
    ]);
  });

  it('makes no commit while a merge is in progress', async () => {
    const r = repo();
    r.write('f.txt', 'base\n');
    r.git(['add', 'f.txt']);
    r.commit('base');
    r.git(['checkout', '-q', '-b', 'other']);
    r.write('f.txt', 'other\n');
    r.git(['commit', '-qam', 'other']);
    r.git(['checkout', '-q', 'main']);
    r.write('f.txt', 'main\n');
    r.git(['commit', '-qam', 'main']);
    expect(() => r.git(['merge', '-q', 'other'])).toThrow(/^Command failed: git merge/);
    const before = head(r);
    const result = await execute(r);
    expect(result.status).toBe('done');
    expect(result.commit).toBeUndefined();
    expect(head(r)).toBe(before);
    expect(result.log.find((e) => e.step === 'commit')?.message).toBe('a merge is in progress: no commit in the middle of it');
    expect(existsSync(join(r.dir, '.git', 'MERGE_HEAD'))).toBe(true);
  });

  it('writes the handoff and memory file outside a repository, without committing', async () => {
    const d = tempDir();
    const result = await execute(d);
    expect(result.status).toBe('done');
    expect(result.commit).toBeUndefined();
    expect(readFileSync(join(d.dir, 'CLAUDE.md'), 'utf8')).toContain('- **Branch**: (not a git repository)');
    expect(steps(result)).toEqual(['repository:warning', 'handoff:ok', 'memory-file:ok']);
  });

  it('updates the memory file without committing when commits are off, once per change', async () => {
    const r = repo();
    r.write('README.md', 'x\n');
    const before = head(r);
    const first = await execute(r, { commit: false });
    expect(first.status).toBe('done');
    expect(head(r)).toBe(before);
    expect(r.git(['status', '--porcelain=v1', '--untracked-files=all'])).toBe(' M README.md\n?? CLAUDE.md\n');
    expect((await execute(r, { commit: false })).status).toBe('nothing-changed');
  });

  it('treats paths literally: a memory file named like a glob commits only itself', async () => {
    const r = repo();
    r.write('notes1.md', 'tracked\n');
    r.git(['add', 'notes1.md']);
    r.commit('notes');
    r.write('notes1.md', 'changed, must stay uncommitted\n');
    const result = await execute(r, { memoryFile: 'notes[1].md' });
    expect(result.status).toBe('done');
    expect(filesOf(r)).toEqual(['notes[1].md']);
    expect(r.git(['status', '--porcelain=v1'])).toBe(' M notes1.md\n');
  });

  it('appends every step to the configured log file', async () => {
    const r = repo();
    r.write('README.md', 'x\n');
    const result = await execute(r, { logFile: '.agent-checkpoint/direct.log' }, { clock: () => new Date('2026-01-07T11:45:01.000Z') });
    const lines = readFileSync(join(r.dir, '.agent-checkpoint', 'direct.log'), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(result.log.length);
    expect(lines[0]).toMatch(/^\[2026-01-07T11:45:01\.000Z\] repository ok: .* on branch main$/);
    expect(lines[4]).toMatch(/^\[2026-01-07T11:45:01\.000Z\] commit ok: created [0-9a-f]{7} \(1 path: CLAUDE\.md\)$/);
    expect(r.git(['status', '--porcelain=v1', '--untracked-files=all'])).toBe(' M README.md\n');
  });
});

describe('executeCheckpoint: the Co-Authored-By trailer', { timeout: 60_000 }, () => {
  it('Claude\'s commits carry Claude Code\'s trailer; Codex\'s none; a template with its own keeps it alone', async () => {
    const r = repo();
    r.write('src/app.ts', 'v1\n');
    await execute(r);
    expect(r.git(['log', '-1', '--format=%(trailers:key=Co-Authored-By,valueonly)']).trim()).toBe('Claude <noreply@anthropic.com>');
    r.write('src/app.ts', 'v2\n');
    await execute(r, {}, { agent: 'codex', now: new Date(NOW.getTime() + 60_000) });
    expect(r.git(['log', '-1', '--format=%B'])).not.toMatch(/co-authored-by/i);
    r.write('src/app.ts', 'v3\n');
    await execute(r, { commitMessage: 'wip\n\nCo-Authored-By: Pair <pair@example.com>\n' }, { now: new Date(NOW.getTime() + 120_000) });
    expect(r.git(['log', '-1', '--format=%(trailers:key=Co-Authored-By,valueonly)']).trim()).toBe('Pair <pair@example.com>');
  });
});
