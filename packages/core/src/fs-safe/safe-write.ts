import {
  closeSync,
  constants,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  realpathSync,
  renameSync,
  type Stats,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, isAbsolute, join, normalize, relative, sep } from 'node:path';
import { randomHex } from '../state/lazy-crypto.ts';

/*
 * Every file the product writes goes through this module (issue 12, class 2). The hook runs as the
 * user outside the agent's sandbox, while the directories it writes to (the repository, and the state
 * directory whose path the escape hatch hands to the agent) can hold links planted by the agent or by
 * whoever published the repository. A write that follows one overwrites or appends to a file
 * elsewhere — as root, even a device node.
 *
 * Guarantees of every write below:
 * - the target is `root` + a relative path that stays inside it (no `..`, not absolute);
 * - no directory between `root` and the file is a symlink or anything but a directory (lstat of each
 *   component; missing ones are created one at a time with a private mode), and the parent's real path
 *   is checked to be the expected one just before the write;
 * - the final component is never followed: an existing symlink, FIFO, socket, device or directory is
 *   refused; replacing writes create a temp file with O_EXCL|O_NOFOLLOW in the same directory and
 *   `rename(2)` it over the name (rename replaces a directory entry, it never writes through a link);
 *   appends open with O_NOFOLLOW|O_NONBLOCK and check the open descriptor (regular, one link);
 * - a "private" root (the state directory) must be owned by the user and not group/world-writable,
 *   and each of its ancestors owned by the user or root and not group/world-writable unless sticky
 *   (`/tmp`): otherwise someone else could swap its contents. Checked once per root per process (a
 *   hook run is short; the walk over the ancestors is the costly part of a small write).
 *
 * What remains: Node has no `openat`, so a component swapped for a link between the check and the
 * write (microseconds) is not caught; the final realpath check narrows that window to the write itself.
 */

/** A write was refused because the path is not safe to write: `reason` says why. */
export class UnsafePathError extends Error {
  override readonly name = 'UnsafePathError';
  readonly code = 'EUNSAFEPATH';
  readonly path: string;
  readonly reason: string;
  constructor(path: string, reason: string) {
    super(`refusing to write ${JSON.stringify(path)}: ${reason}`);
    this.path = path;
    this.reason = reason;
  }
}

/** What kind of directory the writes land in. */
export type SafeRootKind =
  /** The user's own state directory: created when missing (0700), and must not be writable by others. */
  | 'private'
  /** A repository or project directory: must exist; only the components below it are checked. */
  | 'project';

/** Options shared by the writes of this module. */
export interface SafeWriteOptions {
  /** Default `'project'`. */
  readonly rootKind?: SafeRootKind;
  /**
   * Mode of the file. Replacing writes: when omitted, an existing file keeps its mode (the user may
   * have chosen it) and a new one gets 0644 less the umask. Appends: the mode of a new file (0600).
   */
  readonly mode?: number;
  /** Mode of directories created on the way (default 0700). Existing directories keep theirs. */
  readonly dirMode?: number;
  /** fsync the file before the rename (durability across power loss). Default false. */
  readonly fsync?: boolean;
}

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

/**
 * Replace `<root>/<relPath>` with `data` atomically (temp file + rename in the same directory).
 * Missing directories are created. Returns the absolute path written.
 *
 * @throws UnsafePathError when the path escapes `root`, crosses a symlink or non-directory, the target
 *   is not a regular file, or a private root is writable by others; other I/O errors as they are.
 */
export function writeFileSafelySync(root: string, relPath: string, data: string | Uint8Array, options: SafeWriteOptions = {}): string {
  const { dir, target } = prepare(root, relPath, options);
  const existing = lstatOrUndefined(target);
  if (existing !== undefined) assertReplaceable(target, existing);
  const temp = join(dir, `.${lastComponent(target)}.${process.pid}.${randomHex(4)}.tmp`);
  // Permission bits only: a set-id bit of the old file is not carried over to new content. A new file
  // without a given mode is created 0644 less the umask (applied by open(2) itself).
  const mode = options.mode ?? (existing !== undefined ? existing.mode & 0o777 : undefined);
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, mode === undefined ? 0o644 : 0o600);
  let renamed = false;
  try {
    try {
      writeAll(fd, data);
      // The mode is set on the descriptor, past the umask; an existing file's owner is kept when we can
      // (running as root on a user's file).
      if (mode !== undefined) fchmodSync(fd, mode);
      if (existing !== undefined && typeof process.getuid === 'function' && process.getuid() === 0 && existing.uid !== 0) {
        fchownSync(fd, existing.uid, existing.gid);
      }
      if (options.fsync === true) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    assertRealParent(dir, root);
    renameSync(temp, target);
    renamed = true;
  } finally {
    if (!renamed) {
      try {
        unlinkSync(temp);
      } catch {
        // Already gone.
      }
    }
  }
  return target;
}

