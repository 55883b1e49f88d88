import { join } from 'node:path';
import { describeReadFailure, readRegularFileSync } from '@agent-checkpoint/core';
import { MAX_SHARD_FILE_BYTES, readShardProgress } from '../shard/read-shard-progress.ts';
import { shardDirFor } from '../shard/shard-paths.ts';

/** Largest plan file read at prompt submit. */
export const MAX_PLAN_FILE_BYTES = 256 * 1024;

/** The plan work in scope now: the plan file, or its current shard once it is sharded (SHD-004). */
export interface PlanTextInScope {
  /** Markdown whose open items are the work in scope (untrusted). */
  readonly text: string;
  /** The plan file (repository-relative, as configured). */
  readonly planFile: string;
  /** The current shard file, when the plan is sharded and a shard is not done. */
  readonly shardFile?: string;
  /** Names a prompt may use for this work: the plan file, and the shard file when there is one. */
  readonly files: readonly string[];
}

/**
 * Read the configured plan and, once it is sharded, its current shard (the first not done): the work
 * the prompt hook and the loop runner estimate. Undefined when the plan file is missing or unreadable
 * (then a diagnostic). Files are read as regular files only, bounded.
 */
export function readPlanInScope(projectRoot: string, planFile: string, diagnostics: string[]): PlanTextInScope | undefined {
  let plan: string | undefined;
  try {
    plan = readRegularFileSync(join(projectRoot, planFile), MAX_PLAN_FILE_BYTES)?.text;
  } catch (error) {
    diagnostics.push(`plan file ${planFile}: ${describeReadFailure(error)}`);
    return undefined;
  }
  if (plan === undefined) return undefined;
  const shard = currentShard(projectRoot, planFile, plan, diagnostics);
  if (shard === undefined) return { text: plan, planFile, files: [planFile] };
  return { text: shard.text, planFile, shardFile: shard.file, files: [planFile, shard.file] };
}

/** The first shard not done of the plan's shard files, with its text; undefined when the plan has no shards. */
function currentShard(projectRoot: string, planFile: string, planText: string, diagnostics: string[]): { readonly file: string; readonly text: string } | undefined {
  try {
    const progress = readShardProgress({ projectRoot, dir: shardDirFor(planFile), planText });
    diagnostics.push(...progress.problems);
    if (progress.current === undefined) return undefined;
    const text = readRegularFileSync(join(projectRoot, progress.current.file), MAX_SHARD_FILE_BYTES)?.text;
    return text === undefined ? undefined : { file: progress.current.file, text };
  } catch (error) {
    diagnostics.push(`shards of ${planFile}: ${describeReadFailure(error)}`);
    return undefined;
  }
}
