import type { CheckpointMessageTexts } from '../transcript/delivered-message.ts';
import { deliveredMessageDigest, isComposedCheckpoint } from '../transcript/delivered-message.ts';

/**
 * True when a user message is a checkpoint we delivered: its digest is one the session state recorded
 * (`SessionState.delivered`), else it has the whole structure `composeMessage` renders with the
 * configured texts (`isComposedCheckpoint`; whitespace-insensitive, so Codex's trimming and
 * re-wrapping still match). Never by the prefix alone: "[agent-checkpoint] please check X" typed by
 * the user is a prompt and gets its checkpoint. The structure test stays on even with a record, so a
 * message whose digest was lost (state rewritten, text sanitised when typed) cannot start a loop.
 */
export function isOwnCheckpoint(text: string, rule: { readonly delivered: readonly string[] | undefined; readonly texts: CheckpointMessageTexts }): boolean {
  if (rule.delivered !== undefined && rule.delivered.includes(deliveredMessageDigest(text))) return true;
  return isComposedCheckpoint(text, rule.texts);
}
