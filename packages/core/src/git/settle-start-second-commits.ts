import { closeSync, fstatSync, lstatSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How a commit made in the second the turn started relates to the turn start:
 * - `before-turn`: it existed before the prompt (never the turn's);
 * - `during-turn`: it was written at or after the prompt;
 * - `unknown`: the object store and the reflog cannot tell (attribution then asks the transcript).
 */
export type StartSecondVerdict = 'before-turn' | 'during-turn' | 'unknown';

/**
 * What decided a {@link StartSecondVerdict}:
 * - `loose-object`: the modification time of the commit's loose object file (written when the commit was made);
 * - `pack`: the commit is packed, and every pack written since the turn started lacks it;
 * - `reflog`: HEAD's reflog was last written before the turn started, and its last entry is the branch tip;
 * - `none`: nothing conclusive (packed into a pack written since the turn started, a file system with
 *   whole-second times, an alternate object store, an unreadable pack index).
 */
export type StartSecondEvidence = 'loose-object' | 'pack' | 'reflog' | 'none';

/** One commit whose committer time is the turn-start second, and what is known about it. */
export interface StartSecondCommit {
  readonly oid: string;
  readonly verdict: StartSecondVerdict;
  readonly evidence: StartSecondEvidence;
}

/** Input of {@link settleStartSecondCommits}. */
export interface SettleStartSecondInput {
  /** Absolute path of the object directory (`git rev-parse --git-path objects`). */
  readonly objectsDir: string;
  /** Absolute path of HEAD's reflog (`git rev-parse --git-path logs/HEAD`; per worktree). */
  readonly headReflog: string;
  /** Commits whose committer time (whole seconds) is the second of `turnStartMs`. */
  readonly oids: readonly string[];
  /** The newest commit `git log` printed: HEAD when the log ran, so every listed commit is its ancestor. */
  readonly tipOid: string;
  /** The turn start in ms (the transcript's prompt time, ms precision). */
  readonly turnStartMs: number;
}

/**
 * How far a file time may lag the clock the agent stamps its transcript with. Linux stamps files from
 * the coarse clock (one jiffy, up to 10 ms at HZ=100; measured here up to 6.7 ms), Windows from the
 * timer tick (~15.6 ms). A time this close before the prompt is not taken as proof of "before"; the
 * agent cannot commit this soon after its prompt (a model round trip comes first), while a loop
 * runner's commit precedes the next CLI's start-up and first transcript line by far more.
 */
export const FILE_CLOCK_SLACK_MS = 20;

const NS_PER_SEC = 1_000_000_000n;
const REFLOG_TAIL_BYTES = 4096;
/** More packs than this are not examined (git itself repacks long before: `gc.autoPackLimit` is 50). */
const MAX_PACKS = 1000;

/**
 * Decide, for commits whose committer second is the turn-start second, whether each was made before
 * or after the prompt. Git's commit times have 1 s resolution; the file system has ns:
 *
 * 1. A loose object file is written when the commit is made, so its mtime is the commit's birth (git
 *    only ever moves it later, when it "freshens" an object it was asked to write again). mtime before
 *    the start (minus {@link FILE_CLOCK_SLACK_MS}) → `before-turn`; otherwise `during-turn`.
 * 2. A packed commit existed when its pack was written. If no pack written since the start holds it (a
 *    pack index lookup, only for packs that new), it was packed before the turn → `before-turn`, unless
 *    the repository borrows objects from an alternate store (then it may live there: `unknown`).
 * 3. For what is still open: if HEAD's reflog was last written before the start and its last entry
 *    moved HEAD to the log's tip, the tip — and so every commit listed — existed before the turn.
 *
 * A file time that is a whole second (a file system with 1 s or 2 s times) proves nothing, and no file
 * time proves "before" when the file-system clock runs behind git's: the reflog's last line carries the
 * time git stamped it with, its file the time the file system did. Never throws: unreadable files
 * leave the commit `unknown`. Cost: one `lstat` per commit; for packed ones a directory listing, one
 * `lstat` per pack and a few hundred bytes of each new pack's index; the reflog one `fstat` and at
 * most 4 KiB.
 */
export function settleStartSecondCommits(input: SettleStartSecondInput): StartSecondCommit[] {
  const cutoffMs = input.turnStartMs - FILE_CLOCK_SLACK_MS;
  const reflog = readLastReflogEntry(input.headReflog);
  // A file-system clock behind git's (a network file system, a VM's shared folder) makes every file
  // time look older: none of them may then prove "before the turn". ("During" stays true: the real
  // time is later still.)
  const fileClockBehind = reflog !== undefined && reflog.mtimeMs < reflog.timeSec * 1000 - FILE_CLOCK_SLACK_MS;
  const out: StartSecondCommit[] = [];
  const packed: string[] = [];
  for (const oid of input.oids) {
    const stat = statNs(join(input.objectsDir, oid.slice(0, 2), oid.slice(2)));
    if (stat === 'missing') packed.push(oid);
    else if (stat === 'unreadable' || isWholeSecond(stat)) out.push({ oid, verdict: 'unknown', evidence: 'none' });
    else out.push({ oid, verdict: nsToMs(stat) < cutoffMs ? 'before-turn' : 'during-turn', evidence: 'loose-object' });
  }
  if (packed.length > 0) out.push(...settlePacked(input.objectsDir, packed, cutoffMs));
  if (fileClockBehind) return out.map((c) => (c.verdict === 'before-turn' ? { oid: c.oid, verdict: 'unknown', evidence: 'none' } : c));
  // The reflog: written last before the start, with the tip as its last entry → the tip, and so every
  // listed commit, existed before the turn. Any line's time is at most the file's mtime, so this holds
  // even when reflogs were switched off later.
  if (out.some((c) => c.verdict === 'unknown') && reflog !== undefined && reflog.mtimeMs < cutoffMs && reflog.newOid === input.tipOid) {
    return out.map((c) => (c.verdict === 'unknown' ? { oid: c.oid, verdict: 'before-turn', evidence: 'reflog' } : c));
  }
  return out;
}

function settlePacked(objectsDir: string, oids: readonly string[], cutoffMs: number): StartSecondCommit[] {
  const packDir = join(objectsDir, 'pack');
  let names: string[];
  try {
    names = readdirSync(packDir);
  } catch {
    names = [];
  }
  const packs = names.filter((n) => n.endsWith('.pack'));
  // A repository with this many packs is broken or hostile; its packs prove nothing here.
  if (packs.length > MAX_PACKS) return oids.map((oid) => ({ oid, verdict: 'unknown', evidence: 'none' }));
  // Packs written since the turn started (or whose time says nothing) may hold commits made during it.
  const recentIndexes: string[] = [];
  for (const name of packs) {
    const stat = statNs(join(packDir, name));
    if (stat === 'missing') continue; // removed by a concurrent repack, which wrote a newer pack
    if (stat === 'unreadable' || isWholeSecond(stat) || nsToMs(stat) >= cutoffMs) {
      recentIndexes.push(join(packDir, `${name.slice(0, -'.pack'.length)}.idx`));
    }
  }
  const borrows = statNs(join(objectsDir, 'info', 'alternates')) !== 'missing';
  return oids.map((oid) => {
    if (recentIndexes.some((idx) => packIndexMayHold(idx, oid))) return { oid, verdict: 'unknown', evidence: 'none' };
    if (borrows) return { oid, verdict: 'unknown', evidence: 'none' };
    return { oid, verdict: 'before-turn', evidence: 'pack' };
  });
}

/**
 * Whether a version 2 pack index lists `oid`: the fan-out table narrows the search to the names that
 * share its first byte (a few hundred bytes, read at their offset). True when the index cannot be read
 * or is of another version: "may hold" must never be a false no.
 */
export function packIndexMayHold(idxPath: string, oid: string): boolean {
  const name = Buffer.from(oid, 'hex');
  if (name.length * 2 !== oid.length || (name.length !== 20 && name.length !== 32)) return true;
  let fd: number | undefined;
  try {
    fd = openSync(idxPath, 'r');
    const header = Buffer.alloc(8 + 256 * 4);
    if (readSync(fd, header, 0, header.length, 0) !== header.length) return true;
    // v2: magic \377tOc, version 2. (v1 indexes predate git 1.5.2; treated as "may hold".)
    if (header.readUInt32BE(0) !== 0xff744f63 || header.readUInt32BE(4) !== 2) return true;
    const first = name[0] as number;
    const start = first === 0 ? 0 : header.readUInt32BE(8 + (first - 1) * 4);
    const end = header.readUInt32BE(8 + first * 4);
    if (end < start) return true;
    const count = end - start;
    if (count === 0) return false;
    const offset = header.length + start * name.length;
    // The index is untrusted input: a fan-out pointing past the file's end is corrupt, not an allocation.
    if (offset + count * name.length > fstatSync(fd).size) return true;
    const slice = Buffer.alloc(count * name.length);
    if (readSync(fd, slice, 0, slice.length, offset) !== slice.length) return true;
    let lo = 0;
    let hi = count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const cmp = slice.compare(name, 0, name.length, mid * name.length, (mid + 1) * name.length);
      if (cmp === 0) return true;
      // `slice.compare(target, …, sourceStart, sourceEnd)` compares the slice entry against the name.
      if (cmp < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  } catch {
    return true;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** HEAD's reflog: its file time, and the last entry's new value and git time (1 s). */
interface LastReflogEntry {
  readonly mtimeMs: number;
  readonly newOid: string;
  readonly timeSec: number;
}

/** The last entry of a reflog (at most its last 4 KiB are read); undefined when absent, unreadable or with a whole-second file time. */
function readLastReflogEntry(path: string): LastReflogEntry | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const stat = fstatSync(fd, { bigint: true });
    if (isWholeSecond(stat.mtimeNs)) return undefined;
    const size = Number(stat.size);
    const length = Math.min(size, REFLOG_TAIL_BYTES);
    const tail = Buffer.alloc(length);
    readSync(fd, tail, 0, length, size - length);
    const lines = tail.toString('latin1').split('\n').filter((l) => l.length > 0);
    // `<old> <new> <name> <<email>> <time> <tz>\t<message>`: the name may hold spaces, the time is second to last.
    const fields = (lines[lines.length - 1] ?? '').split('\t')[0]?.split(' ') ?? [];
    const newOid = fields[1];
    const timeSec = Number(fields[fields.length - 2]);
    if (newOid === undefined || fields.length < 5 || !Number.isFinite(timeSec)) return undefined;
    return { mtimeMs: nsToMs(stat.mtimeNs), newOid, timeSec };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function statNs(path: string): bigint | 'missing' | 'unreadable' {
  try {
    const stat = lstatSync(path, { bigint: true, throwIfNoEntry: false });
    return stat === undefined ? 'missing' : stat.mtimeNs;
  } catch {
    return 'unreadable';
  }
}

/** A whole-second time is what a file system with 1 s (HFS+, ext4 with small inodes) or 2 s (FAT) times writes. */
function isWholeSecond(mtimeNs: bigint): boolean {
  return mtimeNs % NS_PER_SEC === 0n;
}

function nsToMs(ns: bigint): number {
  return Number(ns) / 1e6;
}
