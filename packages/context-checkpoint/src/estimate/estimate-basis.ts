/**
 * What an estimate priced (issue 21): the prompt's own task, the plan's current item (a short
 * acknowledgement or "the next item" continues it), plan items the prompt names, or the whole plan
 * (the current shard's, once sharded) when the prompt asks for it. See `choosePromptBasis`.
 */
export type EstimateBasisKind = 'prompt' | 'current-item' | 'items' | 'plan';

export const ESTIMATE_BASIS_KINDS: readonly EstimateBasisKind[] = ['prompt', 'current-item', 'items', 'plan'];

/**
 * Whether a past turn can teach the estimator: only when what was estimated is what the turn's
 * context growth measures. A prompt-only estimate is priced for one turn and measured over that turn:
 * like with like. An item or a plan is work over many turns, so one turn's growth says nothing about
 * its price (learning from it drove the correction to its floor). A sample from before the basis was
 * recorded is prompt-only when it counted no plan items.
 */
export function isLearnableSample(sample: { readonly basis?: EstimateBasisKind | undefined; readonly features: { readonly planOpenItems: number } }): boolean {
  return sample.basis === undefined ? sample.features.planOpenItems === 0 : sample.basis === 'prompt';
}
