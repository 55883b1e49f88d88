import type { ResolvedConfig } from '../config/config-schema.ts';
import type { BlockOutcomeKind, BlockFinding, PendingBlock } from '../state/block-outcomes.ts';
import type { ToolCall } from '../timeline/tool-call.ts';
import type { TurnTimeline } from '../timeline/turn-timeline.ts';
import { checkErrors } from './check-errors.ts';
import { findLastEvidence } from './find-evidence.ts';
import { pathKey, type PathBase } from './normalize-path.ts';
import { computeTimelineFacts, type TimelineFacts } from './timeline-facts.ts';

/** What the first stop after a block shows about the response to it. */
export interface BlockResponse {
  readonly pending: PendingBlock;
  /** The turn at that stop, as its reader tells it (undefined: not read). */
  readonly timeline: TurnTimeline | undefined;
  /**
   * The stop ends the blocked turn's own continuation: the agent's escape-hatch stop
   * (`stop_hook_active`), the same turn key, or the tmux turn that answers our checkpoint.
   */
  readonly sameTurn: boolean;
  /** An off switch (environment, all, project, session, `"enabled": false`) is on at that stop. */
  readonly switchedOff: boolean;
  /** The session's off-switch file: a response call that writes it is the agent running the escape hatch. */
  readonly escapeHatchPath: string | undefined;
  /** Paths in tool calls are resolved against it, as for the checkpoint itself. */
  readonly base: PathBase;
  /** For re-running the error check on the whole turn. */
  readonly config: Pick<ResolvedConfig, 'errorPatterns' | 'searchCommands'>;
}

/** The block's outcome and each finding's, in `pending.findings` order. */
export interface ClassifiedBlockOutcome {
  readonly outcome: BlockOutcomeKind;
  readonly findings: readonly BlockOutcomeKind[];
  /** How many tool calls the response made (undefined: it could not be located). */
  readonly responseCalls: number | undefined;
}

/**
 * Classify the response to a block. Deterministic; the checks are the engine's own (evidence matching,
 * the error check), run on the calls after the block:
 *
 * 1. `acted-on`: a finding with a check was done (a successful command matching its evidence; its
 *    failed calls resolved). A block whose findings are all advisory is acted on when the response
 *    made any tool call (it went back to work; nothing finer can be checked);
 * 2. `disputed`: a response call wrote the session's off-switch file (the escape hatch);
 * 3. `switched-off`: an off switch is on at the stop;
 * 4. `unknown`: the response could not be located (no transcript data; the block's last call gone from
 *    a truncated read, with calls that carry no time);
 * 5. `disputed` when the stop ends the blocked turn's own continuation (the agent was given the block
 *    and stopped again without acting), else `ignored` (the user moved on to another turn first).
 *
 * A finding that was done is `acted-on`; one that was not takes the block's outcome, or `ignored` when
 * the block was acted on through another finding; an advisory finding takes the block's outcome.
 */
export function classifyBlockOutcome(response: BlockResponse): ClassifiedBlockOutcome {
  const { pending, timeline } = response;
  const calls = responseCallsOf(pending, timeline, response.sameTurn);
  const facts = calls === undefined ? undefined : computeTimelineFacts(calls, response.base);
  const unresolved = facts === undefined || timeline === undefined ? undefined : unresolvedFailures(timeline, response);
  const done = pending.findings.map((f) => (facts === undefined ? false : findingDone(f, facts, timeline, unresolved)));
  const checkable = pending.findings.some((f) => f.check.kind !== 'advisory');
  const escapeHatch = facts !== undefined && response.escapeHatchPath !== undefined && writes(facts, response.escapeHatchPath, response.base);
  const acted = checkable ? done.some(Boolean) : calls !== undefined && calls.length > 0 && !escapeHatch;
  const outcome: BlockOutcomeKind = acted
    ? 'acted-on'
    : escapeHatch
      ? 'disputed'
      : response.switchedOff
        ? 'switched-off'
        : calls === undefined
          ? 'unknown'
          : response.sameTurn
            ? 'disputed'
            : 'ignored';
  const findings = pending.findings.map((f, i): BlockOutcomeKind => {
    if (f.check.kind === 'advisory') return outcome;
    if (done[i] === true) return 'acted-on';
    return outcome === 'acted-on' ? 'ignored' : outcome;
  });
  return { outcome, findings, responseCalls: calls?.length };
}

/**
 * The calls that answer the block. In the blocked turn: those after the block's last call (by id; by
 * time when a truncated read lost that call, if every call has a time). In a later turn: all of it.
 */
function responseCallsOf(pending: PendingBlock, timeline: TurnTimeline | undefined, sameTurn: boolean): readonly ToolCall[] | undefined {
  if (timeline === undefined || !timeline.hasData) return undefined;
  if (!sameTurn || pending.anchorCallId === undefined) return timeline.calls;
  const anchor = timeline.calls.findIndex((c) => c.id === pending.anchorCallId);
  if (anchor !== -1) return timeline.calls.slice(anchor + 1);
  const at = Date.parse(pending.at);
  const times = timeline.calls.map((c) => (c.timestamp === undefined ? Number.NaN : Date.parse(c.timestamp)));
  if (times.some((t) => Number.isNaN(t))) return undefined;
  return timeline.calls.filter((_, i) => times[i]! > at);
}

function findingDone(finding: BlockFinding, facts: TimelineFacts, timeline: TurnTimeline | undefined, unresolved: ReadonlySet<string> | undefined): boolean {
  const check = finding.check;
  switch (check.kind) {
    case 'evidence':
      return findLastEvidence(facts, check.evidence) !== undefined;
    case 'error-resolved': {
      // Only a turn that still holds the failed calls can show them resolved.
      if (unresolved === undefined || timeline === undefined || check.callIds.length === 0) return false;
      const present = check.callIds.filter((id) => timeline.calls.some((c) => c.id === id));
      return present.length > 0 && present.every((id) => !unresolved.has(id));
    }
    case 'advisory':
      return false;
  }
}

/** Ids of the calls the error check still reports as unresolved on the whole turn. */
function unresolvedFailures(timeline: TurnTimeline, response: BlockResponse): ReadonlySet<string> {
  const whole = computeTimelineFacts(timeline.calls, response.base);
  const ids = new Set<string>();
  for (const o of checkErrors(whole, response.config)) if (o.kind === 'unresolved-error') for (const id of o.callIds) ids.add(id);
  return ids;
}

/** Whether a call that took effect changes `path` (absolute: the off-switch file is outside the repository). */
function writes(facts: TimelineFacts, path: string, base: PathBase): boolean {
  const key = pathKey(path, base);
  return key !== undefined && facts.calls.some((f) => f.call.outcome !== 'error' && f.mutations.some((m) => m.key === key));
}
