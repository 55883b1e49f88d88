import { resolveConfig, type ConfigFile, type ConfigSource, type ResolvedConfig } from '@agent-checkpoint/core';
import { classifyKeys, defineConfigSection, GlobSchema, type ConfigSection } from '@agent-checkpoint/core/config-section';
import { z } from 'zod';
import {
  DEFAULT_CONTEXT_MESSAGES,
  DEFAULT_CONTEXT_THRESHOLDS,
  DEFAULT_DIRECT_EXECUTION_CONFIG,
  DIRECT_GIT_HOOKS,
  DEFAULT_HANDOFF_CONFIG,
  DEFAULT_HANDOFF_DIR,
  DEFAULT_RUN_TESTS_TIMEOUT_MS,
  SECTION_DEFAULTS,
  type ContextCheckpointConfig,
  type ResolvedCommitGateConfig,
  type ResolvedContextConfig,
  type ResolvedDirectExecutionConfig,
  type ResolvedHandoffConfig,
  type ResolvedRunTestsConfig,
} from './context-config.ts';
import { SECTION_KEYS, type SectionId } from './section-keys.ts';
import { DEFAULT_TRACKER_SETTINGS, parseTrackerSettings, type TrackerSettings } from '../tracker/tracker-settings.ts';
import { DEFAULT_MEMORY_SETTINGS, type MemorySettings } from '../memory-service/memory-settings.ts';

/**
 * This package's configuration sections (`context`, `handoff`, `directExecution`, `runTests`,
 * `commitGate`), registered with core's loader through the `./load` manifest: their schemas with
 * the trust classification of every key (docs/configuration.md, "Trust"), and their resolvers.
 * Loads zod: evaluated only when a configuration file sets one of {@link SECTION_KEYS}.
 */

/** Context-window thresholds in percent (see docs/context-checkpoints.md). */
export const ContextThresholdsSchema = classifyKeys(
  z
    .strictObject({
      l1: z.number().gt(0).max(100).optional().describe(`Warning level L1 starts at this percentage (default ${DEFAULT_CONTEXT_THRESHOLDS.l1}).`),
      l2: z.number().gt(0).max(100).optional().describe(`Critical level L2 (hand off) starts at this percentage (default ${DEFAULT_CONTEXT_THRESHOLDS.l2}).`),
      l3: z.number().gt(0).max(100).optional().describe(`Emergency level L3 starts at this percentage (default ${DEFAULT_CONTEXT_THRESHOLDS.l3}).`),
    })
    .describe('Context level thresholds in percent of the context window; must increase from l1 to l3.'),
  {
    l1: 'safe',
    l2: 'safe',
    l3: 'safe',
  },
);

/** Message lines per context level. */
export const ContextMessagesSchema = classifyKeys(
  z
    .strictObject({
      l1: z.string().optional().describe('Line for L1; "{percent}", "{level}", "{tokens}", "{window}", "{remaining}", "{checkpointCommand}" (the checkpoint command as the agent runs it where the hook is installed) are substituted.'),
      l2: z.string().optional().describe('Line for L2 (same placeholders).'),
      l3: z.string().optional().describe('Line for L3 (same placeholders).'),
    })
    .describe('Context level message lines; "" silences a level.'),
  {
    l1: 'safe',
    l2: 'safe',
    l3: 'safe',
  },
);

/** Context monitoring: levels from the transcript's token usage (opt-in). */
export const ContextSchema = classifyKeys(
  z
    .strictObject({
      enabled: z.boolean().optional().describe('Report context levels (default false).'),
      windowTokens: z
        .number()
        .int()
        .min(1000)
        .optional()
        .describe('Context window in tokens; overrides the transcript and the built-in model table.'),
      thresholds: ContextThresholdsSchema.optional(),
      messages: ContextMessagesSchema.optional(),
    })
    .describe('Context monitoring (opt-in).'),
  {
    enabled: 'safe',
    windowTokens: 'safe',
    thresholds: 'nested',
    messages: 'nested',
  },
);

/** Handoff documents written at a context checkpoint (opt-in). */
export const HandoffSchema = classifyKeys(
  z
    .strictObject({
      enabled: z.boolean().optional().describe('Write or request handoff documents (default false).'),
      atLevel: z.enum(['L1', 'L2', 'L3']).optional().describe(`Context level that triggers a handoff (default "${DEFAULT_HANDOFF_CONFIG.atLevel}").`),
      dir: z.string().min(1)
        .optional()
        .describe(`Directory of handoff documents, relative to the repository (default "${DEFAULT_HANDOFF_CONFIG.dir}").`),
      planFile: z.string().min(1).optional().describe('Plan file named under "Next Steps" and "Context To Reload", relative to the repository.'),
    })
    .describe('Handoff documents (opt-in).'),
  {
    enabled: 'safe',
    atLevel: 'safe',
    dir: { privileged: 'a directory the hook writes to' },
    planFile: 'safe',
  },
);

