import type { ContextLevel, ResolvedConfig } from '@agent-checkpoint/core';
import { DEFAULT_TRACKER_SETTINGS, type TrackerSettings } from '../tracker/tracker-settings.ts';
import { DEFAULT_MEMORY_SETTINGS, type MemorySettings } from '../memory-service/memory-settings.ts';
import { SECTION_KEYS } from './section-keys.ts';

/**
 * The resolved settings of this package's config sections (`context-sections.ts` defines and resolves
 * them), their defaults — defined here once — and the typed accessors the package reads them with.
 * No zod and no section module here: a configuration that sets none of the keys never resolves the
 * sections, and the accessors then return these defaults.
 */

/** `runTests` after defaults; only present when enabled with a command. */
export interface ResolvedRunTestsConfig {
  readonly command: string;
  readonly timeoutMs: number;
  /** Undefined: any changed file that is not documentation triggers the run. */
  readonly when?: readonly string[];
}

/** `commitGate` after defaults; only present when enabled. */
export interface ResolvedCommitGateConfig {
  /** Undefined: every file that is not documentation is gated. */
  readonly when?: readonly string[];
}

/** Context monitoring after defaults. Thresholds are percentages with `l1 < l2 < l3`. */
export interface ResolvedContextConfig {
  readonly enabled: boolean;
  /** Overrides the window from the transcript and the model table. */
  readonly windowTokens?: number;
  readonly thresholds: { readonly l1: number; readonly l2: number; readonly l3: number };
  readonly messages: { readonly l1: string; readonly l2: string; readonly l3: string };
}

/** Handoff settings after defaults. */
export interface ResolvedHandoffConfig {
  readonly enabled: boolean;
  /** The level at (or above) which a handoff is written or requested. */
  readonly atLevel: Exclude<ContextLevel, 'L0'>;
  /** Repo-relative directory of handoff documents. */
  readonly dir: string;
  readonly planFile?: string;
}

/** Git hooks a WIP commit or push can reach, which the user may name in `directExecution.gitHooks`. */
export const DIRECT_GIT_HOOKS = ['pre-commit', 'prepare-commit-msg', 'commit-msg', 'post-commit', 'pre-push', 'reference-transaction', 'post-index-change'] as const;
export type DirectGitHook = (typeof DIRECT_GIT_HOOKS)[number];

/** Direct execution settings after defaults. */
export interface ResolvedDirectExecutionConfig {
  readonly enabled: boolean;
  /** Repo-relative memory file; undefined means the agent's own (CLAUDE.md, AGENTS.md, GEMINI.md). */
  readonly memoryFile?: string;
  readonly commit: boolean;
  /** Commit changed tracked files with the memory file (default true: the WIP commit carries the work). Untracked files never. */
  readonly includeTrackedChanges: boolean;
  readonly push: boolean;
  /** Retries of a push that failed for a transient reason (network, 5xx), with exponential backoff, within the hook's deadline. */
  readonly pushRetries: number;
  readonly remote: string;
  readonly noVerify: boolean;
  /** The repository's git hooks the commit and push run (default none: see docs/reliability.md, "Writing git processes"). */
  readonly gitHooks: readonly DirectGitHook[];
  readonly commitMessage: string;
  readonly logFile?: string;
  readonly timeoutMs: number;
  /**
   * A running loop (`loop start` in this project, a flag in the state directory) turns direct
   * execution on for its duration, when `enabled` is false (seed 003's autonomous mode; default false:
   * opt-in like direct execution itself).
   */
  readonly duringLoop: boolean;
}

/** Default threshold percentages (seed 004: L1 70 %, L2 85 %, L3 95 %). */
export const DEFAULT_CONTEXT_THRESHOLDS = { l1: 70, l2: 85, l3: 95 } as const;

/**
 * Seed 004's alert texts (section "Alert Messages"), defined once: the defaults of both the Stop
 * route's context lines ({@link DEFAULT_CONTEXT_MESSAGES}) and the monitor's alerts during the turn
 * (`DEFAULT_MONITOR_ALERTS`). Placeholders: `{percent}` (rounded down), `{level}`,
 * `{checkpointCommand}`. Two commands are renamed to what this project ships: the seed's `/handoff`
 * is `{checkpointCommand}` here — the `checkpoint` command as the agent runs it with its shell tool on
 * the route that delivers the line (a slash command exists on some routes only, and a model cannot
 * type one) — and the seed's `/orient` has no counterpart (the session-start hook resumes the handoff
 * by itself). The L2 text's
 * Linear line is the monitor's separate `issue` template, added only when an issue is known.
 */
export const SEED_ALERT_TEXTS = {
  l1: '⚠️ Context at {percent}% - Consider completing current task before starting new work.\nRun `{checkpointCommand}` to checkpoint, or continue if task is nearly complete.',
  l2: '🔶 Context at {percent}% - Initiating checkpoint sequence.\nCompleting current edit, then generating handoff document.',
  l3: '🔴 Context at {percent}% - Emergency checkpoint!\nCommitting WIP changes and generating handoff NOW.\nThe next session resumes from the handoff.',
} as const;

/**
 * Default message lines of the Stop route's context step: the seed's alert texts.
 * Placeholders: `{percent}`, `{level}`, `{tokens}`, `{window}`, `{remaining}`, `{checkpointCommand}`.
 */
export const DEFAULT_CONTEXT_MESSAGES: { readonly l1: string; readonly l2: string; readonly l3: string } = SEED_ALERT_TEXTS;

