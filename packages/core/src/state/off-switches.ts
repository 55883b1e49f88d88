import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { toSafeSessionId } from './safe-session-id.ts';
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
   * of that path, so nothing is ever written into the repository — and a repository cannot switch
   * itself off (or on) by committing a file.
   */
  | { readonly kind: 'project'; readonly projectRoot: string }
  | { readonly kind: 'session'; readonly sessionId: string };

/** True for `1`, `true`, `yes`, `on` (any case); false for unset, empty, `0`, `false`… */
export function isTruthyEnv(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value.trim());
}

/** The file that holds a switch: `<stateDir>/switches/all.off`, `…/project-<digest>.off` or `…/session-<safe id>.off`. */
export function offSwitchPath(stateDir: string, scope: OffSwitchScope): string {
  return join(switchesDir(stateDir), offSwitchFileName(scope));
}

function offSwitchFileName(scope: OffSwitchScope): string {
  switch (scope.kind) {
    case 'all':
      return 'all.off';
    case 'project':
      return `project-${createHash('sha256').update(scope.projectRoot, 'utf8').digest('hex').slice(0, 32)}.off`;
    case 'session':
      return `session-${toSafeSessionId(scope.sessionId)}.off`;
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
  for (const scope of scopes) {
    const path = offSwitchPath(options.stateDir, scope);
    try {
      const text = await readSmallFile(path);
      if (text !== undefined) return { off: true, source: scope.kind, detail: path, diagnostics };
    } catch (error) {
      diagnostics.push(`switch: cannot read ${path}: ${describeReadFailure(error)}`);
      return { off: true, source: scope.kind, detail: path, diagnostics };
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
  const path = offSwitchPath(options.stateDir, options.scope);
  if (!options.off) {
    // Synchronous: node:fs/promises is not loaded by readOffSwitch's callers on the hot path for one rm.
    rmSync(path, { force: true });
    return path;
  }
  await ensurePrivateDir(options.stateDir, 'switches');
  const record = {
    scope: options.scope.kind,
    ...(options.scope.kind === 'session' ? { sessionId: options.scope.sessionId } : {}),
    ...(options.scope.kind === 'project' ? { projectRoot: options.scope.projectRoot } : {}),
    at: (options.now ?? new Date()).toISOString(),
  };
  await writePrivateFileAtomic(options.stateDir, path, `${JSON.stringify(record)}\n`);
  return path;
}
