/** The operations of `agent-checkpoint-hook loop` (declared in commands/hook-cli.ts). */
export const LOOP_OPERATIONS = ['start', 'next', 'status', 'end'] as const;
export type LoopOperation = (typeof LOOP_OPERATIONS)[number];

/** The options of `loop`, as commander parses them. */
export interface LoopOptions {
  readonly cwd?: string;
  readonly json?: boolean;
}
