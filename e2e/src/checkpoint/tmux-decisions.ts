import path from 'node:path';
import { readJsonlFile } from '../harness/read-jsonl-file.ts';

/** One line of `<state dir>/debug.log` as `agent-checkpoint-tmux` writes it (`AGENT_CHECKPOINT_DEBUG=1`). */
interface DebugLine {
  readonly at: string;
  readonly pid: number;
  readonly route?: string;
  readonly level: string;
  readonly message: string;
  readonly threadId?: string;
  readonly turnId?: string;
}

/** What one notify run decided about one completed turn of the main thread. */
export interface TmuxDecision {
  readonly pid: number;
  readonly turnId: string;
  /**
   * The run's last log line once it is past "turn complete": `delivered`, `skipped: <reason>`,
   * `refused: <reason>`, or a warning (failures). Undefined while the run has logged nothing after
   * "turn complete".
   */
  readonly outcome: string | undefined;
  /** From "turn complete" to the outcome line, in ms. */
  readonly durationMs: number | undefined;
}

/**
 * The decisions of the tmux route about the turns of thread `threadId`, in order, read from the
 * debug log of `stateDir` (title-generation threads and other threads are left out).
 */
export function readTmuxDecisions(stateDir: string, threadId: string): TmuxDecision[] {
  const lines = readJsonlFile<DebugLine>(path.join(stateDir, 'debug.log')).filter((l) => l.route === 'tmux');
  const decisions: TmuxDecision[] = [];
  for (const start of lines) {
    if (start.message !== 'turn complete' || start.threadId !== threadId || start.turnId === undefined) continue;
    const last = lines.filter((l) => l.pid === start.pid).at(-1);
    const done = last !== undefined && last !== start;
    decisions.push({
      pid: start.pid,
      turnId: start.turnId,
      outcome: done ? last.message : undefined,
      durationMs: done ? Date.parse(last.at) - Date.parse(start.at) : undefined,
    });
  }
  return decisions;
}
