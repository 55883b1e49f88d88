import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { forMarkdownCode, readRegularFileSync, writeFileSafelySync } from '@agent-checkpoint/core';

/**
 * Which handoffs this installation wrote. A handoff in the repository may have arrived with a clone
 * (committed, any mtime) or been edited by the agent; resuming it would put a repository file into
 * the next session's system/developer context. So every handoff `writeHandoff` writes is recorded in
 * the user's private state directory — its path and the SHA-256 of its bytes — and only a handoff
 * with a matching record is resumed (session start, `resume-prompt`). Anything else is foreign: named
 * in a one-line notice, never injected.
 *
 * Records: `<state dir>/handoffs/<sha256(path), 40 hex>.json` = `{ version: 1, path, sha256, writtenAt }`,
 * one small file per handoff, written through `fs-safe` (private root, 0600), read `O_NOFOLLOW`.
 */

/** Sub-directory of the state directory holding the records. */
export const HANDOFF_RECORDS_DIR = 'handoffs';

/** A record larger than this is not ours. */
const MAX_RECORD_BYTES = 64 * 1024;

/** SHA-256 (hex) of a handoff's text, as recorded and compared. */
export function handoffDigest(markdown: string): string {
  return createHash('sha256').update(markdown, 'utf8').digest('hex');
}

function recordName(path: string): string {
  return `${createHash('sha256').update(path, 'utf8').digest('hex').slice(0, 40)}.json`;
}

/**
 * Record that we wrote `markdown` at `path` (the absolute path as written: a real directory, no link
 * on the way, see `writeHandoff`). Throws on I/O errors (the caller reports them).
 */
export function recordWrittenHandoff(stateDir: string, path: string, markdown: string, now: Date): void {
  const record = { version: 1, path, sha256: handoffDigest(markdown), writtenAt: now.toISOString() };
  writeFileSafelySync(stateDir, `${HANDOFF_RECORDS_DIR}/${recordName(path)}`, `${JSON.stringify(record)}\n`, { rootKind: 'private', mode: 0o600 });
}

/**
 * Where a handoff read back from the repository came from.
 * - `ours`: a record of this state directory names its path and digest;
 * - `foreign`: no record (a committed or planted file), or the bytes differ from what we wrote (edited
 *   since), or the record cannot be read; `why` says which, for the notice.
 */
export type HandoffOrigin = { readonly kind: 'ours' } | { readonly kind: 'foreign'; readonly why: 'not-written-here' | 'modified' | 'record-unreadable' };

/**
 * The origin of the handoff at `relativePath` under `projectRoot` whose text is `markdown`. The path
 * compared is the project root's real path joined with the relative path as used (no link in the
 * handoff directory is followed: a directory linked to another repository's handoffs is not ours).
 */
export function handoffOrigin(stateDir: string, projectRoot: string, relativePath: string, markdown: string): HandoffOrigin {
  let root: string;
  try {
    root = realpathSync(projectRoot);
  } catch {
    return { kind: 'foreign', why: 'not-written-here' };
  }
  const path = join(root, relativePath);
  let text: string | undefined;
  try {
    text = readRegularFileSync(join(stateDir, HANDOFF_RECORDS_DIR, recordName(path)), MAX_RECORD_BYTES)?.text;
  } catch {
    return { kind: 'foreign', why: 'record-unreadable' };
  }
  if (text === undefined) return { kind: 'foreign', why: 'not-written-here' };
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch {
    return { kind: 'foreign', why: 'record-unreadable' };
  }
  if (typeof record !== 'object' || record === null) return { kind: 'foreign', why: 'record-unreadable' };
  const { path: recordedPath, sha256 } = record as { path?: unknown; sha256?: unknown };
  if (recordedPath !== path || typeof sha256 !== 'string') return { kind: 'foreign', why: 'record-unreadable' };
  return sha256 === handoffDigest(markdown) ? { kind: 'ours' } : { kind: 'foreign', why: 'modified' };
}

/** The one-line notice naming a foreign handoff (the path as one code span; nothing of its content). */
export function foreignHandoffNotice(relativePath: string, why: Extract<HandoffOrigin, { kind: 'foreign' }>['why']): string {
  const reason =
    why === 'modified'
      ? 'was changed after agent-checkpoint wrote it'
      : why === 'record-unreadable'
        ? 'cannot be matched to what agent-checkpoint wrote (its record is unreadable)'
        : 'was not written by agent-checkpoint on this machine (it came with the repository or was planted)';
  return `agent-checkpoint: the handoff ${forMarkdownCode(relativePath)} ${reason}; it was not loaded.`;
}
