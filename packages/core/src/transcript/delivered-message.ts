import { createHash } from 'node:crypto';
import type { ResolvedMessages } from '../config/config-schema.ts';
import { DEFAULT_CONFIG } from '../config/default-config.ts';
import { COMMIT_GATE_TEXT } from '../engine/commit-gate-text.ts';
import { forModelText } from '../text-safety/text-safety.ts';

/**
 * The digest of a checkpoint message we delivered, as the session state records it (never the text:
 * state files hold no transcript content). Whitespace runs count as one space and the ends are
 * trimmed, so an agent that re-wraps or trims the text when it shows it to the model still matches.
 */
export function deliveredMessageDigest(text: string): string {
  return `sha256:${createHash('sha256').update(normalizeMessage(text), 'utf8').digest('hex').slice(0, 32)}`;
}

/**
 * The configured texts every checkpoint message is built from (`messages` in the configuration,
 * rendered by `composeMessage`): what a reader needs to recognise one of our messages by its whole
 * structure when the session keeps no delivery record.
 */
export type CheckpointMessageTexts = Pick<ResolvedMessages, 'prefix' | 'header' | 'reminder' | 'capture' | 'escapeHatch' | 'allClear' | 'noChanges' | 'generic'>;

/**
 * How a reader tells our own delivered checkpoint from a user message that merely starts with our
 * prefix (issue 11). Structural hook feedback (Claude's `Stop hook feedback:` entries, Codex
 * `<hook_prompt>` items) is recognised by structure plus prefix and does not use this. A plain
 * user-role message is ours:
 * - with a delivery record (`delivered`): only when its digest is one the session recorded;
 * - without one (no state yet, or a lost state directory) but with the configured message texts
 *   (the hook knows them from its configuration): only when it has the whole structure
 *   `composeMessage` always renders ({@link isComposedCheckpoint}), never by the prefix alone;
 * - with neither (a caller that knows no configuration, probe recordings): by the prefix.
 */
export interface OwnCheckpointRule {
  readonly prefix: string;
  /** Digests of the messages delivered in this session ({@link deliveredMessageDigest}). */
  readonly delivered?: ReadonlySet<string>;
  /** The configured message texts the structure test uses, when the caller gave them. */
  readonly texts?: CheckpointMessageTexts;
}

/**
 * The rule of a read request: its prefix, its delivered digests when the caller gave them, and the
 * configured message texts when given (`ReadTurnRequest.checkpointMessages`; a key it lacks takes
 * the built-in text). The request's `checkpointPrefix` is the prefix, whatever
 * `checkpointMessages.prefix` says.
 */
export function ownCheckpointRule(request: {
  readonly checkpointPrefix: string;
  readonly deliveredDigests?: readonly string[];
  readonly checkpointMessages?: Partial<CheckpointMessageTexts>;
}): OwnCheckpointRule {
  const prefix = typeof request.checkpointPrefix === 'string' ? request.checkpointPrefix : '';
  const digests = Array.isArray(request.deliveredDigests) ? request.deliveredDigests.filter((d): d is string => typeof d === 'string') : undefined;
  const given = request.checkpointMessages;
  const texts = given !== null && typeof given === 'object' ? { texts: messageTexts(given, prefix) } : {};
  return digests === undefined ? { prefix, ...texts } : { prefix, delivered: new Set(digests), ...texts };
}

/**
 * True when a plain user-role message (no hook-feedback structure) is one of our delivered
 * checkpoints under `rule` (see {@link OwnCheckpointRule}). Every message of ours starts with the
 * prefix; an empty prefix matches nothing without a delivery record.
 */
export function isDeliveredCheckpoint(text: string, rule: OwnCheckpointRule): boolean {
  const prefix = rule.prefix.trim();
  if (prefix !== '' && !text.trimStart().startsWith(prefix)) return false;
  if (rule.delivered !== undefined) return rule.delivered.size > 0 && rule.delivered.has(deliveredMessageDigest(text));
  if (rule.texts !== undefined) return isComposedCheckpoint(text, rule.texts);
  return prefix !== '';
}

