import type { AgentId } from '@agent-checkpoint/core/hot-path';
import type { HookLogger } from './debug-log.ts';
import { PASS, type HookVerdict } from './hook-verdict.ts';

// The shape of one hook run, shared by the run (run-hook.ts) and the phases it loads lazily
// (run-checkpoint-phase.ts, commit-gate/commit-gate-route.ts): kept here so none of them imports another.

/** Why a run ended the way it did. Stable codes for the debug log and tests. */
export type HookRunCode =
  | 'checkpoint'
  | 'stdin-unavailable'
  | 'invalid-payload'
  | 'not-turn-end'
  | 'stop-hook-active'
  | 'background-tasks'
  | 'switched-off'
  | 'loop-guard'
  | 'silent'
  | 'state-unavailable'
  | 'config-unusable'
  /** Neither the payload's cwd nor the process's directory can be used (a removed worktree). */
  | 'cwd-unusable'
  /** The opt-in commit gate blocked a later stop of a blocked turn. */
  | 'commit-gate';

/** The result of one hook run: the verdict to encode and why. */
export interface HookRun {
  readonly verdict: HookVerdict;
  readonly code: HookRunCode;
  readonly detail: string;
  /** Milliseconds spent in each phase that ran (`config`, `checkpoint`, `claim`), for the debug log. */
  readonly timings?: Readonly<Record<string, number>>;
}

/** What a run needs from its surroundings (real process values in the bin, temp dirs in tests). */
export interface HookRunContext {
  readonly agent: AgentId;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Fallback when the payload has no usable `cwd`; undefined when the process's directory is gone. */
  readonly processCwd: string | undefined;
  readonly stateDir: string;
  /** Epoch ms after which nothing more may start; the bin's deadline timer enforces it. */
  readonly deadlineAt: number;
  readonly now: () => Date;
  readonly log: HookLogger;
}

/** A run that lets the stop pass. */
export function pass(code: HookRunCode, detail: string): HookRun {
  return { verdict: PASS, code, detail };
}
