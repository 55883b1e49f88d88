import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Test support (not exported from the package): a real git repository in a temp dir, isolated from
 * the machine's git configuration, so tests see the same git behaviour everywhere.
 */
export interface TempGitRepo {
  /** Real path of the repository top level (symlinks in the temp dir resolved). */
  readonly dir: string;
  /** Environment that isolates git from system/global config; pass it to {@link readGitSnapshot}. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Run git in the repository (or `cwd`) and return stdout. */
  git(args: readonly string[], options?: { cwd?: string; env?: Record<string, string> }): string;
  /** Write a file (parents created). `path` may be a Buffer for names that are not UTF-8. */
  write(path: string | Buffer, content?: string): void;
  /** Set a file's mtime (ms since the epoch). */
  touch(path: string, mtimeMs: number): void;
  /** Commit everything currently staged, with optional committer/author date (unix seconds). */
  commit(message: string, dateSec?: number): void;
  remove(): void;
}

/** Environment for hermetic git in tests: no system/global config, fixed identity, no prompts. */
export function isolatedGitEnv(home: string): Record<string, string | undefined> {
  return {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: join(home, '.gitconfig-empty'),
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.invalid',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.invalid',
    // A temp dir is never inside a repository, even when the machine's /tmp is.
    GIT_CEILING_DIRECTORIES: dirname(home),
    GIT_DIR: undefined,
    GIT_WORK_TREE: undefined,
    GIT_INDEX_FILE: undefined,
  };
}

/** Create an empty directory (not a repository) with an isolated git environment. */
export function makeTempDir(prefix = 'ac-git-'): { dir: string; env: Record<string, string | undefined>; remove(): void } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  return { dir, env: isolatedGitEnv(dir), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Create a repository with branch `main`; `commits: false` leaves it without any commit. */
export function makeTempGitRepo(options: { commits?: boolean } = {}): TempGitRepo {
  const outer = makeTempDir('ac-repo-');
  const dir = join(outer.dir, 'repo');
  mkdirSync(dir);
  const env = outer.env;
  const git = (args: readonly string[], opts: { cwd?: string; env?: Record<string, string> } = {}): string =>
    execFileSync('git', args, {
      cwd: opts.cwd ?? dir,
      env: { ...env, ...opts.env },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  git(['init', '-q', '-b', 'main']);
  const repo: TempGitRepo = {
    dir,
    env,
    git,
    write(path, content = 'content\n') {
      const full = typeof path === 'string' ? join(dir, path) : Buffer.concat([Buffer.from(dir + '/'), path]);
      mkdirSync(dirname(full.toString()), { recursive: true });
      writeFileSync(full, content);
    },
    touch(path, mtimeMs) {
      const t = new Date(mtimeMs);
      utimesSync(join(dir, path), t, t);
    },
    commit(message, dateSec) {
      const dateEnv: Record<string, string> =
        dateSec === undefined ? {} : { GIT_AUTHOR_DATE: `@${dateSec} +0000`, GIT_COMMITTER_DATE: `@${dateSec} +0000` };
      git(['commit', '-q', '--no-verify', '-m', message], { env: dateEnv });
    },
    remove: outer.remove,
  };
  if (options.commits !== false) {
    repo.write('README.md', '# test\n');
    git(['add', '-A']);
    repo.commit('initial', Math.floor(Date.now() / 1000) - 3600);
  }
  return repo;
}
