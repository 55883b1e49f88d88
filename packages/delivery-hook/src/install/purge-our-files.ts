import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { configCacheDir, resolveStateDir } from '@agent-checkpoint/core';
import { resolveCodeCacheDir } from '../launcher/code-cache-file.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** One directory `uninstall --purge` removes. */
export interface PurgeTarget {
  readonly what: string;
  readonly path: string;
  readonly exists: boolean;
}

/**
 * What `uninstall --purge` removes: the state directory (switches, loop-guard state, trust store,
 * debug log, and the install records with the backups of the settings files we changed), the
 * launcher's code cache and the validated-config cache. Never the user's configuration file, a
 * project's `.agent-checkpoint.json` or handoff documents: those are the user's, not ours.
 */
export function purgeTargets(env: Env): PurgeTarget[] {
  const candidates: Array<[string, string | undefined]> = [
    ['state directory (switches, session state, trust store, install records and settings backups)', resolveStateDir({ env })],
    ['code cache', resolveCodeCacheDir(env)],
    ['configuration cache', configCacheDir(env, undefined)],
  ];
  const targets: PurgeTarget[] = [];
  for (const [what, path] of candidates) {
    if (path === undefined) continue;
    // A cache inside a directory already listed goes with it.
    if (targets.some((t) => isInside(path, t.path))) continue;
    targets.push({ what, path, exists: existsSync(path) });
  }
  return targets;
}

/**
 * Why removing `path` would be a mistake (a directory an environment variable pointed somewhere
 * broad: `/`, the home directory or one of its ancestors), or undefined when it is ours to remove.
 */
export function purgeRefusal(path: string, env: Env): string | undefined {
  const home = resolve(env['HOME'] !== undefined && env['HOME'] !== '' ? env['HOME'] : homedir());
  const target = realOrSame(resolve(path));
  if (target === dirname(target)) return 'is the file system root';
  if (isInside(realOrSame(home), target)) return 'is your home directory or contains it';
  return undefined;
}

/** Remove each existing target (refused ones are skipped); returns the problems, one line each. */
export async function purge(targets: readonly PurgeTarget[], env: Env): Promise<string[]> {
  const problems: string[] = [];
  for (const target of targets) {
    if (!target.exists) continue;
    const refusal = purgeRefusal(target.path, env);
    if (refusal !== undefined) {
      problems.push(`left ${target.path} alone: it ${refusal} (check AGENT_CHECKPOINT_STATE_DIR / AGENT_CHECKPOINT_CACHE_DIR / XDG_*)`);
      continue;
    }
    try {
      await rm(target.path, { recursive: true, force: true });
    } catch (error) {
      problems.push(`cannot remove ${target.path}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return problems;
}

/** `inner` is `outer` or below it. */
function isInside(inner: string, outer: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep));
}

function realOrSame(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Install records still in the state directory after this uninstall: files another install changed
 * (the tmux bin's Codex notify, the project scope of another repository). Purging would lose what
 * restores them, so `--purge` refuses while any is left. Unreadable records count, named by file.
 */
export function remainingInstalls(env: Env): Array<{ readonly path: string; readonly by: string }> {
  const dir = join(resolveStateDir({ env }), 'installs');
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  return names.map((name) => {
    try {
      const record = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { path?: unknown; by?: unknown };
      return { path: typeof record.path === 'string' ? record.path : join(dir, name), by: typeof record.by === 'string' ? record.by : 'unknown' };
    } catch {
      return { path: join(dir, name), by: 'unreadable record' };
    }
  });
}
