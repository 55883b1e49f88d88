import { z } from 'zod';
import { globProblem } from './glob-problem.ts';
// Defaults are defined once, where they apply; descriptions (and so schema.json and
// docs/configuration.md, generated from them) quote those values. Both modules are leaves: the
// schema's types are imported by default-config.ts and the transcript reader, so importing those
// would close a circle.
import { DEFAULT_CATEGORY_PRECEDENCE, DEFAULT_FOLLOW_UP_PRECEDENCE, DEFAULT_GIT_TIMEOUT_MS, DEFAULT_HYGIENE, DEFAULT_LOOP_GUARD } from './setting-defaults.ts';
import { DEFAULT_TRANSCRIPT_MAX_BYTES } from '../transcript/transcript-max-bytes.ts';

/**
 * The configuration file schema (`.agent-checkpoint.json`, and the optional user-level file).
 *
 * Authored once here; `pnpm --filter @agent-checkpoint/core build` generates `schema.json` from it for
 * editor completion (`"$schema"`). Objects are strict: an unknown key is a diagnostic, not silently
 * ignored, so typos surface. Every field is optional in the file; {@link ResolvedConfig} is the shape
 * after presets and defaults are merged.
 */

const nonEmpty = z.string().min(1);

/**
 * What a project file may set on its own (docs/configuration.md, "Trust"). Every key of every object
 * below is classified where the object is defined, through {@link classify}; the type makes a key
 * without a classification a compile error, and a test walks the schema and fails on one.
 * - `'safe'`: matched or declarative — globs, evidence patterns (matched, never run), message texts,
 *   numbers and switches that only change what is reported.
 * - `{ privileged: why }`: anything executed, any executable, any write path that may leave the
 *   repository, anything that turns execution, writes outside the reporting path, or the network on.
 *   From a project file such a key applies only after the user trusted that exact file
 *   (`agent-checkpoint-hook trust`); until then it is ignored with a diagnostic. The user-level file
 *   is trusted.
 * - `'nested'`: an object, or an array of objects, whose own keys are classified in its schema.
 */
export type KeyTrust = 'safe' | 'nested' | { readonly privileged: string };

const KEY_TRUST = new WeakMap<object, Readonly<Record<string, KeyTrust>>>();

/**
 * Attach the trust classification of every key of `schema` (see {@link KeyTrust}). Exported as
 * `classifyKeys` for packages that register a configuration section (`config-section.ts`).
 */
export function classify<S extends z.ZodObject>(schema: S, trust: { readonly [K in keyof S['shape']]: KeyTrust }): S {
  KEY_TRUST.set(schema, trust as Readonly<Record<string, KeyTrust>>);
  return schema;
}

/** The classification attached by {@link classify}, or undefined for a schema that has none. */
export function keyTrustOf(schema: object): Readonly<Record<string, KeyTrust>> | undefined {
  return KEY_TRUST.get(schema);
}

const SAFE = 'safe' as const;
const NESTED = 'nested' as const;

/**
 * A glob over repo-relative paths (picomatch). Rejected at load, with the reason, when it cannot
 * match anything: unbalanced brackets, braces or parentheses, an empty range, an absolute path.
 */
export const GlobSchema = nonEmpty
  .check(
    z.superRefine((value: string, ctx) => {
      const problem = globProblem(value);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: `invalid glob "${value}": ${problem}` });
    }),
  )
  .describe('A glob (picomatch) over repo-relative paths; an invalid one is rejected at load.');
const glob = GlobSchema;

/**
 * A command that proves an action was done. Matched against each parsed segment of each successful
 * shell call, after wrappers (`sudo`, `env`, `timeout N`, `bash -lc "…"`, `npx`, `uv run`,
 * `.venv/bin/`…) and env assignments are stripped:
 * - plain form `"make restart"`: the segment's program is `make` and `restart` appears among its
 *   arguments (options may sit between: `make -C . restart`);
 * - regex form `"/^pnpm (run )?test\\b/"`: tested against the normalized segment text.
 * A literal mention such as `echo "make restart"` never matches.
 */
