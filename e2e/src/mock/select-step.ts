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
  /**
   * The text that opened the conversation (context reminders aside), where the agent's request
   * format tells it apart: a subagent's conversation opens with its task (Claude). Undefined when
   * not read.
   */
  readonly firstUserText?: string | undefined;
}

export type SelectedReply = (
  | { readonly kind: 'step'; readonly stepIndex: number; readonly branch: number | 'otherwise' | undefined; readonly reply: ModelReply }
  | { readonly kind: 'fallback'; readonly stepIndex: number; readonly reply: ModelReply }
) & {
  /** `subagent:<index>` when a subagent script answered; undefined for the main script. */
  readonly thread: string | undefined;
};

/**
 * Picks the answer for a request: step `priorModelTurns` of the main script, or of the subagent
 * script whose prompt opened the request's conversation, with branches resolved.
 */
export function selectReply(scenario: Scenario, view: ConversationView): SelectedReply {
  const subagentIndex = scenario.subagents?.findIndex((s) => s.prompt === view.firstUserText) ?? -1;
  const steps = scenario.subagents?.[subagentIndex]?.steps ?? scenario.steps;
  const thread = subagentIndex >= 0 ? `subagent:${subagentIndex}` : undefined;
  const stepIndex = view.priorModelTurns;
  const step = steps[stepIndex];
  if (step === undefined) {
    return { kind: 'fallback', stepIndex, reply: scenario.fallback ?? { kind: 'text', text: DEFAULT_FALLBACK_TEXT }, thread };
  }
  if (step.kind !== 'branch') return { kind: 'step', stepIndex, branch: undefined, reply: step, thread };
  const matched = step.cases.findIndex((c) => conditionHolds(c.when, view));
  const chosen = step.cases[matched];
  if (chosen !== undefined) return { kind: 'step', stepIndex, branch: matched, reply: chosen.reply, thread };
  return { kind: 'step', stepIndex, branch: 'otherwise', reply: step.otherwise, thread };
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
