import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { markWorkspaceKept, recordWorkspaceOwner } from './leftovers.ts';

/**
 * The directories of one e2e session, all under one temp root so that fixtures can replace the
 * root with `/WORK` and get stable paths: `/WORK/repo`, `/WORK/home`, `/WORK/logs`.
 */
export interface TempWorkspace {
  /** Unique id; also the value of the process marker (see `process-group.ts`). */
  readonly runId: string;
  readonly root: string;
  /** The git repository the agent works in (its cwd). */
  readonly repo: string;
  /** The agent's `$HOME`. */
  readonly home: string;
  /** Harness logs: mock requests, hook and notify records. */
  readonly logs: string;
  /** The agent's `TMPDIR`, so scratch files the CLIs create are removed with the workspace. */
  readonly tmp: string;
  /** Removes the whole root (unless `AGENT_CHECKPOINT_E2E_KEEP=1`, for debugging). */
  dispose(): void;
}

export interface WorkspaceOptions {
  /** Files committed in the initial commit, by repo-relative path. */
  readonly files: Readonly<Record<string, string>>;
}

export function createTempWorkspace(options: WorkspaceOptions): TempWorkspace {
  const runId = randomBytes(6).toString('hex');
  // realpath: the CLIs record resolved paths (macOS /var -> /private/var and similar).
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), `ac-e2e-${runId}-`)));
  const repo = path.join(root, 'repo');
  const home = path.join(root, 'home');
  const logs = path.join(root, 'logs');
  const tmp = path.join(root, 'tmp');
  // Before anything that can start a process: a run killed from here on is reaped by the next.
  recordWorkspaceOwner(root);
  for (const dir of [repo, home, logs, tmp]) mkdirSync(dir, { recursive: true });
  writeFiles(repo, options.files);
  initGitRepo(repo, home);
  return {
    runId,
    root,
    repo,
    home,
    logs,
    tmp,
    dispose() {
      if (process.env['AGENT_CHECKPOINT_E2E_KEEP'] === '1') {
        process.stderr.write(`[e2e] keeping ${root}\n`);
        markWorkspaceKept(root);
        return;
      }
      rmSync(root, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}

export function writeFiles(dir: string, files: Readonly<Record<string, string>>): void {
  for (const [relative, content] of Object.entries(files)) {
    const file = path.join(dir, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

/** Env for git that ignores the invoking user's and the system's configuration. */
export function isolatedGitEnv(home: string): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
    GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
  };
}

function initGitRepo(repo: string, home: string): void {
  const git = (...args: string[]): void => {
    execFileSync('git', args, { cwd: repo, env: isolatedGitEnv(home), stdio: 'pipe' });
  };
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'E2E Test');
  git('config', 'user.email', 'e2e@example.invalid');
  git('config', 'commit.gpgsign', 'false');
}

/** Commits everything in the repo (used once the agent settings files are written). */
export function commitAll(workspace: TempWorkspace, message: string): void {
  const run = (...args: string[]): void => {
    execFileSync('git', args, { cwd: workspace.repo, env: isolatedGitEnv(workspace.home), stdio: 'pipe' });
  };
  run('add', '-A');
  run('commit', '-q', '--allow-empty', '-m', message);
}
