import { createHash } from 'node:crypto';
import type { TurnTimeline } from '@agent-checkpoint/core/hot-path';
import type { HookEvent } from './hook-event.ts';

const digest = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32);

/**
 * The key of this session's state file. Agents always send `session_id`; without one, the transcript
 * path (then the cwd) stands in, so blocks are still counted somewhere stable.
 */
export function sessionKeyOf(event: HookEvent, cwd: string): string {
  if (event.sessionId !== undefined) return event.sessionId;
  if (event.transcriptPath !== undefined) return `transcript-${digest(event.transcriptPath)}`;
  return `cwd-${digest(cwd)}`;
}

/**
 * The identity the loop guard counts blocks under. The payload's id wins where the agent gives one
 * (Claude `prompt_id`, Codex `turn_id`: known before reading anything, stable across blocks). Gemini
 * has none: the reader's `turnId` (prompt + boundary message digest), else a digest of the payload
 * `prompt`, which Gemini repeats unchanged on every AfterAgent of the same prompt.
 */
export function turnKeyOf(event: HookEvent, timeline: TurnTimeline | undefined): string | undefined {
  if (event.hint.turnId !== undefined) return event.hint.turnId;
  if (timeline?.turnId !== undefined && timeline.turnId !== '') return timeline.turnId;
  if (event.hint.prompt !== undefined) return `prompt-${digest(event.hint.prompt)}`;
  return undefined;
}
