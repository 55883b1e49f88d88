import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { readRegularFileSync } from '../state/read-regular-file.ts';

/**
 * The filter drivers the repository's own configuration defines, found without running anything.
 * - `drivers`: the names defined in the repository's config files (`.git/config`, its
 *   `config.worktree`); possibly empty, the common case.
 * - `ask-git`: the files could not be read with certainty (an `include`, text mentioning "filter"
 *   outside a section header, a file we cannot read, no `.git` found); the caller asks
 *   `git config --get-regexp` instead (one more process).
 */
export type RepositoryFilterScan =
  | { readonly kind: 'drivers'; readonly names: readonly string[] }
  | { readonly kind: 'ask-git'; readonly reason: string };

/** A config file larger than this is not read here (git reads it; we ask git). */
const MAX_CONFIG_BYTES = 1024 * 1024;
const MAX_GITFILE_BYTES = 4096;

/**
 * Scan the configuration of the repository containing `cwd` for filter drivers, the way git finds it:
 * the nearest `.git` (a directory, or a `gitdir:` file of a linked worktree or submodule), its common
 * directory (`commondir`), `<common>/config` and `<gitdir>/config.worktree`.
 *
 * Why only the repository's files: the user's global and system configuration are the user's own
 * (git-lfs installs its driver there) and stay in force, so LFS files keep comparing correctly; what
 * the agent could have written during the turn is the repository's config, and a driver it defines
 * there (or redefines, `filter.lfs.clean` included) is neutralised.
 *
 * Conservative by construction: a header is recognised only in git's exact syntax (`[filter "name"]`
 * with git's escapes, or `[filter.name]`), and if "filter" occurs anywhere else in the text, or
 * "include" anywhere (an included file could define drivers), the answer is `ask-git`. Cost: a few
 * `stat`s up the directory tree and one or two small reads.
 */
export function scanRepositoryFilterDrivers(cwd: string): RepositoryFilterScan {
  let dir = resolve(cwd);
  for (;;) {
    const dotGit = join(dir, '.git');
    const kind = fileKind(dotGit);
    if (kind === 'directory') return scanGitDir(dotGit);
    if (kind === 'file') {
      const gitDir = readGitFile(dotGit);
      if (gitDir === undefined) return { kind: 'ask-git', reason: `${dotGit} is not a readable gitdir file` };
      return scanGitDir(gitDir);
    }
    if (kind === 'other') return { kind: 'ask-git', reason: `${dotGit} is neither a directory nor a file` };
    // A directory that is itself a git directory (bare, or `core.worktree` set): git would use it.
    if (fileKind(join(dir, 'HEAD')) === 'file' && fileKind(join(dir, 'objects')) === 'directory') {
      return { kind: 'ask-git', reason: `${dir} looks like a git directory` };
    }
    const parent = dirname(dir);
    // No repository here: git finds none either (GIT_DIR is scrubbed; ceilings only stop it earlier).
    if (parent === dir) return { kind: 'drivers', names: [] };
    dir = parent;
  }
}

function scanGitDir(gitDir: string): RepositoryFilterScan {
  let commonDir = gitDir;
  try {
    const commonFile = join(gitDir, 'commondir');
    // Only linked worktrees have one; a stat spares the common case an ENOENT exception.
    const common = statSync(commonFile, { throwIfNoEntry: false }) === undefined ? undefined : readRegularFileSync(commonFile, MAX_GITFILE_BYTES);
    if (common !== undefined) {
      const path = common.text.trim();
      commonDir = isAbsolute(path) ? path : resolve(gitDir, path);
    }
  } catch {
    return { kind: 'ask-git', reason: `${gitDir}/commondir is unreadable` };
  }
  const names = new Set<string>();
  for (const file of [join(commonDir, 'config'), join(gitDir, 'config.worktree')]) {
    let text: string | undefined;
    try {
      text = readConfigText(file);
    } catch {
      return { kind: 'ask-git', reason: `${file} is unreadable` };
    }
    if (text === undefined) continue;
    const found = filterDriversInConfigText(text);
    if (found === undefined) return { kind: 'ask-git', reason: `${file} needs git to read (include or unusual syntax)` };
    for (const name of found) names.add(name);
  }
  return { kind: 'drivers', names: [...names] };
}

