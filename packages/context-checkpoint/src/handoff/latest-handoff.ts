import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describeReadFailure, readRegularFileSync } from '@agent-checkpoint/core';
import { DEFAULT_HANDOFF_DIR } from '../config/context-config.ts';
import { parseYamlScalar } from './markdown-text.ts';

/** Handoff file names: `YYYY-MM-DD-HHMM.md`, or with a collision suffix `-N`. */
const HANDOFF_NAME = /^(\d{4}-\d{2}-\d{2}-\d{4})(?:-(\d+))?\.md$/;
/** A handoff larger than this is not ours. */
const MAX_HANDOFF_BYTES = 1024 * 1024;

/** Front matter values: scalars, or lists (`modified_files`). */
export type HandoffFrontMatter = Readonly<Record<string, string | readonly string[]>>;

/** A handoff read back from disk. */
export interface LoadedHandoff {
  readonly path: string;
  /** POSIX path relative to the project root. */
  readonly relativePath: string;
  readonly name: string;
  readonly markdown: string;
  readonly frontMatter: HandoffFrontMatter;
  readonly mtimeMs: number;
}

/** Options of {@link latestHandoff}. */
export interface LatestHandoffOptions {
  /** Repo-relative handoff directory (default `.agent-checkpoint/handoffs`). */
  readonly dir?: string;
  /** With `maxAgeMs`: handoffs modified longer ago than this are ignored (SessionStart should not resurrect old ones). */
  readonly now?: Date;
  readonly maxAgeMs?: number;
  /**
   * Told about every handoff-named entry that was skipped (not a regular file — a FIFO is never waited
   * on —, over 1 MiB, or unreadable), so commands can say why no handoff was found.
   */
  readonly onSkipped?: (diagnostic: string) => void;
  /**
   * Whether a readable handoff may be returned; a rejected one is passed over for the next newest
   * (session start and `resume-prompt` take only handoffs this installation wrote: `handoff-provenance.ts`).
   */
  readonly accept?: (handoff: LoadedHandoff) => boolean;
}

/**
 * The newest handoff in the handoff directory, by file name (`2026-01-07-1145-2` after
 * `2026-01-07-1145`), or undefined when there is none (or none young enough). Unreadable or
 * oversized files, and special files (FIFOs, sockets, devices: refused at once, never waited on), are
 * skipped in favour of the next newest and reported to `onSkipped`. Never throws.
 */
export async function latestHandoff(projectRoot: string, options: LatestHandoffOptions = {}): Promise<LoadedHandoff | undefined> {
  const dirRel = options.dir ?? DEFAULT_HANDOFF_DIR;
  const dir = join(projectRoot, dirRel);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return undefined;
  }
  const candidates = names
    .map((name) => ({ name, match: HANDOFF_NAME.exec(name) }))
    .filter((c): c is { name: string; match: RegExpExecArray } => c.match !== null)
    .map((c) => ({ name: c.name, stamp: c.match[1] as string, n: c.match[2] === undefined ? 1 : Number(c.match[2]) }))
    .sort((a, b) => (a.stamp === b.stamp ? a.n - b.n : a.stamp < b.stamp ? -1 : 1));
  for (let i = candidates.length - 1; i >= 0; i -= 1) {
    const candidate = candidates[i] as (typeof candidates)[number];
    const path = join(dir, candidate.name);
    const read = readHandoffFile(path, options.onSkipped);
    if (!read) continue;
    if (options.maxAgeMs !== undefined && (options.now ?? new Date()).getTime() - read.mtimeMs > options.maxAgeMs) return undefined;
    const loaded: LoadedHandoff = {
      path,
      relativePath: `${dirRel.replace(/\/+$/, '')}/${candidate.name}`,
      name: candidate.name.replace(/\.md$/, ''),
      markdown: read.text,
      frontMatter: parseHandoffFrontMatter(read.text),
      mtimeMs: read.mtimeMs,
    };
    if (options.accept !== undefined && !options.accept(loaded)) continue;
    return loaded;
  }
  return undefined;
}

/**
 * The front matter of a handoff we wrote: `key: value` lines and `key:` followed by `  - item`
 * lines, between the opening and closing `---`. Not a general YAML parser; anything else is skipped.
 */
export function parseHandoffFrontMatter(markdown: string): HandoffFrontMatter {
  const lines = markdown.split(/\r?\n/);
  if (lines[0] !== '---') return {};
  const out: Record<string, string | string[]> = {};
  let listKey: string | undefined;
  for (const line of lines.slice(1)) {
    if (line === '---') break;
    const item = /^\s+-\s(.*)$/.exec(line);
    if (item && listKey !== undefined) {
      (out[listKey] as string[]).push(parseYamlScalar(item[1] as string));
      continue;
    }
    const pair = /^([A-Za-z_][A-Za-z0-9_]*):(?:\s(.*))?$/.exec(line);
    if (!pair) continue;
    const key = pair[1] as string;
    const value = (pair[2] ?? '').trim();
    if (value === '') {
      out[key] = [];
      listKey = key;
    } else {
      out[key] = value === '[]' ? [] : parseYamlScalar(value);
      listKey = undefined;
    }
  }
  return out;
}

function readHandoffFile(path: string, onSkipped: LatestHandoffOptions['onSkipped']): { text: string; mtimeMs: number } | undefined {
  try {
    // Undefined: deleted since the directory listing.
    return readRegularFileSync(path, MAX_HANDOFF_BYTES);
  } catch (error) {
    onSkipped?.(`handoff: skipped ${path}: ${describeReadFailure(error)}`);
    return undefined;
  }
}
