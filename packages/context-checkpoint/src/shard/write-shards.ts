import { join } from 'node:path';
import { ensureDirSafelySync } from '@agent-checkpoint/core';
import { AGENT_CHECKPOINT_DIR, ensureAgentCheckpointDir } from '../handoff/agent-checkpoint-dir.ts';
import { FileExistsError, writeNewFile } from '../handoff/write-new-file.ts';
import type { ShardPlan } from './plan-shards.ts';
import { renderShard, shardFileName } from './render-shard.ts';
import { shardDirFor } from './shard-paths.ts';

/** Input of {@link writeShards}. */
export interface WriteShardsInput {
  /** The project (repository) root, absolute. */
  readonly projectRoot: string;
  /** The plan file, project-relative (front matter, and the directory's slug). */
  readonly planPath: string;
  readonly plan: ShardPlan;
  /** Configured parent directory of shard directories (untrusted), default `.agent-checkpoint/shards`. */
  readonly dir?: string;
}

/** What {@link writeShards} did. */
export interface WriteShardsResult {
  /** Project-relative directory of this plan's shards. */
  readonly dir: string;
  /** Project-relative paths written. */
  readonly written: readonly string[];
  /** Files that existed and were left alone (never overwritten: the user may have edited them). */
  readonly kept: readonly string[];
}

/**
 * Write a plan's shards as `<dir>/<plan slug>/NN-<slug>.md` (SHD-001). Each file is written only if
 * it does not exist (write-new-file: atomic, never overwrites a file, never writes through a symlink);
 * an existing one is kept and reported. The directory is created with core's safe helpers: no
 * component may be a symlink. Under `.agent-checkpoint/` the directory's ignore-everything
 * `.gitignore` is created too.
 *
 * @throws ShardPathError for a refused configured directory; UnsafePathError for a symlink or
 *   non-directory on the way; I/O errors as they are.
 */
export async function writeShards(input: WriteShardsInput): Promise<WriteShardsResult> {
  const relDir = shardDirFor(input.planPath, input.dir);
  if (relDir === AGENT_CHECKPOINT_DIR || relDir.startsWith(`${AGENT_CHECKPOINT_DIR}/`)) await ensureAgentCheckpointDir(input.projectRoot);
  const absDir = ensureDirSafelySync(input.projectRoot, relDir, { dirMode: 0o755 });
  const written: string[] = [];
  const kept: string[] = [];
  for (const shard of input.plan.shards) {
    const name = shardFileName(shard);
    const rel = `${relDir}/${name}`;
    try {
      await writeNewFile(join(absDir, name), renderShard(shard, input.plan, input.planPath));
      written.push(rel);
    } catch (error) {
      if (!(error instanceof FileExistsError)) throw error;
      kept.push(rel);
    }
  }
  return { dir: relDir, written, kept };
}
