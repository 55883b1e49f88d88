import { getCheckpoint, type CheckpointOutcome, type TranscriptReader, type TurnHint, type TurnTimeline } from '@agent-checkpoint/core';
import { contextCheckpointSections } from '@agent-checkpoint/context-checkpoint/load';
import { createClaudeTranscriptReader } from '@agent-checkpoint/transcript-claude';
import { createCodexTranscriptReader } from '@agent-checkpoint/transcript-codex';
import { createCopilotTranscriptReader } from '@agent-checkpoint/transcript-copilot';
import { createGeminiTranscriptReader } from '@agent-checkpoint/transcript-gemini';
import { createPiTranscriptReader } from '@agent-checkpoint/transcript-pi';
import { createQwenTranscriptReader } from '@agent-checkpoint/transcript-qwen';
import type { HookInvocation } from '../harness/agent-session.ts';
import { asArray, asString } from '../mock/json-access.ts';
import { CHECKPOINT_PREFIX } from './checkpoint-project.ts';
import { routeAgent, type CheckpointRoute } from './checkpoint-route.ts';

/**
 * What `getCheckpoint` (core, run here in the test process, not in the bundle) says for the turn
 * one hook or notify invocation judged: the same repository, the transcript as the probe
 * snapshotted it right after the hook decided, and the turn hint each route derives from its
 * payload (delivery-hook README: Claude `prompt_id`, Codex `turn_id`, plus the last assistant
 * message; Gemini the prompt; the tmux route: notify's `turn-id`, last input message and last
 * assistant message). The repository must not have changed since (the follow-up work of these
 * scenarios changes no file).
 */
export async function expectedCheckpoint(
  route: CheckpointRoute,
  invocation: HookInvocation,
  env: Readonly<Record<string, string>>,
): Promise<CheckpointOutcome> {
  const { cwd, transcript, reader, hint, sessionId } = stopTranscript(route, invocation);
  const agent = routeAgent(route);
  return getCheckpoint({
    agent,
    cwd,
    transcript: { reader, path: transcript, hint },
    ...(sessionId === undefined ? {} : { sessionId }),
    env,
    // The routes register the context package's config sections too: without them a project file
    // that sets one (e.g. runTests) would be rejected here and the expectation would differ.
    configSections: contextCheckpointSections,
    signal: AbortSignal.timeout(30_000),
  });
}

/**
 * The turn one hook or notify invocation judged, as our reader reads it from the transcript
 * snapshot the probe took right after the hook decided, with the route's turn hint.
 */
export async function stopTimeline(route: CheckpointRoute, invocation: HookInvocation): Promise<TurnTimeline> {
  const { transcript, reader, hint } = stopTranscript(route, invocation);
  return reader.readTurn({ transcriptPath: transcript, hint, checkpointPrefix: CHECKPOINT_PREFIX, signal: AbortSignal.timeout(30_000) });
}

/** The reader, transcript snapshot, turn hint and session of one invocation (see {@link expectedCheckpoint}). */
function stopTranscript(
  route: CheckpointRoute,
  invocation: HookInvocation,
): { cwd: string; transcript: string; reader: TranscriptReader; hint: TurnHint; sessionId: string | undefined } {
  const payload = invocation.payload ?? {};
  const transcript = invocation.transcriptSnapshot;
  if (typeof transcript !== 'string') throw new Error(`invocation ${invocation.n}: no transcript snapshot`);
  const field = (key: string): string | undefined => asString(payload[key]);
  const cwd = field('cwd');
  if (cwd === undefined) throw new Error(`invocation ${invocation.n}: payload without cwd`);
  switch (route) {
    case 'claude-hook':
      return { cwd, transcript, reader: createClaudeTranscriptReader(), hint: defined({ turnId: field('prompt_id'), lastAssistantMessage: field('last_assistant_message') }), sessionId: field('session_id') };
    case 'codex-hook':
      return { cwd, transcript, reader: createCodexTranscriptReader(), hint: defined({ turnId: field('turn_id'), lastAssistantMessage: field('last_assistant_message') }), sessionId: field('session_id') };
    case 'gemini-hook':
      return { cwd, transcript, reader: createGeminiTranscriptReader(), hint: defined({ prompt: field('prompt') }), sessionId: field('session_id') };
    // agentStop names no turn: camelCase session id, no hint.
    case 'copilot-hook':
      return { cwd, transcript, reader: createCopilotTranscriptReader(), hint: {}, sessionId: field('sessionId') };
    case 'qwen-hook':
      return { cwd, transcript, reader: createQwenTranscriptReader(), hint: defined({ turnId: field('prompt_id'), lastAssistantMessage: field('last_assistant_message') }), sessionId: field('session_id') };
    // Our extension's payload: the user's prompt and the last assistant text (pi-profile.ts).
    case 'pi-hook':
      return { cwd, transcript, reader: createPiTranscriptReader(), hint: defined({ prompt: field('prompt'), lastAssistantMessage: field('last_assistant_message') }), sessionId: field('session_id') };
    case 'codex-queue':
    case 'codex-tmux':
      return {
        cwd,
        transcript,
        reader: createCodexTranscriptReader(),
        hint: defined({ turnId: field('turn-id'), prompt: asString(asArray(payload['input-messages']).at(-1)), lastAssistantMessage: field('last-assistant-message') }),
        sessionId: field('thread-id'),
      };
  }
}

/** Drops undefined values (exactOptionalPropertyTypes). */
function defined<T extends Record<string, string | undefined>>(value: T): { [K in keyof T]?: string } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: string };
}
