import type {
  ContextConfig,
  DirectExecutionConfig,
  HandoffConfig,
  ResolvedConfig,
  ResolvedContextConfig,
  ResolvedDirectExecutionConfig,
  ResolvedHandoffConfig,
} from '../config/config-schema.ts';

/** Default threshold percentages (seed 004: L1 70 %, L2 85 %, L3 95 %). */
export const DEFAULT_CONTEXT_THRESHOLDS = { l1: 70, l2: 85, l3: 95 } as const;

/**
 * Default message lines. Plain text (no emoji): they end up inside the agent's context and in logs.
 * Placeholders: `{percent}`, `{level}`, `{tokens}`, `{window}`, `{remaining}`.
 */
export const DEFAULT_CONTEXT_MESSAGES = {
  l1: 'Context is at {percent}% ({level}). Finish the current task before starting new work; write a handoff if the next task will not fit.',
  l2: 'Context is at {percent}% ({level}). Finish the current edit, then write a handoff (what was done, files in progress, failing commands, next steps) before continuing.',
  l3: 'Context is at {percent}% ({level}). Stop and hand off now: record work in progress and next steps before the context is compacted.',
} as const;

/** Default handoff directory, relative to the repository root. */
export const DEFAULT_HANDOFF_DIR = '.agent-checkpoint/handoffs';

/** Default WIP commit message (first line is the subject). */
export const DEFAULT_COMMIT_MESSAGE = 'checkpoint: WIP at {trigger}\n\nAutomatic checkpoint by agent-checkpoint ({agent}).\nHandoff: {handoff}\n';

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
  includeTrackedChanges: false,
  push: false,
  remote: 'origin',
  noVerify: false,
  commitMessage: DEFAULT_COMMIT_MESSAGE,
  timeoutMs: 30_000,
};

/** The three settings objects, fully defaulted. */
export interface ContextCheckpointConfig {
  readonly context: ResolvedContextConfig;
  readonly handoff: ResolvedHandoffConfig;
  readonly directExecution: ResolvedDirectExecutionConfig;
}

/** Result of {@link resolveContextCheckpointConfig}. */
export interface ResolvedContextCheckpointConfig extends ContextCheckpointConfig {
  /** Problems the schema cannot express (thresholds out of order, paths leaving the repository). */
  readonly diagnostics: readonly string[];
}

/** The part of a configuration file (or preset) this module reads. */
export type ContextCheckpointLayer = {
  readonly context?: ContextConfig | undefined;
  readonly handoff?: HandoffConfig | undefined;
  readonly directExecution?: DirectExecutionConfig | undefined;
};

/**
 * Merge the `context`, `handoff` and `directExecution` objects of configuration layers (lowest
 * priority first) key by key onto the defaults, like `hygiene` and `loopGuard` are merged.
 *
 * `resolveConfig` can call this with its layers (presets included) and store the three results in
 * {@link ResolvedConfig}; until then, callers that hold a `ResolvedConfig` use
 * {@link contextCheckpointConfigOf}. Invalid combinations fall back to the defaults with a
 * diagnostic instead of failing: thresholds that do not strictly increase are all replaced by the
 * defaults; a handoff dir, plan file, memory file or log file that is absolute or leaves the
 * repository (`..`) is dropped.
 */