export const EvidenceSchema = nonEmpty.describe(
  'A command that proves the action was done: "make restart" (program + arguments) or "/regex/".',
);

/** A follow-up check that must come after the main evidence (e.g. `make status` after `make restart`). */
export const VerifyStepSchema = classify(
  z
    .strictObject({
      evidence: z.array(EvidenceSchema).min(1).describe('Commands that count as the verification step.'),
      action: nonEmpty.describe('Instruction shown when the main evidence was seen but no verification after it.'),
    })
    .describe('A verification step required after the category evidence (e.g. status after restart).'),
  {
    evidence: SAFE,
    action: SAFE,
  },
);

/** One file category: which changed files it covers and what must follow a change to them. */
export const CategorySchema = classify(
  z
    .strictObject({
      id: z
        .string()
        .regex(/^[a-z0-9][a-z0-9._-]*$/, 'lowercase letters, digits, ".", "_" or "-"')
        .describe('Stable identifier; a later definition with the same id replaces an earlier one.'),
      label: nonEmpty.optional().describe('Name shown in messages (defaults to the id).'),
      include: z
        .array(glob)
        .min(1)
        .describe('Globs (picomatch, real globstar: "src/**/*.py" matches "src/a.py") over repo-relative paths.'),
      exclude: z.array(glob).optional().describe('Globs removed from the category.'),
      action: z
        .string()
        .optional()
        .describe('Instruction for the agent when the category changed. Omit or "" for "no action needed".'),
      evidence: z.array(EvidenceSchema).optional().describe('Commands that show the action was already done.'),
      evidenceAfterLastEdit: z
        .boolean()
        .optional()
        .describe('Evidence counts only after the last edit of a file in this category (default true).'),
      precedence: z.number().int().optional().describe(`Lower comes first in the required actions (default ${DEFAULT_CATEGORY_PRECEDENCE}).`),
      verify: VerifyStepSchema.optional(),
      onlyWhenAlone: z
        .boolean()
        .optional()
        .describe(
          'Match only when every non-docs changed file belongs to this category (e.g. "tests only"). Default false.',
        ),
      triggersFollowUps: z
        .boolean()
        .optional()
        .describe('Whether a match triggers the global follow-ups such as "run tests" (default true).'),
    })
    .describe('A file category.'),
  {
    id: SAFE,
    label: SAFE,
    include: SAFE,
    exclude: SAFE,
    action: SAFE,
    evidence: SAFE,
    evidenceAfterLastEdit: SAFE,
    precedence: SAFE,
    verify: NESTED,
    onlyWhenAlone: SAFE,
    triggersFollowUps: SAFE,
  },
);

/** A global follow-up (log check, tests) triggered when matching categories changed. */
export const FollowUpSchema = classify(
  z
    .strictObject({
      id: z
        .string()
        .regex(/^[a-z0-9][a-z0-9._-]*$/)
        .describe('Stable identifier; a later definition with the same id replaces an earlier one.'),
      action: nonEmpty.describe('Instruction; "{window}" is replaced by the turn length in minutes ("3m").'),
      evidence: z.array(EvidenceSchema).min(1).describe('Commands that show the follow-up was already done.'),
      evidenceAfterLastEdit: z
        .boolean()
        .optional()
        .describe('Evidence counts only after the last edit of a file that triggered it (default true).'),
      precedence: z.number().int().optional().describe(`Lower comes first in the required actions (default ${DEFAULT_FOLLOW_UP_PRECEDENCE}).`),
      triggeredBy: z
        .array(nonEmpty)
        .optional()
        .describe('Category ids that trigger it; "*" means any category that triggers follow-ups (default ["*"]).'),
      except: z.array(nonEmpty).optional().describe('Category ids that never trigger it.'),
    })
    .describe('A follow-up action required when categories changed.'),
  {
    id: SAFE,
    action: SAFE,
    evidence: SAFE,
    evidenceAfterLastEdit: SAFE,
    precedence: SAFE,
    triggeredBy: SAFE,
    except: SAFE,
  },
);

