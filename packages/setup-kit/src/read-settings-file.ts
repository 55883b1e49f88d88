import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';

/**
 * Reading an agent's settings file (`settings.json`, `hooks.json`, Codex `config.toml`) before we
 * edit or check it. These files are the user's, and anything may sit at their path: a FIFO (a plain
 * read blocks forever), a symlink to a character device (`/dev/zero` reads until memory runs out), a
 * directory, a symlink loop, a file we may not read. Each of those is refused with one sentence
 * saying what is there; nothing is opened that is not a regular file, and the read is capped.
 *
 * A symlink to a regular file (dotfiles managers do this) is followed: the target is what we read,
 * and {@link SettingsFileRead} names it so the edit is written there, keeping the link a link.
 */

/** Settings files are a few KiB; anything past this is not one we should load and rewrite. */
const SETTINGS_FILE_MAX_BYTES = 4 * 1024 * 1024;

/** What is at a settings path. */
export type SettingsFileRead =
  /** Nothing: install creates the file at `path`. */
  | { readonly kind: 'absent' }
  /** A regular file (directly, or as the target of a symlink: `target` is then the resolved path). */
  | { readonly kind: 'file'; readonly bytes: Buffer; readonly target: string }
  /** Something we must not read or replace; `reason` completes "<path> …" (e.g. "is a FIFO (named pipe), not a regular file"). */
  | { readonly kind: 'refused'; readonly reason: string };

/** A settings file we refuse to read or write, with the one line to show the user. */
export class SettingsFileError extends Error {
  readonly path: string;
  readonly reason: string;
  constructor(path: string, reason: string) {
    super(`${path} ${reason}`);
    this.name = 'SettingsFileError';
    this.path = path;
    this.reason = reason;
  }
}

/**
 * Read the settings file at `path` safely: `lstat` first (nothing but a regular file is opened, so a
 * device is never touched), then `open` with `O_NONBLOCK | O_NOFOLLOW` on the resolved path and
 * `fstat` of what was opened (a swap between the check and the open is caught), then at most
 * `maxBytes` bytes. Never throws.
 */
export function readSettingsFile(path: string, maxBytes = SETTINGS_FILE_MAX_BYTES): SettingsFileRead {
  let link: Stats;
  try {
    link = lstatSync(path);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT') return { kind: 'absent' };
    return { kind: 'refused', reason: `cannot be examined: ${describeErrno(error)}` };
  }
  let target = path;
  if (link.isSymbolicLink()) {
    try {
      target = realpathSync(path);
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ELOOP') return { kind: 'refused', reason: 'is a symbolic link loop, not a regular file' };
      if (code === 'ENOENT') return { kind: 'refused', reason: 'is a symbolic link to a file that does not exist (create the target, or remove the link)' };
      return { kind: 'refused', reason: `is a symbolic link that cannot be resolved: ${describeErrno(error)}` };
    }
  }
  let info: Stats;
  try {
    info = link.isSymbolicLink() ? statSync(target) : link;
  } catch (error) {
    return { kind: 'refused', reason: `cannot be examined: ${describeErrno(error)}` };
  }
  const via = target === path ? '' : ` (through the symbolic link to ${target})`;
  if (!info.isFile()) return { kind: 'refused', reason: `is ${fileKind(info)}${via}, not a regular file` };
  if (info.size > maxBytes) return { kind: 'refused', reason: `is ${info.size} bytes${via}, over the ${maxBytes}-byte limit for a settings file` };

  let fd: number;
  try {
    fd = openSync(target, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (error) {
    return { kind: 'refused', reason: `cannot be read${via}: ${describeErrno(error)}` };
  }
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile()) return { kind: 'refused', reason: `is ${fileKind(opened)}${via}, not a regular file` };
    // Read to the end, not to the stat's size: the file may have grown; past the cap is refused.
    const chunks: Buffer[] = [];
    let length = 0;
    for (;;) {
      const chunk = Buffer.alloc(64 * 1024);
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      length += read;
      if (length > maxBytes) return { kind: 'refused', reason: `grew past the ${maxBytes}-byte limit for a settings file while being read` };
    }
    return { kind: 'file', bytes: Buffer.concat(chunks, length), target };
  } catch (error) {
    return { kind: 'refused', reason: `cannot be read${via}: ${describeErrno(error)}` };
  } finally {
    closeSync(fd);
  }
}

/**
 * Like {@link readSettingsFile}, for callers that edit: the bytes (undefined when absent) and the
 * path to write (the symlink's target), or a {@link SettingsFileError}.
 */
export function readSettingsFileOrThrow(path: string, maxBytes = SETTINGS_FILE_MAX_BYTES): { readonly bytes: Buffer | undefined; readonly target: string } {
  const read = readSettingsFile(path, maxBytes);
  switch (read.kind) {
    case 'absent':
      return { bytes: undefined, target: path };
    case 'file':
      return { bytes: read.bytes, target: read.target };
    case 'refused':
      throw new SettingsFileError(path, read.reason);
  }
}

/** "a directory", "a FIFO (named pipe)"…, for "<path> is …, not a regular file". */
function fileKind(info: Stats): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  if (info.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/** The errno code of a Node fs error, if any. */
function errnoCode(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** A short, stack-free description of a fs error: "permission denied (EACCES)". */
export function describeErrno(error: unknown): string {
  const code = errnoCode(error);
  switch (code) {
    case 'EACCES':
      return 'permission denied (EACCES)';
    case 'EPERM':
      return 'operation not permitted (EPERM: an immutable file, or a protected directory?)';
    case 'EROFS':
      return 'read-only file system (EROFS)';
    case 'ELOOP':
      return 'too many levels of symbolic links (ELOOP)';
    case 'ENOTDIR':
      return 'a component of the path is not a directory (ENOTDIR)';
    case 'EISDIR':
      return 'is a directory (EISDIR)';
    case 'ENOSPC':
      return 'no space left on the device (ENOSPC)';
    case 'ENAMETOOLONG':
      return 'the path is too long (ENAMETOOLONG)';
    case undefined:
      return error instanceof Error ? error.message.split('\n')[0]! : String(error);
    default:
      return `${code}${error instanceof Error ? `: ${error.message.split('\n')[0]!}` : ''}`;
  }
}

/** One line for any failure while changing a settings file: what is wrong, never a stack trace. */
export function describeFileFailure(error: unknown): string {
  return error instanceof SettingsFileError ? error.message : describeErrno(error);
}
