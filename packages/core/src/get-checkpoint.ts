import { resolve } from 'node:path';
import { loadConfig } from './config/load-config.ts';
import type { ConfigSource, ResolvedConfig } from './config/config-schema.ts';
import { resolveConfig } from './config/resolve-config.ts';
import { attributeFiles, turnStartBoundMs } from './engine/attribute-files.ts';
import { categorizeFiles, isDocsOnly } from './engine/categorize-files.ts';
import type { AttributedFile, CheckpointContext, CheckpointResult } from './engine/checkpoint-result.ts';
import { composeContextMessage, composeGenericMessage, composeMessage } from './engine/compose-message.ts';
import { runHeuristics } from './engine/run-heuristics.ts';
import type { UserCommands } from './engine/user-commands.ts';
import type { CheckpointOutcome, CheckpointRequest } from './get-checkpoint-types.ts';
import type { GitSnapshot } from './git/changed-file.ts';
import { readGitSnapshot } from './git/read-git-snapshot.ts';
import { offSwitchPath } from './state/off-switches.ts';
import { resolveStateDir } from './state/resolve-state-dir.ts';
import { emptyTimeline, type TurnTimeline } from './timeline/turn-timeline.ts';
import { runExtensions } from './turn-end/run-extensions.ts';

/** Environment variable carrying the working slug for plan drift (overrides `planDrift.slug`). */
export const SLUG_ENV = 'AGENT_CHECKPOINT_SLUG';

/**
 * The one entry point of both delivery routes: decide what, if anything, to tell the agent at the
 * end of a turn. A decision, not a delivery: it never delivers, and **never throws or rejects** (every
 * failure becomes a diagnostic and one of the modes below). It writes nothing itself; the extensions the
 * caller passes (`request.extensions`, e.g. the opt-ins: `runTests` runs the configured command,
 * `context.enabled` writes handoff documents and context bookkeeping) may. Routes call it through the
 * turn-end pipeline (`turn-end/run-turn-end.ts`), which loads the configuration once and passes it.
 *
 * Pipeline: configuration (unless given) → git snapshot and transcript read **in parallel** (the
 * `git log` of commits made during the turn starts as soon as the transcript has told us when the
 * turn began, still overlapping `git status`) → attribution of changed files to the turn →
 * heuristics → message → extensions, in order (the message is recomposed from their result, test
 * report and context lines; one that throws leaves the decision as it was, with a diagnostic).
 *
 * Modes (`outcome.mode`):
 * - `actionable`: something is missing or looks wrong → `message`;
 * - `all-clear`: files changed and everything expected was done → silent (or the all-clear text when
 *   `silentWhenAllClear` is false);
 * - `no-changes`: no code (only docs, or nothing) changed this turn → silent (or the no-changes text
 *   when `silentWhenNoChanges` is false);
 * - `disabled`: `enabled: false` → silent;
 * - `not-a-repo`: the cwd is outside any git work tree. There is no file axis, so this behaves like
 *   `no-changes`: the heuristics still run on the transcript (their observations are in `result`, for
 *   `explain`), but the composer stays silent without changed code — the same rule as inside a
 *   repository, where a turn that changed nothing is not checkpointed even if a command failed;
 * - `generic-fallback`: git itself failed (missing, timed out, broken repository), or the engine threw
 *   → the generic message (seed: "fail-open returns the generic checkpoint"). A repository without
 *   commits is **not** a failure here: its files are reported normally.
 * - `internal-error`: even the generic message could not be produced → silent;
 * - `context`: nothing else to say, but a context handoff level was reached (opt-in) → the context
 *   lines alone.
 *
 * Transcript problems never change the mode: a missing transcript, a reader that throws, or a
 * timeline without data gives file-based instructions only (attribution falls back to every
 * uncommitted file; transcript heuristics are skipped), plus a diagnostic. A truncated turn (longer
 * than the byte cap) keeps its tail's calls, and modification times stand in for the unread part
 * (see `attributeFiles`).
 */
export async function getCheckpoint(request: CheckpointRequest): Promise<CheckpointOutcome> {
  const diagnostics: string[] = [];
  let config: ResolvedConfig | undefined;
  try {
    config = request.config ?? (await loadRequestConfig(request, diagnostics));
    return await decide(request, config, diagnostics);
  } catch (error) {
    diagnostics.push(`checkpoint failed unexpectedly: ${describeError(error)}`);
    return genericFallback(config, diagnostics, {});
  }
}

async function loadRequestConfig(request: CheckpointRequest, diagnostics: string[]): Promise<ResolvedConfig> {
  try {
    const loaded = await loadConfig({
      cwd: request.cwd,
      ...(request.env ? { env: request.env } : {}),
      ...(request.configSections ? { sections: request.configSections } : {}),
    });
    for (const line of loaded.diagnostics) diagnostics.push(`config: ${line}`);
    return loaded.config;
  } catch (error) {
    diagnostics.push(`config: loading failed (${describeError(error)}); using the built-in defaults`);
    return resolveConfig([]);
  }
}

