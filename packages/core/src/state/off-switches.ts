import { readdirSync, realpathSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { toSafeSessionId } from './safe-session-id.ts';
import { sha256Hex } from './lazy-crypto.ts';
import { describeReadFailure } from './read-regular-file.ts';
import { ensurePrivateDir, readSmallFile, switchesDir, writePrivateFileAtomic } from './state-files.ts';

/** Environment variable that turns every checkpoint off (`1`, `true`, `yes` or `on`). */
export const DISABLE_ENV = 'AGENT_CHECKPOINT_DISABLE';

/** Which switch turned checkpoints off. */
export type OffSwitchSource =
  /** `AGENT_CHECKPOINT_DISABLE` is set. */
  | 'env'
  /** `agent-checkpoint-hook off --all` (the `switches/all.off` file). */
  | 'all'
  /** `agent-checkpoint-hook off --project` (the `switches/project-<digest of the root>.off` file). */
  | 'project'
  /** `agent-checkpoint-hook off --session <id>` (the `switches/session-<id>.off` file). */
  | 'session';

/** Result of {@link readOffSwitch}. */
export type OffSwitchState =
  | { readonly off: false; readonly diagnostics: readonly string[] }
  | { readonly off: true; readonly source: OffSwitchSource; readonly detail: string; readonly diagnostics: readonly string[] };

/** Which switch a command changes. */
export type OffSwitchScope =
  | { readonly kind: 'all' }
  /**
   * Every session whose working directory is in this project. `projectRoot` is the absolute
   * repository root (`findProjectRoot`); the switch lives in the state directory, keyed by a digest
   * of that root's real path (any spelling of the same repository — a symlinked checkout, `..` —
   * finds it), so nothing is ever written into the repository — and a repository cannot switch
   * itself off (or on) by committing a file.
   */
  | { readonly kind: 'project'; readonly projectRoot: string }
  | { readonly kind: 'session'; readonly sessionId: string };

/** True for `1`, `true`, `yes`, `on` (any case); false for unset, empty, `0`, `false`… */
export function isTruthyEnv(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value.trim());
}

/**
 * The file that holds a switch: `<stateDir>/switches/all.off`, `…/project-<digest of the root's real
 * path>.off` or `…/session-<safe id>.off`.
 */
export function offSwitchPath(stateDir: string, scope: OffSwitchScope): string {
  return offSwitchPaths(stateDir, scope)[0]!;
}

/**
 * Every file that can hold a switch, the one {@link setOffSwitch} writes first. A project has two
 * while its root is spelled through a link: the real path's key, then the key of the path as given,
 * which is what switches written before the key was the real path used.
 */
export function offSwitchPaths(stateDir: string, scope: OffSwitchScope): string[] {
  const dir = switchesDir(stateDir);
  switch (scope.kind) {
    case 'all':
      return [join(dir, 'all.off')];
    case 'project':
      return projectKeys(scope.projectRoot).map((key) => join(dir, `project-${sha256Hex(key).slice(0, 32)}.off`));
    case 'session':
      return [join(dir, `session-${toSafeSessionId(scope.sessionId)}.off`)];
  }
}

/** The root's real path, then the root as given when that differs (a root that is gone: as given). */
function projectKeys(projectRoot: string): string[] {
  let real = projectRoot;
  try {
    real = realpathSync.native(projectRoot);
  } catch {
    /* gone or unreadable: the path as given is the only key */
  }
  return real === projectRoot ? [projectRoot] : [real, projectRoot];
}

/** The file-name prefix of each scope's switch files (see {@link offSwitchPaths}). */
const SCOPE_PREFIX: Readonly<Record<OffSwitchScope['kind'], string>> = { all: 'all.', project: 'project-', session: 'session-' };

/**
 * The names in the switches directory, one `readdir` instead of a read per possible switch file: an
 * empty set when the directory does not exist (no switch was ever set). Undefined when it cannot be
 * listed (not a directory, no permission): then each file is read as before, so the reason reaches
 * the diagnostics and an unreadable switch still counts as on.
 */
function switchNames(stateDir: string): ReadonlySet<string> | undefined {
  try {
    return new Set(readdirSync(switchesDir(stateDir)));
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? new Set() : undefined;
  }
}

/**
 * Whether checkpoints are off for this session: the env switch, then the global switch, then the
 * project's switch (when the caller knows the project root), then the session's switch. Switches are agent-independent (a session id identifies one session of one
 * agent) and persist until turned on again. An unreadable switch file counts as "on" (the switch
 * exists) — the user asked for silence. Never throws.
 */
export async function readOffSwitch(options: {
  readonly stateDir: string;
  readonly sessionId?: string | undefined;
  /** The repository root of the session's cwd (`findProjectRoot`), for the project switch. */
  readonly projectRoot?: string | undefined;
  readonly env?: Readonly<Record<string, string | undefined>>;
}): Promise<OffSwitchState> {
  const env = options.env ?? process.env;
  if (isTruthyEnv(env[DISABLE_ENV])) {
    return { off: true, source: 'env', detail: `${DISABLE_ENV}=${env[DISABLE_ENV] ?? ''}`, diagnostics: [] };
  }
  const scopes: OffSwitchScope[] = [{ kind: 'all' }];
  if (options.projectRoot !== undefined) scopes.push({ kind: 'project', projectRoot: options.projectRoot });
  if (options.sessionId !== undefined) scopes.push({ kind: 'session', sessionId: options.sessionId });
  const diagnostics: string[] = [];
  const present = switchNames(options.stateDir);
  for (const scope of scopes) {
    // A scope none of whose files can exist is skipped before its paths are built: a project's key is
    // a digest, and hashing loads node:crypto, which the monitor after every tool call does not need
    // while no project switch is set anywhere.
    if (present !== undefined && ![...present].some((name) => name.startsWith(SCOPE_PREFIX[scope.kind]))) continue;
    for (const path of offSwitchPaths(options.stateDir, scope)) {
      if (present !== undefined && !present.has(basename(path))) continue;
      try {
        const text = await readSmallFile(path);
        if (text !== undefined) return { off: true, source: scope.kind, detail: path, diagnostics };
      } catch (error) {
        diagnostics.push(`switch: cannot read ${path}: ${describeReadFailure(error)}`);
        return { off: true, source: scope.kind, detail: path, diagnostics };
      }
    }
  }
  return { off: false, diagnostics };
}

/** Turn a switch off (`off: true`, checkpoints silenced) or back on. Idempotent. */
export async function setOffSwitch(options: {
  readonly stateDir: string;
  readonly scope: OffSwitchScope;
  readonly off: boolean;
  readonly now?: Date;
}): Promise<string> {
  const [path, ...older] = offSwitchPaths(options.stateDir, options.scope);
  if (!options.off) {
    // Synchronous: node:fs/promises is not loaded by readOffSwitch's callers on the hot path for one rm.
    // Every key: a switch set through this spelling before keys were real paths is on again too.
    for (const file of [path!, ...older]) rmSync(file, { force: true });
    return path!;
  }
  await ensurePrivateDir(options.stateDir, 'switches');
  const record = {
    scope: options.scope.kind,
    ...(options.scope.kind === 'session' ? { sessionId: options.scope.sessionId } : {}),
    ...(options.scope.kind === 'project' ? { projectRoot: options.scope.projectRoot } : {}),
    at: (options.now ?? new Date()).toISOString(),
  };
  await writePrivateFileAtomic(options.stateDir, path!, `${JSON.stringify(record)}\n`);
  return path!;
}
