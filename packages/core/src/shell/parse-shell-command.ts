import { posix } from 'node:path';
import { lexShell, type ControlOperator, type RedirectOperator, type ShellDialect, type ShellToken, type WordToken } from './shell-lexer.ts';
import { unwrapCommand, type ShellWord } from './unwrap-command.ts';

/** A redirection of a simple command. */
export interface ShellRedirect {
  readonly op: RedirectOperator;
  /** The file descriptor written before the operator (`2>`), when present. */
  readonly fd?: string;
  /** The word after the operator: a file, an fd (`2>&1`), or a heredoc delimiter. */
  readonly target?: ShellWord;
  /** For heredocs: the body text. */
  readonly heredoc?: string;
}

/**
 * One simple command of a shell command line, with its real program found.
 *
 * `echo $(make restart)` yields one segment whose program is `echo`: substitutions are never top-level
 * commands. `bash -lc "make restart && make status"` yields two segments, each with `wrappers: ['bash -c']`.
 */
export interface ShellSegment {
  /**
   * The segment's exact text in the input (always a substring of it). Segments found inside a
   * `bash -c` script or `eval` carry the raw text of the outer segment.
   */
  readonly raw: string;
  /** Offsets of {@link raw} in the input. */
  readonly start: number;
  readonly end: number;
  /** Words of the command as the shell passes them (after quote removal, before unwrapping, assignments excluded). */
  readonly argv: readonly string[];
  /** The program really run: basename, wrappers stripped (`.venv/bin/python -m pytest` → `pytest`). '' when none. */
  readonly program: string;
  /** Arguments of {@link program}, package-manager scripts normalized (`npm run test` → `npm test`). */
  readonly args: readonly string[];
  /** {@link args} with their quoting facts (dynamic, glob). */
  readonly argWords: readonly ShellWord[];
  /** Wrappers stripped, outermost first. */
  readonly wrappers: readonly string[];
  /** Environment assignments stripped (`FOO=1`). */
  readonly assignments: readonly string[];
  readonly redirects: readonly ShellRedirect[];
  /**
   * The directory the segment runs in, relative to the directory the whole command started in (or
   * absolute), after `cd`/`pushd` earlier in the same command. Undefined when unchanged.
   */
  readonly dir?: string;
  /** True when an earlier `cd` went somewhere unknown (`cd`, `cd -`, `cd $X`): relative paths cannot be resolved. */
  readonly dirUnknown: boolean;
  /** Reads its stdin from a pipe (`a | b` → true for b). */
  readonly pipedFrom: boolean;
  /** Writes its stdout into a pipe (`a | b` → true for a). */
  readonly pipedTo: boolean;
  /** Started in the background (`cmd &`). */
  readonly background: boolean;
  /** Found inside a script run by a wrapper (`bash -c`, `eval`). */
  readonly nested: boolean;
}

