import { MAX_ITEM_CHARS, openPlanItems } from '../estimate/parse-plan-items.ts';
import { priceItems } from '../estimate/price-items.ts';
import { taskBandOf, type TaskBand } from '../estimate/task-band.ts';
import { readTaskHistory } from '../estimate/task-history.ts';
import { readPlanInScope } from '../steps/plan-in-scope.ts';

/**
 * The loop's next item and its own estimate (seed 004 RLP-006 "Estimate context per TODO item before
 * starting"), kept in the loop state as `next_item`. Snake case: the loop state's file format.
 */
export interface LoopNextItem {
  /** The file the item is in: the current shard once the plan is sharded, else the plan. */
  readonly file: string;
  /** 1-based line of the item in that file. */
  readonly line: number;
  /** The item's text (untrusted: from the working tree; at most `MAX_ITEM_CHARS`). */
  readonly text: string;
  readonly estimated_tokens: number;
  /** Percent of the window, one decimal. */
  readonly estimated_percent: number;
  /** P4's band of the estimate: a `large` item should be split before the iteration starts it. */
  readonly band: TaskBand;
}

/** Input of {@link estimateLoopNextItem}. */
export interface LoopNextItemInput {
  readonly projectRoot: string;
  /** core's state directory: the project's task history. */
  readonly stateDir: string;
  /** `handoff.planFile`; without it the loop has no items to estimate. */
  readonly planFile?: string;
  /** The context window a fresh iteration starts with (tokens, > 0). */
  readonly window: number;
}

/**
 * The first open item of the plan in scope (the current shard once sharded), priced with the
 * estimator's one model (`priceItems`: the same price `estimate` gives when asked for "the next item",
 * and `shard` gives the item). Undefined without a plan or an open item; problems are diagnostics.
 */
export async function estimateLoopNextItem(input: LoopNextItemInput): Promise<{ readonly item?: LoopNextItem; readonly diagnostics: readonly string[] }> {
  const diagnostics: string[] = [];
  if (input.planFile === undefined || !(Number.isFinite(input.window) && input.window > 0)) return { diagnostics };
  const scope = readPlanInScope(input.projectRoot, input.planFile, diagnostics);
  const next = scope === undefined ? undefined : openPlanItems(scope.text)[0];
  if (scope === undefined || next === undefined) return { diagnostics };
  const history = await readTaskHistory({ stateDir: input.stateDir, projectRoot: input.projectRoot });
  if (history.problem !== undefined) diagnostics.push(`task history: ${history.problem}`);
  const [priced] = priceItems([next], history.records).items;
  const tokens = priced?.tokens ?? 0;
  const percent = Math.round((tokens / input.window) * 1000) / 10;
  return {
    item: { file: scope.shardFile ?? scope.planFile, line: next.line, text: next.text.slice(0, MAX_ITEM_CHARS), estimated_tokens: tokens, estimated_percent: percent, band: taskBandOf(percent) },
    diagnostics,
  };
}