async function decide(request: CheckpointRequest, config: ResolvedConfig, diagnostics: string[]): Promise<CheckpointOutcome> {
  const configSources = config.sources;
  if (!config.enabled) return { decision: 'silent', mode: 'disabled', files: [], configSources, diagnostics };

  const cwd = resolve(request.cwd);
  const env = request.env ?? process.env;
  const timelineRead = readTimeline(request, config, diagnostics);
  const git = await readGitSnapshot(cwd, {
    timeoutMs: config.gitTimeoutMs,
    // A truncated turn's start is unknown: commits since the first call read are still the turn's.
    sinceMs: timelineRead.then(commitsSinceMs),
    ...(request.signal ? { signal: request.signal } : {}),
    env,
  });
  const timeline = await timelineRead;
  const startedAtMs = turnStartBoundMs(timeline);
  const nowMs = (request.now ?? new Date()).getTime();
  const elapsedSeconds =
    startedAtMs !== undefined && nowMs >= startedAtMs ? Math.round((nowMs - startedAtMs) / 1000) : undefined;
  const base = { timeline, git, configSources };

  if (git.kind === 'error') {
    diagnostics.push(`git: ${git.message}`);
    return genericFallback(config, diagnostics, base);
  }
  if (git.kind === 'repo') for (const line of git.diagnostics ?? []) diagnostics.push(`git: ${line}`);

  const slug = nonEmpty(env[SLUG_ENV]) ?? config.planDrift?.slug;
  const context: CheckpointContext = {
    agent: request.agent,
    projectRoot: git.kind === 'repo' ? git.root : cwd,
    cwd,
    ...(slug === undefined ? {} : { workingSlug: slug }),
    ...(elapsedSeconds === undefined ? {} : { elapsedSeconds }),
  };

  let files: AttributedFile[];
  let result: CheckpointResult;
  let message: string | undefined;
  let docsOnly: boolean;
  try {
    files =
      git.kind === 'repo'
        ? attributeFiles({
            snapshot: git,
            timeline,
            context,
            ...(startedAtMs === undefined ? {} : { turnStartMs: startedAtMs }),
          })
        : [];
    // Sorted into categories once, for the heuristics, the message and the mode alike.
    const categorization = categorizeFiles(files.map((f) => f.file.path), config);
    result = runHeuristics(files, timeline, context, config, categorization);
    message = composeMessage(result, files, config, { ...escapeHatchOptions(request.sessionId, env, request.commands), categorization });
    docsOnly = isDocsOnly(categorization);
  } catch (error) {
    diagnostics.push(`engine failed: ${describeError(error)}`);
    return genericFallback(config, diagnostics, base);
  }

  // Extensions (@agent-checkpoint/context-checkpoint's, through its ./load manifest): only those the route
  // passed, each amending the decision; core recomposes the message from what they return.
  let extensions: Record<string, unknown> | undefined;
  let onClaimGranted: CheckpointOutcome['onClaimGranted'];
  let contextOnly = false;
  if (request.extensions !== undefined && request.extensions.length > 0) {
    const applied = await runExtensions(request.extensions, {
      agent: request.agent,
      sessionId: request.sessionId,
      config,
      env,
      timeline,
      git,
      files,
      result,
      hasMessage: message !== undefined,
      projectRoot: context.projectRoot,
      now: request.now ?? new Date(),
      ...(request.signal ? { signal: request.signal } : {}),
      ...(request.commands ? { commands: request.commands } : {}),
    });
    for (const line of applied.diagnostics) diagnostics.push(line);
    extensions = applied.details;
    onClaimGranted = applied.onClaimGranted;
    if (applied.changed) {
      result = applied.result;
      const hatch = escapeHatchOptions(request.sessionId, env, request.commands);
      const options = { ...hatch, ...(applied.tests ? { tests: applied.tests } : {}) };
      const base = composeMessage(result, files, config, options);
      if (applied.lines.length === 0) message = base;
      else if (base !== undefined) message = composeMessage(result, files, config, { ...options, contextLines: applied.lines });
      else if (applied.blocksAlone) {
        message = composeContextMessage(applied.lines, config, hatch);
        contextOnly = true;
      } else message = undefined;
    }
  }

  // Mirrors composeMessage's branches, so the mode always explains the decision.
  const mode = contextOnly
    ? 'context'
    : git.kind === 'not-a-repo'
      ? 'not-a-repo'
      : docsOnly
        ? 'no-changes'
        : result.isAllClear
          ? 'all-clear'
          : 'actionable';
  return {
    ...(message === undefined ? { decision: 'silent' } : { decision: 'message', message }),
    mode,
    result,
    ...base,
    files,
    ...(extensions === undefined ? {} : { extensions }),
    ...(onClaimGranted === undefined ? {} : { onClaimGranted }),
    diagnostics,
  };
}

