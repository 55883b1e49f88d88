// `pnpm --filter @agent-checkpoint/bench bench:check`: exits 1 when the committed bench/results.json
// misses a target (hook wall ≤ 1.5× bare node, peak RSS ≤ bare node + 40 MiB, at every size; tail
// reads bounded and finding the turn), 2 when there is no usable results file. It reads results only;
// it never runs a benchmark, so CI can call it cheaply.
import { readFileSync } from 'node:fs';
import { benchPaths } from './repo-root.ts';
import { checkResults } from './check-targets.ts';
import type { BenchResults } from './results.ts';

const path = process.argv[2] ?? benchPaths().resultsJson;
let results: BenchResults;
try {
  results = JSON.parse(readFileSync(path, 'utf8')) as BenchResults;
} catch (error) {
  process.stderr.write(`bench:check: cannot read ${path}: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}
const { failures, passes } = checkResults(results);
for (const line of passes) process.stdout.write(`ok   ${line}\n`);
for (const line of failures) process.stdout.write(`FAIL ${line}\n`);
const when = `${results.machine.date}, load ${results.machine.loadAverageAtStart.join(' ')}${results.noisy ? ', noisy' : ''}`;
process.stdout.write(`${failures.length === 0 ? 'all targets met' : `${failures.length} target(s) missed`} (${path}, measured ${when})\n`);
process.exit(failures.length === 0 ? 0 : 1);