const MAX_DEPTH = 4;
const SKIP_PREFIX_WORDS = new Set(['!', '{', '}', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', 'esac', 'coproc']);
const NOT_A_COMMAND = new Set(['for', 'select', 'case', 'function', 'in']);

interface RawSegment {
  readonly words: WordToken[];
  readonly redirects: ShellRedirect[];
  readonly start: number;
  readonly end: number;
  readonly before: ControlOperator | undefined;
  readonly after: ControlOperator | undefined;
  /** Paren depth changes just before it (to scope `cd` to subshells). */
  readonly openedParens: number;
  readonly closedParensBefore: number;
}

/**
 * Directory-changing commands: `cd`/`pushd` in sh; in PowerShell also `Set-Location` and its
 * aliases `sl`/`chdir` and `Push-Location` (PowerShell command names ignore case).
 */
const CD_PROGRAMS: Readonly<Record<ShellDialect, ReadonlySet<string>>> = {
  sh: new Set(['cd', 'pushd']),
  powershell: new Set(['cd', 'pushd', 'set-location', 'sl', 'chdir', 'push-location']),
};
const POPD_PROGRAMS: Readonly<Record<ShellDialect, ReadonlySet<string>>> = {
  sh: new Set(['popd']),
  powershell: new Set(['popd', 'pop-location']),
};

/**
 * Parse a command line into its simple commands. Never throws. `dialect` is the language of the
 * top-level text (a PowerShell tool's command); scripts a wrapper runs (`bash -c "…"`) are sh.
 */
export function parseShellCommand(text: string, dialect: ShellDialect = 'sh'): ShellSegment[] {
  try {
    return parseAt(text, 0, dialect);
  } catch {
    // The lexer is total; this guards against a future bug turning into a crashed checkpoint.
    return [];
  }
}

/** The segment as one normalized line: program and arguments joined by single spaces (no quotes). */
export function normalizedText(segment: Pick<ShellSegment, 'program' | 'args'>): string {
  return segment.args.length === 0 ? segment.program : `${segment.program} ${segment.args.join(' ')}`;
}

function parseAt(text: string, depth: number, dialect: ShellDialect = 'sh'): ShellSegment[] {
  const tokens = lexShell(text, dialect);
  const raws = splitSegments(tokens);
  const out: ShellSegment[] = [];
  let dir: string | undefined;
  let dirUnknown = false;
  const stack: { dir: string | undefined; dirUnknown: boolean }[] = [];
  for (const seg of raws) {
    for (let k = 0; k < seg.closedParensBefore; k++) {
      const saved = stack.pop();
      if (saved) ({ dir, dirUnknown } = saved);
    }
    for (let k = 0; k < seg.openedParens; k++) stack.push({ dir, dirUnknown });
    const words = stripReservedWords(seg.words);
    if (words.length === 0 && seg.redirects.length === 0) continue;
    if (words.length > 0 && NOT_A_COMMAND.has(words[0]!.value) && !words[0]!.quoted) continue;
    const raw = text.slice(seg.start, seg.end);
    const base = {
      raw,
      start: seg.start,
      end: seg.end,
      redirects: seg.redirects,
      pipedFrom: seg.before === '|' || seg.before === '|&',
      pipedTo: seg.after === '|' || seg.after === '|&',
      background: seg.after === '&',
    };
    const shellWords = words.map(toShellWord);
    const expanded = expand(shellWords, base, depth, dir, dirUnknown);
    out.push(...expanded);
    // `cd` affects the segments after it (within this command only).
    const last = expanded[expanded.length - 1];
    const command = dialect === 'powershell' ? last?.program.toLowerCase() : last?.program;
    if (last && command !== undefined && last.wrappers.length === 0 && CD_PROGRAMS[dialect].has(command)) {
      const target = last.argWords.find((w) => !w.value.startsWith('-') || w.value === '-');
      if (!target || target.dynamic || target.value === '-' || target.value.startsWith('~')) {
        dirUnknown = true;
      } else {
        const next = joinDir(dir, target.value);
        if (next === undefined) dirUnknown = true;
        else dir = next;
      }
    } else if (last && command !== undefined && last.wrappers.length === 0 && POPD_PROGRAMS[dialect].has(command)) {
      dirUnknown = true;
    }
  }
  return out;
}

function expand(
  words: readonly ShellWord[],
  base: Pick<ShellSegment, 'raw' | 'start' | 'end' | 'redirects' | 'pipedFrom' | 'pipedTo' | 'background'>,
  depth: number,
  dir: string | undefined,
  dirUnknown: boolean,
): ShellSegment[] {
  const unwrapped = unwrapCommand(words);
  const argvStart = unwrapped.assignments.length;
  const argv = words.slice(argvStart).map((w) => w.value);
  const chdir = unwrapped.chdir !== undefined ? joinDir(dir, unwrapped.chdir) : dir;
  // A directory too long to track (see joinDir) leaves the outer one, marked unknown.
  const segUnknown = dirUnknown || (unwrapped.chdir !== undefined && chdir === undefined);
  const segDir = unwrapped.chdir !== undefined && chdir === undefined ? dir : chdir;
  if (unwrapped.script !== undefined && depth < MAX_DEPTH) {
    const inner = parseAt(unwrapped.script, depth + 1);
    if (inner.length > 0) {
      const last = inner.length - 1;
      return inner.map((s, index) => {
        const innerDir = s.dir === undefined ? segDir : joinDir(segDir, s.dir);
        return segment({
          raw: base.raw,
          start: base.start,
          end: base.end,
          argv: s.argv,
          program: s.program,
          args: s.args,
          argWords: s.argWords,
          wrappers: [...unwrapped.wrappers, ...s.wrappers],
          assignments: [...unwrapped.assignments, ...s.assignments],
          // The outer redirections apply to the whole script; record them on its last command.
          redirects: index === last ? [...s.redirects, ...base.redirects] : s.redirects,
          dir: s.dir !== undefined && innerDir === undefined ? segDir : innerDir,
          dirUnknown: segUnknown || s.dirUnknown || (s.dir !== undefined && innerDir === undefined),
          pipedFrom: s.pipedFrom || (index === 0 && base.pipedFrom),
          pipedTo: s.pipedTo || (index === last && base.pipedTo),
          background: s.background || (index === last && base.background),
          nested: true,
        });
      });
    }
  }
  const isScript = unwrapped.script !== undefined;
  const argWords = isScript ? words.slice(argvStart + 1) : unwrapped.args;
  return [
    segment({
      raw: base.raw,
      start: base.start,
      end: base.end,
      argv,
      program: isScript ? normalizeShellName(words, argvStart) : unwrapped.program,
      args: argWords.map((w) => w.value),
      argWords,
      wrappers: isScript ? [] : unwrapped.wrappers,
      assignments: unwrapped.assignments,
      redirects: base.redirects,
      dir: segDir,
      dirUnknown: segUnknown,
      pipedFrom: base.pipedFrom,
      pipedTo: base.pipedTo,
      background: base.background,
      nested: depth > 0,
    }),
  ];
}

function normalizeShellName(words: readonly ShellWord[], start: number): string {
  const w = words[start]?.value ?? '';
  const slash = w.lastIndexOf('/');
  return slash === -1 ? w : w.slice(slash + 1);
}

/** Build a segment, leaving `dir` out when unchanged (exactOptionalPropertyTypes). */
function segment(fields: Omit<ShellSegment, 'dir'> & { readonly dir: string | undefined }): ShellSegment {
  if (fields.dir !== undefined) return fields as ShellSegment;
  const { dir: _unused, ...rest } = fields;
  return rest;
}

/**
 * Longest directory tracked through `cd`, `pushd` and `-C`. No real relative path is this long, and
 * normalizing ever longer `../../…` paths costs quadratic time: a command of `cd ..` repeated would
 * otherwise hold the (synchronous) hook for minutes.
 */
const MAX_TRACKED_DIR_CHARS = 1024;

/** `base` joined with `next`, normalized; undefined when too long to track (the directory is then unknown). */
function joinDir(base: string | undefined, next: string): string | undefined {
  if ((base?.length ?? 0) + next.length > MAX_TRACKED_DIR_CHARS) return undefined;
  if (next.startsWith('/')) return posix.normalize(next);
  // A Windows drive or UNC directory is absolute too; path resolution canonicalises it later.
  if (/^(?:[A-Za-z]:[\\/]|[\\/]{2})/.test(next)) return next;
  const joined = posix.normalize(base === undefined ? next : posix.join(base, next));
  return joined === '.' ? '.' : joined.replace(/\/$/, '');
}

function toShellWord(token: WordToken): ShellWord {
  return { value: token.value, quoted: token.quoted, dynamic: token.dynamic, glob: token.glob };
}

function stripReservedWords(words: readonly WordToken[]): WordToken[] {
  let i = 0;
  while (i < words.length && !words[i]!.quoted && SKIP_PREFIX_WORDS.has(words[i]!.value)) i++;
  return words.slice(i);
}

/** Split tokens into raw segments at control operators, pairing redirections with their targets. */
function splitSegments(tokens: readonly ShellToken[]): RawSegment[] {
  const out: RawSegment[] = [];
  let words: WordToken[] = [];
  let redirects: ShellRedirect[] = [];
  let start = -1;
  let end = -1;
  let before: ControlOperator | undefined;
  let opened = 0;
  let closed = 0;
  const flush = (after: ControlOperator | undefined): void => {
    if (start !== -1) {
      out.push({ words, redirects, start, end, before, after, openedParens: opened, closedParensBefore: closed });
      opened = 0;
      closed = 0;
    }
    words = [];
    redirects = [];
    start = -1;
    end = -1;
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'control') {
      if (t.op === '(') {
        flush(t.op);
        opened++;
        before = t.op;
        continue;
      }
      if (t.op === ')') {
        flush(t.op);
        closed++;
        before = t.op;
        continue;
      }
      flush(t.op);
      before = t.op;
      continue;
    }
    if (start === -1) start = t.start;
    if (t.kind === 'redirect') {
      const next = tokens[i + 1];
      const target = next && next.kind === 'word' ? next : undefined;
      if (target) i++;
      const heredoc = t.heredoc?.body;
      redirects.push({
        op: t.op,
        ...(t.fd !== undefined ? { fd: t.fd } : {}),
        ...(target ? { target: toShellWord(target) } : {}),
        ...(heredoc !== undefined ? { heredoc } : {}),
      });
      end = target ? target.end : t.end;
      continue;
    }
    words.push(t);
    end = t.end;
  }
  flush(undefined);
  return out;
}
