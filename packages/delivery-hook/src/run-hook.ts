import { stat } from 'node:fs/promises';
import {
  assertNever,
  claimCheckpoint,
  decideLoopGuard,
  getCheckpoint,
  loadConfig,
  readOffSwitch,
  readSessionState,
  type AgentId,
  type CheckpointOutcome,
  type CheckpointRequest,
} from '@agent-checkpoint/core';
import type { HookLogger } from './debug-log.ts';
import type { HookEvent } from './hook-event.ts';
import { sessionKeyOf, turnKeyOf } from './hook-identity.ts';
import { PASS, type HookVerdict } from './hook-verdict.ts';
import { loadTranscriptReader } from './load-transcript-reader.ts';
import { readHookPayload } from './read-hook-payload.ts';
import type { StdinReadResult } from './read-stdin.ts';

/** Why a run ended the way it did. Stable codes for the debug log and tests. */
export type HookRunCode =
  | 'checkpoint'
  | 'stdin-unavailable'
  | 'invalid-payload'
  | 'not-turn-end'
  | 'stop-hook-active'
  | 'background-tasks'
  | 'switched-off'
  | 'loop-guard'
  | 'silent'
  | 'state-unavailable';

/** The result of one hook run: the verdict to encode and why. */
export interface HookRun {
  readonly verdict: HookVerdict;
  readonly code: HookRunCode;
  readonly detail: string;
}

/** What a run needs from its surroundings (real process values in the bin, temp dirs in tests). */
export interface HookRunContext {
  readonly agent: AgentId;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Fallback when the payload has no `cwd`. */
  readonly processCwd: string;
  readonly stateDir: string;
  /** Epoch ms after which nothing more may start; the bin's deadline timer enforces it. */
  readonly deadlineAt: number;
  readonly now: () => Date;
  readonly log: HookLogger;
}

/** Longest time {@link claimCheckpoint} may wait for a concurrent hook of the same session. */
const MAX_LOCK_WAIT_MS = 3000;
/** Time kept back from the deadline for the claim and the output. */
const RESERVE_MS = 250;

/**
 * One hook run, from stdin text to verdict: validate the payload, honour the escape hatch and the off
 * switches, ask the loop guard early when the payload identifies the turn, read config, transcript
 * and git once via `getCheckpoint`, then claim the block atomically. Every path that is not a
 * granted claim passes. Throws only on internal bugs (the bin turns those into a pass too).
 */