/** Direct checkpoint execution: handoff, memory-file update and WIP commit without asking the agent (opt-in). */
export const DirectExecutionSchema = classifyKeys(
  z
    .strictObject({
      enabled: z.boolean().optional().describe('Execute checkpoints directly instead of asking the agent (default false).'),
      memoryFile: z.string().min(1)
        .optional()
        .describe('Memory file whose "## Last Session" section is updated (default CLAUDE.md / AGENTS.md / GEMINI.md by agent).'),
      commit: z.boolean().optional().describe('Create a WIP commit (default true).'),
      includeTrackedChanges: z
        .boolean()
        .optional()
        .describe(`Also commit already-changed tracked files, so the WIP commit carries the work; untracked files are never committed (default ${DEFAULT_DIRECT_EXECUTION_CONFIG.includeTrackedChanges}).`),
      push: z.boolean().optional().describe('Push the WIP commit when the remote exists (default false).'),
      pushRetries: z
        .number()
        .int()
        .min(0)
        .max(5)
        .optional()
        .describe(`Retries of a push that failed for a transient reason (network, HTTP 5xx), with exponential backoff from 250 ms, never past the hook's deadline; authentication failures and rejections are not retried (default ${DEFAULT_DIRECT_EXECUTION_CONFIG.pushRetries}).`),
      remote: z.string().min(1).optional().describe(`Remote to push to (default "${DEFAULT_DIRECT_EXECUTION_CONFIG.remote}").`),
      noVerify: z.boolean().optional().describe('Commit and push with --no-verify, skipping the pre-commit, commit-msg and pre-push hooks that gitHooks names (default false).'),
      gitHooks: z
        .array(z.enum(DIRECT_GIT_HOOKS))
        .optional()
        .describe('The repository\'s git hooks the WIP commit and push run, by name (default none: no hook runs, whatever the repository configures).'),
      commitMessage: z.string().min(1)
        .optional()
        .describe('Commit message; "{trigger}", "{agent}", "{handoff}", "{branch}", "{iteration}" and "{issue}" (the branch\'s issue id, tracker.issuePattern; "{issue} - " is dropped when the branch has none) are substituted.'),
      logFile: z.string().min(1).optional().describe('File each step is appended to, relative to the repository (default none).'),
      timeoutMs: z.number().int().min(1000).optional().describe(`Time limit of each git call (default ${DEFAULT_DIRECT_EXECUTION_CONFIG.timeoutMs}).`),
      duringLoop: z
        .boolean()
        .optional()
        .describe(`While a loop runner runs in the project (\`loop start\` until \`loop end\`, or 6 hours without \`loop next\`), execute checkpoints directly even when enabled is false (seed 003's autonomous mode); the other keys still decide what runs (default ${DEFAULT_DIRECT_EXECUTION_CONFIG.duringLoop}).`),
    })
    .describe('Direct checkpoint execution (opt-in): WIP commits are what most users do not want by default.'),
  {
    enabled: { privileged: 'turns on git commits and file writes by the hook, outside the agent\'s sandbox' },
    memoryFile: { privileged: 'a file the hook writes to' },
    commit: { privileged: 'turns on git commit in the user\'s repository' },
    includeTrackedChanges: 'safe',
    push: { privileged: 'turns on git push (network)' },
    pushRetries: 'safe',
    remote: { privileged: 'where git push sends the commit' },
    noVerify: { privileged: 'false runs the pre-commit, commit-msg and pre-push hooks gitHooks names' },
    gitHooks: { privileged: 'runs the repository\'s git hooks of these names outside the agent\'s sandbox' },
    commitMessage: 'safe',
    logFile: { privileged: 'a file the hook appends to' },
    timeoutMs: 'safe',
    duringLoop: { privileged: 'turns on git commits and file writes by the hook while a loop runs' },
  },
);

