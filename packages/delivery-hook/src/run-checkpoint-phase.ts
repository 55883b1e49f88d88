import { commitGateClaim, commitGateConfigOf, contextCheckpointSections, loadTurnEndExtensions } from '@agent-checkpoint/context-checkpoint/load';
import {
  claimNotices,
  runTurnEnd,
  type OffSwitchState,
  type ResolvedConfig,
  type TurnEndDecision,
  type TurnEndEvent,
  type TurnEndPass,
} from '@agent-checkpoint/core';
import { installSourceNotice } from './install/install-source-notice.ts';
import type { HookEvent } from './hook-event.ts';
import { payloadTurnIdIsFinal, turnKeyOf } from './hook-identity.ts';
import { loadTranscriptReader } from './load-transcript-reader.ts';
import { pass, type HookRun, type HookRunCode, type HookRunContext } from './hook-run.ts';
import { installRouteOf, userCommandsOf } from './route-commands.ts';

/** Longest time the claim may wait for a concurrent hook of the same session. */
const MAX_LOCK_WAIT_MS = 3000;
/** Time kept back from the deadline for the claim and the output. */
const RESERVE_MS = 250;

/** What the hook knows once the cheap passes are behind it. */
export type CheckpointPhaseContext = HookRunContext & {
  readonly cwd: string;
  readonly sessionId: string;
  /** The off switches as `checkTurnEndEarly` read them (the pipeline does not read them again). */
  readonly offSwitch?: OffSwitchState;
};

/**
 * The second half of a hook run, for a turn-end event that is not switched off: build the turn-end
 * event from the payload, run core's turn-end pipeline (config, early loop guard, transcript ‖ git,
 * checkpoint), then claim the block atomically. Every path that is not a granted claim passes. The
 * opt-in commit gate acts on the loop guard's `turn-limit-reached` and arms with a granted block.
 * The decision's user notices not shown yet in this session ride along (`HookVerdict.notice`),
 * whatever the verdict: they never turn a pass into a block.
 */
export async function runCheckpointPhase(event: HookEvent, context: CheckpointPhaseContext): Promise<HookRun> {
  const decision = await runTurnEnd(turnEndEventOf(event, context));
  const run = await verdictOf(event, context, decision);
  const notices = [await noticeToShow(decision, context), handoffNoticeOf(decision)].filter((n): n is string => n !== undefined);
  return notices.length === 0 ? run : { ...run, verdict: { ...run.verdict, notice: notices.join('\n') } };
}

/**
 * "agent-checkpoint: handoff written to …, WIP commit …" when the context step wrote one this turn,
 * whatever the verdict (a block the loop guard refused still wrote the file). Read structurally from
 * the extension's detail: this module reaches context-checkpoint only through `./load`.
 */
function handoffNoticeOf(decision: TurnEndDecision): string | undefined {
  const detail = decision.outcome?.extensions?.['context-checkpoint'] as { context?: { handoff?: { path?: unknown; status?: unknown; commit?: unknown; level?: unknown; percent?: unknown } } } | undefined;
  const handoff = detail?.context?.handoff;
  if (typeof handoff?.path !== 'string' || handoff.status === 'failed') return undefined;
  const at = typeof handoff.level === 'string' && typeof handoff.percent === 'number' ? ` (context at ${handoff.percent}%, ${handoff.level})` : '';
  const commit = typeof handoff.commit === 'string' ? `, WIP commit ${handoff.commit.slice(0, 7)}` : '';
  return `agent-checkpoint: handoff written to ${handoff.path}${commit}${at}.`;
}

/**
 * The notices of `decision` this session has not seen, as one text (one per line); recorded as shown.
 * Waits for the session lock only briefly: past that they are shown again (better twice than never).
 */
async function noticeToShow(decision: TurnEndDecision, context: CheckpointPhaseContext): Promise<string | undefined> {
  // The install this hook runs from, when its source is gone (a Codex plugin's local marketplace).
  const install = await installSourceNotice(context.agent, process.argv[1], context.env);
  const notices = install === undefined ? decision.notices : [...decision.notices, install];
  if (notices.length === 0) return undefined;
  const remaining = context.deadlineAt - Date.now() - RESERVE_MS;
  const { show, diagnostics } = await claimNotices({
    stateDir: context.stateDir,
    agent: context.agent,
    sessionId: context.sessionId,
    notices,
    lockWaitMs: Math.max(0, Math.min(MAX_LOCK_WAIT_MS, remaining)),
  });
  for (const note of diagnostics) context.log.warn(note);
  return show.length === 0 ? undefined : show.map((n) => n.text).join('\n');
}