/**
 * True when `text` has the whole structure of a message we compose with these texts (whitespace
 * runs count as one space, so a re-wrapped message still matches):
 * - it starts with the prefix; and
 * - it ends with the escape hatch, which every message but two ends with (`{sessionId}`, `{offFile}`,
 *   `{offCommand}` and `{personOffCommand}` match any text: a state directory moved with the session still matches), or
 * - it is exactly the fail-open generic message (prefix + `generic`), or starts with the commit
 *   gate's message (prefix + its fixed text).
 * With an empty escape hatch, the actionable message is recognised by prefix + header at the start
 * and the reminder (followed by the capture reminder, when one is configured) at the end, and the all-clear / no-changes messages by prefix + their text. With
 * nothing but the prefix configured, nothing matches: a user's prompt is never taken for ours.
 */
export function isComposedCheckpoint(text: string, texts: CheckpointMessageTexts): boolean {
  const body = normalizeMessage(text);
  const prefix = normalizeRendered(texts.prefix);
  if (prefix === '' || !body.startsWith(prefix)) return false;
  const generic = normalizeRendered(texts.generic);
  if (generic !== '' && body === normalizeRendered(`${texts.prefix}${texts.generic}`)) return true;
  if (body.startsWith(normalizeRendered(`${texts.prefix}${COMMIT_GATE_TEXT}`))) return true;
  const hatch = normalizeRendered(texts.escapeHatch);
  if (hatch !== '') return body.length > prefix.length && endsWithTemplate(body, hatch);
  // No escape hatch configured: the actionable message still opens with prefix + header and closes
  // with the reminder; the all-clear and no-changes messages open with prefix + their text.
  const header = normalizeRendered(texts.header);
  const reminder = normalizeRendered(texts.reminder);
  const closing = [reminder, normalizeRendered(texts.capture)].filter((t) => t !== '').join(' ');
  if (header !== '' && reminder !== '' && body.startsWith(normalizeRendered(`${texts.prefix}${texts.header}`)) && body.endsWith(closing)) return true;
  return [texts.allClear, texts.noChanges].some((t) => normalizeRendered(t) !== '' && body.startsWith(normalizeRendered(`${texts.prefix}${t}`)));
}

/** Placeholders of the escape hatch (see `renderEscapeHatch`). */
const PLACEHOLDER = /\{(?:sessionId|offFile|offCommand|personOffCommand)\}/;

/**
 * True when `body` ends with `template`, its placeholders matching any text. Matched from the right,
 * each literal part at its last occurrence before the next: linear, whatever the (untrusted) text
 * holds, where a regular expression with several wildcards could backtrack.
 */
function endsWithTemplate(body: string, template: string): boolean {
  const parts = template.split(PLACEHOLDER);
  const last = parts.pop() ?? '';
  if (!body.endsWith(last)) return false;
  let end = body.length - last.length;
  for (let index = parts.length - 1; index >= 0; index -= 1) {
    const part = parts[index] ?? '';
    const at = body.lastIndexOf(part, end - part.length);
    if (at < 0 || at + part.length > end) return false;
    end = at;
  }
  // The hatch is its own section: it follows a section break (unless it opens with a placeholder).
  return parts[0] === '' || end === 0 || body[end - 1] === ' ';
}

function normalizeMessage(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A configured text as the delivered message shows it (control characters escaped, as `composeMessage` does). */
function normalizeRendered(text: string): string {
  return normalizeMessage(forModelText(text));
}

const DEFAULT_TEXTS = DEFAULT_CONFIG.messages;

function messageTexts(given: Partial<CheckpointMessageTexts>, prefix: string): CheckpointMessageTexts {
  const pick = (key: keyof CheckpointMessageTexts): string => {
    const value = given[key];
    return typeof value === 'string' ? value : (DEFAULT_TEXTS?.[key] ?? '');
  };
  return {
    prefix,
    header: pick('header'),
    reminder: pick('reminder'),
    capture: pick('capture'),
    escapeHatch: pick('escapeHatch'),
    allClear: pick('allClear'),
    noChanges: pick('noChanges'),
    generic: pick('generic'),
  };
}
