import type { ChangeStatus } from './changed-file.ts';
import type { StatusEntry } from './parse-status-v2.ts';

/** One commit of {@link parseLogNameStatus} output. */
export interface LogCommit {
  readonly oid: string;
  /** Committer time, seconds since the epoch. */
  readonly committedAtSec: number;
  readonly files: readonly StatusEntry[];
}

/** Marks a commit header in the `--format` we ask for (see {@link LOG_FORMAT}). */
const HEADER_MARK = 0x01;
const NUL = 0x00;
const NEWLINE = 0x0a;

/** The `--format` that {@link parseLogNameStatus} expects: `\x01<oid> <committer unix time>`. */
export const LOG_FORMAT = '--format=%x01%H %ct';

/**
 * Parse `git log -z --name-status --format=%x01%H %ct` output.
 *
 * With `-z` every field is NUL-terminated: a header `\x01<oid> <ct>`, then for each file a status
 * token (`M`, `A`, `D`, `T`, `R100`, `C75`…) and one path, or two (old then new) for renames and
 * copies. git puts a newline before the first status token of a commit; it is stripped only where a
 * status token or header is expected, never from a path (a file name may start with a newline).
 */
export function parseLogNameStatus(output: Buffer): LogCommit[] {
  const commits: { oid: string; committedAtSec: number; files: StatusEntry[] }[] = [];
  let pos = 0;
  const nextField = (): Buffer | undefined => {
    if (pos >= output.length) return undefined;
    let end = output.indexOf(NUL, pos);
    if (end === -1) end = output.length;
    const field = output.subarray(pos, end);
    pos = end + 1;
    return field;
  };

  for (let token = nextField(); token !== undefined; token = nextField()) {
    let start = 0;
    while (start < token.length && token[start] === NEWLINE) start++;
    if (start === token.length) continue;
    if (token[start] === HEADER_MARK) {
      const [oid = '', ct = ''] = token.toString('latin1', start + 1).split(' ');
      commits.push({ oid, committedAtSec: Number(ct), files: [] });
      continue;
    }
    const code = token.toString('latin1', start);
    const current = commits[commits.length - 1];
    const first = nextField();
    if (first === undefined) break;
    const letter = code[0];
    if (letter === 'R' || letter === 'C') {
      const second = nextField();
      if (second === undefined) break;
      current?.files.push({ path: second, fromPath: first, status: letter === 'R' ? 'renamed' : 'copied' });
    } else {
      current?.files.push({ path: first, status: logStatus(letter) });
    }
  }
  return commits;
}

function logStatus(letter: string | undefined): ChangeStatus {
  switch (letter) {
    case 'A':
      return 'added';
    case 'D':
      return 'deleted';
    case 'T':
      return 'type-changed';
    case 'U':
      return 'unmerged';
    default:
      return 'modified';
  }
}
