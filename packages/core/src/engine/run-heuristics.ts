import type { ResolvedConfig } from '../config/config-schema.ts';
import type { TurnTimeline } from '../timeline/turn-timeline.ts';
import { categorizeFiles, type Categorization } from './categorize-files.ts';
import { checkBlastRadius, checkEditWithoutRead } from './check-edit-hygiene.ts';
import { checkErrors } from './check-errors.ts';
import { checkPlanDrift } from './check-plan-drift.ts';
import { checkVerificationGaps } from './check-verification-gaps.ts';
import type { AttributedFile, CheckpointContext, CheckpointResult, Observation } from './checkpoint-result.ts';
import { logWindow } from './log-window.ts';
import { computeTimelineFacts } from './timeline-facts.ts';

/**
 * The heuristic engine. Deterministic, no I/O except reading the plan file for plan drift. Checks run
 * in the seed's order and each appends to the result:
 * 1. categorization of the turn's files (R2);
 * 2. verification gaps: category actions and follow-ups not evidenced by successful commands (R4);
 * 3. unresolved errors, two layers (R5);
 * 4. edit hygiene: edit without read, blast radius (R6);
 * 5. plan drift (R7).
 * Observations keep that order and identical texts are merged.
 *
 * `context.projectRoot` must be the directory `files` paths are relative to (the repository top level).
 *
 * `categorization`, when given, must be `categorizeFiles(files.map((f) => f.file.path), config)`: a
 * caller that also composes the message categorizes once and passes the same result to both (5,000
 * changed files are then sorted once per checkpoint, not twice).
 */
export function runHeuristics(
  files: readonly AttributedFile[],
  timeline: TurnTimeline,
  context: CheckpointContext,
  config: ResolvedConfig,
  categorization?: Categorization,
): CheckpointResult {
  const base = { root: context.projectRoot, cwd: context.cwd ?? timeline.cwd ?? context.projectRoot };
  const facts = computeTimelineFacts(timeline.hasData ? timeline.calls : [], base);
  const paths = files.map((f) => f.file.path);
  const gaps = checkVerificationGaps(categorization ?? categorizeFiles(paths, config), facts, timeline, config, logWindow(context.elapsedSeconds));
  const observations = mergeObservations([
    ...gaps.observations,
    ...checkErrors(facts, config),
    ...checkEditWithoutRead(facts, timeline, files, config),
    ...checkBlastRadius(files, config),
    ...checkPlanDrift(paths, context, config),
  ]);
  return {
    categories: gaps.categories,
    requiredActions: gaps.actions,
    observations,
    followUps: gaps.followUps,
    isAllClear: gaps.actions.length === 0 && observations.length === 0,
  };
}

function mergeObservations(observations: readonly Observation[]): Observation[] {
  const out: Observation[] = [];
  for (const o of observations) {
    const at = out.findIndex((x) => x.text === o.text);
    if (at === -1) out.push(o);
    else out[at] = { ...out[at]!, callIds: [...new Set([...out[at]!.callIds, ...o.callIds])] };
  }
  return out;
}