export async function runHook(input: StdinReadResult, context: HookRunContext): Promise<HookRun> {
  const { agent, log } = context;
  const text = stdinText(input);
  if (text === undefined) return pass('stdin-unavailable', describeStdin(input));

  const read = readHookPayload(agent, text);
  if (read.kind === 'invalid') {
    const suffix = input.kind === 'timeout' ? ' (stdin did not close in time)' : '';
    return pass('invalid-payload', `${read.detail}${suffix}`);
  }
  const event = read.event;
  if (!event.isTurnEnd) return pass('not-turn-end', `ignoring ${event.eventName ?? 'unknown'} event`);
  // The escape hatch: a stop that follows our block always passes, whatever git or the transcript say.
  if (event.stopHookActive) return pass('stop-hook-active', 'stop_hook_active is true');
  if (event.runningBackgroundTasks > 0) {
    return pass('background-tasks', `${event.runningBackgroundTasks} background task(s) still running`);
  }

  const cwd = event.cwd ?? context.processCwd;
  const sessionId = sessionKeyOf(event, cwd);
  const off = await readOffSwitch({ stateDir: context.stateDir, sessionId, env: context.env });
  for (const note of off.diagnostics) log.warn(note);
  if (off.off) return pass('switched-off', `checkpoints are off (${off.source}: ${off.detail})`);

  const loaded = await loadConfig({ cwd, env: context.env });
  for (const note of loaded.diagnostics) log.debug(`config: ${note}`);
  const { config } = loaded;
  const location = { stateDir: context.stateDir, agent, sessionId };

  // Early guard (no lock): Claude and Codex name the turn in the payload, so a turn that already got
  // its checkpoint passes without reading the transcript or running git. Less information can only
  // make the guard pass less often, so an early pass is always a final pass.
  if (event.hint.turnId !== undefined) {
    const { state, diagnostics } = await readSessionState(location);
    for (const note of diagnostics) log.warn(note);
    const early = decideLoopGuard({ state, turnId: event.hint.turnId, stopHookActive: false, now: context.now(), config: config.loopGuard });
    if (early.verdict === 'pass') return pass('loop-guard', `${early.reason}: ${early.detail}`);
  }

  const outcome = await checkpointFor(event, { agent, cwd, sessionId, config, env: context.env, deadlineAt: context.deadlineAt, log });
  for (const note of outcome.diagnostics) log.debug(`checkpoint: ${note}`);
  if (outcome.decision !== 'message' || outcome.message === undefined || outcome.message === '') {
    return pass('silent', `getCheckpoint is silent (${outcome.mode})`);
  }

  const timeline = outcome.timeline;
  const remaining = context.deadlineAt - Date.now() - RESERVE_MS;
  const { claim, diagnostics } = await claimCheckpoint({
    ...location,
    turnId: turnKeyOf(event, timeline),
    stopHookActive: false,
    turnStartedAt: timeline?.startedAt,
    checkpointsDelivered: timeline?.checkpointsDelivered,
    config: config.loopGuard,
    now: context.now(),
    lockWaitMs: Math.max(0, Math.min(MAX_LOCK_WAIT_MS, remaining)),
  });
  for (const note of diagnostics) log.warn(note);
  if (claim.verdict === 'pass') {
    return pass(claim.reason === 'state-unavailable' ? 'state-unavailable' : 'loop-guard', `${claim.reason}: ${claim.detail}`);
  }
  return {
    verdict: { kind: 'block', reason: outcome.message },
    code: 'checkpoint',
    detail: `${outcome.mode}; turn ${claim.turnId}, block ${claim.blocksSoFar + 1} of ${config.loopGuard.maxBlocksPerTurn}`,
  };
}

/** Resolve the transcript (payload path, else the reader's locator) and run the shared pipeline. */
async function checkpointFor(
  event: HookEvent,
  options: {
    readonly agent: AgentId;
    readonly cwd: string;
    readonly sessionId: string;
    readonly config: CheckpointRequest['config'] & object;
    readonly env: Readonly<Record<string, string | undefined>>;
    readonly deadlineAt: number;
    readonly log: HookLogger;
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
    ...(path === undefined ? {} : { transcript: { reader, path, hint: event.hint } }),
    sessionId: options.sessionId,
    config: options.config,
    env: options.env,
    signal: AbortSignal.timeout(budget),
  });
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

function pass(code: HookRunCode, detail: string): HookRun {
  return { verdict: PASS, code, detail };
}

/** The payload text, when stdin gave one (a timed-out read may still hold a complete payload). */
function stdinText(input: StdinReadResult): string | undefined {
  switch (input.kind) {
    case 'complete':
      return input.text;
    case 'timeout':
      return input.text.trim() === '' ? undefined : input.text;
    case 'too-large':
    case 'tty':
    case 'error':
      return undefined;
    default:
      return assertNever(input);
  }
}

function describeStdin(input: StdinReadResult): string {
  switch (input.kind) {
    case 'complete':
      return 'stdin was read';
    case 'timeout':
      return 'no payload arrived on stdin before the timeout';
    case 'too-large':
      return `stdin exceeded the size cap (${input.bytesRead} bytes read); not a hook payload`;
    case 'tty':
      return 'stdin is a terminal; pipe the hook payload JSON in (agents do this)';
    case 'error':
      return `cannot read stdin: ${input.detail}`;
    default:
      return assertNever(input);
  }
}