/**
 * The turn as the transcript tells it, or a timeline without data when there is no transcript or
 * the reader misbehaves (readers must not throw, but a broken adapter must not break the checkpoint).
 */
async function readTimeline(request: CheckpointRequest, config: ResolvedConfig, diagnostics: string[]): Promise<TurnTimeline> {
  const transcript = request.transcript;
  if (transcript === undefined) {
    return emptyTimeline(request.agent, { level: 'info', code: 'no-transcript', message: 'no transcript path was given' });
  }
  try {
    const timeline = await withinLimit(
      transcript.reader.readTurn({
        transcriptPath: transcript.path,
        checkpointPrefix: config.messages.prefix,
        checkpointMessages: config.messages,
        maxBytes: config.transcriptMaxBytes,
        ...(transcript.hint ? { hint: transcript.hint } : {}),
        ...(transcript.deliveredDigests ? { deliveredDigests: transcript.deliveredDigests } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
        ...(request.deadlineAt !== undefined ? { deadlineAt: request.deadlineAt } : {}),
      }),
      READER_TIME_LIMIT_MS,
      request.signal,
    );
    if (!isTimeline(timeline)) throw new Error('the reader returned something that is not a timeline');
    for (const d of timeline.diagnostics) {
      if (d.level === 'warn') diagnostics.push(`transcript: ${d.code}: ${d.message}`);
    }
    if (!timeline.hasData) diagnostics.push('transcript: no turn data; file-based instructions only');
    return timeline;
  } catch (error) {
    const message = `the ${transcript.reader.agent ?? request.agent} transcript reader failed: ${describeError(error)}`;
    diagnostics.push(`transcript: ${message}; file-based instructions only`);
    return emptyTimeline(request.agent, { level: 'warn', code: 'reader-failed', message });
  }
}

/**
 * Readers honour the abort signal and are bounded by their byte cap, so this limit only matters for a
 * broken adapter: the checkpoint must not hang the agent's stop.
 */
const READER_TIME_LIMIT_MS = 10_000;

/** `promise`, or a rejection once `ms` pass or `signal` aborts (the caller's budget bounds a broken adapter too). */
function withinLimit<T>(promise: Promise<T>, ms: number, signal?: AbortSignal): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no result within ${ms} ms`)), ms);
    onAbort = () => reject(new Error('no result before the time budget ran out'));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([promise, limit]).finally(() => {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  });
}

function isTimeline(value: unknown): value is TurnTimeline {
  const t = value as TurnTimeline | null | undefined;
  return typeof t === 'object' && t !== null && typeof t.hasData === 'boolean' && Array.isArray(t.calls) && Array.isArray(t.diagnostics);
}

function genericFallback(
  config: ResolvedConfig | undefined,
  diagnostics: string[],
  base: { timeline?: TurnTimeline; git?: GitSnapshot; configSources?: readonly ConfigSource[] },
): CheckpointOutcome {
  const configSources = base.configSources ?? config?.sources ?? [];
  try {
    const message = composeGenericMessage(config ?? resolveConfig([]));
    return { decision: 'message', message, mode: 'generic-fallback', ...base, files: [], configSources, diagnostics };
  } catch (error) {
    diagnostics.push(`generic message unavailable: ${describeError(error)}`);
    return { decision: 'silent', mode: 'internal-error', ...base, files: [], configSources, diagnostics };
  }
}

/**
 * The session id and its off-switch file for the escape hatch. The path depends only on the
 * environment (state directory) and the session id, so both routes render the same bytes; nothing
 * is created here.
 */
function escapeHatchOptions(
  sessionId: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  commands: UserCommands | undefined,
): { sessionId?: string; offFile?: string; commands?: UserCommands } {
  const route = commands === undefined ? {} : { commands };
  if (sessionId === undefined || sessionId === '') return route;
  try {
    return { sessionId, offFile: offSwitchPath(resolveStateDir({ env }), { kind: 'session', sessionId }), ...route };
  } catch {
    // No home directory: the escape hatch falls back to the person's command.
    return { sessionId, ...route };
  }
}

/**
 * From when the git reader lists commits: the prompt time when the transcript has it (ms: a commit of
 * that second made before it is not the turn's). A truncated turn has only a bound, the first call
 * read; the unread part before it may have committed in that same second, so the bound is taken to
 * the second.
 */
function commitsSinceMs(timeline: TurnTimeline): number | undefined {
  const bound = turnStartBoundMs(timeline);
  const started = timeline.startedAt === undefined ? Number.NaN : Date.parse(timeline.startedAt);
  if (bound === undefined || Number.isFinite(started)) return bound;
  return Math.floor(bound / 1000) * 1000;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