/** Layer-2 enrichment: turns an unresolved failure's output into a specific observation. */
export const ErrorPatternSchema = classify(
  z
    .strictObject({
      id: z
        .string()
        .regex(/^[a-z0-9][a-z0-9._-]*$/)
        .describe('Stable identifier; a later definition with the same id replaces an earlier one.'),
      match: nonEmpty.describe('Substring, or "/regex/flags", searched in the failed call output (head and tail).'),
      message: nonEmpty.describe('One sentence shown as the observation.'),
      commands: z
        .array(EvidenceSchema)
        .optional()
        .describe('Only for failed commands matching one of these (e.g. test runners).'),
    })
    .describe('An error enrichment pattern.'),
  {
    id: SAFE,
    match: SAFE,
    message: SAFE,
    commands: SAFE,
  },
);

/** Every message string, each with a good default. */
export const MessagesSchema = classify(
  z
    .strictObject({
      prefix: z.string().optional().describe('Canonical prefix of every message; also how we recognise our own messages.'),
      header: z.string().optional().describe('First line after the prefix.'),
      changedLabel: z.string().optional().describe('Label of the list of files changed this turn.'),
      actionsHeader: z.string().optional().describe('Heading of the numbered required actions.'),
      actionsFooter: z.array(z.string()).optional().describe('Extra numbered steps appended after the actions.'),
      observationsHeader: z.string().optional().describe('Heading of the observations (things that look wrong).'),
      reminder: z.string().optional().describe('Capture / response-policy reminder shown after the lists.'),
      capture: z
        .string()
        .optional()
        .describe(
          'Closing line asking the agent to capture what is worth keeping (memories, bugs, ideas), after the reminder of every message that is shown (actionable, all clear, no changes). Empty (the default) leaves it out. A turn that changed nothing stays silent whatever this says (silentWhenNoChanges).',
        ),
      escapeHatch: z
        .string()
        .optional()
        .describe(
          'How to turn checkpoints off. Substituted: "{sessionId}"; "{offFile}", the absolute path of the session\'s off-switch file; "{offCommand}", a shell command creating it that an agent can run (mkdir -p … && touch …); "{personOffCommand}", the command a person runs to turn the session off, as the route that delivers the message spells it (agent-checkpoint-hook off --session …, or the plugin command).',
        ),
      allClear: z.string().optional().describe('Shown when everything was done and silentWhenAllClear is false.'),
      noChanges: z.string().optional().describe('Shown when nothing changed and silentWhenNoChanges is false.'),
      generic: z.string().optional().describe('Fallback when the pipeline fails unexpectedly.'),
    })
    .describe('Message strings.'),
  {
    prefix: SAFE,
    header: SAFE,
    changedLabel: SAFE,
    actionsHeader: SAFE,
    actionsFooter: SAFE,
    observationsHeader: SAFE,
    reminder: SAFE,
    capture: SAFE,
    escapeHatch: SAFE,
    allClear: SAFE,
    noChanges: SAFE,
    generic: SAFE,
  },
);

export const HygieneSchema = classify(
  z
    .strictObject({
      editWithoutRead: z.boolean().optional().describe('Observe edits of files not read this turn (default true).'),
      blastRadius: z
        .number()
        .int()
        .min(0)
        .optional()
        .describe(`Observe when changes span at least this many top-level areas; 0 disables (default ${DEFAULT_HYGIENE.blastRadius}).`),
    })
    .describe('Edit hygiene checks.'),
  {
    editWithoutRead: SAFE,
    blastRadius: SAFE,
  },
);

export const PlanDriftSchema = classify(
  z
    .strictObject({
      path: nonEmpty.describe('Plan file, relative to the repo; "{slug}" is replaced by the working slug.'),
      slug: z.string().optional().describe('Working slug (also from AGENT_CHECKPOINT_SLUG).'),
    })
    .describe('Plan drift: observe when no changed file is among the files the plan names.'),
  {
    path: SAFE,
    slug: SAFE,
  },
);