/** The test run inside the hook (seed 001, opt-in): see docs/context-checkpoints.md, "Opt-ins". */
export const RunTestsSchema = classifyKeys(
  z
    .strictObject({
      enabled: z.boolean().optional().describe('Run the tests inside the hook (default true when "command" is set).'),
      command: z.string().min(1)
        .optional()
        .describe('Command line run with /bin/sh -c in the repository root, e.g. "pnpm test" or "pytest -x -q". It must not wait for input or watch files.'),
      timeoutMs: z
        .number()
        .int()
        .min(1000)
        .optional()
        .describe(
          `Time limit; the command and its children are killed past it (default ${DEFAULT_RUN_TESTS_TIMEOUT_MS}). Keep it below the hook deadline (AGENT_CHECKPOINT_HOOK_DEADLINE_MS, default 8000) and the agent's hook timeout: the run adds its duration to every turn end.`,
        ),
      when: z
        .array(GlobSchema)
        .optional()
        .describe('Globs: run only when a file changed this turn matches one (default: any changed file that is not documentation).'),
    })
    .describe('Run the tests at the end of a turn and report "Tests: N passed" or the failing output (opt-in, off by default).'),
  {
    enabled: { privileged: 'turns on a command run by the hook' },
    command: { privileged: 'a shell command the hook runs outside the agent\'s sandbox' },
    timeoutMs: 'safe',
    when: 'safe',
  },
);

/** The uncommitted-changes gate (seed 001, opt-in): see docs/context-checkpoints.md, "Opt-ins". */
export const CommitGateSchema = classifyKeys(
  z
    .strictObject({
      enabled: z.boolean().optional().describe('Block once more for uncommitted work (default true when this object is present).'),
      when: z
        .array(GlobSchema)
        .optional()
        .describe('Globs of gated files (default: every file that is not documentation).'),
    })
    .describe(
      'After a checkpoint blocked a turn, block the next stop of that turn once more while gated files are uncommitted (opt-in, off by default; hook route only).',
    ),
  {
    enabled: 'safe',
    when: 'safe',
  },
);

/**
 * The issue tracker (seed 004, LIN-001..004): a comment on the branch's issue at L2, plus state and
 * label at L3. Off by default. Everything that decides whether or what data leaves the machine is
 * privileged: an untrusted project file cannot turn it on or choose which environment variable's
 * value is sent. There is deliberately no endpoint key (see `tracker-settings.ts`).
 */
export const TrackerSchema = classifyKeys(
  z
    .strictObject({
      enabled: z.boolean().optional().describe('Update the issue tracker at L2/L3 checkpoints (default false).'),
      provider: z.literal('linear').optional().describe('Issue tracker (only "linear").'),
      apiKeyEnv: z
        .string()
        .regex(/^[A-Z][A-Z0-9_]{0,63}$/)
        .refine((v) => v.includes('LINEAR'), 'must contain LINEAR (the key is sent to Linear)')
        .optional()
        .describe(`Environment variable holding the Linear API key; its name must contain LINEAR (default "${DEFAULT_TRACKER_SETTINGS.apiKeyEnv}").`),
      issuePattern: z.string().min(1).max(200).optional().describe('Regular expression finding the issue id in the branch name (default: a team key and a number, "ANV-123").'),
      commentOn: z.array(z.enum(['L2', 'L3'])).max(2).optional().describe(`Levels that post a checkpoint comment (default ${JSON.stringify(DEFAULT_TRACKER_SETTINGS.commentOn)}).`),
      l3State: z.string().min(1).max(100).optional().describe('Workflow state the issue moves to at L3 (default: unchanged).'),
      l3Label: z.string().min(1).max(80).optional().describe(`Label added at L3 (default "${DEFAULT_TRACKER_SETTINGS.l3Label}").`),
      shardDoneState: z
        .string()
        .min(1)
        .max(100)
        .optional()
        .describe(`Workflow state a shard's sub-issue moves to when the shard is done (checked on each \`shard\` run and, with handoff.planFile, each \`loop next\`; default "${DEFAULT_TRACKER_SETTINGS.shardDoneState}").`),
      timeoutMs: z.number().int().min(200).max(30_000).optional().describe(`Budget of one tracker operation (default ${DEFAULT_TRACKER_SETTINGS.timeoutMs}).`),
    })
    .describe('Issue tracker updates at context checkpoints (opt-in; sends data to Linear).'),
  {
    enabled: { privileged: 'sends checkpoint data (level, handoff path, branch, HEAD) off the machine to Linear' },
    provider: 'safe',
    apiKeyEnv: { privileged: 'chooses which environment variable is sent as the Authorization header' },
    // Privileged rather than run on a linear-time engine: JavaScript's backtracking engine is the one the
    // documented patterns are written for, and one pattern from a cloned repository (`(a+)+$`) could hold
    // the hook for minutes on a 255-character branch name.
    issuePattern: { privileged: 'a regular expression the hook runs on the branch name; an untrusted one can backtrack for minutes' },
    commentOn: { privileged: 'chooses which checkpoints send data off the machine' },
    l3State: 'safe',
    l3Label: 'safe',
    shardDoneState: 'safe',
    timeoutMs: 'safe',
  },
);

