import { createHash } from 'node:crypto';
import { lstatSync } from 'node:fs';
import { mkdir, rm, rmdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ensureDirSafelySync, readRegularFileSync, UnsafePathError, writeFileSafelySync } from '@agent-checkpoint/core';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { describeErrno, readSettingsFileOrThrow, SettingsFileError } from './read-settings-file.ts';

/**
 * Files we edit on a user's behalf (agent settings, Codex `config.toml`) are changed through this
 * module, so that every change is atomic, backed up, and undoable byte for byte.
 *
 * For each file we ever changed, an **install record** in `<state dir>/installs/` keeps the bytes
 * the file had before our first change and the sha256 of the bytes we left. Uninstall restores the
 * original exactly when the file still has the hash we left (nothing else changed it since); when it
 * was changed in between, only our entries are removed, surgically, and the caller says so.
 */

/** What is kept about one file we changed. */
export interface InstallRecord {
  readonly version: 1;
  readonly path: string;
  /** Whether the file existed before our first change. */
  readonly originalExisted: boolean;
  /**
   * The file's bytes before our first change (base64), when they may be restored: absent when the
   * file changed behind our back between two installs, or already held our entries when we first
   * touched it.
   */
  readonly original?: string;
  /** sha256 (hex) of the bytes our last change left. */
  readonly installedSha256: string;
  /** Directories we created for the file, deepest first; removed on uninstall when empty. */
  readonly createdDirs: readonly string[];
  readonly installedAt: string;
  /** Which command wrote it (`agent-checkpoint-hook install --agent claude`…), for people reading it. */
  readonly by: string;
  /**
   * The exact entries our last change left in the file: what uninstall may remove, by exact match —
   * hook command strings, or for Codex's `notify` line the JSON of the argv head we wrote (our node,
   * bundle and options). Absent in records of older versions.
   */
  readonly commands?: readonly string[];
}

const InstallRecordSchema = z.object({
  version: z.literal(1),
  path: z.string(),
  originalExisted: z.boolean(),
  original: z.string().optional(),
  installedSha256: z.string(),
  createdDirs: z.array(z.string()),
  installedAt: z.string(),
  by: z.string(),
  commands: z.array(z.string()).optional(),
});

export function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** `<state dir>/installs`: records and backups. */
export function installsDir(stateDir: string): string {
  return join(stateDir, 'installs');
}

export function installRecordPath(stateDir: string, path: string): string {
  return join(installsDir(stateDir), `${sha256(path).slice(0, 24)}.json`);
}

/** A record is a few KiB (the original bytes of one settings file, base64); anything larger is not ours. */
const MAX_RECORD_BYTES = 16 * 1024 * 1024;

/**
 * The record of `path`, or undefined when there is none or it is unusable. Never read through a link
 * (nor a FIFO or device) planted in the state directory: a record decides what uninstall restores.
 */