export const LoopGuardSchema = classify(
  z
    .strictObject({
      maxBlocksPerTurn: z.number().int().min(0).optional().describe(`Blocks per real user turn (default ${DEFAULT_LOOP_GUARD.maxBlocksPerTurn}).`),
      minTurnSeconds: z
        .number()
        .min(0)
        .optional()
        .describe(
          `Seconds a turn that already got a checkpoint must wait before it may get another (with maxBlocksPerTurn above 1); every turn's first checkpoint is never delayed (default ${DEFAULT_LOOP_GUARD.minTurnSeconds}, 0 disables).`,
        ),
    })
    .describe('Loop guard.'),
  {
    maxBlocksPerTurn: SAFE,
    minTurnSeconds: SAFE,
  },
);

/** The configuration file as written by a user. */
export const ConfigFileSchema = classify(
  z
    .strictObject({
      $schema: z.string().optional().describe('URL or path of this JSON Schema, for editor completion.'),
      extends: z
        .union([nonEmpty, z.array(nonEmpty)])
        .optional()
        .describe('Preset names ("node", "python", "rust", "go", "docker-compose", "teleclaude"…), merged in order.'),
      detectPresets: z
        .boolean()
        .optional()
        .describe(
          'Apply the presets detected from marker files at the repository root (default true), in addition to those named in "extends". false: only the presets named in "extends". The last file that sets it wins.',
        ),
      enabled: z.boolean().optional().describe('Master switch (default true).'),
      categories: z
        .array(CategorySchema)
        .optional()
        .describe('File categories: which changed files need which action. Merged with presets by id.'),
      disableCategories: z.array(nonEmpty).optional().describe('Category ids (from presets) to drop.'),
      docsPatterns: z
        .array(glob)
        .optional()
        .describe('Globs of files that never need follow-up on their own (docs, notes). A category match wins.'),
      followUps: z
        .array(FollowUpSchema)
        .optional()
        .describe('Actions required whenever certain categories changed (run the tests, check the logs). Merged by id.'),
      errorPatterns: z
        .array(ErrorPatternSchema)
        .optional()
        .describe('Turn an unresolved failure into a specific observation. Tried before the presets\' patterns.'),
      searchCommands: z
        .array(nonEmpty)
        .optional()
        .describe('Programs whose exit code 1 means "nothing found", not an error (a grep without matches did not fail).'),
      hygiene: HygieneSchema.optional(),
      planDrift: PlanDriftSchema.optional(),
      messages: MessagesSchema.optional(),
      silentWhenAllClear: z.boolean().optional().describe('Say nothing when everything was done (default true).'),
      silentWhenNoChanges: z.boolean().optional().describe('Say nothing when no file changed this turn (default true).'),
      loopGuard: LoopGuardSchema.optional(),
      transcriptMaxBytes: z.number().int().min(4096).optional().describe(`Byte cap of the transcript tail read (default ${DEFAULT_TRANSCRIPT_MAX_BYTES}).`),
      gitTimeoutMs: z.number().int().min(100).optional().describe(`Time limit of each git call (default ${DEFAULT_GIT_TIMEOUT_MS}).`),
    })
    .describe('agent-checkpoint configuration'),
  {
    '$schema': SAFE,
    extends: SAFE,
    detectPresets: SAFE,
    enabled: SAFE,
    categories: NESTED,
    disableCategories: SAFE,
    docsPatterns: SAFE,
    followUps: NESTED,
    errorPatterns: NESTED,
    searchCommands: SAFE,
    hygiene: NESTED,
    planDrift: NESTED,
    messages: NESTED,
    silentWhenAllClear: SAFE,
    silentWhenNoChanges: SAFE,
    loopGuard: NESTED,
    transcriptMaxBytes: SAFE,
    gitTimeoutMs: SAFE,
  },
);

