import { rename } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import {
  describeReadFailure,
  FileTooLargeError,
  NotARegularFileError,
  readRegularFileSync,
  runGit,
  underRoot,
  writeFileSafelySync,
} from '@agent-checkpoint/core';
import { AGENT_CHECKPOINT_DIR, ensureAgentCheckpointDir } from '../handoff/agent-checkpoint-dir.ts';
import {
  UnifiedCheckpointSchema,
  type CheckpointInput,
  type CheckpointPhase,
  type PhaseStatus,
  type UnifiedCheckpoint,
} from './checkpoint-schema.ts';
import { MAX_SUMMARY_TOKENS, validateContextSummary } from './token-counter.ts';

/** Receives every diagnostic of the store (default: one line on stderr). */
export type CheckpointLogger = (message: string, error?: unknown) => void;

/** Options of {@link createCheckpointStore}. */
export interface CheckpointStoreOptions {
  /** Any directory of the project; the state lives under the repository root found from it. */
  readonly projectRoot: string;
  /** State directory, absolute or relative to the repository root. Default `.agent-checkpoint/state`. */
  readonly stateDir?: string;
  readonly logger?: CheckpointLogger;
  /** Token limit of context summaries (default 500). */
  readonly summaryTokenLimit?: number;
  /** Clock of timestamps (default: the real clock). */
  readonly now?: () => Date;
  /** Time limit of the git calls (HEAD, repository root); default 5000 ms. */
  readonly gitTimeoutMs?: number;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly gitBinary?: string;
}

/** Where to resume: the phase in progress and the summary of the last completed phase. */
export interface ResumePoint {
  readonly phase: string | null;
  readonly summary: string | null;
}

/** What `updatePhase` accepts: any phase fields; `status` defaults to the phase's current one (or `pending`). */
export type PhaseUpdate = Partial<CheckpointPhase> & { readonly status?: PhaseStatus };

/**
 * Persistent phase state of commands (seed 002). Every method resolves — none throws or rejects:
 * failures are reported to the logger and turn into `null` / `false` / an empty resume point.
 */
export interface CheckpointStore {
  /** The checkpoint, or null when there is none (silently) or it is unusable (with a diagnostic). Warns when HEAD moved since the save. */
  load(command: string, feature?: string | null): Promise<UnifiedCheckpoint | null>;
  /** Validate summaries, stamp `version`, `head_commit`, `started_at` (if absent) and `updated_at`, write atomically. */
  save(command: string, checkpoint: CheckpointInput, feature?: string | null): Promise<boolean>;
  /** Merge `phaseData` into a phase (creating the checkpoint if needed) and update the phase lists. */
  updatePhase(command: string, phaseName: string, phaseData: PhaseUpdate, feature?: string | null): Promise<boolean>;
  /** Mark the command finished: no current phase, nothing pending, `completed_at` set. */
  complete(command: string, feature?: string | null): Promise<boolean>;
  /** Where to resume; `{ phase: null, summary: null }` without a checkpoint or once completed. */
  getResumePoint(command: string, feature?: string | null): Promise<ResumePoint>;
  /** The file of a command's checkpoint (undefined for an invalid name). */
  pathFor(command: string, feature?: string | null): Promise<string | undefined>;
}

/**
 * A checkpoint file larger than this is not one we wrote (summaries are capped at 500 tokens each);
 * it is reported as unusable instead of being read into memory.
 */
export const MAX_CHECKPOINT_FILE_BYTES = 16 * 1024 * 1024;

/** Command and feature names become file names: letters, digits, `.`, `_`, `-`; no leading dot. */
const SAFE_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,99}$/;

/** Default logger: `agent-checkpoint: <message>: <error>` on stderr. */
export const stderrCheckpointLogger: CheckpointLogger = (message, error) => {
  const detail = error === undefined ? '' : `: ${error instanceof Error ? error.message : String(error)}`;
  process.stderr.write(`agent-checkpoint: ${message}${detail}\n`);
};

/**
 * Create a checkpoint store for a project (seed 002's `checkpoint-manager`, as an object instead of
 * module globals so tests and several projects can coexist).
 *
 * Files: `<stateDir>/<command>-checkpoint.json`, or `<stateDir>/<command>-<feature>.json` with a
 * feature; JSON with two-space indentation, written atomically. The default state directory
 * `<repo>/.agent-checkpoint/state/` is git-ignored the same way as handoffs (a `.gitignore` holding
 * `*` inside `.agent-checkpoint/`). Diagnostics use the seed's texts:
 * `Checkpoint file exists but is corrupt: <path>`,
 * `Checkpoint is stale (saved at <7 hex>, current HEAD is <7 hex>)`,
 * `Context summary exceeds 500 token limit (actual: X tokens)`.
 */
