/**
 * What the hook tells the agent: let the stop pass, or block it with a reason (the checkpoint
 * message). Every encoder maps `pass` to empty stdout — the one output all three agents read as
 * "allow" — and `block` to exactly one JSON object.
 */
export type HookVerdict = { readonly kind: 'pass' } | { readonly kind: 'block'; readonly reason: string };

export const PASS: HookVerdict = { kind: 'pass' };
