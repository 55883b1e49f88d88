import type { BenchResults } from './results.ts';
import { formatBytes } from './stats.ts';

/** Transcript readers never read more than this (DEFAULT_TRANSCRIPT_MAX_BYTES). */
const READ_CAP_BYTES = 512 * 1024;

/** Every target the results must meet, as human-readable pass and fail lines. */
export function checkResults(results: BenchResults): { passes: string[]; failures: string[] } {
  const passes: string[] = [];
  const failures: string[] = [];
  const check = (ok: boolean, line: string): void => void (ok ? passes : failures).push(line);
  if (results.hook.length === 0) failures.push('no hook measurements in the results');
  const { wallRatio, rssOverFloorMiB } = results.targets;
  for (const c of results.hook) {
    const name = `hook ${c.agent} ${formatBytes(c.fileBytes)} ${c.changedFiles} files`;
    check(c.wallRatio <= wallRatio, `${name}: wall ${c.hook.wallMs.median.toFixed(1)} ms = ${c.wallRatio.toFixed(2)}× bare node ${c.floor.wallMs.median.toFixed(1)} ms (target ≤ ${wallRatio}×)`);
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
