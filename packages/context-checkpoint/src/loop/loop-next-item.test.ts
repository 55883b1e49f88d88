import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '@agent-checkpoint/core/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { openPlanItems } from '../estimate/parse-plan-items.ts';
import { priceItems } from '../estimate/price-items.ts';
import { planShards } from '../shard/plan-shards.ts';
import { writeShards } from '../shard/write-shards.ts';
import { estimateLoopNextItem } from './loop-next-item.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});
function project(plan: string): { root: string; stateDir: string } {
  const d = makeTempDir();
  cleanups.push(d.remove);
  const root = join(d.dir, 'repo');
  mkdirSync(root);
  writeFileSync(join(root, 'PLAN.md'), plan);
  return { root, stateDir: join(d.dir, 'state') };
}
const PLAN = ['# Plan', ...Array.from({ length: 10 }, (_, i) => `- [ ] Move part ${i + 1} into \`src/billing/part-${i + 1}.ts\``)].join('\n');
const WINDOW = 200_000;

describe('estimateLoopNextItem (RLP-006)', () => {
  it('the first open item, priced by the one model', async () => {
    const { root, stateDir } = project(PLAN.replace('- [ ] Move part 1 ', '- [x] Move part 1 '));
    const { item, diagnostics } = await estimateLoopNextItem({ projectRoot: root, stateDir, planFile: 'PLAN.md', window: WINDOW });
    expect(diagnostics).toEqual([]);
    const expected = priceItems([openPlanItems(PLAN)[1]!], []).items[0]!.tokens;
    expect(item).toEqual({ file: 'PLAN.md', line: 3, text: 'Move part 2 into `src/billing/part-2.ts`', estimated_tokens: expected, estimated_percent: Math.round((expected / WINDOW) * 1000) / 10, band: 'small' });
  });

  it('once the plan is sharded, the current shard\'s first open item, in its shard file', async () => {
    const { root, stateDir } = project(PLAN);
    const { written } = await writeShards({ projectRoot: root, planPath: 'PLAN.md', plan: planShards({ planText: PLAN, budget: { window: WINDOW } }) });
    const { item } = await estimateLoopNextItem({ projectRoot: root, stateDir, planFile: 'PLAN.md', window: WINDOW });
    expect(item?.file).toBe(written[0]);
    expect(item?.text).toBe('Move part 1 into `src/billing/part-1.ts`');
  });

  it('no plan configured, a missing plan, nothing open: no item', async () => {
    const { root, stateDir } = project('- [x] done');
    expect((await estimateLoopNextItem({ projectRoot: root, stateDir, window: WINDOW })).item).toBeUndefined();
    expect((await estimateLoopNextItem({ projectRoot: root, stateDir, planFile: 'MISSING.md', window: WINDOW })).item).toBeUndefined();
    expect((await estimateLoopNextItem({ projectRoot: root, stateDir, planFile: 'PLAN.md', window: WINDOW })).item).toBeUndefined();
  });
});
