/**
 * What the hook tells the agent: let the stop pass, or block it with a reason (the checkpoint
 * message). Either may carry a `notice` for the user (a broken config, an unreadable transcript),
 * shown on the agent's user-visible channel (`systemMessage`) and never sent to the model.
 *
 * Every encoder maps a bare `pass` to empty stdout — the one output all three agents read as
 * "allow" — and anything else to exactly one JSON object.
 */
export type HookVerdict =
  | { readonly kind: 'pass'; readonly notice?: string }
  | { readonly kind: 'block'; readonly reason: string; readonly notice?: string };

export const PASS: HookVerdict = { kind: 'pass' };
