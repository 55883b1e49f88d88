import { stat } from 'node:fs/promises';
import {
  matchesEvidence,
  parseShellCommand,
  previewTurnEnd,
  resolveConfig,
  resolveStateDir,
  type AgentId,
  type AttributionReason,
  type CategoryMatch,
  type CheckpointOutcome,
  type ConfigSource,
  type UntrustedProjectConfig,
  type FollowUpMatch,
  type ObservationKind,
  type ToolCallOrigin,
  type ToolKind,
  type ToolOutcome,
  type TurnHint,
  type StartSecondCommit,
} from '@agent-checkpoint/core';
import { loadTranscriptReader } from '../load-transcript-reader.ts';
import { findLatestTranscript, sessionIdOfTranscript } from './find-latest-transcript.ts';
import { contextCheckpointSections, loadTurnEndExtensions } from '@agent-checkpoint/context-checkpoint/load';

type Env = Readonly<Record<string, string | undefined>>;

/** What to explain: the same inputs a hook run has, given by hand. */
export interface ExplainRequest {
  readonly agent: AgentId;
  readonly cwd: string;
  readonly env: Env;
  /** The transcript file; default: the session's (`sessionId`), else the newest one for `cwd`. */
  readonly transcriptPath?: string;
  readonly sessionId?: string;
  /** Claude `prompt_id` / Codex `turn_id` of the turn to explain (default: the last turn). */
  readonly turnId?: string;
  readonly now?: Date;
}

/** One tool call of the turn, numbered `#1…` in the order made. */
export interface ExplainedCall {
  readonly n: number;
  readonly id: string;
  readonly kind: ToolKind;
  readonly rawName: string;
  readonly outcome: ToolOutcome;
  readonly exitCode?: number;
  readonly paths: readonly string[];
  readonly command?: string;
  readonly timestamp?: string;
  /** Set when a subagent made the call (read from the subagent's own transcript); absent for the main agent. */
  readonly origin?: ToolCallOrigin;
}

/**
 * Where the evidence is, by call number. For a required action whose evidence did run, but before
 * the last change of its files (`evidenceAfterLastEdit`), `earlierEvidence` and `lastChangeCall` say
 * so: "ran in #4, before the last change in #6".
 */
export interface EvidenceTiming {
  readonly evidenceCall?: number;
  readonly lastChangeCall?: number;
  readonly earlierEvidence?: { readonly call: number; readonly evidence: string };
}

/**
 * Everything `explain` shows, machine-readable (`--json`). Field names are stable: `outcome` is the
 * `CheckpointOutcome` of the turn-end pipeline's checkpoint unchanged; the other fields restate parts of it with call
 * numbers resolved, plus what the hook would do with it now (off switches, loop guard).
 */
export interface ExplainReport {
  readonly version: 1;
  readonly agent: AgentId;
  readonly cwd: string;
  readonly transcript: {
    readonly path?: string;
    /** How it was found: `given` (--transcript), `session` (--session), `latest` (newest for the cwd), `none`. */
    readonly found: 'given' | 'session' | 'latest' | 'none';
  };
  readonly sessionId?: string;
  readonly decision: CheckpointOutcome['decision'];
  readonly mode: string;
  /** The text the hook would deliver (undefined: it stays silent). */
  readonly message?: string;
  readonly calls: readonly ExplainedCall[];
  /**
   * `uncertainCommit`: the file comes only from commits of the turn's start second that nothing could
   * place before or after the prompt (see {@link ExplainReport.startSecondCommits}).
   */
  readonly files: readonly { readonly path: string; readonly reason: AttributionReason; readonly calls: readonly number[]; readonly uncertainCommit?: true }[];
  /**
   * Commits whose committer time (whole seconds) is the second the turn started, with the verdict
   * (`before-turn`: never the turn's; `during-turn`; `unknown`) and what decided it (`loose-object`,
   * `pack`, `reflog`, `none`). Absent when there is none (the common case). Same as
   * `outcome.git.startSecondCommits`, restated here for readers of the report.
   */
  readonly startSecondCommits?: readonly StartSecondCommit[];
  /** Each matched category, with the configuration layer that defined it (`source`). */
  readonly categories: readonly (CategoryMatch & EvidenceTiming & { readonly source?: ConfigSource })[];
  readonly followUps: readonly (FollowUpMatch & EvidenceTiming)[];
  readonly requiredActions: readonly string[];
  readonly observations: readonly { readonly kind: ObservationKind; readonly text: string; readonly calls: readonly number[] }[];
  readonly configSources: readonly ConfigSource[];
  /** The project file's privileged keys that were ignored because it is not trusted (`agent-checkpoint-hook trust`). */
  readonly untrustedConfig?: UntrustedProjectConfig;
  readonly diagnostics: readonly string[];
  /** What stands between the message and the agent right now (read-only: nothing is claimed or written). */
  readonly delivery: {
    readonly offSwitch: { readonly off: boolean; readonly source?: string; readonly detail?: string };
    readonly loopGuard?: { readonly verdict: 'allow' | 'pass'; readonly reason?: string; readonly detail?: string; readonly blocksSoFar?: number };
  };
  readonly outcome: CheckpointOutcome;
}

