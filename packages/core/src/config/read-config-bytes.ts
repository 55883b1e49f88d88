import { closeSync, constants, fstatSync, openSync, readFileSync, realpathSync, statSync } from 'node:fs';

/** Files larger than this are not configuration; they are reported and ignored. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/** Result of {@link readConfigBytes}. */
export type ConfigBytes =
  | { readonly kind: 'missing' }
  /** `problem` completes "<path>: …; ignored". */
  | { readonly kind: 'unusable'; readonly problem: string }
  | {
      readonly kind: 'read';
      readonly bytes: Buffer;
      /**
       * The real path (symlinks resolved) of the very file that was read: checked by device and inode
       * against the open descriptor. Undefined when that could not be established (the path was
       * swapped while reading), which makes the file untrusted.
       */
      readonly realPath: string | undefined;
    };

/**
 * Read a configuration file as bytes, never blocking and never reading without bound: a directory,
 * FIFO, socket or device is refused (checked on the open descriptor, so one swapped in after a stat is
 * refused too), and so is a file over {@link MAX_CONFIG_BYTES}. The trust check (`project-config-trust.ts`)
 * hashes exactly these bytes.
 */
export function readConfigBytes(path: string): ConfigBytes {
  try {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat === undefined) return { kind: 'missing' };
    if (stat.isDirectory()) return { kind: 'unusable', problem: 'is a directory, not a configuration file' };
    const realBefore = realPathOf(path);
    // Opened non-blocking and checked on the descriptor: a FIFO or device (also one swapped in after
    // the stat above) is refused instead of blocking this synchronous read, which no timer could end.
    const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const opened = fstatSync(fd);
      if (!opened.isFile()) return { kind: 'unusable', problem: 'is not a regular file (a FIFO, socket or device)' };
      if (opened.size > MAX_CONFIG_BYTES) {
        return { kind: 'unusable', problem: `${opened.size} bytes is too large for a configuration file (limit 1 MiB)` };
      }
      const bytes = readFileSync(fd);
      if (bytes.length > MAX_CONFIG_BYTES) return { kind: 'unusable', problem: `grew past the 1 MiB limit while being read` };
      const real = realBefore === undefined ? undefined : statSync(realBefore, { throwIfNoEntry: false });
      const same = real !== undefined && real.dev === opened.dev && real.ino === opened.ino;
      return { kind: 'read', bytes, realPath: same ? realBefore : undefined };
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return { kind: 'unusable', problem: `cannot be read (${errorMessage(error)})` };
  }
}

function realPathOf(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return (error as NodeJS.ErrnoException).code ?? error.message;
  return String(error);
}
