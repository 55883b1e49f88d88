import type { ResolvedConfig } from '../config/config-schema.ts';
import { isRegexEvidence, matchesEvidence } from '../shell/match-evidence.ts';
import { parseShellCommand } from '../shell/parse-shell-command.ts';
import type { TurnTimeline } from '../timeline/turn-timeline.ts';
import type { Categorization } from './categorize-files.ts';
import type { CategoryMatch, FollowUpMatch, Observation, RequiredAction } from './checkpoint-result.ts';
import { findLastEvidence, findLastFailedEvidence, findLastUnrecordedEvidence, lastMutationOf, type EvidenceHit } from './find-evidence.ts';
import { comparePositions } from './timeline-facts.ts';
import { withWindow } from './log-window.ts';
import type { TimelineFacts } from './timeline-facts.ts';

/** Output of {@link checkVerificationGaps}. */
export interface VerificationGaps {
  readonly categories: readonly CategoryMatch[];
  /** Unsuppressed actions, sorted by precedence (stable), identical texts removed. */
  readonly actions: readonly RequiredAction[];
  readonly observations: readonly Observation[];
  /** Every triggered follow-up and what became of it. */
  readonly followUps: readonly FollowUpMatch[];
}

/**
 * Required actions for the changed categories, minus those the transcript shows were already done
 * (seed R4), then the global follow-ups (log check, tests) with the same suppression.
 *
 * - Evidence is a successful, parsed command; with `evidenceAfterLastEdit` it must come after the last
 *   change of a file in the category (a restart before the last edit restarted stale code).
 * - A satisfied category with a `verify` step still needs that step after its evidence (`make status`
 *   after `make restart`).
 * - A command of **unknown** outcome (it ran; the transcript does not say how it ended: an older
 *   Codex code-mode cell) is an attempt, not a pass. It satisfies a category that has a `verify`
 *   step (the restart was attempted; the verify step after it must still succeed), and nothing else:
 *   a test run of unknown outcome does not prove the tests passed, so the action stays required and
 *   its observation says the command ran with an unrecorded outcome instead of "not observed".
 * - A missing action also yields a verification-gap observation when the transcript could be read.
 * - A follow-up is dropped when a required category action already covers it: every command that
 *   would prove the category also proves the follow-up (a tests-only diff gets one test action).
 */
export function checkVerificationGaps(
  categorization: Categorization,
  facts: TimelineFacts,
  timeline: Pick<TurnTimeline, 'hasData'>,
  config: Pick<ResolvedConfig, 'followUps'>,
  window: string,
): VerificationGaps {
  const categories: CategoryMatch[] = [];
  const actions: RequiredAction[] = [];
  const observations: Observation[] = [];
  const followUps: FollowUpMatch[] = [];
  /** Evidence lists of required category actions (to spot follow-ups they already cover). */
  const requiredEvidence: (readonly string[])[] = [];

  for (const { category, files } of categorization.matched) {
    const action = withWindow(category.action, window);
    const base = { id: category.id, label: category.label, files, action };
    if (action === '') {
      categories.push({ ...base, required: false });
      continue;
    }
    const notBefore = category.evidenceAfterLastEdit ? lastMutationOf(facts, files) : undefined;
    const hit =
      findLastEvidence(facts, category.evidence, notBefore) ??
      // A restart of unknown outcome was attempted: the verify step decides whether it worked.
      (category.verify ? findLastUnrecordedEvidence(facts, category.evidence, notBefore) : undefined);
    if (hit) {
      categories.push({ ...base, required: false, evidenceCallId: hit.callId, evidenceMatched: hit.evidence });
      if (category.verify) {
        const after = { call: hit.position.call, segment: hit.position.segment + 1 };
        if (!findLastEvidence(facts, category.verify.evidence, after)) {
          actions.push({ source: `${category.id}:verify`, text: withWindow(category.verify.action, window), precedence: category.precedence });
        }
      }
      continue;
    }
    categories.push({ ...base, required: true });
    actions.push({ source: category.id, text: action, precedence: category.precedence });
    if (category.evidence.length > 0) requiredEvidence.push(category.evidence);
    if (timeline.hasData && category.evidence.length > 0) {
      const lastChange = category.evidenceAfterLastEdit ? notBefore : lastMutationOf(facts, files);
      const callId = lastChange === undefined ? undefined : facts.calls[lastChange.call]?.call.id;
      // A matching command that ran and failed was observed: say it failed, and point at it.
      const failed = findLastFailedEvidence(facts, category.evidence, notBefore);
      // A matching command that ran with an unrecorded outcome was attempted: say so, unless it
      // failed after that attempt.
      const unrecorded = findLastUnrecordedEvidence(facts, category.evidence, notBefore);
      observations.push(
        unrecorded && !laterThan(failed, unrecorded)
          ? { kind: 'verification-gap', text: unrecordedSentence(category.label, unrecorded.evidence), callIds: [unrecorded.callId] }
          : failed
            ? { kind: 'verification-gap', text: failedSentence(category.label, failed.evidence), callIds: [failed.callId] }
            : { kind: 'verification-gap', text: gapSentence(category.label, category.evidence, action), callIds: callId === undefined ? [] : [callId] },
      );
    }
  }

  for (const followUp of config.followUps) {
    const triggering = categorization.matched.filter(
      ({ category }) =>
        category.triggersFollowUps &&
        (followUp.triggeredBy.includes('*') || followUp.triggeredBy.includes(category.id)) &&
        !followUp.except.includes(category.id),
    );
    if (triggering.length === 0) continue;
    const text = withWindow(followUp.action, window);
    const evaluated = { id: followUp.id, action: text, triggeredBy: triggering.map((m) => m.category.id) };
    // Redundant when doing a required category action necessarily satisfies this follow-up too (every
    // command that proves the category also proves the follow-up): a tests-only diff's "run the changed
    // tests" already is "run tests".
    if (requiredEvidence.some((ev) => ev.every((e) => followUp.evidence.includes(e)))) {
      followUps.push({ ...evaluated, status: 'covered' });
      continue;
    }
    // A file in several triggering categories appears more than once here, which lastMutationOf ignores.
    const notBefore = followUp.evidenceAfterLastEdit ? lastMutationOf(facts, triggering.flatMap((m) => m.files)) : undefined;
    const hit = findLastEvidence(facts, followUp.evidence, notBefore);
    if (hit) {
      followUps.push({ ...evaluated, status: 'satisfied', evidenceCallId: hit.callId, evidenceMatched: hit.evidence });
      continue;
    }
    followUps.push({ ...evaluated, status: 'required' });
    actions.push({ source: followUp.id, text, precedence: followUp.precedence });
  }

  return { categories, actions: dedupeActions(sortByPrecedence(actions)), observations, followUps };
}

