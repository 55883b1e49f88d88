import type { ChangeStatus } from './changed-file.ts';

/** One entry of `git status --porcelain=v2 -z`, with paths kept as raw bytes. */
export interface StatusEntry {
  /** Repo-relative path, raw bytes as git printed them. */
  readonly path: Buffer;
  readonly status: ChangeStatus;
  /** Previous path of a rename or copy, raw bytes. */
  readonly fromPath?: Buffer;
}

/** Parsed `git status --porcelain=v2 --branch -z` output. */
export interface ParsedStatus {
  /** `# branch.oid`; undefined for `(initial)` (no commits yet). */
  readonly head?: string;
  /** `# branch.head`; undefined when `(detached)`. Unborn branches still have a name here. */
  readonly branchName?: string;
  readonly entries: readonly StatusEntry[];
}

const NUL = 0x00;
const SPACE = 0x20;
const DOT = 0x2e;
const [U, A, D, T] = [0x55, 0x41, 0x44, 0x54];
/** Hex digits of an object name: SHA-1 and SHA-256 repositories. */
const OBJECT_NAME_LENGTHS = [40, 64] as const;

/**
 * Parse `git status --porcelain=v2 --branch -z` output.
 *
 * Records are NUL-terminated and paths are never quoted, so names with spaces, quotes, newlines or
 * non-UTF-8 bytes survive byte for byte. Fixed fields are split on single spaces; the path is
 * everything after the last fixed field, so spaces inside it are kept. A rename/copy record (`2`) is
 * followed by one more NUL-terminated field: the original path. Unknown record types are skipped
 * (forward compatibility with newer git).
 *
 * Runs once per hook process, so it runs cold (interpreted, before the JIT has seen it), where every
 * `Buffer#indexOf` call costs about a microsecond: the bulk of the output, ordinary (`1`) records,
 * is read at git's fixed field widths (XY 2, sub 4, modes 6, object names 40 or 64 hex digits),
 * checking the separators, with one `indexOf` per record for its NUL; anything else falls back to
 * splitting on spaces. Measured on 5,000 records in a fresh process (docs/benchmarks.md).
 */
export function parseStatusV2(output: Buffer): ParsedStatus {
  let head: string | undefined;
  let branchName: string | undefined;
  const entries: StatusEntry[] = [];
  const length = output.length;
  let pos = 0;

  const nextField = (): Buffer | undefined => {
    if (pos >= length) return undefined;
    let end = output.indexOf(NUL, pos);
    if (end === -1) end = length;
    const field = output.subarray(pos, end);
    pos = end + 1;
    return field;
  };

  while (pos < length) {
    const start = pos;
    let end = output.indexOf(NUL, pos);
    if (end === -1) end = length;
    pos = end + 1;
    if (end === start) continue;
    switch (output[start]) {
      case 0x23 /* '#' */: {
        const line = output.toString('utf8', start, end);
        if (line.startsWith('# branch.oid ')) {
          const oid = line.slice('# branch.oid '.length);
          head = oid === '(initial)' ? undefined : oid;
        } else if (line.startsWith('# branch.head ')) {
          const name = line.slice('# branch.head '.length);
          branchName = name === '(detached)' ? undefined : name;
        }
        break;
      }
      case 0x31 /* '1' ordinary: 1 XY sub mH mI mW hH hI path */: {
        const fixed = ordinaryPathStart(output, start, end);
        if (fixed !== -1) {
          entries.push({ path: output.subarray(fixed, end), status: statusFromCodes(output[start + 2] as number, output[start + 3] as number) });
          break;
        }
        const record = output.subarray(start, end);
        const at = pathStart(record, 8);
        if (at !== -1) entries.push({ path: record.subarray(at), status: statusFromXY(xyOf(record)) });
        break;
      }
      case 0x32 /* '2' rename/copy: 2 XY sub mH mI mW hH hI Xscore path NUL origPath */: {
        const record = output.subarray(start, end);
        const scoreAt = pathStart(record, 8);
        const at = pathStart(record, 9);
        const fromPath = nextField();
        if (at === -1) break;
        const status: ChangeStatus = record[scoreAt] === 0x43 /* 'C' */ ? 'copied' : 'renamed';
        entries.push(fromPath === undefined ? { path: record.subarray(at), status } : { path: record.subarray(at), status, fromPath });
        break;
      }
      case 0x75 /* 'u' unmerged: u XY sub m1 m2 m3 mW h1 h2 h3 path */: {
        const record = output.subarray(start, end);
        const at = pathStart(record, 10);
        if (at !== -1) entries.push({ path: record.subarray(at), status: 'unmerged' });
        break;
      }
      case 0x3f /* '?' untracked */: {
        if (end - start > 2) entries.push({ path: output.subarray(start + 2, end), status: 'untracked' });
        break;
      }
      default:
        // '!' (ignored, only with --ignored) and record types of future git versions.
        break;
    }
  }
  return head === undefined
    ? branchName === undefined
      ? { entries }
      : { branchName, entries }
    : branchName === undefined
      ? { head, entries }
      : { head, branchName, entries };
}

/**
 * Where the path of the ordinary record `[start, end)` starts when its fixed fields have git's widths
 * (`1 XY sub mH mI mW hH hI `: separators at 1, 4, 9, 16, 23, 30, then after each object name of 40
 * (SHA-1) or 64 (SHA-256) hex digits); -1 when they do not, or nothing follows them.
 */
function ordinaryPathStart(output: Buffer, start: number, end: number): number {
  if (output[start + 1] !== SPACE || output[start + 4] !== SPACE || output[start + 9] !== SPACE) return -1;
  if (output[start + 16] !== SPACE || output[start + 23] !== SPACE || output[start + 30] !== SPACE) return -1;
  for (const hexDigits of OBJECT_NAME_LENGTHS) {
    const at = start + 33 + 2 * hexDigits;
    if (at < end && output[start + 31 + hexDigits] === SPACE && output[at - 1] === SPACE) return at;
  }
  return -1;
}

/**
 * Where the path starts after `count` space-terminated fixed fields, or -1 when the record has fewer
 * fields or nothing after them. Offsets only: at 5,000 entries, decoding every fixed field into a
 * string cost more than the rest of the parse.
 */
function pathStart(record: Buffer, count: number): number {
  let start = 0;
  for (let i = 0; i < count; i++) {
    const space = record.indexOf(SPACE, start);
    if (space === -1) return -1;
    start = space + 1;
  }
  return start < record.length ? start : -1;
}

/** The XY field (the second) of a record known to have it. */
function xyOf(record: Buffer): string {
  const start = record.indexOf(SPACE) + 1;
  return record.toString('latin1', start, record.indexOf(SPACE, start));
}

/**
 * Map the two-letter XY code (X: index vs HEAD, Y: worktree vs index) to one status relative to HEAD.
 * Precedence: unmerged > deleted > added > type-changed > modified. `AD` (added then removed from the
 * worktree) is reported as deleted: the file is not on disk, which is what attribution needs to know.
 */
export function statusFromXY(xy: string): ChangeStatus {
  return statusFromCodes(xy.length > 0 ? xy.charCodeAt(0) : DOT, xy.length > 1 ? xy.charCodeAt(1) : DOT);
}

/** {@link statusFromXY} on the two character codes. */
function statusFromCodes(x: number, y: number): ChangeStatus {
  if (x === U || y === U || (x === A && y === A) || (x === D && y === D)) return 'unmerged';
  if (x === D || y === D) return 'deleted';
  if (x === A) return 'added';
  if (x === T || y === T) return 'type-changed';
  return 'modified';
}
