import type { ResolvedConfig, ResolvedErrorPattern } from '../config/config-schema.ts';
import { matchesEvidence } from '../shell/match-evidence.ts';
import { compilePattern, engineFor, type PatternMatcher, regexForm } from './safe-pattern.ts';
import { normalizedText, type ShellSegment } from '../shell/parse-shell-command.ts';
import { forMarkdownCode } from '../text-safety/text-safety.ts';
import type { Observation } from './checkpoint-result.ts';
import { correctsCommand, isNotFoundFailure } from './corrected-command.ts';
import { mutationTookEffect, type CallFacts, type TimelineFacts } from './timeline-facts.ts';

/** Observation for an unresolved failed command that no pattern explains. */
export const GENERIC_ERROR_OBSERVATION = 'A command returned errors — verify the issue is resolved';
/** Observation for a failed edit/write/patch that was not retried. */
export const FAILED_EDIT_OBSERVATION = 'A file edit failed and was not retried — verify the change was applied';

/** Segments that set up or decorate a command; they do not change what "the same command" is. */
const TRIVIAL = new Set(['cd', 'pushd', 'popd', 'source', '.', 'export', 'set', 'unset', 'true', ':', 'echo', 'printf', 'sleep', 'clear']);
/** Programs that only filter another command's output when piped into. */
const FILTERS = new Set(['tail', 'head', 'grep', 'egrep', 'rg', 'tee', 'less', 'more', 'cat', 'sort', 'uniq', 'wc', 'sed', 'awk', 'cut', 'tr', 'column', 'jq', 'nl']);

/**
 * Two-layer error detection (seed R5).
 *
 * Layer 1 is structural: only calls that really failed (`outcome === 'error'`) are candidates — a
 * successful command whose output shows a traceback is never one. Shell, edit, write and patch calls
 * count; failed reads and searches are exploration, not a broken state. A search command (`rg`, `grep`,
 * `git grep`…) that exits 1 without "No such file"/"Permission denied" found nothing and is no error.
 *
 * A failure is resolved by any later call that:
 * - re-runs the same normalized command (wrappers, `cd` prefixes and output filters ignored), whatever
 *   its own outcome (a failing re-run is judged on its own);
 * - is a command naming one of the files the failure named;
 * - edits, writes or patches one of those files;
 * - for a command that did not exist (exit 127, "command not found", "No rule to make target",
 *   an unknown script or subcommand): is its corrected form, the same command with one word replaced
 *   by a similar one (`make restrat` → `make restart`, `pytset` → `pytest`; see `correctsCommand`).
 *   Like a re-run, the correction is then judged on its own. Other failures are never resolved by an
 *   unrelated later command, and a not-found failure not by a dissimilar one.
 * Paths are compared after normalization against the project root and cwd, so a relative path in the
 * command and an absolute path in an edit are the same file.
 *
 * Layer 2 explains each unresolved failure with the first matching error pattern, searched in the head
 * and the tail of the output (errors print last); patterns with `commands` apply only to those commands
 * (test runners). Observations with the same message are merged, and each names its failing
 * commands (or files, for edits) and their calls as `explain` numbers them: ``…: `make deploy` (call #3)``.
 */
export function checkErrors(facts: TimelineFacts, config: Pick<ResolvedConfig, 'errorPatterns' | 'searchCommands'>): Observation[] {
  const unresolved: CallFacts[] = [];
  const calls = facts.calls;
  // Where each command key / file was last seen: a failure is resolved when one of its keys or files
  // appears again later. One pass, so a long turn with many failures stays linear (corrections of a
  // command that did not exist are looked for in a bounded window after it).
  const lastKey = new Map<string, number>();
  const lastNamedByShell = new Map<string, number>();
  const lastMutatedByTool = new Map<string, number>();
  const keys = calls.map((f) => (f.call.kind === 'shell' ? commandKey(f.segments) : ''));
  for (const f of calls) {
    if (f.call.kind === 'shell') {
      if (keys[f.index] !== '') lastKey.set(keys[f.index]!, f.index);
      for (const k of f.namedFiles) lastNamedByShell.set(k, f.index);
    } else if ((f.call.kind === 'edit' || f.call.kind === 'write' || f.call.kind === 'patch') && mutationTookEffect(f.call)) {
      for (const m of f.mutations) lastMutatedByTool.set(m.key, f.index);
    }
  }
  const seenLater = (map: ReadonlyMap<string, number>, key: string, index: number): boolean => (map.get(key) ?? -1) > index;
  for (const f of calls) {
    if (f.call.outcome !== 'error') continue;
    const kind = f.call.kind;
    if (kind !== 'shell' && kind !== 'edit' && kind !== 'write' && kind !== 'patch') continue;
    if (kind === 'shell' && isEmptySearch(f, config.searchCommands)) continue;
    const key = keys[f.index] ?? '';
    const resolved =
      (kind === 'shell' && key !== '' && seenLater(lastKey, key, f.index)) ||
      f.namedFiles.some((k) => seenLater(lastNamedByShell, k, f.index) || seenLater(lastMutatedByTool, k, f.index)) ||
      (kind === 'shell' && correctedLater(f, calls));
    if (!resolved) unresolved.push(f);
  }
  const byMessage = new Map<string, { patternId?: string; calls: CallFacts[] }>();
  for (const f of unresolved) {
    const { text, patternId } = enrich(f, config.errorPatterns);
    const group = byMessage.get(text);
    if (group) group.calls.push(f);
    else byMessage.set(text, { ...(patternId !== undefined ? { patternId } : {}), calls: [f] });
  }
  return [...byMessage].map(([message, group]) => ({
    kind: 'unresolved-error',
    text: `${message}: ${nameCalls(group.calls)}`,
    callIds: group.calls.map((f) => f.call.id),
    ...(group.patternId !== undefined ? { patternId: group.patternId } : {}),
  }));
}

