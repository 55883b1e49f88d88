import { randomBytes } from 'node:crypto';
import { link, open, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Thrown by {@link writeNewFile} when the target already exists. */
export class FileExistsError extends Error {
  override readonly name = 'FileExistsError';
}

/**
 * Write a file that must not exist yet, atomically: the content goes to a temp file in the same
 * directory (flushed to disk), which is then hard-linked to the final name. `link` fails when the name
 * exists, so an existing file is never overwritten and readers never see half a file. On file systems
 * without hard links, falls back to an exclusive create (`wx`): still never overwrites.
 *
 * @throws FileExistsError when `path` exists; other I/O errors as they are.
 */
export async function writeNewFile(path: string, content: string, mode = 0o644): Promise<void> {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  await writeFlushed(tmp, content, mode, 'wx');
  try {
    await link(tmp, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new FileExistsError(`${path} exists`);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV') throw error;
    try {
      await writeFlushed(path, content, mode, 'wx');
    } catch (fallbackError) {
      if ((fallbackError as NodeJS.ErrnoException).code === 'EEXIST') throw new FileExistsError(`${path} exists`);
      throw fallbackError;
    }
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
}

/**
 * Write `<dir>/<stem><ext>`, or `<stem>-2<ext>`, `<stem>-3<ext>`… when taken: never overwrites.
 * Returns the path written. Gives up after `maxAttempts` names.
 */
export async function writeUniqueFile(dir: string, stem: string, ext: string, content: string, maxAttempts = 1000): Promise<string> {
  for (let n = 1; n <= maxAttempts; n += 1) {
    const path = join(dir, n === 1 ? `${stem}${ext}` : `${stem}-${n}${ext}`);
    try {
      await writeNewFile(path, content);
      return path;
    } catch (error) {
      if (!(error instanceof FileExistsError)) throw error;
    }
  }
  throw new Error(`${join(dir, stem + ext)}: ${maxAttempts} names taken`);
}

async function writeFlushed(path: string, content: string, mode: number, flag: string): Promise<void> {
  const handle = await open(path, flag, mode);
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}
