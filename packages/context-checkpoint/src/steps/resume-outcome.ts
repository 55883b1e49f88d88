import { type AgentId, errorMessage, readSessionState, type SessionStateLocation, type TurnTimeline, updateSessionState } from '@agent-checkpoint/core';
import { type LoopState, readLoopState, writeLoopState } from '../loop/loop-state.ts';
import { recordMetric } from '../metrics/record-metric.ts';
import { type ResumeOutcome, sessionContextOf, withSessionContext } from '../state/session-slots.ts';

/*
 * Resume outcomes (seed 004 "Success Metrics": > 90 % successful resumes; Ralph: successful
 * checkpoint resumes). A resume is given by one of two routes, and each remembers it where its own
 * later events can find it:
 * - session start (`claimResumeHandoff`): in the session's context slot (`resumedHandoff`);
 * - a loop iteration that starts with the resume section (`resume-prompt`): in the loop state
 *   (`last_resume`), and counted as a resume in the metrics.
 * Its outcome is recorded once (`resume-outcome` event, keyed by the handoff's name like the
 * `handoff` and `resume` events), see `ResumeOutcome`: `continued` at the first turn end of the
 * resuming session or iteration that did work; `not-continued` when that session compacts first, or
 * the iteration ends (`loop next`) first. A session closed without any turn end stays "unknown": no
 * hook says so.
 */

/** Where the metrics go: the state directory and the project. */
interface MetricsPlace {
  readonly stateDir: string;
  readonly projectRoot: string;
}

/** The handoff's name (`2026-01-07-1145`) from its repo-relative path: the metrics' join key. */
export function handoffNameOf(handoffPath: string): string {
  return handoffPath.slice(handoffPath.lastIndexOf('/') + 1).replace(/\.md$/, '');
}

/** The turn did work: at least one tool call that succeeded (reading the handoff counts: it is the first step of continuing). */
export function turnContinued(timeline: TurnTimeline | undefined): boolean {
  return timeline?.hasData === true && timeline.calls.some((call) => call.outcome === 'success');
}

/**
 * Session start gave `handoffName` to a session: one `resume` event (consumed), and the resume kept in
 * the session's slot until its outcome is known. Never throws; returns diagnostics.
 */
export async function recordSessionResume(input: MetricsPlace & { readonly agent: AgentId; readonly sessionId?: string; readonly handoffName: string; readonly now: Date }): Promise<string[]> {
  const at = input.now.toISOString();
  const notes: string[] = [];
  const note = await recordMetric(input, { type: 'resume', at, handoff: input.handoffName, consumed: true });
  if (note !== undefined) notes.push(note);
  if (input.sessionId === undefined || input.sessionId === '') return notes;
  try {
    const written = await updateSessionState(
      { stateDir: input.stateDir, agent: input.agent, sessionId: input.sessionId },
      (state) => {
        const { resumeOutcome: _settled, ...context } = sessionContextOf(state) ?? {};
        return { state: { ...withSessionContext(state, { ...context, resumedHandoff: input.handoffName, resumedAt: at }), updatedAt: at }, value: undefined };
      },
      { lockWaitMs: 1000 },
    );
    notes.push(...written.diagnostics);
  } catch (error) {
    notes.push(`resume: cannot remember the resume in the session state: ${errorMessage(error)}`);
  }
  return notes;
}

/**
 * A turn end: a resume given to this session (session start) or to this loop iteration
 * (`resume-prompt`) whose outcome is open becomes `continued` when the turn did work. Never throws.
 */
export async function settleResumeAtTurnEnd(input: {
  readonly location: SessionStateLocation | undefined;
  readonly projectRoot: string;
  readonly timeline: TurnTimeline | undefined;
  readonly now: Date;
}): Promise<string[]> {
  if (!turnContinued(input.timeline)) return [];
  const notes: string[] = [];
  if (input.location !== undefined) notes.push(...(await settleSessionResume(input.location, input.projectRoot, 'continued', input.now)));
  const stateDir = input.location?.stateDir;
  if (stateDir !== undefined) {
    try {
      const read = await readLoopState(input.projectRoot);
      if (read.kind === 'ok') {
        const resume = read.state.last_resume;
        if (resume !== undefined && resume.outcome === undefined && resume.iteration === read.state.iteration) {
          notes.push(...(await settleLoopResume(input.projectRoot, read.state, 'continued', { stateDir, projectRoot: input.projectRoot }, input.now)));
        }
      }
    } catch (error) {
      notes.push(`resume: cannot settle the loop's resume: ${errorMessage(error)}`);
    }
  }
  return notes;
}

