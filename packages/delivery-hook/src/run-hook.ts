import { assertNever, checkTurnEndEarly, findProjectRoot, hasPendingBlockMarker } from '@agent-checkpoint/core/hot-path';
import { isCommitGateMarked } from '@agent-checkpoint/context-checkpoint/load';
import { sessionKeyOf } from './hook-identity.ts';
import { pass, type HookRun, type HookRunContext } from './hook-run.ts';
import { markCodeCoverage } from './launcher/code-cache-channel.ts';
import { readHookPayload } from './read-hook-payload.ts';
import { chooseRunCwd } from './run-cwd.ts';
import type { StdinReadResult } from './read-stdin.ts';
import type { CheckpointPhaseContext } from './run-checkpoint-phase.ts';
import type { HookEvent } from './hook-event.ts';

/**
 * One hook run, from stdin text to verdict: validate the payload, run the turn-end pipeline's cheap
 * first step (escape hatch, background tasks, off switches: `checkTurnEndEarly`), then the pipeline
 * itself (config, early loop guard, transcript ‖ git, checkpoint) and claim the block atomically. Every path that is not a
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
  const where = chooseRunCwd(event.cwd, context.processCwd);
  if (where.kind === 'none') {
    log.warn(`${where.detail}; letting the stop pass`);
    return pass('cwd-unusable', where.detail);
  }
  if (where.note !== undefined) log.warn(where.note);
  const cwd = where.cwd;
  const sessionId = sessionKeyOf(event, cwd);
  // The stop right after our block is where its outcome shows (one `stat` when nothing is pending).
  if (event.stopHookActive && hasPendingBlockMarker({ stateDir: context.stateDir, agent, sessionId })) {
    await settleOutcome(event, { ...context, cwd, sessionId }, { continuation: true });
  }
  // The escape hatch: a stop that follows our block passes, whatever git or the transcript say —
  // unless the opt-in commit gate armed this session (one `stat`; nothing is loaded without it), which
  // may block once more for uncommitted work (context-checkpoint's `runCommitGateAtStop`).
  if (event.stopHookActive && isCommitGateMarked({ stateDir: context.stateDir, agent, sessionId })) {
    const { runCommitGate } = await import('./commit-gate/commit-gate-route.ts');
    return runCommitGate(event, { ...context, cwd, sessionId }, 'stop_hook_active is true');
  }
  // The pipeline's cheap first step (escape hatch, background tasks, off switches), from the hot path.
  const early = await checkTurnEndEarly({
    stateDir: context.stateDir,
    sessionId,
    projectRoot: findProjectRoot(cwd),
    env: context.env,
    stopHookActive: event.stopHookActive,
    runningBackgroundTasks: event.runningBackgroundTasks,
  });
  for (const note of early.diagnostics) log.warn(note);
  if (early.kind === 'pass' && early.reason === 'switched-off' && hasPendingBlockMarker({ stateDir: context.stateDir, agent, sessionId })) {
    await settleOutcome(event, { ...context, cwd, sessionId }, { continuation: false, switchedOff: true });
  }
  if (early.kind === 'pass') return pass(early.reason, early.detail);

  // Everything past this point (config, git, transcript, state lock) is loaded only now, so the
  // passes above never pay for evaluating it.
  markCodeCoverage(1);
  const { runCheckpointPhase } = await import('./run-checkpoint-phase.ts');
  return runCheckpointPhase(event, { ...context, cwd, sessionId, offSwitch: early.offSwitch });
}

/** Settle the session's pending block (loaded only when one is flagged). */
async function settleOutcome(event: HookEvent, context: CheckpointPhaseContext, stop: { readonly continuation: boolean; readonly switchedOff?: boolean }): Promise<void> {
  const [{ settleBlockAtStop }, { turnEndEventOf }] = await Promise.all([import('@agent-checkpoint/core'), import('./run-checkpoint-phase.ts')]);
  await settleBlockAtStop(turnEndEventOf(event, context), stop);
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

export { pass, type HookRun, type HookRunCode, type HookRunContext } from './hook-run.ts';
