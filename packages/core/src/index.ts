export * from './agent-id.ts';
export * from './timeline/tool-call.ts';
export * from './timeline/turn-timeline.ts';
export * from './timeline/make-output-excerpt.ts';
export * from './timeline/merge-calls-by-time.ts';
export * from './transcript/transcript-reader.ts';
export * from './transcript/resolve-latest-usage-request.ts';
export * from './transcript/read-jsonl-tail.ts';
export * from './transcript/delivered-message.ts';
export * from './transcript/walk-subagent-transcripts.ts';
export type * from './config/config-schema.ts';
export type * from './git/changed-file.ts';
export type * from './engine/checkpoint-result.ts';
export type * from './get-checkpoint-types.ts';
export { resolveStateDir, STATE_DIR_ENV, type ResolveStateDirOptions } from './state/resolve-state-dir.ts';
export { toSafeSessionId } from './state/safe-session-id.ts';
export * from './state/session-state.ts';
export * from './state/loop-guard.ts';
export { readSessionState, updateSessionState, errorMessage, StateLockTimeoutError, DEFAULT_LOCK_WAIT_MS } from './state/session-state-store.ts';
export { createRouteLogger, type RouteLogger } from './state/create-route-logger.ts';
export type { ReadSessionStateResult, UpdateSessionStateOptions, UpdateSessionStateResult } from './state/session-state-store.ts';
export { sessionStatePath, sessionsDir, switchesDir, type SessionStateLocation } from './state/state-files.ts';
export * from './state/claim-checkpoint.ts';
export * from './state/off-switches.ts';
export { readRegularFileSync, describeReadFailure, SymlinkRefusedError, FileTooLargeError, type RegularFileContent } from './state/read-regular-file.ts';
export { pruneStateDir, STATE_MAX_AGE_MS, type PruneStateDirOptions } from './state/prune-state-dir.ts';
export * from './fs-safe/index.ts';
export * from './text-safety/index.ts';
export { parseShellCommand, normalizedText, type ShellSegment, type ShellRedirect } from './shell/parse-shell-command.ts';
export type { ShellWord } from './shell/unwrap-command.ts';
export { matchesEvidence, compileEvidence, validateEvidence, isRegexEvidence, type CompiledEvidence } from './shell/match-evidence.ts';
export { analyzeMutation, type MutationAnalysis, type MutationTarget, type MutationEffect } from './shell/analyze-mutation.ts';
export { analyzeRead } from './shell/analyze-read.ts';
export { DEFAULT_CONFIG, DEFAULT_SOURCE, DEFAULT_PREFIX, DEFAULT_ERROR_PATTERNS, TEST_COMMANDS } from './config/default-config.ts';
export { PRESETS, pickPresets, presetAncestors, type Preset } from './config/presets/index.ts';
export { resolveConfig, configProblems, ConfigResolutionError, type ConfigLayer } from './config/resolve-config.ts';
export { attributeFiles, type AttributeFilesInput } from './engine/attribute-files.ts';
export { runHeuristics } from './engine/run-heuristics.ts';
export { composeMessage, composeGenericMessage, renderEscapeHatch } from './engine/compose-message.ts';
export { categorizeFiles, isDocsOnly, type Categorization, type MatchedCategory } from './engine/categorize-files.ts';
export { toRepoPath, pathKey, type PathBase } from './engine/normalize-path.ts';
export { logWindow } from './engine/log-window.ts';
export { globMatcher } from './engine/glob-match.ts';
export { gapSentence } from './engine/check-verification-gaps.ts';
export { checkPlanDrift } from './engine/check-plan-drift.ts';
export { getCheckpoint, SLUG_ENV } from './get-checkpoint.ts';
export { readGitSnapshot, type ReadGitSnapshotOptions } from './git/read-git-snapshot.ts';
export type { StartSecondCommit, StartSecondEvidence, StartSecondVerdict } from './git/settle-start-second-commits.ts';
export { runGit, type RunGitOptions, type RunGitResult } from './git/run-git.ts';
export type { GitCallProfile } from './git/git-safety.ts';
export { loadConfig, type LoadConfigOptions, type LoadedConfig, type UntrustedProjectConfig } from './config/load-config.ts';
export {
  configDigest,
  readTrustStore,
  recordTrust,
  revokeTrust,
  trustStateOf,
  trustStorePath,
  type TrustEntry,
  type TrustStore,
} from './config/project-config-trust.ts';
export { readConfigBytes, type ConfigBytes } from './config/read-config-bytes.ts';
export { inspectConfigFile, type InspectedConfigFile } from './config/inspect-config-file.ts';
export { privilegedSettings, stripPrivilegedKeys, type PrivilegedKey, type PrivilegedSetting } from './config/strip-privileged-keys.ts';
export { PROJECT_CONFIG_FILE, USER_CONFIG_ENV, findProjectRoot, userConfigPath, configCacheDir } from './config/config-paths.ts';
export { detectPresets, type DetectablePreset } from './config/detect-presets.ts';
// Configuration of the context checkpoint system (seeds 002–004): resolved here with the rest of the
// config; the behaviour lives in @agent-checkpoint/context-checkpoint.
export * from './config/resolve-context-checkpoint-config.ts';
export * from './config/resolve-opt-ins.ts';
export { COMMIT_GATE_TEXT, composeCommitGateMessage } from './engine/commit-gate-text.ts';
export type * from './turn-end/turn-end-extension.ts';
export { runTurnEnd, previewTurnEnd } from './turn-end/run-turn-end.ts';
export type * from './turn-end/turn-end-event.ts';
export type * from './turn-end/turn-end-decision.ts';
export { checkTurnEndEarly, type EarlyTurnEndFacts, type EarlyTurnEndResult, type EarlyTurnEndPassReason } from './turn-end/early-pass.ts';
export { isOwnCheckpoint } from './turn-end/is-own-checkpoint.ts';
export * from './turn-end/turn-end-notice.ts';
export * from './state/claim-notices.ts';
