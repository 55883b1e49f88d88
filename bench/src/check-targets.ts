import { designFloorRatioOf, TARGETS, type BenchResults } from './results.ts';
import { formatBytes } from './stats.ts';

/** Transcript readers never read more than this (DEFAULT_TRANSCRIPT_MAX_BYTES). */
const READ_CAP_BYTES = 512 * 1024;

/** Every target the results must meet, as human-readable pass and fail lines. */
export function checkResults(results: BenchResults): { passes: string[]; failures: string[] } {
  const passes: string[] = [];
  const failures: string[] = [];
  const check = (ok: boolean, line: string): void => void (ok ? passes : failures).push(line);
  if (results.hook.length === 0) failures.push('no hook measurements in the results');
  // Issue 22's targets, also for results written before them (those carry older ones).
  const { designFloorRatio, firstRunDesignFloorRatio, rssOverFloorMiB } = TARGETS;
  for (const c of results.hook) {
    const name = `hook ${c.agent} ${formatBytes(c.fileBytes)} ${c.changedFiles} files`;
    // Recomputed from the stats: results written before issue 22 have no stored ratio (and no target).
    const ratio = designFloorRatioOf(c.hook, c.minimal);
    const floorMs = c.minimal?.wallMs.median ?? Number.NaN;
    check(ratio <= designFloorRatio, `${name}: wall ${c.hook.wallMs.median.toFixed(1)} ms = ${ratio.toFixed(2)}× the design floor ${floorMs.toFixed(1)} ms (target ≤ ${designFloorRatio}×)`);
    if (c.firstRun === undefined) failures.push(`${name}: no first run with an empty code cache in the results`);
    else {
      const first = designFloorRatioOf(c.firstRun, c.minimal);
      check(first <= firstRunDesignFloorRatio, `${name}: first run (empty code cache) ${c.firstRun.wallMs.median.toFixed(1)} ms = ${first.toFixed(2)}× the design floor (target ≤ ${firstRunDesignFloorRatio}×)`);
    }
    check(c.rssOverFloorMiB <= rssOverFloorMiB, `${name}: peak RSS ${c.hook.peakRssMiB.median.toFixed(1)} MiB = bare node + ${c.rssOverFloorMiB.toFixed(1)} MiB (target ≤ +${rssOverFloorMiB} MiB)`);
    // Gemini's AfterAgent says "deny" where Claude and Codex say "block"; both deliver the checkpoint.
    const delivered = c.agent === 'gemini' ? 'deny' : 'block';
    check(c.outcomes[delivered] === c.hook.runs, `${name}: every run blocked with a checkpoint (${JSON.stringify(c.outcomes)})`);
  }
  if (results.tailRead.length === 0) failures.push('no tail-read measurements in the results');
  for (const t of results.tailRead) {
    const name = `tail read ${t.agent} ${formatBytes(t.fileBytes)}`;
    check(t.foundTurn, `${name}: found the recorded turn (${t.calls} calls)`);
    check(t.bytesRead <= READ_CAP_BYTES, `${name}: read ${formatBytes(t.bytesRead)} (cap ${formatBytes(READ_CAP_BYTES)})`);
  }
  return { passes, failures };
}
