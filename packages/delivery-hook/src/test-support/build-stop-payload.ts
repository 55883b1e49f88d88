import { assertNever, readJsonlTail, type AgentId, type TurnHint } from '@agent-checkpoint/core';

/** The fields a test controls in a turn-end payload (a conformance `DeliveryScenario` has them all). */
export interface StopPayloadInput {
  readonly agent: AgentId;
  readonly sessionId: string;
  readonly transcriptPath?: string;
  readonly cwd: string;
  readonly hint: TurnHint;
  readonly stopHookActive: boolean;
}

/**
 * A turn-end payload shaped exactly like the recorded ones (same keys, same order) of Claude Code
 * 2.1.330 `Stop`, Gemini CLI 0.61.0 `AfterAgent`, Codex CLI 0.169.0 `Stop`, Copilot CLI 1.0.102 `agentStop` and Qwen Code 0.24.4 `Stop`.
 */
export function buildStopPayload(input: StopPayloadInput): Record<string, unknown> {
  const { hint } = input;
  switch (input.agent) {
    case 'claude':
      return {
        session_id: input.sessionId,
        transcript_path: input.transcriptPath,
        cwd: input.cwd,
        prompt_id: hint.turnId,
        permission_mode: 'acceptEdits',
        effort: { level: 'medium' },
        hook_event_name: 'Stop',
        stop_hook_active: input.stopHookActive,
        last_assistant_message: hint.lastAssistantMessage ?? '',
        background_tasks: [],
        session_crons: [],
      };
    case 'gemini':
      return {
        session_id: input.sessionId,
        transcript_path: input.transcriptPath,
        cwd: input.cwd,
        hook_event_name: 'AfterAgent',
        timestamp: new Date().toISOString(),
        prompt: hint.prompt ?? '',
        prompt_response: 'ignored by the hook',
        stop_hook_active: input.stopHookActive,
      };
    case 'codex':
      return {
        session_id: input.sessionId,
        turn_id: hint.turnId,
        transcript_path: input.transcriptPath,
        cwd: input.cwd,
        hook_event_name: 'Stop',
        model: 'gpt-5.5',
        permission_mode: 'bypassPermissions',
        stop_hook_active: input.stopHookActive,
        last_assistant_message: hint.lastAssistantMessage ?? '',
      };
    case 'copilot':
      // agentStop (1.0.102): camelCase but `stop_hook_active`; no turn hint. `timestamp` names this call's
      // hook.start in the log (the hook waits for it): the last one the transcript holds, as at the recording.
      return {
        sessionId: input.sessionId,
        timestamp: lastAgentStopTimestamp(input.transcriptPath) ?? Date.now(),
        cwd: input.cwd,
        transcriptPath: input.transcriptPath,
        stopReason: 'end_turn',
        stop_hook_active: input.stopHookActive,
      };
    case 'qwen':
      // Stop (0.24.4), in its recorded key order.
      return {
        session_id: input.sessionId,
        transcript_path: input.transcriptPath,
        cwd: input.cwd,
        hook_event_name: 'Stop',
        timestamp: new Date().toISOString(),
        permission_mode: 'yolo',
        prompt_id: hint.turnId,
        stop_hook_active: input.stopHookActive,
        last_assistant_message: hint.lastAssistantMessage ?? '',
        background_tasks: [],
        crons: [],
      };
    case 'pi':
      // What our Pi extension sends at the last turn_end (plugins/agent-checkpoint/pi/agent-checkpoint/index.js).
      return {
        hook_event_name: 'turn_end',
        session_id: input.sessionId,
        transcript_path: input.transcriptPath,
        cwd: input.cwd,
        prompt: hint.prompt ?? '',
        last_assistant_message: hint.lastAssistantMessage ?? '',
        stop_hook_active: input.stopHookActive,
        consecutive_blocks: input.stopHookActive ? 1 : 0,
      };
    default:
      return assertNever(input.agent);
  }
}

/** How far back from its end a Copilot log is searched: every recorded log is smaller. */
const HOOK_START_TAIL_BYTES = 16 * 1024 * 1024;

/**
 * The `input.timestamp` of the last agentStop `hook.start` in a Copilot log, when there is one. Reads
 * only the log's tail, backwards: the bad-input tests hand in a 4 GiB sparse file (reading it whole
 * took a minute), FIFOs and /dev/zero (refused, never waited on).
 */
function lastAgentStopTimestamp(path: string | undefined): number | undefined {
  if (path === undefined) return undefined;
  let stamp: number | undefined;
  try {
    readJsonlTail(path, {
      maxBytes: HOOK_START_TAIL_BYTES,
      mustContainAny: ['"hook.start"'],
      visit: (raw) => {
        const event = raw as { type?: unknown; data?: { hookType?: unknown; input?: { timestamp?: unknown } } } | null;
        const timestamp = event?.type === 'hook.start' && event.data?.hookType === 'agentStop' ? event.data.input?.timestamp : undefined;
        if (typeof timestamp !== 'number') return 'continue';
        stamp = timestamp;
        return 'stop';
      },
    });
  } catch {
    return undefined;
  }
  return stamp;
}
