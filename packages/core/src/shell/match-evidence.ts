import { compilePattern, engineFor, type PatternMatcher, regexForm } from '../engine/safe-pattern.ts';
import { normalizedText, parseShellCommand, type ShellSegment } from './parse-shell-command.ts';

/**
 * An evidence string, compiled. See `EvidenceSchema` in config-schema.ts for the user-facing rules:
 * - plain `"make restart"`: parsed like a command (so wrappers in the evidence are stripped too); a
 *   segment matches when its program is the same and the evidence arguments appear among the segment's
 *   arguments in the same order, other arguments allowed in between (`make -C . restart`);
 * - regex `"/^pnpm (run )?test\\b/"`: tested against the segment's normalized text (program and
 *   arguments joined by single spaces, wrappers stripped, no quotes). A project file's regex runs on
 *   the linear-time engine (see safe-pattern.ts).
 */
export type CompiledEvidence =
  | { readonly kind: 'plain'; readonly source: string; readonly program: string; readonly args: readonly string[] }
  | { readonly kind: 'regex'; readonly source: string; readonly regex: PatternMatcher }
  | { readonly kind: 'invalid'; readonly source: string; readonly reason: string };

const cache = new Map<string, CompiledEvidence>();

/** True when the evidence is written in the `/regex/flags` form. */
export function isRegexEvidence(evidence: string): boolean {
  return regexForm(evidence) !== undefined;
}

/** Compile an evidence string (cached). Never throws: a bad one is `invalid` and matches nothing. */
export function compileEvidence(evidence: string): CompiledEvidence {
  // Keyed by engine too: a source marked linear after it was compiled must not reuse a RegExp.
  const key = `${engineFor(evidence)}:${evidence}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const compiled = compileUncached(evidence);
  if (cache.size > 2000) cache.clear();
  cache.set(key, compiled);
  return compiled;
}

function compileUncached(source: string): CompiledEvidence {
  if (isRegexEvidence(source)) {
    const compiled = compilePattern(source);
    return compiled.kind === 'ok' ? { kind: 'regex', source, regex: compiled.matcher } : { kind: 'invalid', source, reason: compiled.reason };
  }
  const segments = parseShellCommand(source);
  if (segments.length !== 1) {
    return {
      kind: 'invalid',
      source,
      reason: segments.length === 0 ? 'no command in evidence' : 'evidence must be a single command (no &&, |, ;)',
    };
  }
  const seg = segments[0]!;
  if (seg.program === '') return { kind: 'invalid', source, reason: 'no program in evidence' };
  return { kind: 'plain', source, program: seg.program, args: seg.args };
}

/** A problem with an evidence string, for config diagnostics; undefined when it is fine. */
export function validateEvidence(evidence: string): string | undefined {
  const compiled = compileEvidence(evidence);
  return compiled.kind === 'invalid' ? compiled.reason : undefined;
}

/** Whether one parsed segment is the command the evidence describes. */
export function matchesEvidence(segment: ShellSegment, evidence: string | CompiledEvidence): boolean {
  const compiled = typeof evidence === 'string' ? compileEvidence(evidence) : evidence;
  switch (compiled.kind) {
    case 'plain':
      return segment.program === compiled.program && isSubsequence(compiled.args, segment.args);
    case 'regex':
      return segment.program !== '' && compiled.regex.test(normalizedText(segment));
    case 'invalid':
      return false;
    default:
      return assertNeverEvidence(compiled);
  }
}

/** The first evidence (of several) that the segment matches, if any. */
export function findMatchingEvidence(segment: ShellSegment, evidence: readonly string[]): string | undefined {
  return evidence.find((e) => matchesEvidence(segment, e));
}

function isSubsequence(needle: readonly string[], haystack: readonly string[]): boolean {
  let j = 0;
  for (let i = 0; i < haystack.length && j < needle.length; i++) {
    if (haystack[i] === needle[j]) j++;
  }
  return j === needle.length;
}

function assertNeverEvidence(value: never): never {
  throw new Error(`Unexpected evidence: ${JSON.stringify(value)}`);
}