/**
 * A config file as Latin-1, so each byte is one character (names that are not UTF-8 are detected, not
 * mangled); undefined when absent. Opened non-blocking and checked on the descriptor, like
 * `readRegularFileSync`: a FIFO planted as `.git/config` must not wedge the hook.
 */
function readConfigText(path: string): string | undefined {
  // A stat first: a missing file (config.worktree, usually) costs no exception.
  if (statSync(path, { throwIfNoEntry: false }) === undefined) return undefined;
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile() || info.size > MAX_CONFIG_BYTES) throw new Error(`${path}: not a small regular file`);
    // One byte more than fstat said: a file that grows while read is an `ask-git`, not a longer read.
    const buffer = Buffer.allocUnsafe(info.size + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length === buffer.length) throw new Error(`${path}: changed while read`);
    }
    return buffer.toString('latin1', 0, length);
  } finally {
    closeSync(fd);
  }
}

/**
 * The filter driver names of one config file's text, or undefined when the text cannot be read with
 * certainty: it mentions `include`, mentions `filter` outside a recognised section header, or a
 * driver name is not plain UTF-8 (it could not be named exactly on git's command line).
 *
 * Section headers (git's config.c): `[filter "name"]`, where inside the quotes a backslash escapes
 * the next character and a newline ends nothing but the header (invalid); the section name is
 * matched case-insensitively; the legacy `[filter.name]` lowercases the name. Whitespace may precede
 * the subsection. A header may follow another one or a line's start only; anything else with
 * "filter" in it (a value, a comment) makes the answer undefined.
 */
export function filterDriversInConfigText(text: string): string[] | undefined {
  if (/include/i.test(text)) return undefined;
  const mentions = text.match(/filter/gi)?.length ?? 0;
  if (mentions === 0) return [];
  const names: string[] = [];
  let recognised = 0;
  const header = /(?<=^|\n|\])[ \t]*\[[ \t]*filter(?:[ \t]+"((?:[^"\\\n]|\\[^\n])*)"|\.([A-Za-z0-9.-]+))[ \t]*\]/gi;
  for (const match of text.matchAll(header)) {
    recognised++;
    const raw = match[1] !== undefined ? match[1].replace(/\\([^\n])/g, '$1') : (match[2] ?? '').toLowerCase();
    const name = Buffer.from(raw, 'latin1').toString('utf8');
    if (name.includes('\uFFFD') || Buffer.from(name, 'utf8').toString('latin1') !== raw) return undefined;
    names.push(name);
  }
  // Every "filter" in the text must be one of the headers; a name containing "filter" counts twice.
  const inNames = names.reduce((n, name) => n + (name.match(/filter/gi)?.length ?? 0), 0);
  return recognised + inNames === mentions ? names : undefined;
}

/**
 * Driver names from `git config -z --name-only --get-regexp '^filter\.'` output:
 * `filter.<name>.<key>\0…`, where the name may itself contain dots.
 */
export function filterDriversFromGitConfig(output: Buffer): string[] {
  const names = new Set<string>();
  for (const entry of output.toString('utf8').split('\0')) {
    const key = entry.trim();
    const first = key.indexOf('.');
    const last = key.lastIndexOf('.');
    if (first < 0 || last <= first) continue;
    names.add(key.slice(first + 1, last));
  }
  return [...names];
}

function fileKind(path: string): 'directory' | 'file' | 'other' | 'missing' {
  try {
    const info = statSync(path, { throwIfNoEntry: false });
    if (info === undefined) return 'missing';
    return info.isDirectory() ? 'directory' : info.isFile() ? 'file' : 'other';
  } catch {
    return 'missing';
  }
}

function readGitFile(path: string): string | undefined {
  try {
    const file = readRegularFileSync(path, MAX_GITFILE_BYTES);
    const match = /^gitdir: *(.+?)\s*$/m.exec(file?.text ?? '');
    if (!match?.[1]) return undefined;
    return isAbsolute(match[1]) ? match[1] : resolve(dirname(path), match[1]);
  } catch {
    return undefined;
  }
}