/**
 * claude-mem (seed 004, MEM-001..006): a checkpoint observation saved in the local worker at every
 * L2/L3 handoff, and the "Memory Query (Run First)" section in resume prompts. Off by default;
 * `enabled` is privileged: it writes checkpoint text into the user's own memory store, which later
 * sessions of every project read. There is no address key (the worker's is resolved like claude-mem
 * does, loopback only).
 */
export const MemorySchema = classifyKeys(
  z
    .strictObject({
      enabled: z.boolean().optional().describe('Save a checkpoint observation in claude-mem at L2/L3 handoffs and name the memory queries on resume (default false).'),
      provider: z.literal('claude-mem').optional().describe('Memory service (only "claude-mem").'),
      timeoutMs: z.number().int().min(200).max(10_000).optional().describe(`Budget of one call to the local worker (default ${DEFAULT_MEMORY_SETTINGS.timeoutMs}).`),
    })
    .describe('claude-mem at context checkpoints (opt-in; its local worker only).'),
  {
    enabled: { privileged: "writes checkpoint text into the user's claude-mem store, read by later sessions" },
    provider: 'safe',
    timeoutMs: 'safe',
  },
);

export type TrackerConfig = z.infer<typeof TrackerSchema>;
export type MemoryConfig = z.infer<typeof MemorySchema>;
export type ContextConfig = z.infer<typeof ContextSchema>;
export type HandoffConfig = z.infer<typeof HandoffSchema>;
export type DirectExecutionConfig = z.infer<typeof DirectExecutionSchema>;
export type RunTestsConfig = z.infer<typeof RunTestsSchema>;
export type CommitGateConfig = z.infer<typeof CommitGateSchema>;

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
 * priority first) key by key onto the defaults, like `hygiene` and `loopGuard` are merged: the
 * resolver of {@link CONTEXT_SECTION}. Invalid combinations fall back to the defaults with a
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
    pushRetries: direct.pushRetries ?? d.pushRetries,
    remote: direct.remote ?? d.remote,
    noVerify: direct.noVerify ?? d.noVerify,
    gitHooks: direct.gitHooks ?? d.gitHooks,
    commitMessage: direct.commitMessage ?? d.commitMessage,
    ...(logFile !== undefined ? { logFile } : {}),
    timeoutMs: direct.timeoutMs ?? d.timeoutMs,
    duringLoop: direct.duringLoop ?? d.duringLoop,
  };

  return { context: resolvedContext, handoff: resolvedHandoff, directExecution: resolvedDirect, diagnostics };
}

/**
 * `runTests` after merging: present only when enabled (the default once an object is given) and a
 * command is set. Off by default: the defaults and presets never set it.
 */
export function resolveRunTests(merged: RunTestsConfig | undefined): ResolvedRunTestsConfig | undefined {
  if (merged === undefined || merged.enabled === false || merged.command === undefined) return undefined;
  return {
    command: merged.command,
    timeoutMs: merged.timeoutMs ?? DEFAULT_RUN_TESTS_TIMEOUT_MS,
    ...(merged.when !== undefined ? { when: [...merged.when] } : {}),
  };
}

/** `commitGate` after merging: present only when enabled (the default once an object is given). */
export function resolveCommitGate(merged: CommitGateConfig | undefined): ResolvedCommitGateConfig | undefined {
  if (merged === undefined || merged.enabled === false) return undefined;
  return merged.when !== undefined ? { when: [...merged.when] } : {};
}

/** Merge one key of every layer key by key (later layers win), or undefined when none set it. */
function mergedKey<T extends object>(layers: readonly Readonly<Record<string, unknown>>[], key: string): T | undefined {
  let out: T | undefined;
  for (const layer of layers) {
    const value = layer[key] as T | undefined;
    if (value !== undefined) out = { ...out, ...definedOnly(value) } as T;
  }
  return out;
}

