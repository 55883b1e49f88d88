import { describe, expect, it } from 'vitest';
import { checkResults } from './check-targets.ts';
import type { BenchResults, HookCell, ProcessStats, TailReadCell } from './results.ts';
import { TARGETS } from './results.ts';
import { summarize } from './stats.ts';

const stats = (wall: number, rss: number): ProcessStats => ({ runs: 3, wallMs: summarize([wall, wall, wall]), peakRssMiB: summarize([rss, rss, rss]), cpuMsMean: wall });
/** A cell of the same rounds: bare node 40 ms / 40 MiB, the design floor `minimalWall` (default 50 ms), a first run `firstWall` (null: none). */
const cell = (hookWall: number, hookRss: number, minimalWall = 50, firstWall: number | null = hookWall): HookCell => ({
  agent: 'claude',
  sizeLabel: '1 MiB',
  fileBytes: 1024 * 1024,
  changedFiles: 10,
  hook: stats(hookWall, hookRss),
  floor: stats(40, 40),
  minimal: stats(minimalWall, 42),
  wallRatio: hookWall / 40,
  rssOverFloorMiB: hookRss - 40,
  outcomes: { block: 3 },
  meetsWall: hookWall / minimalWall <= TARGETS.designFloorRatio,
  meetsRss: hookRss - 40 <= TARGETS.rssOverFloorMiB,
  ...(firstWall === null ? {} : { firstRun: stats(firstWall, hookRss) }),
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
  it('passes cells within 1.5× the design floor (not bare node), a first run within 2× and +40 MiB', () => {
    // 70 ms is 1.75× bare node (40 ms) but 1.4× the design floor (50 ms): issue 22's target is met.
    expect(checkResults(results([cell(70, 80, 50, 100)])).failures).toEqual([]);
  });

  it('fails a cell over the design floor ratio, the first-run ratio or the RSS budget', () => {
    // 60 ms is 1.5× bare node but 1.71× a 35 ms design floor.
    expect(checkResults(results([cell(60, 50, 35, 60)])).failures).toHaveLength(1);
    expect(checkResults(results([cell(70, 50, 50, 101)])).failures).toHaveLength(1);
    expect(checkResults(results([cell(70, 81, 50, 70)])).failures).toHaveLength(1);
  });

  it('fails a cell measured without the design floor or without a first run', () => {
    const { minimal: _minimal, ...noFloor } = cell(50, 50);
    // Neither ratio can be measured: both targets fail.
    expect(checkResults(results([noFloor])).failures).toHaveLength(2);
    expect(checkResults(results([cell(50, 50, 50, null)])).failures).toHaveLength(1);
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