/** How many failing calls an observation names; the rest are counted. */
const MAX_NAMED_CALLS = 3;
/** Longest command text quoted in an observation. */
const MAX_QUOTED_CHARS = 60;

/** ``…`make lint` (call #2), `make typecheck` (call #5) and 1 more``: what failed, numbered as in `explain`. */
function nameCalls(calls: readonly CallFacts[]): string {
  const named = calls.slice(0, MAX_NAMED_CALLS).map((f) => `${quote(subjectOf(f))} (call #${f.index + 1})`);
  const more = calls.length - named.length;
  return more > 0 ? `${named.join(', ')} and ${more} more` : named.join(', ');
}

/** The command of a shell call; the file of an edit, write or patch. */
function subjectOf(f: CallFacts): string {
  if (f.call.kind === 'shell') return f.call.command;
  return f.namedFiles[0] ?? f.call.paths[0] ?? f.call.rawName;
}

/**
 * Untrusted text as one inline code span of the message: line breaks and runs of blanks fold into
 * one space, long text is cut with an ellipsis, and the shared Markdown sanitizer does the rest
 * (control characters shown escaped, a fence longer than any backtick run inside).
 */
function quote(text: string): string {
  const flat = [...text.replace(/[ \t]*(?:\r?\n[ \t]*)+|[ \t]+/g, ' ').trim()];
  if (flat.length === 0) return '`(empty command)`';
  return forMarkdownCode(flat.length <= MAX_QUOTED_CHARS ? flat.join('') : `${flat.slice(0, MAX_QUOTED_CHARS - 1).join('').trimEnd()}…`);
}

/**
 * How many later calls may hold the corrected form of a command that did not exist. A correction
 * follows its typo closely; the bound keeps a transcript of thousands of not-found calls linear.
 */
const CORRECTION_LOOKAHEAD = 25;

/** A failed command that did not exist, followed closely by a call that ran its corrected form. */
function correctedLater(f: CallFacts, calls: readonly CallFacts[]): boolean {
  if (f.call.kind !== 'shell') return false;
  const output = outputText(f);
  if (!isNotFoundFailure(f.call.exitCode, output)) return false;
  const failed = significant(f.segments);
  if (failed.length === 0) return false;
  const end = Math.min(calls.length, f.index + 1 + CORRECTION_LOOKAHEAD);
  for (let i = f.index + 1; i < end; i += 1) {
    const later = calls[i]!;
    if (later.call.kind !== 'shell' || later.call.outcome === 'pending') continue;
    if (correctsCommand(failed, output, significant(later.segments))) return true;
  }
  return false;
}

/** Segments that say what was run: no set-up (`cd`, `export`…) and no output filters piped into. */
function significant(segments: readonly ShellSegment[]): ShellSegment[] {
  return segments.filter((s) => s.program !== '' && !TRIVIAL.has(s.program) && !(s.pipedFrom && FILTERS.has(s.program)));
}

/** The command as "what was run": significant segments only, normalized. Exported for tests. */
export function commandKey(segments: readonly ShellSegment[]): string {
  return significant(segments)
    .map((s) => normalizedText(s))
    .join(' && ');
}

function isEmptySearch(f: CallFacts, searchCommands: readonly string[]): boolean {
  if (f.call.kind !== 'shell') return false;
  const exitCode = f.call.exitCode;
  const output = outputText(f);
  if (exitCode !== undefined && exitCode !== 1) return false;
  if (exitCode === undefined && !/\bexit(?:ed with)?(?: code|:)?\s*1\b/i.test(output) && output.trim() !== '') return false;
  if (/no such file|permission denied/i.test(output)) return false;
  const significant = f.segments.filter((s) => s.program !== '' && !TRIVIAL.has(s.program));
  const last = significant[significant.length - 1];
  if (!last) return false;
  const isSearch = (s: ShellSegment): boolean => searchCommands.some((c) => matchesEvidence(s, c));
  // `cd x && rg foo`, `grep -q x f && echo yes`: the search decides the exit code.
  return isSearch(last) || (significant.length === 1 && isSearch(significant[0]!));
}

function outputText(f: CallFacts): string {
  const o = f.call.output;
  if (!o) return '';
  return o.tail === '' ? o.head : `${o.head}\n${o.tail}`;
}

function enrich(f: CallFacts, patterns: readonly ResolvedErrorPattern[]): { text: string; patternId?: string } {
  const output = outputText(f);
  for (const p of patterns) {
    if (p.commands.length > 0) {
      if (f.call.kind !== 'shell') continue;
      if (!f.segments.some((s) => p.commands.some((c) => matchesEvidence(s, c)))) continue;
    }
    if (patternMatches(p.match, output)) return { text: p.message, patternId: p.id };
  }
  return { text: f.call.kind === 'shell' ? GENERIC_ERROR_OBSERVATION : FAILED_EDIT_OBSERVATION };
}

const regexCache = new Map<string, PatternMatcher | null>();

/** Substring, or `/regex/flags` (on the engine its source deserves: safe-pattern.ts); an invalid regex matches nothing. */
export function patternMatches(match: string, text: string): boolean {
  if (regexForm(match) === undefined) return text.includes(match);
  const key = `${engineFor(match)}:${match}`;
  let re = regexCache.get(key);
  if (re === undefined) {
    const compiled = compilePattern(match);
    re = compiled.kind === 'ok' ? compiled.matcher : null;
    regexCache.set(key, re);
  }
  return re !== null && re.test(text);
}
