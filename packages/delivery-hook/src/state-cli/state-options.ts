/** The operations of `agent-checkpoint-hook state` (declared in commands/hook-cli.ts). */
export const STATE_OPERATIONS = ['load', 'save', 'update-phase', 'complete', 'resume', 'handoff', 'respond'] as const;
export type StateOperation = (typeof STATE_OPERATIONS)[number];

/** The options of `state`, as commander parses them (`--command` is mandatory). */
export interface StateOptions {
  readonly command: string;
  readonly feature?: string;
  readonly phase?: string;
  readonly json?: string;
  readonly cwd?: string;
  readonly stateDir?: string;
  /** handoff: the sub-agent's mode (seed 002's protocol). */
  readonly mode?: string;
  /** respond: shorten a context_summary over the limit instead of refusing the response. */
  readonly truncate?: boolean;
}
