import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/** Environment variable that points the state directory somewhere else (tests, sandboxes). */
export const STATE_DIR_ENV = 'AGENT_CHECKPOINT_STATE_DIR';

/** Options of {@link resolveStateDir}. */
export interface ResolveStateDirOptions {
  /** Defaults to `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Defaults to `os.homedir()`. */
  readonly homeDir?: string;
}

/**
 * Where agent-checkpoint keeps its per-session state, switches and debug log:
 * `$AGENT_CHECKPOINT_STATE_DIR`, else `$XDG_STATE_HOME/agent-checkpoint`, else
 * `~/.local/state/agent-checkpoint`.
 *
 * Relative values of either variable are ignored (the XDG spec requires it for `XDG_STATE_HOME`): a
 * hook runs in the session's cwd, so a relative path would scatter state across repositories.
 */
export function resolveStateDir(options: ResolveStateDirOptions = {}): string {
  const env = options.env ?? process.env;
  const explicit = env[STATE_DIR_ENV];
  if (explicit !== undefined && explicit !== '' && isAbsolute(explicit)) return explicit;
  const xdg = env['XDG_STATE_HOME'];
  if (xdg !== undefined && xdg !== '' && isAbsolute(xdg)) return join(xdg, 'agent-checkpoint');
  return join(options.homeDir ?? homedir(), '.local', 'state', 'agent-checkpoint');
}
