import { readFileSync, statSync } from 'node:fs';
import { posix } from 'node:path';
import type { ResolvedConfig } from '../config/config-schema.ts';
import type { CheckpointContext, Observation } from './checkpoint-result.ts';
import { globMatcher } from './glob-match.ts';
import { parsePlanFiles } from './parse-plan-files.ts';

/** Plans larger than this are not read (a plan is a short document; a huge file is a mistake). */
const MAX_PLAN_BYTES = 1024 * 1024;

/** Reads a plan file; undefined when missing or unreadable. Replaceable in tests. */
export type ReadPlanFile = (absolutePath: string) => string | undefined;

export const readPlanFile: ReadPlanFile = (absolutePath) => {
  try {
    const st = statSync(absolutePath);
    if (!st.isFile() || st.size > MAX_PLAN_BYTES) return undefined;
    return readFileSync(absolutePath, 'utf8');
  } catch {
    return undefined;
  }
};

/**
 * Plan drift (seed R7): the active work item's plan names files to change, and none of the turn's
 * changed files is among them. Partial overlap is fine. Skipped without a configured `planDrift`, a
 * slug (the context — `getCheckpoint` fills it from `AGENT_CHECKPOINT_SLUG` —, `planDrift.slug`, or
 * `env.AGENT_CHECKPOINT_SLUG` when an environment is passed), a readable plan, or files listed in it.
 */
export function checkPlanDrift(
  paths: readonly string[],
  context: Pick<CheckpointContext, 'projectRoot' | 'workingSlug'>,
  config: Pick<ResolvedConfig, 'planDrift'>,
  env: Readonly<Record<string, string | undefined>> = {},
  read: ReadPlanFile = readPlanFile,
): Observation[] {
  const drift = config.planDrift;
  if (!drift || paths.length === 0) return [];
  const slug = context.workingSlug ?? drift.slug ?? env['AGENT_CHECKPOINT_SLUG'];
  if (!slug || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(slug) || slug.includes('..')) return [];
  const rel = posix.normalize(drift.path.replaceAll('{slug}', slug));
  if (rel.startsWith('../') || posix.isAbsolute(rel)) return [];
  const text = read(posix.join(context.projectRoot, rel));
  if (text === undefined) return [];
  const planned = parsePlanFiles(text);
  if (planned.length === 0) return [];
  if (paths.some((p) => planned.some((entry) => entryCovers(entry, p)))) return [];
  return [
    {
      kind: 'plan-drift',
      text: `Active work item \`${slug}\` expects changes in different files — verify you are working on the right task`,
      callIds: [],
    },
  ];
}

function entryCovers(entry: string, path: string): boolean {
  if (entry === path) return true;
  if (entry.endsWith('/')) return path.startsWith(entry);
  if (/[*?[{]/.test(entry)) return globMatcher([entry])(path);
  return false;
}