/**
 * Run the whole turn-end pipeline for one turn without delivering anything (`previewTurnEnd`): the
 * configuration, transcript and git are read exactly as the hook reads them; the off switches and the
 * loop guard are only consulted (no claim, no state written), and extensions that may write (the
 * test run, handoffs) are not run.
 */
export async function explainTurn(request: ExplainRequest): Promise<ExplainReport> {
  const { agent, env } = request;
  const cwd = request.cwd;
  const reader = await loadTranscriptReader(agent);
  let found: ExplainReport['transcript']['found'] = 'none';
  let path = request.transcriptPath;
  if (path !== undefined) found = 'given';
  else if (request.sessionId !== undefined) {
    path = await reader.locateTranscript({ sessionId: request.sessionId, cwd, env });
    if (path !== undefined) found = 'session';
  } else {
    path = await findLatestTranscript(agent, cwd, env);
    if (path !== undefined) found = 'latest';
  }
  const diagnostics: string[] = [];
  if (path !== undefined && !(await isRegularFileOrMissing(path))) {
    diagnostics.push(`transcript: ${path} is not a regular file; ignored`);
    path = undefined;
    found = 'none';
  }
  const sessionId = request.sessionId ?? (path === undefined ? undefined : await sessionIdOfTranscript(agent, path));

  const hint: TurnHint = request.turnId === undefined ? {} : { turnId: request.turnId };
  const preview = await previewTurnEnd({
    agent,
    cwd,
    sessionId,
    transcript: path === undefined ? { kind: 'none' } : { kind: 'path', path },
    reader: () => reader,
    hint,
    // The loop-guard preview is asked on the turn as read (the hook's key: the given id, else the reader's).
    turnIdIsFinal: false,
    turnKey: (timeline) => request.turnId ?? timeline?.turnId,
    deadlineAt: Date.now() + 30_000,
    env,
    now: () => request.now ?? new Date(),
    stateDir: resolveStateDir({ env }),
    // The hook's extensions, named so the report can say they were not run (they may write).
    extensions: loadTurnEndExtensions,
    configSections: contextCheckpointSections,
  });
  const decided = preview.decision;
  const loadedConfig = decided.config;
  const config = loadedConfig?.config ?? resolveConfig([]);
  // Only a refused (FIFO) config path leaves no checkpoint to show: an empty, silent outcome says why.
  const outcome: CheckpointOutcome = decided.kind === 'block' ? decided.outcome : decided.outcome ?? {
    decision: 'silent',
    mode: decided.reason,
    files: [],
    configSources: config.sources,
    diagnostics: [decided.detail],
  };
  if (preview.skippedExtensions.length > 0) {
    diagnostics.push(`not run by explain (they may write): ${preview.skippedExtensions.join(', ')}`);
  }

  const calls: ExplainedCall[] = (outcome.timeline?.calls ?? []).map((call, i) => ({
    n: i + 1,
    id: call.id,
    kind: call.kind,
    rawName: call.rawName,
    outcome: call.outcome,
    ...(call.kind === 'shell' && call.exitCode !== undefined ? { exitCode: call.exitCode } : {}),
    paths: call.paths,
    ...(call.kind === 'shell' ? { command: call.command } : {}),
    ...(call.timestamp === undefined ? {} : { timestamp: call.timestamp }),
    ...(call.origin === undefined ? {} : { origin: call.origin }),
  }));
  const numberOf = new Map(calls.map((c) => [c.id, c.n]));
  const numbers = (ids: readonly string[]): number[] => ids.flatMap((id) => (numberOf.has(id) ? [numberOf.get(id)!] : []));
  const files = outcome.files.map((f) => ({
    path: f.file.path,
    reason: f.reason,
    calls: numbers(f.callIds),
    ...(f.file.uncertainCommit === true ? { uncertainCommit: true as const } : {}),
  }));
  const startSecondCommits = outcome.git?.kind === 'repo' ? outcome.git.startSecondCommits : undefined;
  const lastChange = (paths: readonly string[]): number | undefined => {
    const changes = files.filter((f) => paths.includes(f.path)).flatMap((f) => f.calls);
    return changes.length === 0 ? undefined : Math.max(...changes);
  };
  const shellSegments = (outcome.timeline?.calls ?? []).map((call, i) =>
    call.kind === 'shell' && call.outcome === 'success' ? { n: i + 1, segments: parseShellCommand(call.command, call.dialect ?? 'sh') } : undefined,
  );
  /** The last successful command matching any of `evidence`, wherever it ran in the turn. */
  const anyEvidence = (evidence: readonly string[]): { call: number; evidence: string } | undefined => {
    let hit: { call: number; evidence: string } | undefined;
    for (const entry of shellSegments) {
      if (entry === undefined) continue;
      for (const segment of entry.segments) {
        const matched = evidence.find((e) => matchesEvidence(segment, e));
        if (matched !== undefined) hit = { call: entry.n, evidence: matched };
      }
    }
    return hit;
  };
  const timing = <T extends { evidenceCallId?: string }>(x: T, required: boolean, evidence: readonly string[], paths: readonly string[]): T & EvidenceTiming => {
    if (x.evidenceCallId !== undefined && numberOf.has(x.evidenceCallId)) return { ...x, evidenceCall: numberOf.get(x.evidenceCallId)! };
    if (!required) return x;
    const earlier = anyEvidence(evidence);
    const changed = lastChange(paths);
    return earlier !== undefined && changed !== undefined && earlier.call < changed ? { ...x, earlierEvidence: earlier, lastChangeCall: changed } : x;
  };
  const categoryConfig = new Map(config.categories.map((c) => [c.id, c]));
  const followUpConfig = new Map(config.followUps.map((f) => [f.id, f]));
  const categoryMatches = outcome.result?.categories ?? [];
  const categories = categoryMatches.map((c) => {
    const source = categoryConfig.get(c.id)?.source;
    return { ...timing(c, c.required, categoryConfig.get(c.id)?.evidence ?? [], c.files), ...(source === undefined ? {} : { source }) };
  });
  const followUps = (outcome.result?.followUps ?? []).map((f) =>
    timing(
      f,
      f.status === 'required',
      followUpConfig.get(f.id)?.evidence ?? [],
      categoryMatches.filter((c) => f.triggeredBy.includes(c.id)).flatMap((c) => c.files),
    ),
  );

  const off = preview.offSwitch;
  const guard = preview.loopGuard;
  const loopGuard: ExplainReport['delivery']['loopGuard'] =
    guard === undefined
      ? undefined
      : guard.verdict === 'allow'
        ? { verdict: 'allow', blocksSoFar: guard.blocksSoFar }
        : { verdict: 'pass', reason: guard.reason, detail: guard.detail };

  return {
    version: 1,
    agent,
    cwd,
    transcript: { ...(path === undefined ? {} : { path }), found },
    ...(sessionId === undefined ? {} : { sessionId }),
    decision: outcome.decision,
    mode: outcome.mode,
    ...(outcome.message === undefined ? {} : { message: outcome.message }),
    calls,
    files,
    ...(startSecondCommits === undefined || startSecondCommits.length === 0 ? {} : { startSecondCommits }),
    categories,
    followUps,
    requiredActions: (outcome.result?.requiredActions ?? []).map((a) => a.text),
    observations: (outcome.result?.observations ?? []).map((o) => ({ kind: o.kind, text: o.text, calls: numbers(o.callIds) })),
    configSources: outcome.configSources,
    ...(loadedConfig?.untrusted === undefined ? {} : { untrustedConfig: loadedConfig.untrusted }),
    diagnostics: [...(loadedConfig?.diagnostics ?? []).map((d) => `config: ${d}`), ...diagnostics, ...outcome.diagnostics],
    delivery: {
      offSwitch: off.off ? { off: true, source: off.source, detail: off.detail } : { off: false },
      ...(loopGuard === undefined ? {} : { loopGuard }),
    },
    outcome,
  };
}

async function isRegularFileOrMissing(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return true;
  }
}
