import {
  configForTurnSoFar,
  describeCheckpointState,
  readRecordedCheckpointState,
  type RecordedCheckpointState,
  estimateContextGrowth,
  forecastNextLevel,
  implausibleUsage,
  readContextLevel,
  sessionContextOf,
  withDeferral,
  withSessionContext,
  writeManualCheckpoint,
  type KnownContextReading,
  type NextLevelForecast,
} from '@agent-checkpoint/context-checkpoint';
import { AGENT_IDS, getCheckpoint, isAgentId, readGitSnapshot, updateSessionState } from '@agent-checkpoint/core';
import { loadTranscriptReader } from '../load-transcript-reader.ts';
import { EXIT_OK } from '@agent-checkpoint/setup-kit';
import { STDERR_PREFIX } from '../debug-log.ts';
import { defaultHookProgram } from '../install/hook-command.ts';
import { terminalToolOf } from '../route-commands.ts';
import { commandFailure, jsonLine, openCommandProject, terminalText, type CommandProject, type Write } from './context-cli-support.ts';
import { readCurrentSessionUsage, type CurrentSessionUsage } from './current-session-usage.ts';

/** Time limit of a manual checkpoint's reads and writes (the turn, git, the services). */
const MANUAL_CHECKPOINT_BUDGET_MS = 20_000;

/** Options of `checkpoint`. */
export interface CheckpointOptions {
  readonly status?: boolean;
  readonly reason?: string;
  /** Defer L1/L2 "for one more task" instead of writing a handoff. */
  readonly defer?: boolean;
  /** With `defer`: `L1` or `L2` (default L2); anything else is refused. */
  readonly level?: string;
  /** With `defer`: the session id (default: the newest session in this directory). */
  readonly session?: string;
  /** With `defer`: the session's agent (default: the newest session's, else `claude`). */
  readonly agent?: string;
  readonly cwd?: string;
  readonly json?: boolean;
}

/** What `checkpoint --status` says; JSON-ready. */
export interface CheckpointStatus {
  readonly session?: { readonly agent: string; readonly transcript: string; readonly sessionId?: string };
  readonly reading?: KnownContextReading;
  /** Tokens tokens per model call / per minute over the newest records. */
  readonly trend?: { readonly tokensPerCall?: number; readonly tokensPerMinute?: number; readonly samples: number };
  readonly next?: NextLevelForecast;
  readonly recommendation: string;
  /** What the session recorded (seed 004's checkpoint state, its last checkpoint), from its state file. */
  readonly recorded?: RecordedCheckpointState;
}

/**
 * `checkpoint` (a manual, user-initiated checkpoint now, through the same record as every route:
 * `writeManualCheckpoint`; recorded as trigger `user` in the metrics) and
 * `checkpoint --status` (current %, trend, calls/minutes to the next level, recommendation), both
 * from the newest session's transcript in this directory (each agent profile's latest-transcript
 * lookup, then `readLatestUsage` on its tail).
 */
export async function runCheckpointCommand(options: CheckpointOptions, write: Write): Promise<number> {
  const project = await openCommandProject(options.cwd);
  if (typeof project === 'string') return commandFailure(`checkpoint: ${project}`);
  const session = await readCurrentSessionUsage(project.cwd, process.env);
  if (options.defer === true) return deferCheckpoint(project, session, options, write);
  const status = await withRecordedState(checkpointStatus(project, session), project, session);
  if (options.status === true) {
    if (options.json === true) await write(jsonLine(status));
    else await write(terminalText(`${renderStatus(status)}\n`));
    return EXIT_OK;
  }
  return runManualCheckpoint(project, session, status, options, write);
}

function checkpointStatus(project: CommandProject, session: CurrentSessionUsage | undefined): CheckpointStatus {
  const { context } = project.context;
  const base = session ? { session: { agent: session.agent, transcript: session.transcript, ...(session.sessionId ? { sessionId: session.sessionId } : {}) } } : {};
  const reading = readContextLevel(session?.latest?.usage, { windowTokens: context.windowTokens, thresholds: context.thresholds });
  if (reading === undefined || reading.windowSource === 'unknown') {
    const implausible = session?.latest?.usage !== undefined ? implausibleUsage(session.latest.usage) : undefined;
    const why =
      session === undefined
        ? 'no agent session found for this directory'
        : implausible !== undefined
          ? implausible
          : reading === undefined
            ? 'no token usage recorded yet'
            : 'the context window is unknown (set context.windowTokens)';
    return { ...base, recommendation: why };
  }
  const growth = estimateContextGrowth(session?.latest?.history, { contextWindow: reading.contextWindow, thresholds: context.thresholds });
  const next = forecastNextLevel(reading, growth, context.thresholds);
  const trend = {
    samples: growth.samples,
    ...(growth.tokensPerCall !== undefined ? { tokensPerCall: Math.round(growth.tokensPerCall) } : {}),
    ...(growth.tokensPerMinute !== undefined ? { tokensPerMinute: Math.round(growth.tokensPerMinute) } : {}),
  };
  return { ...base, reading, trend, next, recommendation: recommend(reading) };
}

