import { appendSafelySync, underRoot } from '@agent-checkpoint/core';

/** The steps of a direct checkpoint, in order. */
export type CheckpointStep = 'repository' | 'handoff' | 'memory-file' | 'changes' | 'commit' | 'push' | 'state' | 'rollback' | 'log-file';

/** One logged step. `warning` means the step went on with a caveat; `failed` that it did not succeed. */
export interface CheckpointLogEntry {
  /** ISO-8601 time of the entry. */
  readonly at: string;
  readonly step: CheckpointStep;
  readonly status: 'ok' | 'skipped' | 'warning' | 'failed';
  readonly message: string;
}

/** `[2026-01-07T11:45:00.000Z] commit ok: created 1a2b3c4 (1 path)`: one line per entry. */
export function formatLogEntry(entry: CheckpointLogEntry): string {
  return `[${entry.at}] ${entry.step} ${entry.status}: ${entry.message.replace(/[\r\n]+/g, ' ')}`;
}

/**
 * Append entries to the log file `path` (relative to `root`, or absolute; parents created). Never
 * through a symlink, into a FIFO or device, or outside `root` by `..` (see `fs-safe`): those throw
 * `UnsafePathError`, as do other I/O errors.
 */
export async function appendLogEntries(root: string, path: string, entries: readonly CheckpointLogEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const target = underRoot(root, path);
  appendSafelySync(target.root, target.relPath, `${entries.map(formatLogEntry).join('\n')}\n`, { mode: 0o644, dirMode: 0o755 });
}
