import { join } from 'node:path';
import type { monitorAfterGate } from './monitor-after-gate.ts';
import type { MonitorActRequest, MonitorActResult } from './run-post-tool.ts';

/**
 * Set by build-hook.mjs in the monitor's gate bundle: the file names of its two later parts beside
 * it. Unset when running from source (tests), where the modules are imported directly.
 */
declare const __AGENT_CHECKPOINT_MONITOR_PARTS__: { readonly decide: string; readonly act: string } | undefined;

/**
 * Load a later part of the monitor only when it is needed. In the built bin each is its own bundle
 * beside the gate: `decide` (transcript tail readers, the decision) once context checkpoints are on,
 * `act` (the full configuration loader, core's pipeline, handoff and git code) when an L2/L3 action
 * is due. So a disabled monitor parses neither, and a tool call that needs no action never parses `act`.
 */
function loadPart<T>(part: 'decide' | 'act', source: () => Promise<T>): Promise<T> {
  if (typeof __AGENT_CHECKPOINT_MONITOR_PARTS__ === 'object') {
    return Promise.resolve(require(join(__dirname, __AGENT_CHECKPOINT_MONITOR_PARTS__[part])) as T);
  }
  return source();
}

// Computed specifiers: the bundler must not inline the later parts into the gate.
const DECIDE_SOURCE = './monitor-after-gate.ts';
const ACT_SOURCE = './act-on-monitor.ts';

export async function loadMonitorAfterGate(): Promise<typeof monitorAfterGate> {
  const part = await loadPart('decide', () => import(DECIDE_SOURCE) as Promise<typeof import('./monitor-after-gate.ts')>);
  return part.monitorAfterGate;
}

export async function actOnMonitorLazily(request: MonitorActRequest): Promise<MonitorActResult> {
  const part = await loadPart('act', () => import(ACT_SOURCE) as Promise<typeof import('./act-on-monitor.ts')>);
  return part.actOnMonitor(request);
}