/** The status with what the session recorded, when it recorded something. */
async function withRecordedState(status: CheckpointStatus, project: CommandProject, session: CurrentSessionUsage | undefined): Promise<CheckpointStatus> {
  if (session?.sessionId === undefined) return status;
  const recorded = await readRecordedCheckpointState({ stateDir: project.stateDir, agent: session.agent, sessionId: session.sessionId });
  return recorded === undefined ? status : { ...status, recorded };
}

/** Seed 004 P1: what to do at this level. */
function recommend(reading: KnownContextReading): string {
  switch (reading.level) {
    case 'L0':
      return 'plenty of room: continue';
    case 'L1':
      return 'finish the current task, then checkpoint before starting a large one';
    case 'L2':
      return 'checkpoint now: write the handoff and continue in a fresh session';
    case 'L3':
      return 'emergency: checkpoint immediately';
    default: {
      const never: never = reading.level;
      return never;
    }
  }
}

/** The session's recorded checkpoint state, and who measured it: the monitor after a tool call, or the turn end. */
function recordedStateLine(state: NonNullable<RecordedCheckpointState['state']>): string {
  const by = state.by === 'monitor' ? 'Recorded by the monitor after a tool call' : 'Recorded at the last turn end';
  return `${by} (${state.at}): ${describeCheckpointState(state)}`;
}

function renderStatus(status: CheckpointStatus): string {
  const r = status.reading;
  if (r === undefined) return [`Context: unknown (${status.recommendation}).`, ...(status.recorded?.state !== undefined ? [recordedStateLine(status.recorded.state)] : [])].join('\n');
  const lines = [`Context: ${r.displayPercent} % (${r.contextTokens} of ${r.contextWindow} tokens), ${r.level}${status.session ? ` — ${status.session.agent} session ${status.session.sessionId ?? status.session.transcript}` : ''}`];
  const t = status.trend;
  if (t !== undefined) lines.push(`Trend: ${t.tokensPerCall !== undefined ? `~${t.tokensPerCall} tokens/call` : 'no per-call rate yet'}${t.tokensPerMinute !== undefined ? `, ~${t.tokensPerMinute} tokens/min` : ''} (${t.samples} records)`);
  const n = status.next;
  if (n !== undefined) {
    const when = [n.calls !== undefined ? `~${n.calls} calls` : undefined, n.minutes !== undefined ? `~${n.minutes} min` : undefined].filter(Boolean).join(' or ');
    lines.push(`Next: ${n.target} at ${n.percent} %, ${n.tokens} tokens away${when !== '' ? ` (${when} at this pace)` : ''}`);
  }
  lines.push(`Recommendation: ${status.recommendation}`);
  const recorded = status.recorded;
  if (recorded?.state !== undefined) lines.push(recordedStateLine(recorded.state));
  if (recorded?.lastCheckpoint !== undefined) {
    const last = recorded.lastCheckpoint;
    lines.push(`Last checkpoint: ${last.handoff}${last.route !== undefined || last.at !== undefined ? ` (${[last.route, last.at].filter((p) => p !== undefined).join(', ')})` : ''}`);
  }
  return lines.join('\n');
}

