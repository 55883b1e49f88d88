import type { ResolvedConfig } from '../config/config-schema.ts';
import type { ContextStepOutput } from '../context-checkpoint/run-context-step.ts';
import type { TurnEndExtension } from '../turn-end/turn-end-extension.ts';
import type { TestRun } from './run-tests.ts';

/** `CheckpointOutcome.extensions['opt-ins']`: the hook's test run and the context step, when they ran. */
export interface OptInsDetail {
  readonly tests?: TestRun;
  readonly context?: ContextStepOutput;
}

/** True when the configuration turns on an end-of-turn opt-in: only then does a route pass {@link optInsExtension}. */
export function wantsOptIns(config: ResolvedConfig): boolean {
  return config.runTests !== undefined || config.context?.enabled === true;
}

/**
 * The end-of-turn opt-ins (`runTests`, `context.enabled`) as a {@link TurnEndExtension}, until they
 * move to `packages/context-checkpoint`. A thin adapter: `applyTurnEndOptIns` (loaded on first run)
 * does the work; core recomposes the message from the result, test report and lines returned here.
 */
export const optInsExtension: TurnEndExtension<OptInsDetail> = {
  name: 'opt-ins',
  async run(input) {
    const { applyTurnEndOptIns } = await import('./apply-turn-end-opt-ins.ts');
    const { reportTestRun } = await import('./apply-test-run.ts');
    const out = await applyTurnEndOptIns({ ...input, hatch: {} });
    const lines = out.context?.lines ?? [];
    const report = out.tests ? reportTestRun(out.tests) : undefined;
    return {
      result: out.result,
      ...(report ? { tests: report } : {}),
      // The context step returns lines only when they are due; alone they make the `context` message.
      ...(lines.length > 0 ? { lines, blocksAlone: true } : {}),
      detail: { ...(out.tests ? { tests: out.tests } : {}), ...(out.context ? { context: out.context } : {}) },
      diagnostics: out.diagnostics,
    };
  },
};