export function resolveContextCheckpointConfig(layers: readonly (ContextCheckpointLayer | undefined)[]): ResolvedContextCheckpointConfig {
  const diagnostics: string[] = [];
  let context: ContextConfig = {};
  let thresholds: NonNullable<ContextConfig['thresholds']> = {};
  let messages: NonNullable<ContextConfig['messages']> = {};
  let handoff: HandoffConfig = {};
  let direct: DirectExecutionConfig = {};
  for (const layer of layers) {
    if (!layer) continue;
    if (layer.context) {
      context = { ...context, ...definedOnly(layer.context) };
      if (layer.context.thresholds) thresholds = { ...thresholds, ...definedOnly(layer.context.thresholds) };
      if (layer.context.messages) messages = { ...messages, ...definedOnly(layer.context.messages) };
    }
    if (layer.handoff) handoff = { ...handoff, ...definedOnly(layer.handoff) };
    if (layer.directExecution) direct = { ...direct, ...definedOnly(layer.directExecution) };
  }

  let resolvedThresholds: ResolvedContextConfig['thresholds'] = {
    l1: thresholds.l1 ?? DEFAULT_CONTEXT_THRESHOLDS.l1,
    l2: thresholds.l2 ?? DEFAULT_CONTEXT_THRESHOLDS.l2,
    l3: thresholds.l3 ?? DEFAULT_CONTEXT_THRESHOLDS.l3,
  };
  if (!(resolvedThresholds.l1 < resolvedThresholds.l2 && resolvedThresholds.l2 < resolvedThresholds.l3)) {
    diagnostics.push(
      `context.thresholds: l1 < l2 < l3 is required (got ${resolvedThresholds.l1}, ${resolvedThresholds.l2}, ${resolvedThresholds.l3}); using ${DEFAULT_CONTEXT_THRESHOLDS.l1}, ${DEFAULT_CONTEXT_THRESHOLDS.l2}, ${DEFAULT_CONTEXT_THRESHOLDS.l3}`,
    );
    resolvedThresholds = DEFAULT_CONTEXT_THRESHOLDS;
  }

  const resolvedContext: ResolvedContextConfig = {
    enabled: context.enabled ?? false,
    ...(context.windowTokens !== undefined ? { windowTokens: context.windowTokens } : {}),
    thresholds: resolvedThresholds,
    messages: {
      l1: messages.l1 ?? DEFAULT_CONTEXT_MESSAGES.l1,
      l2: messages.l2 ?? DEFAULT_CONTEXT_MESSAGES.l2,
      l3: messages.l3 ?? DEFAULT_CONTEXT_MESSAGES.l3,
    },
  };

  const dir = repoRelative('handoff.dir', handoff.dir, diagnostics) ?? DEFAULT_HANDOFF_DIR;
  const planFile = repoRelative('handoff.planFile', handoff.planFile, diagnostics);
  const resolvedHandoff: ResolvedHandoffConfig = {
    enabled: handoff.enabled ?? false,
    atLevel: handoff.atLevel ?? 'L2',
    dir,
    ...(planFile !== undefined ? { planFile } : {}),
  };

  const memoryFile = repoRelative('directExecution.memoryFile', direct.memoryFile, diagnostics);
  const logFile = repoRelative('directExecution.logFile', direct.logFile, diagnostics);
  const d = DEFAULT_DIRECT_EXECUTION_CONFIG;
  const resolvedDirect: ResolvedDirectExecutionConfig = {
    enabled: direct.enabled ?? d.enabled,
    ...(memoryFile !== undefined ? { memoryFile } : {}),
    commit: direct.commit ?? d.commit,
    includeTrackedChanges: direct.includeTrackedChanges ?? d.includeTrackedChanges,
    push: direct.push ?? d.push,
    remote: direct.remote ?? d.remote,
    noVerify: direct.noVerify ?? d.noVerify,
    commitMessage: direct.commitMessage ?? d.commitMessage,
    ...(logFile !== undefined ? { logFile } : {}),
    timeoutMs: direct.timeoutMs ?? d.timeoutMs,
  };

  return { context: resolvedContext, handoff: resolvedHandoff, directExecution: resolvedDirect, diagnostics };
}

/**
 * The three settings objects of a resolved configuration, with defaults for any that the resolver
 * did not fill. Cheap: no validation, no allocation beyond the result.
 */
export function contextCheckpointConfigOf(config: Pick<ResolvedConfig, 'context' | 'handoff' | 'directExecution'>): ContextCheckpointConfig {
  return {
    context: config.context ?? DEFAULT_CONTEXT_CONFIG,
    handoff: config.handoff ?? DEFAULT_HANDOFF_CONFIG,
    directExecution: config.directExecution ?? DEFAULT_DIRECT_EXECUTION_CONFIG,
  };
}

/** A repo-relative POSIX path, or undefined (with a diagnostic) when it is absolute or leaves the repository. */
function repoRelative(key: string, value: string | undefined, diagnostics: string[]): string | undefined {
  if (value === undefined) return undefined;
  const normalized = value.replace(/\\/g, '/').replace(/\/+$/, '');
  const segments = normalized.split('/');
  // A segment of only dots and spaces holding ".." (".. ", "...") is treated as "..": Windows strips
  // trailing dots and spaces from names, so it would leave the repository there.
  const escapes = segments.some((s) => /^[. ]*\.\.[. ]*$/.test(s));
  if (normalized.startsWith('/') || /^[A-Za-z]:/.test(normalized) || escapes || normalized === '' || normalized === '.') {
    diagnostics.push(`${key}: "${value}" must be a path inside the repository; ignored`);
    return undefined;
  }
  return segments.filter((s) => s !== '.' && s !== '').join('/');
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
