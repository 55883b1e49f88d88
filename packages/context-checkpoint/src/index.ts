/**
 * @agent-checkpoint/context-checkpoint — the context checkpoint system (seeds 002–004), split out of
 * core: context levels, handoffs, direct execution (memory file, WIP commit), the checkpoint store,
 * the hook's own test run and the commit gate. It plugs into core's turn-end pipeline through
 * `TurnEndExtension` (after the decision) and owns every write beyond core's state directory.
 * Routes load it through the `./load` subpath, which imports nothing unless a feature is configured.
 */
export { type CheckpointInput, UnifiedCheckpointSchema } from './checkpoint-state/checkpoint-schema.ts';
export { createCheckpointStore, type PhaseUpdate } from './checkpoint-state/checkpoint-store.ts';
export {
  checkHandoffResponse,
  createHandoffRequest,
  phaseStatusOf,
  truncateSummary,
} from './checkpoint-state/handoff-protocol.ts';
export { type ContextReading, implausibleUsage, readContextLevel } from './context/read-context-level.ts';
export { formatTokens } from './context/render-context-line.ts';
export { truthfulAlert } from './context/truthful-alert.ts';
export { AGENT_CHECKPOINT_DIR } from './handoff/agent-checkpoint-dir.ts';
export { renderResumePrompt } from './handoff/render-resume.ts';
export { runCommitGateAtStop } from './commit-gate/run-commit-gate.ts';
export { sessionContextOf, withSessionContext, type CheckpointStateSnapshot } from './state/session-slots.ts';
export { withDeferral } from './state/session-context.ts';
export { describeCheckpointState, readRecordedCheckpointState, type RecordedCheckpointState } from './state/checkpoint-state-snapshot.ts';
export { writeCheckpointHandoff } from './steps/write-checkpoint-handoff.ts';
export { syncShardsToTracker, type ShardTrackerOutcome } from './steps/shard-tracker-step.ts';
export { configForTurnSoFar, writeManualCheckpoint } from './steps/manual-checkpoint.ts';
export { fetchMemoryResumeExtras, memoryResumeSection } from './steps/memory-step.ts';
export { latestOwnHandoff } from './steps/resume-handoff.ts';
// The context hooks, route-neutral behind one early check; delivery-hook's adapters read the payloads
// and encode the decisions in the agent's format.
export type { ContextHookDecision, ContextHookRun } from './context-hooks/context-hook-run.ts';
export { openContextHook } from './context-hooks/open-context-hook.ts';
export { runSessionStartHook } from './context-hooks/session-start.ts';
export { runPreCompactHook } from './context-hooks/pre-compact.ts';
export { runPromptSubmitHook } from './context-hooks/prompt-submit.ts';
export { readStatuslineStatus, type CheckpointStatus } from './context-hooks/statusline-status.ts';
// Seed 004 EST/SHD/metrics, used by delivery-hook's context commands.
export { estimateContextGrowth } from './context/estimate-context-growth.ts';
export { type KnownContextReading } from './context/read-context-level.ts';
export { forecastNextLevel, type NextLevelForecast } from './monitor/forecast-next-level.ts';
export { estimateTask, type TaskEstimate } from './estimate/estimate-task.ts';
export { readTaskHistory } from './estimate/task-history.ts';
export { renderEstimateWarning } from './estimate/render-estimate.ts';
export { reportFromLog } from './metrics/build-report.ts';
export { renderReport } from './metrics/render-report.ts';
export { recordMetric } from './metrics/record-metric.ts';
export { planShards, type ShardPlan } from './shard/plan-shards.ts';
export { shardDirFor } from './shard/shard-paths.ts';
export { writeShards } from './shard/write-shards.ts';
export { FALLBACK_WINDOW_TOKENS, MAX_PLAN_FILE_BYTES } from './steps/prompt-estimate.ts';
export { failuresFromObservations } from './handoff/failures-from-observations.ts';
export type { HandoffTrigger } from './handoff/handoff-types.ts';
export {
  LOOP_STATE_FILE,
  type LoopState,
  readLoopState,
} from './loop/loop-state.ts';
export { nextLoopIteration, pendingLoopHandoff, startLoop } from './loop/loop-steps.ts';
export { recordLoopResume } from './steps/resume-outcome.ts';
export { estimateLoopNextItem, type LoopNextItem } from './loop/loop-next-item.ts';
export {
  clearAutonomousFlag,
  readAutonomousState,
  withAutonomousMode,
  writeAutonomousFlag,
} from './loop/autonomous-mode.ts';
export { readPlanInScope } from './steps/plan-in-scope.ts';
export { writeHandoff } from './handoff/write-handoff.ts';
export { DEFAULT_ISSUE_PATTERN } from './tracker/tracker-settings.ts';