export async function readInstallRecord(stateDir: string, path: string): Promise<InstallRecord | undefined> {
  let text: string;
  try {
    const read = readRegularFileSync(installRecordPath(stateDir, path), MAX_RECORD_BYTES);
    if (read === undefined) return undefined;
    text = read.text;
  } catch {
    return undefined;
  }
  try {
    const parsed = InstallRecordSchema.parse(JSON.parse(text));
    return parsed.path === path ? (parsed as InstallRecord) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The current bytes of a settings file, or undefined when it does not exist. Anything but a regular
 * file (FIFO, device, directory, symlink loop, over the size cap, unreadable) throws a
 * {@link SettingsFileError} naming what is there; see read-settings-file.ts. A symlink to a regular
 * file is read through (and later written through: the target is edited, the link stays a link).
 */
export async function readOptionalFile(path: string): Promise<Buffer | undefined> {
  return readSettingsFileOrThrow(path).bytes;
}

/** A planned change of one file: `after` undefined means "delete the file". */
export interface FileChange {
  readonly path: string;
  readonly before: Buffer | undefined;
  readonly after: Buffer | undefined;
}

export function isNoop(change: FileChange): boolean {
  if (change.before === undefined || change.after === undefined) return change.before === change.after;
  return change.before.equals(change.after);
}

/** What {@link commitInstall} and {@link commitUninstall} did. */
export interface CommitResult {
  readonly changed: boolean;
  /** The backup of the previous bytes, when there were any. */
  readonly backup?: string;
  /** Uninstall only: whether the original bytes were restored exactly. */
  readonly restoredOriginal?: boolean;
  readonly deleted?: boolean;
}

/**
 * Write an install: back up the current bytes, write the new ones atomically (mode of the existing
 * file kept), and update the record. Nothing is written when nothing changes.
 *
 * `hadOurEntries` says whether `before` already held our entries: such bytes are not an original
 * worth restoring (the user installed by hand, or an older record was lost).
 */
export async function commitInstall(options: {
  readonly stateDir: string;
  readonly change: FileChange;
  readonly hadOurEntries: boolean;
  readonly by: string;
  /** The entries of ours the new bytes hold (recorded for uninstall); default: the previous record's. */
  readonly commands?: readonly string[];
  readonly now?: Date;
}): Promise<CommitResult> {
  const { change, stateDir } = options;
  if (change.after === undefined) throw new Error('an install never deletes a file');
  if (isNoop(change)) return { changed: false };
  const previous = await readInstallRecord(stateDir, change.path);
  // Refuse a planted link before the settings file is touched, not after (the record is written last).
  assertRecordWritable(stateDir, change.path);
  const createdDirs = await ensureDir(dirname(change.path));
  const backup = change.before === undefined ? undefined : await writeBackup(stateDir, change.path, change.before, options.now);
  await writeSettings(change.path, change.after);

  const beforeSha = change.before === undefined ? undefined : sha256(change.before);
  // Our own earlier install, untouched since: its original stays restorable.
  const untouched =
    previous !== undefined && (beforeSha === previous.installedSha256 || (change.before === undefined && !previous.originalExisted));
  const original = untouched
    ? previous.original
    : previous === undefined && change.before !== undefined && !options.hadOurEntries
      ? change.before.toString('base64')
      : undefined;
  const record: InstallRecord = {
    version: 1,
    path: change.path,
    originalExisted: previous?.originalExisted ?? change.before !== undefined,
    ...(original === undefined ? {} : { original }),
    installedSha256: sha256(change.after),
    createdDirs: [...new Set([...createdDirs, ...(previous?.createdDirs ?? [])])],
    installedAt: previous?.installedAt ?? (options.now ?? new Date()).toISOString(),
    by: options.by,
    ...((options.commands ?? previous?.commands) === undefined ? {} : { commands: [...new Set(options.commands ?? previous?.commands)] }),
  };
  await writeRecord(stateDir, record);
  return { changed: true, ...(backup === undefined ? {} : { backup }) };
}

/** How an uninstall would leave the file. */
export interface UninstallPlan {
  readonly change: FileChange;
  /** True when `after` is the original bytes (or the deletion of a file we created). */
  readonly restoresOriginal: boolean;
}

/**
 * Decide what uninstall writes: the original bytes (or no file) when the record says the file still
 * has exactly what we left; otherwise `surgical(current)`, the current bytes without our entries.
 * When nothing else is left (`empty`) in a file we created, the file is deleted.
 */
export async function planUninstall(options: {
  readonly stateDir: string;
  readonly path: string;
  readonly surgical: (current: Buffer) => { readonly bytes: Buffer; readonly empty: boolean };
}): Promise<UninstallPlan> {
  const { path } = options;
  const current = await readOptionalFile(path);
  const record = await readInstallRecord(options.stateDir, path);
  if (current === undefined) return { change: { path, before: undefined, after: undefined }, restoresOriginal: false };
  if (record !== undefined && sha256(current) === record.installedSha256) {
    if (!record.originalExisted) return { change: { path, before: current, after: undefined }, restoresOriginal: true };
    if (record.original !== undefined) return { change: { path, before: current, after: Buffer.from(record.original, 'base64') }, restoresOriginal: true };
  }
  const { bytes, empty } = options.surgical(current);
  const created = record !== undefined && !record.originalExisted;
  return { change: { path, before: current, after: empty && created ? undefined : bytes }, restoresOriginal: false };
}

/** Carry out an uninstall plan: back up, write or delete, drop the record and empty directories we created. */
export async function commitUninstall(options: { readonly stateDir: string; readonly plan: UninstallPlan; readonly now?: Date }): Promise<CommitResult> {
  const { stateDir, plan } = options;
  const { change } = plan;
  const record = await readInstallRecord(stateDir, change.path);
  if (isNoop(change)) {
    await removeRecord(stateDir, change.path);
    return { changed: false };
  }
  const backup = change.before === undefined ? undefined : await writeBackup(stateDir, change.path, change.before, options.now);
  if (change.after === undefined) {
    await rm(change.path, { force: true }).catch((error: unknown) => {
      throw new SettingsFileError(change.path, `cannot be deleted: ${describeErrno(error)}`);
    });
    for (const dir of record?.createdDirs ?? []) await rmdir(dir).catch(() => undefined);
  } else {
    await writeSettings(change.path, change.after);
  }
  await removeRecord(stateDir, change.path);
  return { changed: true, ...(backup === undefined ? {} : { backup }), restoredOriginal: plan.restoresOriginal, deleted: change.after === undefined };
}

/**
 * Replace a settings file atomically (temp file + rename in its directory), keeping its mode.
 * write-file-atomic resolves a symlink first, so a symlinked file has its target replaced and the
 * link stays a link. A refusal (immutable file, read-only directory or file system) becomes a
 * {@link SettingsFileError}; the file is left as it was.
 */
export async function writeSettings(path: string, bytes: Buffer): Promise<void> {
  try {
    await writeFileAtomic(path, bytes, { mode: await existingMode(path) });
  } catch (error) {
    throw new SettingsFileError(path, `cannot be written: ${describeErrno(error)}`);
  }
}

/**
 * Records and backups live in the state directory, whose contents are untrusted (its path is handed to
 * the agent): written through core's fs-safe, so a link planted as a record or a backup name, or as
 * `installs/` itself, is refused rather than written through.
 */
async function writeRecord(stateDir: string, record: InstallRecord): Promise<void> {
  await inStateDir(installRecordPath(stateDir, record.path), async () =>
    writeFileSafelySync(stateDir, recordRelPath(stateDir, record.path), `${JSON.stringify(record, null, 2)}\n`, { rootKind: 'private', mode: 0o600 }),
  );
}

function recordRelPath(stateDir: string, path: string): string {
  return join('installs', basename(installRecordPath(stateDir, path)));
}

/** The checks {@link writeRecord} will make, made early: `installs/` safe, the record name not a link or special file. */
function assertRecordWritable(stateDir: string, path: string): void {
  const record = installRecordPath(stateDir, path);
  try {
    ensureDirSafelySync(stateDir, 'installs', { rootKind: 'private' });
    const info = lstatSync(record, { throwIfNoEntry: false });
    if (info !== undefined && !info.isFile()) throw new UnsafePathError(record, 'not a regular file');
  } catch (error) {
    throw new SettingsFileError(record, `cannot be written: ${error instanceof UnsafePathError ? error.reason : describeErrno(error)}`);
  }
}

/** A refused state-dir write as a {@link SettingsFileError} naming the state file (one clear line). */
async function inStateDir<T>(file: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof UnsafePathError) throw new SettingsFileError(file, `cannot be written: ${error.reason}`);
    throw error;
  }
}