/** The hook's verdict on a pipeline decision: the claim of a block, the commit gate, or a pass. */
async function verdictOf(event: HookEvent, context: CheckpointPhaseContext, decision: TurnEndDecision): Promise<HookRun> {
  const { log } = context;
  const timings: Record<string, number> = { ...decision.timings };
  const passWith = (code: HookRunCode, detail: string): HookRun => ({ ...pass(code, detail), timings });
  if (decision.kind === 'pass') {
    const config = decision.config?.config;
    if (decision.loopGuard?.reason === 'turn-limit-reached' && config !== undefined && commitGateConfigOf(config) !== undefined) {
      return commitGate(event, context, decision.detail, config);
    }
    // A disabled configuration is a silent checkpoint, as it always was.
    return passWith(hookCodeOf(decision), decision.reason === 'disabled' ? 'getCheckpoint is silent (disabled)' : decision.detail);
  }

  const config = decision.config.config;
  let mark = Date.now();
  const remaining = context.deadlineAt - mark - RESERVE_MS;
  // With `commitGate` on, the granted block arms it (context-checkpoint's bookkeeping, under the lock).
  const gate = commitGateClaim(config, { stateDir: context.stateDir, agent: context.agent, sessionId: context.sessionId }, event.hint.prompt);
  const { claim, diagnostics } = await decision.claim({
    lockWaitMs: Math.max(0, Math.min(MAX_LOCK_WAIT_MS, remaining)),
    ...(gate !== undefined ? { onGranted: gate.onGranted } : {}),
  });
  timings['claim'] = Date.now() - mark;
  for (const note of diagnostics) log.warn(note);
  if (claim.verdict === 'pass') {
    if (claim.reason === 'turn-limit-reached' && commitGateConfigOf(config) !== undefined) {
      return commitGate(event, context, `${claim.reason}: ${claim.detail}`, config, decision.turnKey);
    }
    return passWith(claim.reason === 'state-unavailable' ? 'state-unavailable' : 'loop-guard', `${claim.reason}: ${claim.detail}`);
  }
  const note = gate?.afterGranted();
  if (note !== undefined) log.warn(note);
  return {
    verdict: { kind: 'block', reason: decision.message },
    code: 'checkpoint',
    detail: `${decision.mode}; turn ${claim.turnId}, block ${claim.blocksSoFar + 1} of ${config.loopGuard.maxBlocksPerTurn}`,
    timings,
  };
}

/**
 * The hook payload as core's route-neutral turn end: the payload's transcript path (else the reader
 * locates it), its turn hint, and the agent's identity rules (hook-identity.ts).
 */
export function turnEndEventOf(event: HookEvent, context: CheckpointPhaseContext): TurnEndEvent {
  const { agent, cwd, env } = context;
  return {
    agent,
    cwd,
    sessionId: context.sessionId,
    transcript:
      event.transcriptPath !== undefined
        ? { kind: 'path', path: event.transcriptPath }
        : { kind: 'locate', request: { ...(event.sessionId === undefined ? {} : { sessionId: event.sessionId }), cwd, env } },
    reader: () => loadTranscriptReader(agent),
    hint: event.hint,
    // Codex names the turn for good; Claude reuses a prompt id for a command turn (see turnKeyOf).
    turnIdIsFinal: payloadTurnIdIsFinal(agent),
    turnKey: (timeline) => turnKeyOf(event, timeline),
    ...(context.offSwitch === undefined ? {} : { offSwitch: context.offSwitch }),
    // Two reserves: one for the claim, one for the output.
    deadlineAt: context.deadlineAt - RESERVE_MS * 2,
    env,
    now: context.now,
    stateDir: context.stateDir,
    extensions: loadTurnEndExtensions,
    configSections: contextCheckpointSections,
    log: context.log,
    // The escape hatch and the notices name the commands that work where this hook was installed.
    commands: userCommandsOf(installRouteOf(agent, env)),
    ...(event.awaitTranscript === undefined ? {} : { admitTranscript: admitLaggingTranscript(event.awaitTranscript, context) }),
  };
}

/**
 * The pipeline's last step before the transcript is read, for a transcript that lags behind the hook:
 * wait for it (half the time left, so git, the read and the claim keep theirs), then read whatever is
 * there; a wait that ran out is said on stderr. Never refuses the turn end.
 */
function admitLaggingTranscript(
  wait: NonNullable<HookEvent['awaitTranscript']>,
  context: CheckpointPhaseContext,
): (path: string | undefined) => Promise<string | undefined> {
  return async (path) => {
    const now = Date.now();
    const warning = await wait(path, now + Math.max(0, (context.deadlineAt - RESERVE_MS * 2 - now) / 2));
    if (warning !== undefined) context.log.warn(warning);
    return undefined;
  };
}

/** The hook's stable code for a pipeline pass. */
function hookCodeOf(decision: TurnEndPass): HookRunCode {
  switch (decision.reason) {
    case 'switched-off':
      return 'switched-off';
    case 'config-unusable':
      return 'config-unusable';
    case 'loop-guard':
      return 'loop-guard';
    case 'disabled':
    case 'silent':
    case 'own-checkpoint-turn':
    case 'own-checkpoint-unrecognisable':
    case 'route-refused':
      return 'silent';
  }
}

/** The opt-in commit gate on a stop of an already blocked turn (loaded only when configured). */
async function commitGate(
  event: HookEvent,
  context: CheckpointPhaseContext,
  reason: string,
  config: ResolvedConfig,
  turnKey?: string,
): Promise<HookRun> {
  const { runCommitGate } = await import('./commit-gate/commit-gate-route.ts');
  return runCommitGate(event, context, reason, config, turnKey);
}

