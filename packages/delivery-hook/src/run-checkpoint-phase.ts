import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  claimCheckpoint,
  decideLoopGuard,
  deliveredMessageDigest,
  findProjectRoot,
  getCheckpoint,
  loadConfig,
  PROJECT_CONFIG_FILE,
  userConfigPath,
  readSessionState,
  type AgentId,
  type CheckpointOutcome,
  type ResolvedConfig,
} from '@agent-checkpoint/core';
import { markCommitGate, promptKeyOf } from './commit-gate/commit-gate-marker.ts';
import type { HookLogger } from './debug-log.ts';
import type { HookEvent } from './hook-event.ts';
import { payloadTurnIdIsFinal, turnKeyOf } from './hook-identity.ts';
import { loadTranscriptReader } from './load-transcript-reader.ts';
import { pass, type HookRun, type HookRunContext } from './run-hook.ts';

/** Longest time {@link claimCheckpoint} may wait for a concurrent hook of the same session. */
const MAX_LOCK_WAIT_MS = 3000;
/** Time kept back from the deadline for the claim and the output. */
const RESERVE_MS = 250;

/**
 * The second half of a hook run, for a turn-end event that is not switched off: load the config, ask
 * the loop guard early when the payload names the turn, read transcript and git once through
 * `getCheckpoint`, then claim the block atomically. Every path that is not a granted claim passes.
 */
export async function runCheckpointPhase(
  event: HookEvent,
  context: HookRunContext & { readonly cwd: string; readonly sessionId: string },
): Promise<HookRun> {
  const { agent, log, cwd, sessionId } = context;
  const timings: Record<string, number> = {};
  let mark = Date.now();
  const lap = (name: string): void => {
    const now = Date.now();
    timings[name] = now - mark;
    mark = now;
  };
  const passWith = (code: Parameters<typeof pass>[0], detail: string): HookRun => ({ ...pass(code, detail), timings });

  const unsafe = await unreadableConfigPath(cwd, context.env);
  if (unsafe !== undefined) {
    log.warn(`${unsafe} is not a regular file (a FIFO or device would block the hook); letting the stop pass`);
    return passWith('config-unusable', `${unsafe} is not a regular file`);
  }
  const loaded = await loadConfig({ cwd, env: context.env });
  lap('config');
  // A broken config file is the user's to fix, and it is ignored as a whole: always say so.
  for (const note of loaded.diagnostics) log.warn(`config: ${note}`);
  const { config } = loaded;
  const location = { stateDir: context.stateDir, agent, sessionId };

  // Early guard (no lock): Codex names the turn in the payload, so a turn that already got its
  // checkpoint passes without reading the transcript or running git. Less information can only make
  // the guard pass less often, so an early pass is always a final pass — only when the payload's id
  // is the final identity: Claude reuses a prompt id for a command turn (see turnKeyOf).
  if (event.hint.turnId !== undefined && payloadTurnIdIsFinal(agent)) {
    const { state, diagnostics } = await readSessionState(location);
    for (const note of diagnostics) log.warn(note);
    const early = decideLoopGuard({ state, turnId: event.hint.turnId, stopHookActive: false, now: context.now(), config: config.loopGuard });
    if (early.verdict === 'pass') {
      if (early.reason === 'turn-limit-reached' && config.commitGate !== undefined) {
        return commitGate(event, context, `${early.reason}: ${early.detail}`, config);
      }
      return passWith('loop-guard', `${early.reason}: ${early.detail}`);
    }
  }

  const deliveredDigests = await deliveredDigestsOf(location);
  const outcome = await checkpointFor(event, { agent, cwd, sessionId, config, env: context.env, deadlineAt: context.deadlineAt, log, deliveredDigests });
  lap('checkpoint');
  for (const note of outcome.diagnostics) log.debug(`checkpoint: ${note}`);
  if (outcome.decision !== 'message' || outcome.message === undefined || outcome.message === '') {
    return passWith('silent', `getCheckpoint is silent (${outcome.mode})`);
  }

  const timeline = outcome.timeline;
  const remaining = context.deadlineAt - Date.now() - RESERVE_MS;
  const turnKey = turnKeyOf(event, timeline);
  const { claim, diagnostics } = await claimCheckpoint({
    ...location,
    turnId: turnKey,
    stopHookActive: false,
    checkpointsDelivered: timeline?.checkpointsDelivered,
    config: config.loopGuard,
    now: context.now(),
    lockWaitMs: Math.max(0, Math.min(MAX_LOCK_WAIT_MS, remaining)),
    ...(config.commitGate !== undefined ? { armCommitGate: { promptKey: promptKeyOf(event) } } : {}),
    messageDigest: deliveredMessageDigest(outcome.message),
  });
  lap('claim');
  for (const note of diagnostics) log.warn(note);
  if (claim.verdict === 'pass') {
    if (claim.reason === 'turn-limit-reached' && config.commitGate !== undefined) {
      return commitGate(event, context, `${claim.reason}: ${claim.detail}`, config, turnKey);
    }
    return passWith(claim.reason === 'state-unavailable' ? 'state-unavailable' : 'loop-guard', `${claim.reason}: ${claim.detail}`);
  }
  if (config.commitGate !== undefined) {
    const note = markCommitGate(location);
    if (note !== undefined) log.warn(note);
  }
  return {
    verdict: { kind: 'block', reason: outcome.message },
    code: 'checkpoint',
    detail: `${outcome.mode}; turn ${claim.turnId}, block ${claim.blocksSoFar + 1} of ${config.loopGuard.maxBlocksPerTurn}`,
    timings,
  };
}

