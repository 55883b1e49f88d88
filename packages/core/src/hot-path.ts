/**
 * The few core functions a delivery route needs before it knows whether a checkpoint is due: which
 * agent, where state lives, whether checkpoints are switched off, how to log. Routes import these from
 * `@agent-checkpoint/core/hot-path` rather than the package root, because bundled, the root's barrel
 * initialises every core module at first use — about 6 ms that the escape-hatch stop (the one after
 * every block) would pay for nothing.
 */
export { isAgentId, type AgentId } from './agent-id.ts';
export { assertNever } from './timeline/tool-call.ts';
export { refinesTurnId, type TurnTimeline } from './timeline/turn-timeline.ts';
export type { TurnHint } from './transcript/transcript-reader.ts';
export { resolveStateDir } from './state/resolve-state-dir.ts';
export { isTruthyEnv, readOffSwitch } from './state/off-switches.ts';
export { findProjectRoot } from './project-root.ts';
export { checkTurnEndEarly } from './turn-end/early-pass.ts';
export { createRouteLogger, type RouteLogger } from './state/create-route-logger.ts';
export { readConfigBytes } from './config/read-config-bytes.ts';
export { readRegularFileSync } from './state/read-regular-file.ts';
export { readSmallFileSync, sessionStatePath, type SessionStateLocation } from './state/state-files.ts';
export { ensureDirSafelySync, privateEntryProblem, UnsafePathError, writeFileSafelySync } from './fs-safe/safe-write.ts';
export { forModelName, forModelText, forTerminal } from './text-safety/text-safety.ts';
export { toSafeSessionId } from './state/safe-session-id.ts';
export { hasPendingBlockMarker } from './state/pending-block-marker.ts';
export { describeIssues } from './zod-issues.ts';
export { CLI_USER_COMMANDS } from './engine/user-commands.ts';
