/**
 * `@agent-checkpoint/context-checkpoint/monitor-record`: the monitor's write of seed 004's checkpoint
 * state into the session state (zod's slot schema and the state lock), without the package root. Its
 * own entry so the monitor's writer bundle carries the session-state store only, not the acting
 * part's configuration loader, pipeline and git code (docs/context-checkpoints.md, "Monitor").
 */
export { recordCheckpointState } from './state/checkpoint-state-snapshot.ts';