/** The opt-in commit gate on a stop of an already blocked turn (loaded only when configured). */
async function commitGate(
  event: HookEvent,
  context: HookRunContext & { readonly cwd: string; readonly sessionId: string },
  reason: string,
  config: ResolvedConfig,
  turnKey?: string,
): Promise<HookRun> {
  const { runCommitGate } = await import('./commit-gate/run-commit-gate.ts');
  return runCommitGate(event, context, reason, config, turnKey);
}

/**
 * The digests of the checkpoints this session delivered, for the transcript reader: only those count
 * as ours (a prompt the user starts with our prefix does not). Undefined when the state cannot say:
 * unreadable, missing, or holding no delivery record yet. An empty state is indistinguishable from a
 * lost one, and the transcript's count must still limit blocks when the state directory is lost, so
 * the reader then recognises our messages by the whole structure `composeMessage` renders with the
 * configured texts (`ReadTurnRequest.checkpointMessages`), never by the prefix alone: a session's
 * first prompt that starts with our prefix is still a prompt.
 */
async function deliveredDigestsOf(location: { readonly stateDir: string; readonly agent: AgentId; readonly sessionId: string }): Promise<readonly string[] | undefined> {
  const { state, diagnostics } = await readSessionState(location);
  if (diagnostics.length > 0 || state.delivered === undefined || state.delivered.length === 0) return undefined;
  return state.delivered;
}

/** Resolve the transcript (payload path, else the reader's locator) and run the shared pipeline. */
async function checkpointFor(
  event: HookEvent,
  options: {
    readonly agent: AgentId;
    readonly cwd: string;
    readonly sessionId: string;
    readonly config: ResolvedConfig;
    readonly env: Readonly<Record<string, string | undefined>>;
    readonly deadlineAt: number;
    readonly log: HookLogger;
    readonly deliveredDigests: readonly string[] | undefined;
  },
): Promise<CheckpointOutcome> {
  const reader = await loadTranscriptReader(options.agent);
  const located =
    event.transcriptPath ??
    (await reader.locateTranscript({
      ...(event.sessionId === undefined ? {} : { sessionId: event.sessionId }),
      cwd: options.cwd,
      env: options.env,
    }));
  const path = located === undefined ? undefined : await readableTranscriptPath(located, options.log);
  const budget = Math.max(0, options.deadlineAt - Date.now() - RESERVE_MS * 2);
  return getCheckpoint({
    agent: options.agent,
    cwd: options.cwd,
    ...(path === undefined
      ? {}
      : { transcript: { reader, path, hint: event.hint, ...(options.deliveredDigests ? { deliveredDigests: options.deliveredDigests } : {}) } }),
    sessionId: options.sessionId,
    config: options.config,
    env: options.env,
    signal: AbortSignal.timeout(budget),
    // The same budget as a time: transcript parsing is synchronous, and no timer fires during it.
    deadlineAt: Date.now() + budget,
  });
}

/**
 * A configuration file path that exists but is neither a regular file nor a directory. Reading a FIFO
 * blocks the whole process (config files are read synchronously), and no timer could end the run, so
 * such a path is refused before the config is loaded.
 */
async function unreadableConfigPath(cwd: string, env: Readonly<Record<string, string | undefined>>): Promise<string | undefined> {
  const candidates = [join(findProjectRoot(cwd), PROJECT_CONFIG_FILE), userConfigPath(env, undefined).path];
  for (const path of candidates) {
    try {
      const info = await stat(path);
      if (!info.isFile() && !info.isDirectory()) return path;
    } catch {
      // Absent or unreadable: loadConfig reports it.
    }
  }
  return undefined;
}

/**
 * The transcript path, unless it names something other than a regular file. A FIFO would block the
 * (synchronous) tail read forever and a device could be endless: such paths are dropped, and the
 * checkpoint falls back to file-based instructions. A missing file is kept so the reader can say so.
 */
async function readableTranscriptPath(path: string, log: HookLogger): Promise<string | undefined> {
  try {
    const info = await stat(path);
    if (info.isFile()) return path;
    log.debug(`transcript ${path} is not a regular file; ignoring it`);
    return undefined;
  } catch {
    return path;
  }
}

