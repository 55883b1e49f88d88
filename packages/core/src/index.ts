export { AGENT_IDS, type AgentId, isAgentId } from './agent-id.ts';
export { configCacheDir, PROJECT_CONFIG_FILE, userConfigPath } from './config/config-paths.ts';
export { CONFIG_SCHEMA_URL } from './config/schema-url.ts';
export type {
  ConfigFile,
  ConfigSource,
  ContextLevel,
  ResolvedConfig,
} from './config/config-schema.ts';
// Config sections other packages register (zod-free here; defining one: `@agent-checkpoint/core/config-section`).
export type { ConfigSection, ConfigSectionSource } from './config/config-section.ts';
export { DEFAULT_CONFIG, DEFAULT_PREFIX } from './config/default-config.ts';
export { detectPresets } from './config/detect-presets.ts';
export { inspectConfigFile } from './config/inspect-config-file.ts';
export { loadConfig, type UntrustedProjectConfig } from './config/load-config.ts';
export { pickPresets, presetAncestors, PRESETS } from './config/presets/index.ts';
export { configDigest, readTrustStore, recordTrust, revokeTrust, trustKeyFor, trustStateOf, trustStorePath } from './config/project-config-trust.ts';
export { MAX_CONFIG_BYTES, readConfigBytes } from './config/read-config-bytes.ts';
export { configProblems, resolveConfig } from './config/resolve-config.ts';
export { attributeFiles } from './engine/attribute-files.ts';
export { checkPlanDrift } from './engine/check-plan-drift.ts';
export { gapSentence } from './engine/check-verification-gaps.ts';
export type {
  AttributedFile,
  AttributionReason,
  CategoryMatch,
  CheckpointResult,
  FollowUpMatch,
  Observation,
  ObservationKind,
  RequiredAction,
} from './engine/checkpoint-result.ts';
export { COMMIT_GATE_TEXT, composeCommitGateMessage } from './engine/commit-gate-text.ts';
export { composeMessage } from './engine/compose-message.ts';
export { CLI_USER_COMMANDS, type UserCommands } from './engine/user-commands.ts';
export { globMatcher } from './engine/glob-match.ts';
export { toRepoPath } from './engine/normalize-path.ts';
export { runHeuristics } from './engine/run-heuristics.ts';
export { appendSafelySync, ensureDirSafelySync, underRoot, UnsafePathError, writeFileSafelySync } from './fs-safe/safe-write.ts';
export type { CheckpointOutcome, CheckpointRequest } from './get-checkpoint-types.ts';
export { getCheckpoint } from './get-checkpoint.ts';
export type { ChangedFile, ChangeStatus, GitSnapshot } from './git/changed-file.ts';
export { readGitSnapshot } from './git/read-git-snapshot.ts';
export { runGit, type RunGitResult } from './git/run-git.ts';
export type { GitWriteProfile } from './git/git-safety.ts';
export { gitWriteProfile, readUserGitSettings, receivePackOption } from './git/git-write-profile.ts';
export { formatLineRanges, type LineRange, readChangedLineRanges } from './git/read-changed-line-ranges.ts';
export type { StartSecondCommit } from './git/settle-start-second-commits.ts';
export { findProjectRoot } from './project-root.ts';
export { matchesEvidence } from './shell/match-evidence.ts';
export { parseShellCommand } from './shell/parse-shell-command.ts';
export { claimCheckpoint } from './state/claim-checkpoint.ts';
export { BLOCK_OUTCOME_KINDS } from './state/block-outcomes.ts';
export { settleSwitchedOff } from './state/settle-block-outcome.ts';
export { blockOutcomeReport, type BlockOutcomeReport, type OutcomeCounts } from './state/block-outcome-report.ts';
export { settleBlockAtStop } from './turn-end/settle-block-at-stop.ts';
export { claimNotices } from './state/claim-notices.ts';
export { createRouteLogger, type RouteLogger } from './state/create-route-logger.ts';
export {
  DISABLE_ENV,
  isTruthyEnv,
  offSwitchPath,
  offSwitchPaths,
  type OffSwitchScope,
  type OffSwitchState,
  readOffSwitch,
  setOffSwitch,
} from './state/off-switches.ts';
export { describeReadFailure, FileTooLargeError, readRegularFileBytesSync, readRegularFileSync } from './state/read-regular-file.ts';
export { resolveStateDir } from './state/resolve-state-dir.ts';
export { errorMessage, readSessionState, updateSessionState } from './state/session-state-store.ts';
export { emptySessionState, normalizeTurnId, recordBlock, type SessionState } from './state/session-state.ts';
export { type SessionStateLocation, sessionStatePath } from './state/state-files.ts';
export {
  escapeControls,
  forMarkdownCode,
  forMarkdownLine,
  forModelText,
  forShellArg,
  forTerminal,
  jsonForTerminal,
} from './text-safety/text-safety.ts';
export { excerptText, makeOutputExcerpt } from './timeline/make-output-excerpt.ts';
export { mergeCallsByTime } from './timeline/merge-calls-by-time.ts';
export { latestTaskList, type TaskListItem, taskListFrom } from './timeline/task-list.ts';
export {
  assertNever,
  isFileMutation,
  type ShellToolCall,
  TOOL_KINDS,
  type ToolCall,
  type ToolCallOrigin,
  type ToolKind,
  type ToolOutcome,
} from './timeline/tool-call.ts';
export { emptyTimeline, refinesTurnId, type TimelineDiagnostic, type TokenUsage, type TurnTimeline } from './timeline/turn-timeline.ts';
export {
  type CheckpointMessageTexts,
  deliveredMessageDigest,
  isDeliveredCheckpoint,
  ownCheckpointRule,
  type OwnCheckpointRule,
} from './transcript/delivered-message.ts';
export { type JsonlTailResult, NotARegularFileError, readJsonlTail } from './transcript/read-jsonl-tail.ts';
export {
  noTurnData,
  readTranscriptTurn,
  startTranscriptTurn,
  transcriptMaxBytes,
  transcriptReadFailure,
  type TranscriptTurnFile,
  type TranscriptTurnReader,
  transcriptWording,
  type TurnReadBounds,
  withReadStats,
} from './transcript/read-transcript-turn.ts';
export { noRecordsDiagnostic, type NoRecordsWording, readCutShortDiagnostic, tailReadDiagnostics } from './transcript/tail-read-diagnostics.ts';
export {
  DEFAULT_TRANSCRIPT_MAX_BYTES,
  type LatestUsage,
  type LocateTranscriptRequest,
  type ReadTurnRequest,
  type TranscriptReader,
  type TurnHint,
} from './transcript/transcript-reader.ts';
export {
  emptySubagentWalk,
  type SubagentFileLocation,
  type SubagentFileRead,
  type SubagentReadBounds,
  type SubagentWalkLimits,
  type SubagentWalkResult,
  walkSubagentTranscripts,
} from './transcript/walk-subagent-transcripts.ts';
export { isOwnCheckpoint } from './turn-end/is-own-checkpoint.ts';
export { previewTurnEnd, runTurnEnd } from './turn-end/run-turn-end.ts';
export type { TurnEndDecision, TurnEndPass } from './turn-end/turn-end-decision.ts';
export type { TurnEndEvent } from './turn-end/turn-end-event.ts';
export type { TurnEndExtension, TurnEndExtensionInput } from './turn-end/turn-end-extension.ts';
export { describeIssues } from './zod-issues.ts';
