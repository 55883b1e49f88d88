import { createHash } from 'node:crypto';
import { refinesTurnId, type AgentId, type TurnTimeline } from '@agent-checkpoint/core/hot-path';
import { profileOf } from './agents/profiles.ts';
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
 * (Claude `prompt_id`, Codex `turn_id`: stable across blocks), unless the reader refines it
 * (`<payload id>#<opening entry>`, {@link refinesTurnId}): Claude reuses the previous prompt id for a
 * slash-command or skill turn, which must not inherit that turn's blocks. A reader id of another form
 * never wins: when the transcript lags the payload (Claude's write race), the reader may have found
 * another turn, and the payload's id is the safer key. Gemini has no payload id: the reader's
 * `turnId` (prompt + boundary message digest), else a digest of the payload `prompt`, which Gemini
 * repeats unchanged on every AfterAgent of the same prompt. Copilot's payload names neither turn nor
 * prompt: with its log unreadable, the session stands in (`unidentified-<session>`), so such turns get
 * at most one block per session instead of none (no key: no block can be recorded) or one per stop.
 */
export function turnKeyOf(event: HookEvent, timeline: TurnTimeline | undefined): string | undefined {
  if (event.hint.turnId !== undefined) return refinesTurnId(event.hint.turnId, timeline?.turnId) ? timeline.turnId : event.hint.turnId;
  if (timeline?.turnId !== undefined && timeline.turnId !== '') return timeline.turnId;
  if (event.hint.prompt !== undefined) return `prompt-${digest(event.hint.prompt)}`;
  if (event.sessionId !== undefined && event.sessionId !== '') return `unidentified-${digest(event.sessionId)}`;
  return undefined;
}

/**
 * True when the payload's turn id is the turn's final identity, so the loop guard may pass a stop on
 * it before reading the transcript (the agent profile's fact). Codex `turn_id` is unique per turn.
 * Claude's `prompt_id` is not (a command turn reuses it, see {@link turnKeyOf}): its stops are decided
 * on the reader's identity.
 */
export function payloadTurnIdIsFinal(agent: AgentId): boolean {
  return profileOf(agent).payloadTurnIdIsFinal;
}
