import { findMatchingEvidence } from '../shell/match-evidence.ts';
import type { ToolOutcome } from '../timeline/tool-call.ts';
import { globMatcher } from './glob-match.ts';
import { comparePositions, mutationTookEffect, type Position, type TimelineFacts } from './timeline-facts.ts';

/** A successful command that proves an action was done. */
export interface EvidenceHit {
  readonly callId: string;
  /** The evidence string that matched. */
  readonly evidence: string;
  readonly position: Position;
}

/**
 * The **last** command segment, at or after `notBefore`, that matches one of `evidence`. Only shell
 * calls that succeeded count: a failed or still-running command proves nothing, and a literal mention
 * (`echo "make restart"`) never matches because evidence is compared with the parsed program.
 */
export function findLastEvidence(facts: TimelineFacts, evidence: readonly string[], notBefore?: Position): EvidenceHit | undefined {
  return findLastMatchingCommand(facts, evidence, 'success', notBefore);
}

/**
 * The last **failed** command, at or after `notBefore`, that would have been evidence had it
 * succeeded: lets a gap observation say "ran but failed" instead of "was not observed".
 */
export function findLastFailedEvidence(facts: TimelineFacts, evidence: readonly string[], notBefore?: Position): EvidenceHit | undefined {
  return findLastMatchingCommand(facts, evidence, 'error', notBefore);
}

/**
 * The last command of **unknown** outcome (it ran, the transcript does not say how it ended: a
 * command inside an older Codex code-mode cell), at or after `notBefore`, that matches one of
 * `evidence`. It shows the action was attempted, never that it passed (see `ToolOutcome`).
 */
export function findLastUnrecordedEvidence(facts: TimelineFacts, evidence: readonly string[], notBefore?: Position): EvidenceHit | undefined {
  return findLastMatchingCommand(facts, evidence, 'unknown', notBefore);
}

function findLastMatchingCommand(
  facts: TimelineFacts,
  evidence: readonly string[],
  outcome: Exclude<ToolOutcome, 'pending'>,
  notBefore?: Position,
): EvidenceHit | undefined {
  if (evidence.length === 0) return undefined;
  let hit: EvidenceHit | undefined;
  for (const f of facts.calls) {
    if (f.call.kind !== 'shell' || f.call.outcome !== outcome) continue;
    f.segments.forEach((segment, s) => {
      const position = { call: f.index, segment: s };
      if (notBefore && comparePositions(position, notBefore) < 0) return;
      const matched = findMatchingEvidence(segment, evidence);
      if (matched !== undefined) hit = { callId: f.call.id, evidence: matched, position };
    });
  }
  return hit;
}

/**
 * Where the last change to any of `files` (repo-relative) happened this turn, or undefined when the
 * timeline shows none (the file was attributed by mtime, or there is no transcript). A mutation of a
 * directory (`rm -r src/x`, `git checkout -- src`) counts for the files under it.
 */
export function lastMutationOf(facts: TimelineFacts, files: readonly string[]): Position | undefined {
  if (files.length === 0) return undefined;
  const touched = coverage(files);
  let last: Position | undefined;
  for (const f of facts.calls) {
    if (!mutationTookEffect(f.call)) continue;
    for (const m of f.mutations) {
      if (m.repoPath === undefined) continue;
      const at = { call: f.index, segment: m.segment };
      if (last !== undefined && comparePositions(at, last) <= 0) continue;
      if (touched(m.repoPath)) last = at;
    }
    for (const g of f.mutationGlobs) {
      const at = { call: f.index, segment: g.segment };
      if (last !== undefined && comparePositions(at, last) <= 0) continue;
      const match = globMatcher([g.glob]);
      if (files.some((file) => match(file))) last = at;
    }
  }
  return last;
}

/** Distinct mutation targets looked up by scanning `files` before indexing them (see {@link coverage}). */
const SCAN_LIMIT = 8;

/**
 * Whether a repo-relative target is one of `files` or a directory above one of them. A turn mutates a
 * few paths and a checkpoint may carry thousands of files, so the first few targets are answered by a
 * scan that allocates nothing; only a turn with many distinct targets pays for indexing every file and
 * every directory above it.
 */
function coverage(files: readonly string[]): (target: string) => boolean {
  const answers = new Map<string, boolean>();
  let index: { readonly files: Set<string>; readonly dirs: Set<string> } | undefined;
  return (target) => {
    if (index) return index.files.has(target) || index.dirs.has(target);
    const known = answers.get(target);
    if (known !== undefined) return known;
    if (answers.size >= SCAN_LIMIT) {
      index = { files: new Set(files), dirs: directoriesOf(files) };
      return index.files.has(target) || index.dirs.has(target);
    }
    const hit = files.some((f) => f === target || (f.length > target.length && f.charCodeAt(target.length) === 0x2f && f.startsWith(target)));
    answers.set(target, hit);
    return hit;
  };
}

/** Every directory above `files`: `a/b/c.py` gives `a` and `a/b`. */
function directoriesOf(files: readonly string[]): Set<string> {
  const dirs = new Set<string>();
  for (const f of files) for (let i = f.indexOf('/'); i !== -1; i = f.indexOf('/', i + 1)) dirs.add(f.slice(0, i));
  return dirs;
}
