import { emptyTimeline, type ReadTurnRequest, type TranscriptReader, type TurnTimeline } from '@agent-checkpoint/core';
import { locateCodexRollout, type LocateCodexRolloutOptions } from './locate-codex-rollout.ts';
import { readCodexLatestUsage } from './read-codex-latest-usage.ts';
import { readCodexTurn, type ReadCodexTurnOptions } from './read-codex-turn.ts';

/** Options of {@link createCodexTranscriptReader}. */
export interface CodexTranscriptReaderOptions extends ReadCodexTurnOptions, LocateCodexRolloutOptions {}

/**
 * The Codex CLI {@link TranscriptReader}: reads the current turn of a rollout JSONL file
 * (`~/.codex/sessions/YYYY/MM/DD/rollout-*-<thread id>.jsonl`), Codex 0.169 and the older
 * `exec_command_end` / `patch_apply_end` form.
 *
 * - Turns are grouped by `turn_id`; the current turn is `hint.turnId` (Stop hook `turn_id`, notify
 *   `turn-id`) or the last turn with a genuine user message. A turn opened by our own checkpoint
 *   (typed into the TUI over tmux) continues the previous genuine turn.
 * - Calls and results are joined by call id; the structured `CommandExecution` / `FileChange` result
 *   wins over the model-facing text for exit code, paths and output.
 * - Reads backwards and never more than `maxBytes`; never throws or rejects.
 */
export function createCodexTranscriptReader(options: CodexTranscriptReaderOptions = {}): TranscriptReader {
  return {
    specificationVersion: 'transcript-reader-v1',
    agent: 'codex',
    async readTurn(request: ReadTurnRequest): Promise<TurnTimeline> {
      try {
        return readCodexTurn(request, options);
      } catch (error) {
        // A bug in the reader must not wedge the agent: report it as "no data".
        return emptyTimeline('codex', {
          level: 'warn',
          code: 'internal-error',
          message: `Codex reader failed: ${error instanceof Error ? error.message : String(error)}`,
        });
      }
    },
    locateTranscript(request) {
      return locateCodexRollout(request, options);
    },
    // Synchronous underneath (one bounded tail read); never throws.
    readLatestUsage: (request) => Promise.resolve(readCodexLatestUsage(request)),
  };
}
