import { realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { readRegularFileSync } from '../state/read-regular-file.ts';

/** A `.git` file (`gitdir: <path>`) or `HEAD` larger than this is not a plain one: ask git. */
const MAX_SMALL_FILE_BYTES = 4096;
/** A config file larger than this is not read here. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * The top level of the work tree containing `cwd`, as `git rev-parse --show-toplevel` prints it (the
 * physical path, as UTF-8 bytes), found without a git process — or `undefined` whenever the layout is
 * anything but the plain one, and the caller asks git.
 *
 * Why: a git spawn costs the hook's main thread ~3 ms of CPU (plus git's own), and on the common layout
 * the answer is the directory holding the nearest `.git`. The caller must still run `git status` in
 * `cwd` and trust this only when status succeeds: git then found a repository by the same walk (git's
 * redirecting variables are scrubbed by `runGit`; a ceiling or a dubious owner makes status fail).
 *
 * Plain = walking up from the physical `cwd` (git walks from `getcwd()`), the first directory with a
 * `.git` that is a directory, or a `gitdir:` file (linked worktree, submodule), whose git directory
 * looks valid to git (`objects/` and `refs/` in the common directory, a `HEAD` that is a regular file
 * holding `ref: refs/…` or an object id: git skips an invalid `.git` and walks on, we do not), and
 * whose config files (`<common>/config`, `<gitdir>/config.worktree`) mention neither `worktree`
 * (`core.worktree` moves the top level) nor `include`. (`core.bare = true` makes status fail.) A
 * directory that is itself a git directory, a path that is not UTF-8, anything unreadable, or Windows
 * (git prints `C:/…` there): `undefined`.
 */
export function findWorkTreeRoot(cwd: string): Buffer | undefined {
  if (process.platform === 'win32') return undefined;
  let dir: string;
  try {
    dir = realpathSync.native(resolve(cwd));
  } catch {
    return undefined;
  }
  if (dir.includes('\uFFFD')) return undefined;
  for (;;) {
    const dotGit = join(dir, '.git');
    const kind = fileKind(dotGit);
    if (kind === 'directory') return plainGitDir(dotGit) ? Buffer.from(dir, 'utf8') : undefined;
    if (kind === 'file') {
      const gitDir = readGitFile(dotGit);
      return gitDir !== undefined && plainGitDir(gitDir) ? Buffer.from(dir, 'utf8') : undefined;
    }
    if (kind === 'other') return undefined;
    // A bare repository or a `.git` directory itself: git would use it; not our case.
    if (fileKind(join(dir, 'HEAD')) !== 'missing' && fileKind(join(dir, 'objects')) !== 'missing') return undefined;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function plainGitDir(gitDir: string): boolean {
  try {
    let commonDir = gitDir;
    const commonFile = join(gitDir, 'commondir');
    if (fileKind(commonFile) !== 'missing') {
      const common = readRegularFileSync(commonFile, MAX_SMALL_FILE_BYTES)?.text.trim();
      if (common === undefined || common === '') return false;
      commonDir = isAbsolute(common) ? common : resolve(gitDir, common);
    }
    if (fileKind(join(commonDir, 'objects')) !== 'directory' || fileKind(join(commonDir, 'refs')) !== 'directory') return false;
    // A symlinked HEAD (legacy) is refused by the reader: ask git.
    const headText = readRegularFileSync(join(gitDir, 'HEAD'), MAX_SMALL_FILE_BYTES)?.text ?? '';
    if (!/^(?:ref: refs\/\S+|[0-9a-f]{40}|[0-9a-f]{64})\s*$/.test(headText)) return false;
    for (const config of [join(commonDir, 'config'), join(gitDir, 'config.worktree')]) {
      if (fileKind(config) === 'missing') continue;
      const text = readRegularFileSync(config, MAX_CONFIG_BYTES)?.text;
      if (text === undefined || /worktree|include/i.test(text)) return false;
    }
    return true;
  } catch {
    return false;
  }
}

function fileKind(path: string): 'directory' | 'file' | 'other' | 'missing' {
  try {
    const info = statSync(path, { throwIfNoEntry: false });
    if (info === undefined) return 'missing';
    return info.isDirectory() ? 'directory' : info.isFile() ? 'file' : 'other';
  } catch {
    return 'other';
  }
}

function readGitFile(path: string): string | undefined {
  try {
    const text = readRegularFileSync(path, MAX_SMALL_FILE_BYTES)?.text ?? '';
    const match = /^gitdir: *(.+?)\s*$/m.exec(text);
    if (!match?.[1]) return undefined;
    return isAbsolute(match[1]) ? match[1] : resolve(dirname(path), match[1]);
  } catch {
    return undefined;
  }
}
