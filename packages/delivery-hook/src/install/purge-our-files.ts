import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { readdir, rm, rmdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { configCacheDir, readRegularFileSync, resolveStateDir } from '@agent-checkpoint/core';
import { CACHE_DIR_ENV, resolveCodeCacheDir } from '../launcher/code-cache-file.ts';
import { isOurCodeCacheEntry, isOurStateEntry } from './our-state-entries.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** An install record is a few hundred bytes; anything far larger is not one of ours. */
const MAX_RECORD_BYTES = 1024 * 1024;

/** What of a target `uninstall --purge` removes. */
export type PurgeScope =
  /** A directory we named (`…/agent-checkpoint`, `…/agent-checkpoint/config`): removed whole. */
  | { readonly kind: 'directory' }
  /**
   * A directory the user chose (`AGENT_CHECKPOINT_STATE_DIR`, `AGENT_CHECKPOINT_CACHE_DIR`), possibly
   * one of their own with their files in it: only the entries we create there are removed (by name,
   * see our-state-entries.ts), and the directory itself only when that leaves it empty.
   */
  | { readonly kind: 'our-entries'; readonly isOurs: (name: string) => boolean };

/** One directory `uninstall --purge` removes, or removes our entries from. */
export interface PurgeTarget {
  readonly what: string;
  readonly path: string;
  readonly exists: boolean;
  readonly scope: PurgeScope;
}

/** What {@link purge} did beyond the listing: problems (exit 1) and notes (directories kept, and why). */
export interface PurgeReport {
  readonly problems: readonly string[];
  readonly notes: readonly string[];
}

/**
 * What `uninstall --purge` removes: the state directory (switches, loop-guard state, trust store,
 * debug log, and the install records with the backups of the settings files we changed), the
 * launcher's code cache and the validated-config cache. Never the user's configuration file, a
 * project's `.agent-checkpoint.json` or handoff documents: those are the user's, not ours. A state or
 * code cache directory named by its environment variable may be a directory of the user's own: there
 * only the entries we create are removed, and the directory only when nothing else is left in it.
 */
export function purgeTargets(env: Env): PurgeTarget[] {
  const stateDir = resolveStateDir({ env });
  const codeCache = resolveCodeCacheDir(env);
  const candidates: Array<[string, string | undefined, PurgeScope]> = [
    [
      'state directory (switches, session state, trust store, install records and settings backups)',
      stateDir,
      // Chosen by the environment variable when it resolves elsewhere without it.
      stateDir !== resolveStateDir({ env: { ...env, AGENT_CHECKPOINT_STATE_DIR: undefined } }) ? { kind: 'our-entries', isOurs: isOurStateEntry } : { kind: 'directory' },
    ],
    [
      'code cache',
      codeCache,
      codeCache !== undefined && codeCache !== resolveCodeCacheDir({ ...env, [CACHE_DIR_ENV]: undefined }) ? { kind: 'our-entries', isOurs: isOurCodeCacheEntry } : { kind: 'directory' },
    ],
    ['configuration cache', configCacheDir(env, undefined), { kind: 'directory' }],
  ];
  const targets: PurgeTarget[] = [];
  for (const [what, path, scope] of candidates) {
    if (path === undefined) continue;
    // A cache inside a directory already listed whole goes with it.
    if (targets.some((t) => t.scope.kind === 'directory' && isInside(path, t.path))) continue;
    targets.push({ what, path, exists: existsSync(path), scope });
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

/** Remove each existing target (refused ones are skipped): what went wrong, and the directories kept. */
export async function purge(targets: readonly PurgeTarget[], env: Env): Promise<PurgeReport> {
  const problems: string[] = [];
  const notes: string[] = [];
  for (const target of targets) {
    if (!target.exists) continue;
    const refusal = purgeRefusal(target.path, env);
    if (refusal !== undefined) {
      problems.push(`left ${target.path} alone: it ${refusal} (check AGENT_CHECKPOINT_STATE_DIR / AGENT_CHECKPOINT_CACHE_DIR / XDG_*)`);
      continue;
    }
    try {
      switch (target.scope.kind) {
        case 'directory':
          // A symlink here is removed itself, never followed (rm does not descend into a link).
          await rm(target.path, { recursive: true, force: true });
          break;
        case 'our-entries': {
          const kept = await removeOurEntries(target.path, target.scope.isOurs);
          if (kept > 0) notes.push(`kept ${target.path}: it holds ${kept} ${kept === 1 ? 'entry that is' : 'entries that are'} not ours`);
          break;
        }
      }
    } catch (error) {
      problems.push(`cannot remove ${target.path}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { problems, notes };
}

/** Remove the entries of `dir` that are ours, then `dir` when nothing else is left; returns the count of others. */
async function removeOurEntries(dir: string, isOurs: (name: string) => boolean): Promise<number> {
  const names = await readdir(dir);
  let others = 0;
  for (const name of names) {
    if (isOurs(name)) await rm(join(dir, name), { recursive: true, force: true });
    else others += 1;
  }
  if (others === 0) await rmdir(dir);
  return others;
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
      // The state's read: a record planted as a FIFO, a link or a huge file is unreadable, never waited on.
      const text = readRegularFileSync(join(dir, name), MAX_RECORD_BYTES)?.text;
      if (text === undefined) throw new Error('vanished');
      const record = JSON.parse(text) as { path?: unknown; by?: unknown };
      return { path: typeof record.path === 'string' ? record.path : join(dir, name), by: typeof record.by === 'string' ? record.by : 'unknown' };
    } catch {
      return { path: join(dir, name), by: 'unreadable record' };
    }
  });
}
