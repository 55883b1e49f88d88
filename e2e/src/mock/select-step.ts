import type { ModelReply, Scenario, StepCondition } from './scenario.ts';
import { DEFAULT_FALLBACK_TEXT } from './scenario.ts';

/**
 * What the mock needs to know about an agent's request to pick the scripted answer, read the same
 * way for every agent by the `read-*-request.ts` modules.
 */
export interface ConversationView {
  /** How many model responses the request's history already holds (= the step to answer). */
  readonly priorModelTurns: number;
  /** The latest user-side text, unwrapped (see {@link StepCondition}); undefined if none. */
  readonly lastUserText: string | undefined;
}

export type SelectedReply =
  | { readonly kind: 'step'; readonly stepIndex: number; readonly branch: number | 'otherwise' | undefined; readonly reply: ModelReply }
  | { readonly kind: 'fallback'; readonly stepIndex: number; readonly reply: ModelReply };

/** Picks the answer for a request: step `priorModelTurns`, with branches resolved. */
export function selectReply(scenario: Scenario, view: ConversationView): SelectedReply {
  const stepIndex = view.priorModelTurns;
  const step = scenario.steps[stepIndex];
  if (step === undefined) {
    return { kind: 'fallback', stepIndex, reply: scenario.fallback ?? { kind: 'text', text: DEFAULT_FALLBACK_TEXT } };
  }
  if (step.kind !== 'branch') return { kind: 'step', stepIndex, branch: undefined, reply: step };
  const matched = step.cases.findIndex((c) => conditionHolds(c.when, view));
  const chosen = step.cases[matched];
  if (chosen !== undefined) return { kind: 'step', stepIndex, branch: matched, reply: chosen.reply };
  return { kind: 'step', stepIndex, branch: 'otherwise', reply: step.otherwise };
}

function conditionHolds(condition: StepCondition, view: ConversationView): boolean {
  const text = view.lastUserText;
  if (text === undefined) return false;
  const test = condition.lastUserText;
  if ('startsWith' in test) return text.startsWith(test.startsWith);
  return text.includes(test.includes);
}

/**
 * Counts runs of consecutive model-authored entries: the CLIs never put two model responses next
 * to each other without a user/tool entry between, but may split one response into several
 * entries, so a run is the robust unit.
 */
export function countRuns<T>(items: readonly T[], isModel: (item: T) => boolean): number {
  let runs = 0;
  let inRun = false;
  for (const item of items) {
    const model = isModel(item);
    if (model && !inRun) runs += 1;
    inRun = model;
  }
  return runs;
}
