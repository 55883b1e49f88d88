import { describe, expect, it } from 'vitest';
import { checkResults } from './check-targets.ts';
import type { BenchResults, HookCell, ProcessStats, TailReadCell } from './results.ts';
import { TARGETS } from './results.ts';
import { summarize } from './stats.ts';

const stats = (wall: number, rss: number): ProcessStats => ({ runs: 3, wallMs: summarize([wall, wall, wall]), peakRssMiB: summarize([rss, rss, rss]), cpuMsMean: wall });
const cell = (hookWall: number, hookRss: number): HookCell => ({
  agent: 'claude',
  sizeLabel: '1 MiB',
  fileBytes: 1024 * 1024,
  changedFiles: 10,
  hook: stats(hookWall, hookRss),
  floor: stats(40, 40),
  wallRatio: hookWall / 40,
  rssOverFloorMiB: hookRss - 40,
  outcomes: { block: 3 },
  meetsWall: hookWall / 40 <= TARGETS.wallRatio,
  meetsRss: hookRss - 40 <= TARGETS.rssOverFloorMiB,
});
const tail: TailReadCell = {
  agent: 'claude',
  sizeLabel: '1 GiB',
  fileBytes: 1024 ** 3,
  bytesRead: 192 * 1024,
  coldMs: 5,
  warmMs: summarize([1]),
  rssGrowthMiB: 1,
  heapGrowthMiB: 1,
  process: stats(50, 45),
  floor: stats(40, 40),
  foundTurn: true,
  calls: 4,
  truncated: false,
};
const results = (hook: HookCell[]): BenchResults =>
  ({ hook, tailRead: [tail], targets: TARGETS }) as unknown as BenchResults;

describe('checkResults', () => {
  it('passes cells within 1.5× bare node and +40 MiB', () => {
    expect(checkResults(results([cell(60, 80)])).failures).toEqual([]);
  });

  it('fails a cell over the wall ratio or the RSS budget', () => {
    expect(checkResults(results([cell(61, 50)])).failures).toHaveLength(1);
    expect(checkResults(results([cell(50, 81)])).failures).toHaveLength(1);
  });

  it('fails when there is nothing to check, or a tail read lost the turn or read past the cap', () => {
    expect(checkResults(results([])).failures.length).toBeGreaterThan(0);
    const broken = { ...results([cell(50, 50)]), tailRead: [{ ...tail, foundTurn: false, bytesRead: 600 * 1024 }] } as BenchResults;
    expect(checkResults(broken).failures).toHaveLength(2);
  });

  it('counts Gemini\'s "deny" as its block, and only for Gemini', () => {
    const gemini: HookCell = { ...cell(50, 50), agent: 'gemini', outcomes: { deny: 3 } };
    expect(checkResults(results([gemini])).failures).toEqual([]);
    expect(checkResults(results([{ ...gemini, outcomes: { block: 3 } }])).failures).toHaveLength(1);
    expect(checkResults(results([{ ...cell(50, 50), outcomes: { deny: 3 } }])).failures).toHaveLength(1);
    expect(checkResults(results([{ ...cell(50, 50), outcomes: { block: 2, pass: 1 } }])).failures).toHaveLength(1);
  });
});
