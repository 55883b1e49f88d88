import { operands, gitSubcommand } from './analyze-mutation.ts';
import type { ShellSegment } from './parse-shell-command.ts';
import type { ShellWord } from './unwrap-command.ts';

/** Programs that print a file's content (or a slice of it). */
const PRINTERS: Readonly<Record<string, { readonly short?: string; readonly long?: readonly string[] }>> = {
  cat: {},
  tac: {},
  bat: { short: 'lrHmp', long: ['--language', '--line-range', '--highlight-line', '--map-syntax', '--style', '--theme'] },
  batcat: { short: 'lrHmp', long: ['--language', '--line-range', '--highlight-line', '--map-syntax', '--style', '--theme'] },
  less: {},
  more: {},
  head: { short: 'nc', long: ['--lines', '--bytes'] },
  tail: { short: 'ncs', long: ['--lines', '--bytes', '--sleep-interval', '--pid'] },
  nl: { short: 'bdfhilnsvw' },
  od: { short: 'AjNSt' },
  xxd: { short: 'cglos' },
  hexdump: { short: 'enLs' },
  strings: { short: 'nt' },
  view: {},
};

const SEARCHERS: Readonly<Record<string, { readonly short: string; readonly long: readonly string[]; readonly patternOptions: readonly string[] }>> = {
  grep: {
    short: 'efmABCdD',
    long: ['--regexp', '--file', '--max-count', '--after-context', '--before-context', '--context', '--devices', '--directories', '--label', '--color', '--colour'],
    patternOptions: ['-e', '-f', '--regexp', '--file'],
  },
  egrep: { short: 'efmABC', long: ['--regexp', '--file'], patternOptions: ['-e', '-f', '--regexp', '--file'] },
  fgrep: { short: 'efmABC', long: ['--regexp', '--file'], patternOptions: ['-e', '-f', '--regexp', '--file'] },
  rg: {
    short: 'efgtTmABCjMEr',
    long: ['--regexp', '--file', '--glob', '--iglob', '--type', '--type-not', '--max-count', '--after-context', '--before-context', '--context', '--threads', '--max-columns', '--encoding', '--replace', '--max-depth', '--type-add', '--sort', '--sortr', '--color', '--colors', '--max-filesize', '--context-separator', '--field-match-separator'],
    patternOptions: ['-e', '-f', '--regexp', '--file'],
  },
  ag: { short: 'ABCGmg', long: ['--after', '--before', '--context', '--file-search-regex', '--max-count', '--depth'], patternOptions: [] },
  ack: { short: 'ABCm', long: ['--after-context', '--before-context', '--context', '--max-count', '--type'], patternOptions: [] },
  jq: { short: 'f', long: ['--arg', '--argjson', '--slurpfile', '--rawfile', '--indent', '--from-file'], patternOptions: ['-f', '--from-file'] },
};

/**
 * Paths whose content a read-only segment shows to the agent: `cat f`, `sed -n '1,80p' f`, `head f`,
 * `nl -ba f`, `awk … f`, `rg -n pat f`, `git show HEAD:f`. Used by edit hygiene (Codex reads files
 * through the shell). Search commands count only for the files they name explicitly, not for
 * directories. Returns paths as written.
 */
export function analyzeRead(segment: ShellSegment): string[] {
  const program = segment.program;
  const args = segment.argWords;
  const out: ShellWord[] = [];
  const printer = PRINTERS[program];
  if (printer) {
    out.push(...operands(args, printer));
  } else if (program === 'sed' || program === 'gsed') {
    if (segment.args.some((v) => v === '-i' || v === '-I' || v.startsWith('--in-place') || /^-[nrEsuz]*i/.test(v))) return [];
    const scriptGiven = segment.args.some((v) => v === '-e' || v === '-f' || v.startsWith('--expression') || v.startsWith('--file'));
    const ops = operands(args, { short: 'efl', long: ['--expression', '--file', '--line-length'] });
    out.push(...(scriptGiven ? ops : ops.slice(1)));
  } else if (program === 'awk' || program === 'gawk' || program === 'mawk') {
    if (segment.args.includes('inplace')) return [];
    const fromFile = segment.args.some((v) => v === '-f' || v.startsWith('--file'));
    const ops = operands(args, { short: 'fvF', long: ['--file', '--assign', '--field-separator'] });
    out.push(...(fromFile ? ops : ops.slice(1)).filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w.value)));
  } else if (SEARCHERS[program]) {
    const spec = SEARCHERS[program]!;
    const patternGiven = segment.args.some((v) => spec.patternOptions.some((p) => v === p || v.startsWith(`${p}=`)));
    const ops = operands(args, spec);
    out.push(...(patternGiven ? ops : ops.slice(1)).filter((w) => looksLikeFile(w.value)));
  } else if (program === 'git') {
    const { index } = gitSubcommand(args);
    if (args[index]?.value === 'show') {
      for (const w of args.slice(index + 1)) {
        const m = /^[^:\s]*:(.+)$/.exec(w.value);
        if (m && !w.value.startsWith('-')) out.push({ ...w, value: m[1]! });
      }
    }
  }
  for (const r of segment.redirects) {
    if (r.op === '<' && r.target && (printer || program === 'sed' || program === 'awk' || SEARCHERS[program])) out.push(r.target);
  }
  return [...new Set(out.filter((w) => !w.dynamic && !w.glob && w.value !== '' && w.value !== '-').map((w) => w.value))];
}

/** A name with an extension (`a.py`, `Makefile` excluded): directories are not "read". */
function looksLikeFile(value: string): boolean {
  const base = value.slice(value.lastIndexOf('/') + 1);
  return /^[^.].*\.[A-Za-z0-9]{1,10}$/.test(base) || /^(Makefile|Dockerfile|Justfile|Rakefile|Gemfile)$/.test(base);
}