/**
 * Append `data` to `<root>/<relPath>`, creating it (mode `options.mode`, default 0600) when missing.
 * Opened with O_NOFOLLOW|O_NONBLOCK (a FIFO never blocks the run); the open descriptor must be a
 * regular file with a single link (a hard link would append to another file). Returns the path.
 *
 * @throws UnsafePathError as {@link writeFileSafelySync}; other I/O errors as they are.
 */
export function appendSafelySync(root: string, relPath: string, data: string | Uint8Array, options: SafeWriteOptions = {}): string {
  const { dir, target } = prepare(root, relPath, options);
  const existing = lstatOrUndefined(target);
  // Checked before opening: opening a device can have effects of its own.
  if (existing !== undefined) assertReplaceable(target, existing);
  assertRealParent(dir, root);
  let fd: number;
  try {
    fd = openSync(target, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NOFOLLOW | NONBLOCK, options.mode ?? 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'ENXIO' || code === 'EISDIR') throw new UnsafePathError(target, 'not a regular file (a symlink, FIFO or directory)');
    throw error;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new UnsafePathError(target, `not a regular file (${describeKind(info)})`);
    if (info.nlink > 1) throw new UnsafePathError(target, 'has other hard links');
    writeAll(fd, data);
  } finally {
    closeSync(fd);
  }
  return target;
}

/**
 * Create `<root>/<relPath>` as a directory (and missing parents, `dirMode`, default 0700) with the
 * same checks as the writes: no component is a symlink or a non-directory, the result's real path is
 * where it should be. `relPath` may be `''` (the root itself). Returns the absolute path.
 */
export function ensureDirSafelySync(root: string, relPath: string, options: Pick<SafeWriteOptions, 'rootKind' | 'dirMode'> = {}): string {
  const realRoot = prepareRoot(root, options.rootKind ?? 'project', options.dirMode ?? 0o700);
  const parts = splitRelative(root, relPath);
  const dir = ensureComponents(realRoot, parts, options.dirMode ?? 0o700, options.rootKind ?? 'project');
  assertRealParent(dir, root);
  return dir;
}

/**
 * Why `dir` is not a safe private directory (owned by the user, not group/world-writable, ancestors
 * owned by the user or root and not writable by others unless sticky), or undefined when it is.
 * `dir` must exist; it is resolved first.
 */
export function privateDirProblem(dir: string): string | undefined {
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  if (uid === undefined) return undefined; // Windows: no POSIX owners or modes to check.
  let real: string;
  try {
    real = realpathSync(dir);
  } catch (error) {
    return `cannot resolve it: ${(error as Error).message}`;
  }
  const self = lstatSync(real);
  if (!self.isDirectory()) return `${real} is not a directory`;
  if (self.uid !== uid) return `${real} is owned by uid ${self.uid}, not by this user (uid ${uid})`;
  if ((self.mode & 0o022) !== 0) return `${real} is writable by its group or others (mode ${(self.mode & 0o7777).toString(8)})`;
  for (let parent = dirname(real); ; parent = dirname(parent)) {
    const info = lstatSync(parent);
    if (info.uid !== uid && info.uid !== 0) return `its parent ${parent} is owned by uid ${info.uid}, neither this user nor root`;
    const sticky = (info.mode & 0o1000) !== 0;
    if ((info.mode & 0o022) !== 0 && !sticky) return `its parent ${parent} is writable by its group or others (mode ${(info.mode & 0o7777).toString(8)})`;
    if (dirname(parent) === parent) return undefined;
  }
}

/**
 * Why a directory entry inside a private root (already lstat'ed, so never followed) is not private: owned
 * by someone else, or writable by its group or others. Undefined when it is private, and on Windows.
 */
export function privateEntryProblem(info: Stats): string | undefined {
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  if (uid === undefined) return undefined;
  if (info.uid !== uid) return `owned by uid ${info.uid}, not by this user (uid ${uid})`;
  if ((info.mode & 0o022) !== 0) return `writable by its group or others (mode ${(info.mode & 0o7777).toString(8)})`;
  return undefined;
}

/** The root resolved and (private roots) created and checked; then the parent directory made. */
function prepare(root: string, relPath: string, options: SafeWriteOptions): { readonly dir: string; readonly target: string } {
  const dirMode = options.dirMode ?? 0o700;
  const realRoot = prepareRoot(root, options.rootKind ?? 'project', dirMode);
  const parts = splitRelative(root, relPath);
  if (parts.length === 0) throw new UnsafePathError(join(root, relPath), 'names the root directory itself, not a file');
  const dir = ensureComponents(realRoot, parts.slice(0, -1), dirMode, options.rootKind ?? 'project');
  return { dir, target: join(dir, parts[parts.length - 1] as string) };
}

