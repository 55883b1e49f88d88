import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describeReadFailure, readRegularFileSync } from '@agent-checkpoint/core';
import { parsePlanItems } from '../estimate/parse-plan-items.ts';
import type { ShardStatus } from './render-shard.ts';
import { checkNoSymlinks, checkRelativeDir } from './shard-paths.ts';

/** Largest shard file read; ours are a few KiB. */
export const MAX_SHARD_FILE_BYTES = 256 * 1024;
/** Shard files read per directory. */
export const MAX_SHARD_FILES = 200;

/** Progress of one shard file. */
export interface ShardProgress {
  /** Project-relative path. */
  readonly file: string;
  /** From the front matter, else from the file name's number. */
  readonly number: number;
  readonly items: number;
  /** Items checked off in the shard file or in the plan. */
  readonly done: number;
  readonly status: ShardStatus;
}

/** Progress of a plan's shards (SHD-004). */
export interface ShardsProgress {
  readonly shards: readonly ShardProgress[];
  readonly items: number;
  readonly done: number;
  /** The first shard not done, which a loop runner works on next; undefined when all are done. */
  readonly current?: ShardProgress;
  /** Files that could not be read (symlinks, too large…), as diagnostics. */
  readonly problems: readonly string[];
}

/** Input of {@link readShardProgress}. */
export interface ReadShardProgressInput {
  readonly projectRoot: string;
  /** Project-relative directory of one plan's shards (`WriteShardsResult.dir`); untrusted. */
  readonly dir: string;
  /** The plan's text: an item checked there counts as done in its shard too. */
  readonly planText?: string;
}

const SHARD_FILE = /^(\d{2,4})-[a-z0-9-]*\.md$/;

/**
 * Read progress from a plan's shard files: an item is done when it is checked in its shard file or,
 * matched by its text, in the plan. A shard is `done` when all its items are; `in-progress` when some
 * are, or its front matter says so (the agent marks the shard it starts); else `pending`.
 *
 * Never follows a symlink (directory components and files) and never throws for the directory's
 * contents: unreadable files are listed in `problems`. A missing directory is no shards.
 *
 * @throws ShardPathError when `dir` is absolute, leaves the project or crosses a symlink.
 */
export function readShardProgress(input: ReadShardProgressInput): ShardsProgress {
  const relDir = checkRelativeDir(input.dir);
  const problems: string[] = [];
  if (!checkNoSymlinks(input.projectRoot, relDir)) return { shards: [], items: 0, done: 0, problems };
  const absDir = join(input.projectRoot, relDir);
  const doneInPlan = new Set(
    input.planText === undefined
      ? []
      : parsePlanItems(input.planText)
          .filter((item) => item.done)
          .map((item) => normalize(item.text)),
  );
  const names = readdirSync(absDir, { withFileTypes: true })
    .filter((entry) => SHARD_FILE.test(entry.name))
    .map((entry) => entry.name)
    .sort()
    .slice(0, MAX_SHARD_FILES);
  const shards: ShardProgress[] = [];
  for (const name of names) {
    const file = `${relDir}/${name}`;
    let text: string | undefined;
    try {
      text = readRegularFileSync(join(absDir, name), MAX_SHARD_FILE_BYTES)?.text;
    } catch (error) {
      problems.push(`${file}: ${describeReadFailure(error)}`);
      continue;
    }
    if (text === undefined) continue; // Removed since the listing.
    const { frontMatter, body } = splitFrontMatter(text);
    const items = parsePlanItems(body);
    const done = items.filter((item) => item.done || doneInPlan.has(normalize(item.text))).length;
    const declared = frontMatter.get('status');
    const status: ShardStatus = done === items.length ? 'done' : done > 0 || declared === 'in-progress' ? 'in-progress' : 'pending';
    const number = Number.parseInt(frontMatter.get('shard') ?? (SHARD_FILE.exec(name)?.[1] as string), 10);
    shards.push({ file, number: Number.isFinite(number) ? number : shards.length + 1, items: items.length, done, status });
  }
  const items = shards.reduce((sum, s) => sum + s.items, 0);
  const done = shards.reduce((sum, s) => sum + s.done, 0);
  const current = shards.find((s) => s.status !== 'done');
  return { shards, items, done, ...(current !== undefined ? { current } : {}), problems };
}

/** Front matter as flat `key: value` pairs (only what we write), and the rest of the file. */
function splitFrontMatter(text: string): { frontMatter: Map<string, string>; body: string } {
  const frontMatter = new Map<string, string>();
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!match) return { frontMatter, body: text };
  for (const line of (match[1] as string).split(/\r?\n/)) {
    // Anchored, one quantifier per span, value trimmed afterwards: linear on hostile lines.
    const kv = /^([a-z_]{1,40}):(.*)$/.exec(line);
    if (kv) frontMatter.set(kv[1] as string, (kv[2] as string).trim());
  }
  return { frontMatter, body: text.slice(match[0].length) };
}

function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}
