import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzeMutation } from './analyze-mutation.ts';
import { analyzeRead } from './analyze-read.ts';
import { matchesEvidence } from './match-evidence.ts';
import { parseShellCommand } from './parse-shell-command.ts';
import { runModuleSnippet, type SnippetRun } from '../test-support/run-module-snippet.ts';

// The shell-command parser on adversarial input (docs/reliability.md). Property tests of totality
// live in parse-shell-command.property.test.ts; this file is about *time*. Commands come from
// transcripts (an agent can run anything, e.g. a heredoc holding a whole file), and the parser runs
// synchronously inside the hook: catastrophic backtracking or quadratic blow-up would wedge it past
// any timer. Two guards, neither wall-clock-flaky:
// - scaling: for each family of hostile input, the cost of 100× the input must stay within a
//   generous bound of 100× the cost of 1× (linear ≈ 100×, quadratic ≈ 10,000×; the bound is 2,000×,
//   measured as the best of several runs);
// - a hard timeout: everything runs in a child process whose time limit is the failure condition,
//   so a pathological case fails the test instead of hanging the suite.

/** Families of hostile commands, each a function of a size parameter (1× = small, 100× = big). */
const FAMILIES: Record<string, (n: number) => string> = {
  'nested $( … )': (n) => `${'echo $('.repeat(n)}make restart${')'.repeat(n)}`,
  'unbalanced $(': (n) => `echo ${'$('.repeat(n)} x`,
  'nested backticks': (n) => `echo ${'`echo \\'.repeat(n)}x`,
  'thousands of quotes': (n) => `echo ${`"'\\"`.repeat(n)}`,
  'alternating quotes': (n) => `echo ${`'a'"b"`.repeat(n)}`,
  'unterminated double quote with escapes': (n) => `echo "${'\\"$x'.repeat(n)}`,
  'huge heredoc': (n) => `cat > out.py <<'EOF'\n${'print("$(rm -rf /)")  # ; && | `x`\n'.repeat(n)}EOF\npytest`,
  'unterminated heredoc': (n) => `cat <<EOF\n${'line $(x) `y`\n'.repeat(n)}`,
  'many heredocs on one line': (n) => `cat ${'<<E '.repeat(n)}\n${'a\nE\n'.repeat(n)}`,
  'long pipelines and lists': (n) => `${'a x | b y && c z ; '.repeat(n)}d`,
  'deep subshells': (n) => `${'('.repeat(n)}make test${')'.repeat(n)}`,
  'brace groups and parameter expansions': (n) => `echo ${'${a:-${b:-'.repeat(n)}x${'}}'.repeat(n)}`,
  'stacked wrappers': (n) => `${'sudo env A=1 timeout 5 nice -n 1 '.repeat(n)}pytest -q`,
  'nested bash -c': (n) => `bash -c ${JSON.stringify(`${'bash -c "'.repeat(Math.min(n, 8))}make restart${'"'.repeat(Math.min(n, 8))}`)} ; ${'true; '.repeat(n)}`,
  'eval chains': (n) => `${'eval '.repeat(n)}make restart`,
  'many assignments': (n) => `${'A_1=$(x) '.repeat(n)}make`,
  'cd chains': (n) => `${'cd a/b && pushd ../c && popd && '.repeat(n)}pytest`,
  'cd .. chains': (n) => `${'cd .. && '.repeat(n)}pytest`,
  'one huge cd target': (n) => `cd ${'../'.repeat(10 * n)} && git -C ${'x/'.repeat(10 * n)} status && pytest`,
  'backslash runs': (n) => `echo ${'\\'.repeat(4 * n)}x`,
  'comments and operators': (n) => `${'true # ; && $( ` \n'.repeat(n)}false`,
  'sed and apply_patch scripts': (n) => `apply_patch <<'PATCH'\n*** Begin Patch\n${'*** Update File: src/a.ts\n@@\n-old\n+new\n'.repeat(n)}*** End Patch\nPATCH`,
  'redirections': (n) => `cmd ${'2>&1 >out <in 3>>log '.repeat(n)}`,
};

describe('parseShellCommand: never throws on the hostile families (in process, small sizes)', () => {
  it.each(Object.keys(FAMILIES))('%s', (name) => {
    const text = FAMILIES[name]!(50);
    const segments = parseShellCommand(text);
    for (const s of segments) {
      expect(text.slice(s.start, s.end)).toBe(s.raw);
      analyzeMutation(s);
      analyzeRead(s);
      matchesEvidence(s, 'make restart');
    }
  });
});

describe('parseShellCommand: bounded time on adversarial input (child process, hard timeout)', () => {
  it('100× the input never costs more than 2,000× the time, for every family', { timeout: 180_000 }, async () => {
    const here = dirname(fileURLToPath(import.meta.url));
    // Self-contained script: the families are rebuilt there from their source text.
    const families = `{${Object.entries(FAMILIES)
      .map(([name, build]) => `${JSON.stringify(name)}: ${build.toString()}`)
      .join(',\n')}}`;
    const script = `
      const { parseShellCommand } = await import(${JSON.stringify(join(here, 'parse-shell-command.ts'))});
      const { analyzeMutation } = await import(${JSON.stringify(join(here, 'analyze-mutation.ts'))});
      const { analyzeRead } = await import(${JSON.stringify(join(here, 'analyze-read.ts'))});
      const { matchesEvidence } = await import(${JSON.stringify(join(here, 'match-evidence.ts'))});
      const families = ${families};
      const work = (text) => {
        for (const s of parseShellCommand(text)) { analyzeMutation(s); analyzeRead(s); matchesEvidence(s, 'make restart'); }
      };
      // Best of several runs, each repeated until it lasts long enough to measure.
      const cost = (text, runs) => {
        let reps = 1;
        for (;;) {
          const t = performance.now();
          for (let i = 0; i < reps; i++) work(text);
          if (performance.now() - t >= 5 || reps >= 1 << 16) break;
          reps *= 2;
        }
        let best = Infinity;
        for (let r = 0; r < runs; r++) {
          const t = performance.now();
          for (let i = 0; i < reps; i++) work(text);
          best = Math.min(best, (performance.now() - t) / reps);
        }
        return best;
      };
      const small = 40;
      for (const [name, build] of Object.entries(families)) {
        const t1 = cost(build(small), 7);
        const t100 = cost(build(small * 100), 3);
        process.stdout.write(JSON.stringify({ name, chars: build(small * 100).length, t1, t100, ratio: t100 / t1 }) + '\\n');
      }
      process.exit(0);`;
    const run = await runIsolated(script, here, 150_000);
    const rows = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { name: string; chars: number; t1: number; t100: number; ratio: number });
    const done = new Set(rows.map((r) => r.name));
    const hung = Object.keys(FAMILIES).find((name) => !done.has(name));
    expect(run.timedOut, `the parser did not finish on "${hung}" within the hard timeout`).toBe(false);
    expect(run.code, run.stderr).toBe(0);
    expect(rows).toHaveLength(Object.keys(FAMILIES).length);
    for (const row of rows) {
      expect(row.ratio, `${row.name}: ${row.t1.toFixed(4)} ms → ${row.t100.toFixed(2)} ms for ${row.chars} chars`).toBeLessThan(2000);
    }
  });
});

function runIsolated(script: string, cwd: string, timeoutMs: number): Promise<SnippetRun> {
  return runModuleSnippet(script, cwd, { timeoutMs });
}