export type ConfigFile = z.infer<typeof ConfigFileSchema>;
export type CategoryConfig = z.infer<typeof CategorySchema>;
export type FollowUpConfig = z.infer<typeof FollowUpSchema>;
export type ErrorPatternConfig = z.infer<typeof ErrorPatternSchema>;
export type MessagesConfig = z.infer<typeof MessagesSchema>;

/** A category after defaults are applied. */
export interface ResolvedCategory {
  readonly id: string;
  readonly label: string;
  readonly include: readonly string[];
  readonly exclude: readonly string[];
  /** Empty string: the category needs no action (it still counts as changed code). */
  readonly action: string;
  readonly evidence: readonly string[];
  readonly evidenceAfterLastEdit: boolean;
  readonly precedence: number;
  readonly verify?: { readonly evidence: readonly string[]; readonly action: string };
  readonly onlyWhenAlone: boolean;
  readonly triggersFollowUps: boolean;
  /**
   * The layer whose definition won (a preset, detected or named, the user file or the project file),
   * for `doctor` and `explain`. Absent on categories built by hand (tests).
   */
  readonly source?: ConfigSource;
}

export interface ResolvedFollowUp {
  readonly id: string;
  readonly action: string;
  readonly evidence: readonly string[];
  readonly evidenceAfterLastEdit: boolean;
  readonly precedence: number;
  readonly triggeredBy: readonly string[];
  readonly except: readonly string[];
}

export interface ResolvedErrorPattern {
  readonly id: string;
  readonly match: string;
  readonly message: string;
  readonly commands: readonly string[];
}

export interface ResolvedMessages {
  readonly prefix: string;
  readonly header: string;
  readonly changedLabel: string;
  readonly actionsHeader: string;
  readonly actionsFooter: readonly string[];
  readonly observationsHeader: string;
  readonly reminder: string;
  /** The capture reminder: the message's closing line before the escape hatch; '' leaves it out. */
  readonly capture: string;
  readonly escapeHatch: string;
  readonly allClear: string;
  readonly noChanges: string;
  readonly generic: string;
}

/** Where a resolved configuration came from, for `explain` and `doctor`. */
export interface ConfigSource {
  readonly kind: 'default' | 'preset' | 'user-file' | 'project-file';
  /** Preset name or file path. */
  readonly name: string;
  /** True when a preset was chosen by auto-detection rather than named in `extends`. */
  readonly detected?: boolean;
}

/** The configuration after presets, user and project files, and defaults are merged. */
export interface ResolvedConfig {
  readonly enabled: boolean;
  readonly categories: readonly ResolvedCategory[];
  readonly docsPatterns: readonly string[];
  readonly followUps: readonly ResolvedFollowUp[];
  readonly errorPatterns: readonly ResolvedErrorPattern[];
  readonly searchCommands: readonly string[];
  readonly hygiene: { readonly editWithoutRead: boolean; readonly blastRadius: number };
  readonly planDrift?: { readonly path: string; readonly slug?: string };
  readonly messages: ResolvedMessages;
  readonly silentWhenAllClear: boolean;
  readonly silentWhenNoChanges: boolean;
  readonly loopGuard: { readonly maxBlocksPerTurn: number; readonly minTurnSeconds: number };
  readonly transcriptMaxBytes: number;
  readonly gitTimeoutMs: number;
  /**
   * Values of the registered config sections (`config-section.ts`), by section id; a section no
   * layer set is absent. Read through the owning package's typed accessor (`sectionValue`), never
   * directly. Optional so configurations built by hand stay valid.
   */
  readonly sections?: Readonly<Record<string, unknown>>;
  readonly sources: readonly ConfigSource[];
}

/**
 * A context level: L0 normal, L1 warning, L2 critical (hand off), L3 emergency. Kept in core for the
 * session state's context fields; the context checkpoint package defines what the levels mean.
 */
export type ContextLevel = 'L0' | 'L1' | 'L2' | 'L3';