async function runManualCheckpoint(project: CommandProject, session: CurrentSessionUsage | undefined, status: CheckpointStatus, options: CheckpointOptions, write: Write): Promise<number> {
  const now = new Date();
  const agent = session?.agent ?? 'claude';
  const signal = AbortSignal.timeout(MANUAL_CHECKPOINT_BUDGET_MS);
  // The session's turn so far (what was done, failing commands) through core's pipeline, as the
  // monitor and PreCompact read it; without a session, the work tree only.
  const outcome =
    session !== undefined
      ? await getCheckpoint({
          agent,
          cwd: project.cwd,
          transcript: { reader: await loadTranscriptReader(agent), path: session.transcript },
          ...(session.sessionId ? { sessionId: session.sessionId } : {}),
          config: configForTurnSoFar(project.config),
          env: process.env,
          signal,
          deadlineAt: Date.now() + MANUAL_CHECKPOINT_BUDGET_MS,
        })
      : { git: await readGitSnapshot(project.cwd, { timeoutMs: 5_000 }) };
  // The one checkpoint of every route: the handoff (or, with directExecution, the WIP commit and the
  // memory file too), the tracker and claude-mem when on, and the one record (loop, metrics, session).
  const done = await writeManualCheckpoint({
    agent,
    ...(session?.sessionId ? { sessionId: session.sessionId } : {}),
    outcome,
    cwd: project.projectRoot,
    config: project.config,
    ...(status.reading ? { reading: status.reading } : {}),
    ...(options.reason !== undefined ? { reason: options.reason } : {}),
    stateDir: project.stateDir,
    now,
    env: process.env,
    signal,
  });
  for (const note of done.diagnostics) process.stderr.write(`${STDERR_PREFIX} checkpoint: ${terminalText(note)}\n`);
  if (done.kind === 'failed') return commandFailure(`checkpoint: ${done.error}`);
  const path = done.kind === 'written' ? done.handoff.relativePath : done.result.handoff?.relativePath;
  if (path === undefined) return commandFailure(`checkpoint: direct execution wrote no handoff (${done.kind === 'executed' ? (done.result.fallbackReason ?? done.result.status) : ''})`);
  const commit = done.kind === 'executed' ? done.result.commit?.sha : undefined;
  // The metrics schema knows L1–L3: a manual checkpoint below L1 counts under L1.
  const level = status.reading === undefined || status.reading.level === 'L0' ? 'L1' : status.reading.level;
  if (options.json === true) await write(jsonLine({ handoff: path, level, trigger: 'user', ...(commit !== undefined ? { commit } : {}), status }));
  else
    await write(
      terminalText(`Handoff written: ${path}\n${commit !== undefined ? `WIP commit ${commit.slice(0, 7)} created.\n` : ''}Resume it in a fresh session (SessionStart injects it once), or: ${terminalToolOf(defaultHookProgram().bundle, process.env)} resume-prompt\n`),
    );
  return EXIT_OK;
}

/**
 * `checkpoint --defer [--level L1|L2] [--session <id>] [--agent <id>]`: the user lets the agent finish "one more
 * task" (seed 004). Recorded in the session's context slot, where the monitor reads it after each
 * tool call (`post-tool/monitor-deferral.ts`); the next turn end consumes it.
 */
async function deferCheckpoint(project: CommandProject, session: CurrentSessionUsage | undefined, options: CheckpointOptions, write: Write): Promise<number> {
  const level = options.level ?? 'L2';
  if (level !== 'L1' && level !== 'L2') return commandFailure(`checkpoint --defer: --level must be L1 or L2 (L3 is never deferred), not ${JSON.stringify(level)}`);
  const sessionId = options.session ?? session?.sessionId;
  if (sessionId === undefined || sessionId.trim() === '') return commandFailure('checkpoint --defer: no agent session found for this directory; pass --session <id>');
  const agent = options.agent ?? session?.agent ?? 'claude';
  // The state file is per agent: a Gemini or Codex session deferred under another name is never read.
  if (!isAgentId(agent)) return commandFailure(`checkpoint --defer: --agent must be ${AGENT_IDS.slice(0, -1).join(', ')} or ${AGENT_IDS.at(-1) ?? ''}, not ${JSON.stringify(agent)}`);
  const now = new Date();
  try {
    const written = await updateSessionState({ stateDir: project.stateDir, agent, sessionId }, (state) => ({
      state: withSessionContext(state, withDeferral(sessionContextOf(state), level, now)),
      value: true,
    }));
    for (const d of written.diagnostics) process.stderr.write(`${STDERR_PREFIX} checkpoint --defer: ${terminalText(d)}\n`);
  } catch (error) {
    return commandFailure(`checkpoint --defer: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (options.json === true) await write(jsonLine({ deferred: level, agent, sessionId, at: now.toISOString() }));
  else await write(terminalText(`Deferred ${level} for one more task in ${agent} session ${sessionId}: no ${level === 'L1' ? 'L1 warning' : 'L1/L2 warning or handoff'} from the monitor or the turn end until the next turn end (L3 is never deferred).\n`));
  return EXIT_OK;
}