export function createCheckpointStore(options: CheckpointStoreOptions): CheckpointStore {
  const logger = options.logger ?? stderrCheckpointLogger;
  const limit = options.summaryTokenLimit ?? MAX_SUMMARY_TOKENS;
  const now = (): string => (options.now ?? (() => new Date()))().toISOString();
  const git = async (args: readonly string[]): Promise<string | undefined> => {
    const result = await runGit(args, {
      cwd: options.projectRoot,
      timeoutMs: options.gitTimeoutMs ?? 5000,
      ...(options.env !== undefined ? { env: options.env } : {}),
      ...(options.gitBinary !== undefined ? { gitBinary: options.gitBinary } : {}),
    });
    return result.kind === 'exited' && result.code === 0 ? result.stdout.toString('utf8').trim() : undefined;
  };

  let rootPromise: Promise<string> | undefined;
  const repoRoot = (): Promise<string> => (rootPromise ??= git(['rev-parse', '--show-toplevel']).then((top) => top || resolve(options.projectRoot)));
  const usesDefaultDir = options.stateDir === undefined;
  const stateDir = async (): Promise<string> => {
    const root = await repoRoot();
    if (options.stateDir === undefined) return join(root, AGENT_CHECKPOINT_DIR, 'state');
    return isAbsolute(options.stateDir) ? options.stateDir : join(root, options.stateDir);
  };
  const currentHead = async (): Promise<string | null> => (await git(['rev-parse', '--verify', '-q', 'HEAD'])) ?? null;

  const pathFor = async (command: string, feature?: string | null): Promise<string | undefined> => {
    if (!SAFE_NAME.test(command) || (feature != null && !SAFE_NAME.test(feature))) return undefined;
    return join(await stateDir(), feature != null ? `${command}-${feature}.json` : `${command}-checkpoint.json`);
  };

  /** Read and validate; `corrupt` distinguishes an unusable file from an absent one. */
  const read = async (command: string, feature: string | null | undefined): Promise<{ checkpoint: UnifiedCheckpoint | null; corrupt?: string }> => {
    const path = await pathFor(command, feature);
    if (path === undefined) {
      logger(`Invalid checkpoint name: ${JSON.stringify(feature != null ? `${command}-${feature}` : command)}`);
      return { checkpoint: null };
    }
    let text: string;
    try {
      // Non-blocking open, regular files only: a FIFO planted here must not wedge the command.
      const file = readRegularFileSync(path, MAX_CHECKPOINT_FILE_BYTES);
      if (file === undefined) return { checkpoint: null };
      text = file.text;
    } catch (error) {
      if (error instanceof NotARegularFileError || error instanceof FileTooLargeError) {
        // Not ours: reported like a corrupt file, so an update moves it aside instead of failing on it.
        logger(`Checkpoint file exists but is unusable: ${path}`, new Error(describeReadFailure(error)));
        return { checkpoint: null, corrupt: path };
      }
      logger('Failed to load checkpoint', error);
      return { checkpoint: null };
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (parseError) {
      logger(`Checkpoint file exists but is corrupt: ${path}`, parseError);
      return { checkpoint: null, corrupt: path };
    }
    const parsed = UnifiedCheckpointSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'unexpected shape';
      logger(`Checkpoint file exists but is corrupt: ${path}`, new Error(where));
      return { checkpoint: null, corrupt: path };
    }
    return { checkpoint: parsed.data as UnifiedCheckpoint };
  };

  const load = async (command: string, feature?: string | null): Promise<UnifiedCheckpoint | null> => {
    try {
      const { checkpoint } = await read(command, feature);
      if (!checkpoint) return null;
      const head = await currentHead();
      const saved = checkpoint.head_commit;
      if (head && saved && saved !== head) {
        logger(`Checkpoint is stale (saved at ${saved.slice(0, 7)}, current HEAD is ${head.slice(0, 7)})`);
      }
      return checkpoint;
    } catch (error) {
      logger('Failed to load checkpoint', error);
      return null;
    }
  };

  const save = async (command: string, checkpoint: CheckpointInput, feature?: string | null): Promise<boolean> => {
    try {
      const path = await pathFor(command, feature);
      if (path === undefined) {
        logger(`Invalid checkpoint name: ${JSON.stringify(feature != null ? `${command}-${feature}` : command)}`);
        return false;
      }
      const summaries = [checkpoint.state?.context_summary, ...Object.values(checkpoint.phases ?? {}).map((p) => p?.context_summary)];
      for (const summary of summaries) {
        if (summary === undefined) continue;
        const result = validateContextSummary(summary, limit);
        if (!result.valid) {
          logger(result.error as string);
          return false;
        }
      }
      const time = now();
      const data: UnifiedCheckpoint = {
        ...checkpoint,
        command,
        ...(feature != null ? { feature } : {}),
        version: 1,
        head_commit: await currentHead(),
        started_at: checkpoint.started_at ?? time,
        updated_at: time,
      };
      // What is written is what a read accepts: a caller's non-ISO 8601 time is refused, not stored.
      const valid = UnifiedCheckpointSchema.safeParse(data);
      if (!valid.success) {
        logger(`Invalid checkpoint: ${valid.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
        return false;
      }
      if (usesDefaultDir) await ensureAgentCheckpointDir(await repoRoot());
      // Temp file + rename, never through a symlink or outside the repository by `..` (see fs-safe).
      const target = underRoot(await repoRoot(), path);
      writeFileSafelySync(target.root, target.relPath, `${JSON.stringify(data, null, 2)}\n`, { dirMode: 0o755 });
      return true;
    } catch (error) {
      logger('Failed to save checkpoint', error);
      return false;
    }
  };

  const updatePhase = async (command: string, phaseName: string, phaseData: PhaseUpdate, feature?: string | null): Promise<boolean> => {
    try {
      const { checkpoint: existing, corrupt } = await read(command, feature);
      if (corrupt !== undefined) {
        // Keep the damaged file for inspection rather than silently replacing it.
        const aside = `${corrupt}.corrupt-${now().replace(/[:.]/g, '-')}`;
        await rename(corrupt, aside);
        logger(`Moved the corrupt checkpoint to ${aside}; starting a new one`);
      }
      const time = now();
      const base: CheckpointInput = existing ?? {
        command,
        ...(feature != null ? { feature } : {}),
        started_at: time,
        state: { current_phase: null, completed_phases: [], pending_phases: [] },
        phases: {},
      };
      const previous = base.phases[phaseName];
      const status: PhaseStatus = phaseData.status ?? previous?.status ?? 'pending';
      const phase: CheckpointPhase = {
        ...previous,
        ...phaseData,
        status,
        started_at: previous?.started_at ?? phaseData.started_at ?? time,
        updated_at: time,
      };
      let current = base.state.current_phase;
      let completed = base.state.completed_phases.filter((p) => p !== phaseName);
      let pending = base.state.pending_phases.filter((p) => p !== phaseName);
      switch (status) {
        case 'in_progress':
          current = phaseName;
          break;
        case 'complete':
          completed = [...completed, phaseName];
          if (current === phaseName) current = null;
          break;
        case 'failed':
          // The current phase stays on a failed phase: that is where to resume.
          break;
        case 'skipped':
          if (current === phaseName) current = null;
          break;
        case 'pending':
          pending = [...pending, phaseName];
          if (current === phaseName) current = null;
          break;
      }
      // A phase keeps its place among the completed ones when it is completed again.
      if (status === 'complete' && base.state.completed_phases.includes(phaseName)) completed = [...base.state.completed_phases];
      return await save(
        command,
        {
          ...base,
          state: { ...base.state, current_phase: current, completed_phases: completed, pending_phases: pending },
          phases: { ...base.phases, [phaseName]: phase },
        },
        feature,
      );
    } catch (error) {
      logger('Failed to update checkpoint phase', error);
      return false;
    }
  };

  const complete = async (command: string, feature?: string | null): Promise<boolean> => {
    try {
      const { checkpoint } = await read(command, feature);
      if (!checkpoint) {
        logger(`No checkpoint to complete for ${feature != null ? `${command}-${feature}` : command}`);
        return false;
      }
      return await save(
        command,
        { ...checkpoint, state: { ...checkpoint.state, current_phase: null, pending_phases: [] }, completed_at: now() },
        feature,
      );
    } catch (error) {
      logger('Failed to complete checkpoint', error);
      return false;
    }
  };

  const getResumePoint = async (command: string, feature?: string | null): Promise<ResumePoint> => {
    const none: ResumePoint = { phase: null, summary: null };
    try {
      const checkpoint = await load(command, feature);
      if (!checkpoint || checkpoint.completed_at !== undefined) return none;
      const lastCompleted = checkpoint.state.completed_phases.at(-1);
      const summary = lastCompleted !== undefined ? (checkpoint.phases[lastCompleted]?.context_summary ?? null) : null;
      return { phase: checkpoint.state.current_phase, summary };
    } catch (error) {
      logger('Failed to get the resume point', error);
      return none;
    }
  };

  return {
    load,
    save,
    updatePhase,
    complete,
    getResumePoint,
    pathFor: async (command, feature) => {
      try {
        return await pathFor(command, feature);
      } catch {
        return undefined;
      }
    },
  };
}