/** Context levels, handoffs and direct execution (seeds 002–004). */
export const CONTEXT_SECTION: ConfigSection<ContextCheckpointConfig> = defineConfigSection<ContextCheckpointConfig>({
  id: 'context',
  schemas: { context: ContextSchema, handoff: HandoffSchema, directExecution: DirectExecutionSchema },
  defaults: SECTION_DEFAULTS.context,
  resolve(layers) {
    const { diagnostics, ...value } = resolveContextCheckpointConfig(layers as readonly ContextCheckpointLayer[]);
    return { value, diagnostics };
  },
});

/** The hook's own test run (seed 001). */
export const RUN_TESTS_SECTION: ConfigSection<ResolvedRunTestsConfig | undefined> = defineConfigSection<ResolvedRunTestsConfig | undefined>({
  id: 'runTests',
  schemas: { runTests: RunTestsSchema },
  defaults: SECTION_DEFAULTS.runTests,
  resolve: (layers) => ({ value: resolveRunTests(mergedKey<RunTestsConfig>(layers, 'runTests')) }),
});

/** The uncommitted-changes gate (seed 001). */
export const COMMIT_GATE_SECTION: ConfigSection<ResolvedCommitGateConfig | undefined> = defineConfigSection<ResolvedCommitGateConfig | undefined>({
  id: 'commitGate',
  schemas: { commitGate: CommitGateSchema },
  defaults: SECTION_DEFAULTS.commitGate,
  resolve: (layers) => ({ value: resolveCommitGate(mergedKey<CommitGateConfig>(layers, 'commitGate')) }),
});

/**
 * The issue tracker: layers merged key by key, then checked by `parseTrackerSettings` (the same
 * checks the hand-written parser applies, e.g. a compilable `issuePattern`); anything invalid
 * leaves the tracker off with a diagnostic.
 */
export const TRACKER_SECTION: ConfigSection<TrackerSettings> = defineConfigSection<TrackerSettings>({
  id: 'tracker',
  schemas: { tracker: TrackerSchema },
  defaults: SECTION_DEFAULTS.tracker,
  resolve(layers) {
    const { settings, diagnostics } = parseTrackerSettings(mergedKey<TrackerConfig>(layers, 'tracker'));
    return { value: settings, diagnostics };
  },
});

/** claude-mem: layers merged key by key onto the disabled defaults. */
export const MEMORY_SECTION: ConfigSection<MemorySettings> = defineConfigSection<MemorySettings>({
  id: 'memory',
  schemas: { memory: MemorySchema },
  defaults: SECTION_DEFAULTS.memory,
  resolve(layers) {
    const merged = mergedKey<MemoryConfig>(layers, 'memory') ?? {};
    const d = DEFAULT_MEMORY_SETTINGS;
    return { value: { enabled: merged.enabled ?? d.enabled, provider: merged.provider ?? d.provider, timeoutMs: merged.timeoutMs ?? d.timeoutMs } };
  },
});

/** Every section of the package, by id (each id's keys are {@link SECTION_KEYS}). */
export const CONTEXT_CHECKPOINT_SECTIONS: { readonly [K in SectionId]: ConfigSection } = {
  context: CONTEXT_SECTION as ConfigSection,
  runTests: RUN_TESTS_SECTION as ConfigSection,
  commitGate: COMMIT_GATE_SECTION as ConfigSection,
  tracker: TRACKER_SECTION as ConfigSection,
  memory: MEMORY_SECTION as ConfigSection,
};

/** The sections of which `present` holds a key. */
export function sectionsFor(present: ReadonlySet<string>): ConfigSection[] {
  return (Object.keys(SECTION_KEYS) as SectionId[])
    .filter((id) => SECTION_KEYS[id].some((key) => present.has(key)))
    .map((id) => CONTEXT_CHECKPOINT_SECTIONS[id]);
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

/** A configuration file with this package's sections, as its tests and tools write one. */
export type ContextCheckpointConfigFile = ConfigFile & {
  readonly context?: ContextConfig;
  readonly handoff?: HandoffConfig;
  readonly directExecution?: DirectExecutionConfig;
  readonly runTests?: RunTestsConfig;
  readonly commitGate?: CommitGateConfig;
  readonly tracker?: TrackerConfig;
  readonly memory?: MemoryConfig;
};

/**
 * `resolveConfig` with every section of this package registered: for tests and tools that build a
 * configuration from layers in memory (the loader registers them from files itself).
 */
export function resolveWithSections(layers: readonly { readonly config: ContextCheckpointConfigFile; readonly source: ConfigSource }[]): ResolvedConfig {
  return resolveConfig(layers, Object.values(CONTEXT_CHECKPOINT_SECTIONS));
}
