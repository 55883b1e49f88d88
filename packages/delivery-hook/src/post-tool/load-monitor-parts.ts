import type { AgentId } from '@agent-checkpoint/core/hot-path';
import type { MonitorActRequest, MonitorActResult, MonitorAfterGate, MonitorAlertRecord, MonitorStateRecord } from './post-tool-types.ts';

/**
 * Set to `true` by build-hook.mjs in every built bundle: the monitor's later parts are then their
 * own files beside the bundle (`agent-checkpoint-hook-monitor-decide.cjs`, `…-record.cjs`, `…-act.cjs`), which the
 * build marks external. Unset when running from source (tests), where the modules are imported.
 *
 * The specifiers are literal on purpose: the packed tarball is checked for references it cannot
 * resolve (e2e pack-contents), and a computed `require(join(__dirname, name))` says nothing a reader
 * or a checker can verify. The condition is written out in each place (not a shared constant) so
 * esbuild sees a constant at parse time and does not bundle the dead branch's source import.
 */
declare const __AGENT_CHECKPOINT_MONITOR_SPLIT__: true | undefined;

/**
 * Load a later part of the monitor only when it is needed: `decide` (transcript tail readers, the
 * decision) once context checkpoints are on, `act` (the full configuration loader, core's pipeline,
 * handoff and git code) when an L2/L3 action is due. So a disabled monitor parses neither, and a tool
 * call that needs no action never parses `act`. Built, they are `require`d: the monitor's bundle is
 * CommonJS and must not start the ES module loader after every tool call.
 */
export async function loadMonitorAfterGate(): Promise<MonitorAfterGate> {
  const part = typeof __AGENT_CHECKPOINT_MONITOR_SPLIT__ !== 'undefined'
    ? (require('./agent-checkpoint-hook-monitor-decide.cjs') as typeof import('./monitor-decide-part.ts'))
    : await import('./monitor-decide-part.ts');
  return part.monitorAfterGate;
}

/** `checkpoint` in the route's form (act-on-monitor.ts), loaded with the acting part: once per session at most, for an L1 alert. */
export async function checkpointCommandLazily(agent: AgentId, env: Readonly<Record<string, string | undefined>>): Promise<string> {
  const part = typeof __AGENT_CHECKPOINT_MONITOR_SPLIT__ !== 'undefined'
    ? (require('./agent-checkpoint-hook-monitor-act.cjs') as typeof import('./act-on-monitor.ts'))
    : await import('./act-on-monitor.ts');
  return part.agentCheckpointCommandOf(agent, env);
}

export async function actOnMonitorLazily(request: MonitorActRequest): Promise<MonitorActResult> {
  const part = typeof __AGENT_CHECKPOINT_MONITOR_SPLIT__ !== 'undefined'
    ? (require('./agent-checkpoint-hook-monitor-act.cjs') as typeof import('./act-on-monitor.ts'))
    : await import('./act-on-monitor.ts');
  return part.actOnMonitor(request);
}

/** Record a delivered L1 warning (act-on-monitor.ts), loaded with the acting part: once per session at most. */
export async function recordMonitorAlertLazily(record: MonitorAlertRecord): Promise<string | undefined> {
  const part = typeof __AGENT_CHECKPOINT_MONITOR_SPLIT__ !== 'undefined'
    ? (require('./agent-checkpoint-hook-monitor-act.cjs') as typeof import('./act-on-monitor.ts'))
    : await import('./act-on-monitor.ts');
  return part.recordMonitorAlert(record);
}

/** Record the checkpoint state (record-monitor-state.ts, its own small part): only when the monitor's throttle says a write is due. */
export async function recordMonitorStateLazily(record: MonitorStateRecord): Promise<readonly string[]> {
  const part = typeof __AGENT_CHECKPOINT_MONITOR_SPLIT__ !== 'undefined'
    ? (require('./agent-checkpoint-hook-monitor-record.cjs') as typeof import('./record-monitor-state.ts'))
    : await import('./record-monitor-state.ts');
  return part.recordMonitorState(record);
}
