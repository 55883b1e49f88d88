import { recordCheckpointState } from '@agent-checkpoint/context-checkpoint/monitor-record';
import type { MonitorStateRecord } from './post-tool-types.ts';

/**
 * The monitor's checkpoint-state snapshot into the session's context slot, the record the turn end
 * writes at its readings (seed 004's checkpoint state between turn ends). Its own bundle
 * (`agent-checkpoint-hook-monitor-record.cjs`, ~85 KB: the session-state store, its lock and zod/mini),
 * loaded only when the monitor's throttle says a write is due, because the decision part must not
 * carry zod and the acting part (1.1 MB) costs several times more to load. Never throws.
 */
export function recordMonitorState(record: MonitorStateRecord): Promise<readonly string[]> {
  return recordCheckpointState({ stateDir: record.stateDir, agent: record.agent, sessionId: record.sessionId }, record.snapshot);
}