/** The session compacts: a resume still open in it did not continue (the context was lost before any work). Never throws. */
export async function settleResumeAtCompaction(location: SessionStateLocation | undefined, projectRoot: string, now: Date): Promise<string[]> {
  return location === undefined ? [] : settleSessionResume(location, projectRoot, 'not-continued', now);
}

/**
 * `resume-prompt` gave the loop's handoff to the iteration running now: the handoff is consumed (never
 * resumed again), the resume is counted (a `resume` event) and kept as `last_resume` until its
 * outcome is known. Throws on write errors, as `writeLoopState` does (the caller reports them).
 */
export async function recordLoopResume(projectRoot: string, state: LoopState, handoffPath: string, metrics: { readonly stateDir: string; readonly now: Date }): Promise<readonly string[]> {
  const cc = state.context_checkpoint;
  await writeLoopState(projectRoot, {
    ...state,
    context_checkpoint: { ...cc, handoff_file: handoffPath, active: false, handoff_consumed: true },
    last_resume: { handoff_file: handoffPath, iteration: state.iteration },
  });
  const note = await recordMetric({ stateDir: metrics.stateDir, projectRoot }, { type: 'resume', at: metrics.now.toISOString(), handoff: handoffNameOf(handoffPath), consumed: true });
  return note === undefined ? [] : [note];
}

/**
 * `loop next`, before it advances: the iteration ending now was given a handoff and never reached a
 * turn end that did work, so the resume did not continue. Returns the state to advance from.
 */
export async function settleEndedIteration(projectRoot: string, state: LoopState, stateDir: string | undefined, now: Date): Promise<{ readonly state: LoopState; readonly notes: readonly string[] }> {
  const resume = state.last_resume;
  if (resume === undefined || resume.outcome !== undefined || resume.iteration !== state.iteration) return { state, notes: [] };
  const settled: LoopState = { ...state, last_resume: { ...resume, outcome: 'not-continued' } };
  if (stateDir === undefined) return { state: settled, notes: [] };
  const note = await recordMetric({ stateDir, projectRoot }, { type: 'resume-outcome', at: now.toISOString(), handoff: handoffNameOf(resume.handoff_file), completed: false });
  return { state: settled, notes: note === undefined ? [] : [note] };
}

async function settleLoopResume(projectRoot: string, state: LoopState, outcome: ResumeOutcome, place: MetricsPlace, now: Date): Promise<string[]> {
  const resume = state.last_resume;
  if (resume === undefined) return [];
  await writeLoopState(projectRoot, { ...state, last_resume: { ...resume, outcome } });
  const note = await recordMetric(place, { type: 'resume-outcome', at: now.toISOString(), handoff: handoffNameOf(resume.handoff_file), completed: outcome === 'continued' });
  return note === undefined ? [] : [note];
}

/** Claim the session's open resume under the lock (recorded once even with concurrent hooks), then record it. */
async function settleSessionResume(location: SessionStateLocation, projectRoot: string, outcome: ResumeOutcome, now: Date): Promise<string[]> {
  try {
    // Read first without the lock: nearly every turn end has nothing to settle.
    const read = await readSessionState(location);
    const open = sessionContextOf(read.state);
    if (open?.resumedHandoff === undefined || open.resumeOutcome !== undefined) return [];
    const claimed = await updateSessionState(
      location,
      (state) => {
        const context = sessionContextOf(state);
        if (context?.resumedHandoff === undefined || context.resumeOutcome !== undefined) return { state: undefined, value: undefined };
        return { state: { ...withSessionContext(state, { ...context, resumeOutcome: outcome }), updatedAt: now.toISOString() }, value: context.resumedHandoff };
      },
      { lockWaitMs: 1000 },
    );
    const notes = [...claimed.diagnostics];
    if (claimed.value === undefined) return notes;
    const note = await recordMetric({ stateDir: location.stateDir, projectRoot }, { type: 'resume-outcome', at: now.toISOString(), handoff: claimed.value, completed: outcome === 'continued' });
    if (note !== undefined) notes.push(note);
    return notes;
  } catch (error) {
    return [`resume: cannot settle the session's resume: ${errorMessage(error)}`];
  }
}