async function removeRecord(stateDir: string, path: string): Promise<void> {
  await rm(installRecordPath(stateDir, path), { force: true });
}

/** `<state dir>/installs/backups/<name>.<time>.<hash>.bak`: every version we replaced, kept. */
async function writeBackup(stateDir: string, path: string, bytes: Buffer, now = new Date()): Promise<string> {
  const stamp = now.toISOString().replaceAll(':', '').replace(/\.\d+Z$/, 'Z');
  const name = `${basename(path)}.${stamp}.${sha256(path).slice(0, 8)}.bak`;
  return inStateDir(join(installsDir(stateDir), 'backups', name), async () =>
    writeFileSafelySync(stateDir, join('installs', 'backups', name), bytes, { rootKind: 'private', mode: 0o600 }),
  );
}

/** Create `dir` and missing parents; returns the directories created, deepest first. */
async function ensureDir(dir: string): Promise<string[]> {
  const missing: string[] = [];
  for (let d = dir; ; d = dirname(d)) {
    try {
      await stat(d);
      break;
    } catch {
      missing.push(d);
      if (dirname(d) === d) break;
    }
  }
  await mkdir(dir, { recursive: true });
  return missing;
}

async function existingMode(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).mode & 0o7777;
  } catch {
    return undefined;
  }
}
