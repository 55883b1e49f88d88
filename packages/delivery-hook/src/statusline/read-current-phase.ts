import { closeSync, constants, fstatSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';

/** Checkpoint files looked at (newest by `updated_at` wins); the status line must stay cheap. */
const MAX_FILES = 32;
/** Bytes read per file; a larger checkpoint is skipped (the status line is no place for a big parse). */
const MAX_BYTES = 64 * 1024;

/**
 * The phase a multi-phase command is in (seed 002's checkpoint store, `agent-checkpoint-hook state`):
 * among `<root>/.agent-checkpoint/state/*.json`, the most recently updated checkpoint that is not
 * completed and has a `state.current_phase`, as `command:phase` (`implement:tests`). Untrusted files
 * in the working tree: read bounded, never through a FIFO (O_NONBLOCK, regular files only), and only
 * the two names are taken, each shown as identifier characters. Undefined when there is none. Never
 * throws.
 */
export function readCurrentPhase(projectRoot: string): string | undefined {
  const dir = join(projectRoot, '.agent-checkpoint', 'state');
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json')).slice(0, MAX_FILES);
  } catch {
    return undefined;
  }
  let best: { at: number; label: string } | undefined;
  for (const name of names) {
    const value = readJson(join(dir, name));
    if (typeof value !== 'object' || value === null) continue;
    const record = value as { command?: unknown; completed_at?: unknown; updated_at?: unknown; state?: { current_phase?: unknown } };
    const phase = record.state?.current_phase;
    if (typeof record.command !== 'string' || typeof phase !== 'string' || record.completed_at !== undefined) continue;
    const at = typeof record.updated_at === 'string' ? Date.parse(record.updated_at) : Number.NaN;
    const label = `${safe(record.command)}:${safe(phase)}`;
    if (label.length > 1 && (best === undefined || (Number.isFinite(at) && at > best.at))) best = { at: Number.isFinite(at) ? at : -Infinity, label };
  }
  return best?.label;
}

function safe(text: string): string {
  return text.replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 40);
}

function readJson(path: string): unknown {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0));
    const info = fstatSync(fd);
    if (!info.isFile() || info.size > MAX_BYTES) return undefined;
    const buffer = Buffer.alloc(info.size);
    const n = readSync(fd, buffer, 0, info.size, 0);
    return JSON.parse(buffer.subarray(0, n).toString('utf8'));
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