/**
 * Private roots already checked by this process: a hook run writes its state, a marker and debug
 * lines into one state directory, and the check walks every ancestor.
 */
const checkedPrivateRoots = new Set<string>();

function prepareRoot(root: string, kind: SafeRootKind, dirMode: number): string {
  if (!isAbsolute(root)) throw new UnsafePathError(root, 'the root is not an absolute path');
  if (kind === 'private' && !checkedPrivateRoots.has(root)) {
    mkdirSync(root, { recursive: true, mode: dirMode });
    const problem = privateDirProblem(root);
    if (problem !== undefined) throw new UnsafePathError(root, `the state directory is not private: ${problem}`);
    checkedPrivateRoots.add(root);
  }
  let real: string;
  try {
    real = realpathSync(root);
  } catch (error) {
    // Removed since it was checked (tests, `rm -rf` of the state): check and create it again.
    if (kind === 'private' && checkedPrivateRoots.delete(root) && (error as NodeJS.ErrnoException).code === 'ENOENT') return prepareRoot(root, kind, dirMode);
    throw error;
  }
  if (!lstatSync(real).isDirectory()) throw new UnsafePathError(root, 'the root is not a directory');
  return real;
}

/** `relPath` as components; refuses absolute paths, `..` and empty names. */
function splitRelative(root: string, relPath: string): string[] {
  if (relPath.includes('\0')) throw new UnsafePathError(join(root, relPath.replaceAll('\0', '\\0')), 'contains a NUL byte');
  if (isAbsolute(relPath)) throw new UnsafePathError(relPath, `is absolute, not inside ${root}`);
  const normal = normalize(relPath);
  const parts = normal.split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) throw new UnsafePathError(join(root, relPath), `leads outside ${root}`);
  return parts;
}

/**
 * Walk (creating as needed) each directory component below `realRoot`; none may be a link. Below a
 * private root each must also be private like the root (owned by the user, not group/world-writable):
 * a sub-directory someone else owns or can write to (`sessions/`, `monitor/<session>/`, an outbox's
 * directory) would let them swap its files as surely as a shared state directory.
 */
function ensureComponents(realRoot: string, parts: readonly string[], dirMode: number, kind: SafeRootKind): string {
  let current = realRoot;
  for (const part of parts) {
    current = join(current, part);
    let info = lstatOrUndefined(current);
    if (info === undefined) {
      try {
        mkdirSync(current, { mode: dirMode });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      info = lstatSync(current);
    }
    if (info.isSymbolicLink()) throw new UnsafePathError(current, 'is a symlink (not followed)');
    if (!info.isDirectory()) throw new UnsafePathError(current, `is not a directory (${describeKind(info)})`);
    if (kind === 'private') {
      const problem = privateEntryProblem(info);
      if (problem !== undefined) throw new UnsafePathError(current, `a state sub-directory that is not private: ${problem}`);
    }
  }
  return current;
}

/** The parent's real path must be the path we built (no component turned into a link meanwhile). */
function assertRealParent(dir: string, root: string): void {
  const real = realpathSync(dir);
  if (real !== dir) throw new UnsafePathError(dir, `resolves to ${real}, not inside ${root} as built`);
}

function assertReplaceable(target: string, info: Stats): void {
  if (!info.isFile()) throw new UnsafePathError(target, `not a regular file (${describeKind(info)})`);
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function lastComponent(path: string): string {
  return path.slice(path.lastIndexOf(sep) + 1);
}

function writeAll(fd: number, data: string | Uint8Array): void {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}

/** `a symlink`, `a FIFO`, `a character device`… for diagnostics. */
export function describeKind(info: Stats): string {
  if (info.isSymbolicLink()) return 'a symlink';
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a FIFO';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isFile()) return 'a regular file';
  return 'an unknown file type';
}

/**
 * A configured path as a (root, relative path) pair for the writes above: a relative path (or an
 * absolute one inside `root`) stays under `root`, with every component below it checked; an absolute
 * path outside `root` — which only a trusted configuration may name — gets its own parent as the root,
 * so its final component is still never followed.
 */
export function underRoot(root: string, path: string): { readonly root: string; readonly relPath: string } {
  if (!isAbsolute(path)) return { root, relPath: path };
  const rel = relative(root, path);
  if (rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel)) return { root, relPath: rel };
  return { root: dirname(path), relPath: basename(path) };
}