/** Default handoff directory, relative to the repository root. */
export const DEFAULT_HANDOFF_DIR = '.agent-checkpoint/handoffs';

/**
 * Default WIP commit message (first line is the subject): seed 004's "[WIP] ANV-123 - checkpoint",
 * with the trigger after it. On a branch without an issue id `{issue} - ` is dropped.
 */
export const DEFAULT_COMMIT_MESSAGE = '[WIP] {issue} - checkpoint at {trigger}\n\nAutomatic checkpoint by agent-checkpoint ({agent}).\nHandoff: {handoff}\n';

export const DEFAULT_CONTEXT_CONFIG: ResolvedContextConfig = {
  enabled: false,
  thresholds: DEFAULT_CONTEXT_THRESHOLDS,
  messages: DEFAULT_CONTEXT_MESSAGES,
};

export const DEFAULT_HANDOFF_CONFIG: ResolvedHandoffConfig = {
  enabled: false,
  atLevel: 'L2',
  dir: DEFAULT_HANDOFF_DIR,
};

export const DEFAULT_DIRECT_EXECUTION_CONFIG: ResolvedDirectExecutionConfig = {
  enabled: false,
  commit: true,
  // Seed 004: the L2 WIP commit carries the work, not only the memory file (untracked files never).
  includeTrackedChanges: true,
  push: false,
  pushRetries: 2,
  remote: 'origin',
  noVerify: false,
  gitHooks: [],
  commitMessage: DEFAULT_COMMIT_MESSAGE,
  timeoutMs: 30_000,
  // Opt-in like `enabled`: an existing loop must not start committing after an upgrade.
  duringLoop: false,
};

/** The three settings objects, fully defaulted. */
export interface ContextCheckpointConfig {
  readonly context: ResolvedContextConfig;
  readonly handoff: ResolvedHandoffConfig;
  readonly directExecution: ResolvedDirectExecutionConfig;
}

/** Default time limit of the hook's test run. */
export const DEFAULT_RUN_TESTS_TIMEOUT_MS = 60_000;

/** The `context` section's value: context levels, handoffs and direct execution, resolved together. */
const CONTEXT_DEFAULTS: ContextCheckpointConfig = {
  context: DEFAULT_CONTEXT_CONFIG,
  handoff: DEFAULT_HANDOFF_CONFIG,
  directExecution: DEFAULT_DIRECT_EXECUTION_CONFIG,
};

/** Each section's value when no layer sets it; `runTests` and `commitGate` are off (undefined). */
export const SECTION_DEFAULTS = {
  context: CONTEXT_DEFAULTS,
  runTests: undefined as ResolvedRunTestsConfig | undefined,
  commitGate: undefined as ResolvedCommitGateConfig | undefined,
  tracker: DEFAULT_TRACKER_SETTINGS as TrackerSettings,
  memory: DEFAULT_MEMORY_SETTINGS as MemorySettings,
} as const;

/** The value type of each of this package's sections. */
export interface SectionValues {
  readonly context: ContextCheckpointConfig;
  readonly runTests: ResolvedRunTestsConfig | undefined;
  readonly commitGate: ResolvedCommitGateConfig | undefined;
  readonly tracker: TrackerSettings;
  readonly memory: MemorySettings;
}

function valueOf<K extends keyof SectionValues>(config: Pick<ResolvedConfig, 'sections'>, id: K): SectionValues[K] {
  const value = config.sections?.[id];
  return value === undefined ? SECTION_DEFAULTS[id] : (value as SectionValues[K]);
}

/** Context levels, handoff and direct execution settings of a resolved configuration (defaults when unset). */
export function contextCheckpointConfigOf(config: Pick<ResolvedConfig, 'sections'>): ContextCheckpointConfig {
  return valueOf(config, 'context');
}

/** The hook's own test run: undefined unless enabled with a command (off by default). */
export function runTestsConfigOf(config: Pick<ResolvedConfig, 'sections'>): ResolvedRunTestsConfig | undefined {
  return valueOf(config, 'runTests');
}

/** The uncommitted-changes gate: undefined unless enabled (off by default). */
export function commitGateConfigOf(config: Pick<ResolvedConfig, 'sections'>): ResolvedCommitGateConfig | undefined {
  return valueOf(config, 'commitGate');
}

/** The issue tracker's settings (seed 004, LIN-001..004): disabled defaults when unset. */
export function trackerSettingsOf(config: Pick<ResolvedConfig, 'sections'>): TrackerSettings {
  return valueOf(config, 'tracker');
}

/** claude-mem's settings (seed 004, MEM-001..006): disabled defaults when unset. */
export function memorySettingsOf(config: Pick<ResolvedConfig, 'sections'>): MemorySettings {
  return valueOf(config, 'memory');
}

/** The services told about a handoff: the issue tracker and claude-mem, each off by default. */
export interface HandoffServiceSettings {
  readonly tracker: TrackerSettings;
  readonly memory: MemorySettings;
}

/** The services' settings of a resolved configuration (both off when unset). */
export function handoffServicesOf(config: Pick<ResolvedConfig, 'sections'>): HandoffServiceSettings {
  return { tracker: trackerSettingsOf(config), memory: memorySettingsOf(config) };
}

/** `config` with the context section's value replaced (e.g. context levels off for one call). */
export function withContextCheckpointConfig(config: ResolvedConfig, value: ContextCheckpointConfig): ResolvedConfig {
  return { ...config, sections: { ...config.sections, context: value } };
}

/** Every key the package's sections claim. */
export const ALL_SECTION_KEYS: readonly string[] = Object.values(SECTION_KEYS).flat();
