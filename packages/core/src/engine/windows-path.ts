/**
 * Windows paths as a platform fact, not an agent format: every agent that runs on Windows writes
 * its tool inputs, its cwd and the repository root in the same few shapes, and the engine has to
 * compare them with each other and with git's paths.
 *
 * They are mapped onto one POSIX-shaped canonical form, so the rest of the path code keeps using
 * `posix.normalize`/`posix.relative`:
 *
 * - drive paths `C:\Users\x\repo`, `C:/Users/x/repo`, `\\?\C:\…`, `\\.\C:\…` → `/c:/Users/x/repo`
 *   (drive letter lower-cased; the rest as written);
 * - UNC paths `\\server\share\repo`, `//server/share/repo`, `\\?\UNC\server\share\repo` →
 *   `/unc:/server/share/repo`. `posix.normalize` would fold a leading `//` into `/`, so the UNC
 *   root gets a first segment of its own; `unc:` cannot be a drive letter.
 *
 * Paths in canonical Windows form compare case-insensitively ({@link isWindowsCanonical},
 * {@link sameWindowsSegment}): NTFS and SMB shares are case-insensitive by default, and the CLI,
 * git and the model do not agree on the case of `C:\Users\Name`.
 */

const DRIVE = /^[A-Za-z]:(?:[\\/]|$)/;
const DEVICE_PREFIX = /^[\\/]{2}[?.][\\/]/;
const UNC_AFTER_DEVICE = /^UNC[\\/]/i;
const UNC = /^[\\/]{2}(?![\\/?.])[^\\/]+[\\/][^\\/]+/;
const CANONICAL = /^\/(?:[a-z]:|unc:)(?:\/|$)/;
/** Git for Windows' (MSYS) spelling of a drive: `/c/Users/x`. */
const MSYS_DRIVE = /^\/([A-Za-z])(?=\/|$)/;

/**
 * The canonical form of a Windows absolute path (drive or UNC, either slash), or undefined when `p`
 * is not one. Relative Windows paths (`src\a.ts`) are not absolute: their backslashes are turned
 * into slashes by the caller like any relative path.
 */
export function windowsAbsoluteToCanonical(p: string): string | undefined {
  let rest = p;
  if (DEVICE_PREFIX.test(rest)) {
    rest = rest.slice(4);
    if (UNC_AFTER_DEVICE.test(rest)) rest = `\\\\${rest.slice(4)}`;
  }
  if (DRIVE.test(rest)) return `/${rest.charAt(0).toLowerCase()}:/${slashes(rest.slice(2)).replace(/^\/+/, '')}`;
  if (UNC.test(rest)) return `/unc:/${slashes(rest).replace(/^\/+/, '')}`;
  return undefined;
}

/**
 * A POSIX-absolute path written by a Git Bash (MSYS) command on Windows, `/c/Users/x`, in canonical
 * drive form. Only meaningful when the repository root is itself a Windows path: on a POSIX
 * machine `/c/x` is an ordinary directory.
 */
export function msysToCanonical(p: string): string | undefined {
  const found = MSYS_DRIVE.exec(p);
  if (!found?.[1]) return undefined;
  return `/${found[1].toLowerCase()}:${p.slice(2) || '/'}`;
}

/** True for a path in the canonical Windows form of {@link windowsAbsoluteToCanonical}. */
export function isWindowsCanonical(p: string): boolean {
  return CANONICAL.test(p);
}

/** Whether two path segments name the same entry on a case-insensitive Windows file system. */
export function sameWindowsSegment(a: string, b: string): boolean {
  return a === b || a.toUpperCase() === b.toUpperCase();
}

function slashes(p: string): string {
  return p.replace(/\\/g, '/');
}
