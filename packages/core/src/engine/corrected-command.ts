import type { ShellSegment } from '../shell/parse-shell-command.ts';

/**
 * What a shell prints when the command itself does not exist, as opposed to a command that ran and
 * failed: a shell's "command not found" (`bash: pytset: command not found`, `sh: 1: pytset: not found`),
 * make's unknown target, a package manager's unknown script, a CLI's unknown subcommand.
 */
const NOT_FOUND_OUTPUT = new RegExp(
  [
    String.raw`\bcommand not found\b`,
    String.raw`^(?:\S+: )?(?:line \d+: |\d+: )?\S+: not found\s*$`,
    String.raw`\bNo rule to make target\b`,
    String.raw`\bMissing script:`,
    String.raw`\bERR_PNPM_NO_SCRIPT\b`,
    String.raw`\bCommand "[^"\n]*" not found\b`,
    String.raw`\bis not a [\w-]+ command\b`,
    String.raw`\bno such (?:sub)?command\b`,
    String.raw`\bunknown (?:sub)?command\b`,
    String.raw`\bis not recognized as an internal or external command\b`,
  ].join('|'),
  'im',
);

/** Shell exit status for "command not found". */
const EXIT_NOT_FOUND = 127;

/**
 * True when a failed shell call failed because what it asked for does not exist (a typo such as
 * `make restrat` or `pytset`): exit status 127, or one of the messages above in its output.
 */
export function isNotFoundFailure(exitCode: number | undefined, output: string): boolean {
  return exitCode === EXIT_NOT_FOUND || NOT_FOUND_OUTPUT.test(output);
}

/**
 * True when `later` is the corrected form of `failed`, a command that did not exist: one of its
 * segments is one of `failed`'s segments with exactly one word (program, subcommand, target, script)
 * replaced by a similar word ({@link similarWords}); everything else is the same, in the same order.
 *
 * When `failed` has several segments, the replaced word must also be named in the failure's output
 * (`No rule to make target 'restrat'`, `pytset: command not found`), so the correction is of the
 * segment that really did not exist. An unrelated later command never matches: it differs in more
 * than one word or in a dissimilar one.
 */
export function correctsCommand(failed: readonly ShellSegment[], failedOutput: string, later: readonly ShellSegment[]): boolean {
  const several = failed.length > 1;
  for (const f of failed) {
    const fw = words(f);
    for (const l of later) {
      const lw = words(l);
      if (lw.length !== fw.length) continue;
      let differing = -1;
      let count = 0;
      for (let i = 0; i < fw.length && count < 2; i += 1) {
        if (fw[i] !== lw[i]) {
          differing = i;
          count += 1;
        }
      }
      if (count !== 1) continue;
      const typo = fw[differing]!;
      if (!similarWords(typo, lw[differing]!)) continue;
      if (several && !failedOutput.includes(typo)) continue;
      return true;
    }
  }
  return false;
}

function words(segment: ShellSegment): readonly string[] {
  return [segment.program, ...segment.args];
}

/**
 * Whether `b` is a plausible correction of the typo `a`: they differ, and either they are equal up
 * to case and `-`/`_`, or their Damerau–Levenshtein distance (a swap of two neighbours is one edit) is
 * at most 1 for words of up to 4 characters and at most 2 for longer ones. `restrat`→`restart`,
 * `pytset`→`pytest`, `stauts`→`status`, `biuld`→`build`, `tset`→`test` qualify; `build`→`deploy`,
 * `restart`→`status` do not.
 */
export function similarWords(a: string, b: string): boolean {
  if (a === b || a === '' || b === '') return false;
  const fold = (w: string): string => w.toLowerCase().replaceAll('_', '-');
  if (fold(a) === fold(b)) return true;
  const longest = Math.max(a.length, b.length);
  const limit = longest <= 4 ? 1 : 2;
  if (Math.abs(a.length - b.length) > limit) return false;
  return editDistance(a, b, limit) <= limit;
}

/** Optimal-string-alignment distance, stopping early once every cell of a row exceeds `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      row.push(d);
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > limit) return rowMin;
    prev2 = prev;
    prev = row;
  }
  return prev[b.length]!;
}