/**
 * `"TUI code was modified but \`pkill -SIGUSR2\` was not observed this turn"`. Only the first letter is
 * upper-cased (the original's `.capitalize()` produced "Tui code"). Regex evidence is not shown.
 *
 * The command named is the evidence that the action's own command (its backticked code) satisfies, so
 * the observation never contradicts the action (a pnpm project's "`pnpm install`" action is not paired
 * with "`npm install` was not observed"); otherwise the first plain evidence.
 */
export function gapSentence(label: string, evidence: readonly string[], action = ''): string {
  const subject = label.length > 0 ? label[0]!.toUpperCase() + label.slice(1) : label;
  const plain = evidence.filter((e) => !isRegexEvidence(e));
  const shown = evidenceNamedByAction(plain, action) ?? plain[0];
  return shown === undefined
    ? `${subject} was modified but its follow-up was not observed this turn`
    : `${subject} was modified but \`${shown}\` was not observed this turn`;
}

function sortByPrecedence(actions: readonly RequiredAction[]): RequiredAction[] {
  return actions
    .map((a, i) => ({ a, i }))
    .sort((x, y) => x.a.precedence - y.a.precedence || x.i - y.i)
    .map(({ a }) => a);
}

function dedupeActions(actions: readonly RequiredAction[]): RequiredAction[] {
  const seen = new Set<string>();
  return actions.filter((a) => (seen.has(a.text) ? false : (seen.add(a.text), true)));
}

/** True when `a` exists and comes after `b`. */
function laterThan(a: EvidenceHit | undefined, b: EvidenceHit): boolean {
  return a !== undefined && comparePositions(a.position, b.position) > 0;
}

/** `"Tests was modified but \`pytest\` ran with an outcome the transcript does not record"`. */
export function unrecordedSentence(label: string, evidence: string): string {
  const subject = label.length > 0 ? label[0]!.toUpperCase() + label.slice(1) : label;
  return isRegexEvidence(evidence)
    ? `${subject} was modified but its follow-up ran with an outcome the transcript does not record (it proves nothing)`
    : `${subject} was modified but \`${evidence}\` ran with an outcome the transcript does not record (it proves nothing)`;
}

/** `"Tests was modified but \`pytest\` failed this turn and has not passed since"`. */
export function failedSentence(label: string, evidence: string): string {
  const subject = label.length > 0 ? label[0]!.toUpperCase() + label.slice(1) : label;
  return isRegexEvidence(evidence)
    ? `${subject} was modified but its follow-up failed this turn and has not passed since`
    : `${subject} was modified but \`${evidence}\` failed this turn and has not passed since`;
}

/** The first evidence that a command quoted in the action text (`` `…` ``) would itself satisfy. */
function evidenceNamedByAction(evidence: readonly string[], action: string): string | undefined {
  for (const [, code] of action.matchAll(/`([^`]+)`/g)) {
    const segments = parseShellCommand(code ?? '');
    const hit = evidence.find((e) => segments.some((segment) => matchesEvidence(segment, e)));
    if (hit !== undefined) return hit;
  }
  return undefined;
}
