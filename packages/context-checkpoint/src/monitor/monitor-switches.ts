import { readOffSwitch } from '@agent-checkpoint/core/hot-path';
import type { MonitorSession } from './open-monitor-hook.ts';

/** Result of {@link checkMonitorSwitches}. */
export type MonitorSwitches =
  | { readonly kind: 'switched-off'; readonly detail: string; readonly diagnostics: readonly string[] }
  | { readonly kind: 'on'; readonly diagnostics: readonly string[] };

/**
 * The monitor's early check, second half (the decision bundle, once context checkpoints are on): the
 * off switches with the project root (environment, global, project, session), so `off --project`
 * silences the monitor as it does every hook.
 */
export async function checkMonitorSwitches(session: MonitorSession, stateDir: string, env: Readonly<Record<string, string | undefined>>): Promise<MonitorSwitches> {
  const off = await readOffSwitch({ stateDir, sessionId: session.sessionId, projectRoot: session.projectRoot, env });
  if (off.off) return { kind: 'switched-off', detail: `checkpoints are off (${off.source})`, diagnostics: off.diagnostics };
  return { kind: 'on', diagnostics: off.diagnostics };
}
