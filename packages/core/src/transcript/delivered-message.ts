import { createHash } from 'node:crypto';

/**
 * The digest of a checkpoint message we delivered, as the session state records it (never the text:
 * state files hold no transcript content). Whitespace runs count as one space and the ends are
 * trimmed, so an agent that re-wraps or trims the text when it shows it to the model still matches.
 */
export function deliveredMessageDigest(text: string): string {
  const normalized = text.replace(/\s+/g, ' ').trim();
  return `sha256:${createHash('sha256').update(normalized, 'utf8').digest('hex').slice(0, 32)}`;
}

/**
 * How a reader tells our own delivered checkpoint from a user message that merely starts with our
 * prefix (issue 11). Structural hook feedback (Claude's `Stop hook feedback:` entries, Codex
 * `<hook_prompt>` items) is recognised by structure plus prefix and does not use this. A plain
 * user-role message is ours only when its digest is one the session recorded as delivered; when the
 * caller keeps no record (`delivered` undefined), the prefix alone decides, as before.
 */
export interface OwnCheckpointRule {
  readonly prefix: string;
  /** Digests of the messages delivered in this session ({@link deliveredMessageDigest}). */
  readonly delivered?: ReadonlySet<string>;
}

/** The rule of a read request: its prefix and its delivered digests, when the caller gave them. */
export function ownCheckpointRule(request: { readonly checkpointPrefix: string; readonly deliveredDigests?: readonly string[] }): OwnCheckpointRule {
  const prefix = typeof request.checkpointPrefix === 'string' ? request.checkpointPrefix : '';
  const digests = Array.isArray(request.deliveredDigests) ? request.deliveredDigests.filter((d): d is string => typeof d === 'string') : undefined;
  return digests === undefined ? { prefix } : { prefix, delivered: new Set(digests) };
}

/**
 * True when a plain user-role message (no hook-feedback structure) is one of our delivered
 * checkpoints under `rule`. An empty prefix matches nothing without a delivery record.
 */
export function isDeliveredCheckpoint(text: string, rule: OwnCheckpointRule): boolean {
  if (rule.delivered !== undefined) return rule.delivered.size > 0 && rule.delivered.has(deliveredMessageDigest(text));
  const prefix = rule.prefix.trim();
  return prefix !== '' && text.trimStart().startsWith(prefix);
}
