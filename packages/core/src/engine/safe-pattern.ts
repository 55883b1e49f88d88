import type { RE2JS } from 're2js';

/**
 * Regular expressions written `/body/flags` in a configuration (evidence, error patterns), compiled
 * for the engine their source deserves:
 * - `backtracking`: JavaScript's RegExp — built-in defaults, presets and the user's own file;
 * - `linear`: RE2 (the `re2js` port), for patterns from the project file. That file comes with the
 *   repository, and a backtracking match (`/(a+)+$/` on a long line of `a`s) is synchronous: no timer
 *   can interrupt it, so a hostile repository could wedge the Stop hook. RE2 matches in time linear
 *   in the input and has no backreferences or lookaround; a pattern that needs them is a config
 *   problem, never a silent fallback to backtracking.
 *
 * Which sources are linear is a per-process set filled by `loadConfig` ({@link requireLinearEngine})
 * after it has loaded re2js, so a turn whose project file has no pattern never loads the engine.
 */
export type PatternEngine = 'backtracking' | 'linear';

/** What both engines offer: does the pattern match somewhere in `text`. */
export interface PatternMatcher {
  test(text: string): boolean;
}

/** A `/body/flags` source, compiled; `invalid` matches nothing and is reported by `configProblems`. */
export type CompiledPattern =
  | { readonly kind: 'ok'; readonly engine: PatternEngine; readonly matcher: PatternMatcher }
  | { readonly kind: 'invalid'; readonly reason: string };

const REGEX_FORM = /^\/(.+)\/([a-z]*)$/s;

/**
 * RE2 is linear, but its constant is far above V8's: text beyond this many characters is not
 * searched (commands are never this long; tool output is already an excerpt of head and tail).
 */
export const MAX_LINEAR_INPUT_CHARS = 64 * 1024;

type Re2Module = { readonly RE2JS: typeof RE2JS };
let re2: Re2Module | undefined;
const linearSources = new Set<string>();

/** The body and flags of a `/body/flags` string; undefined for any other string. */
export function regexForm(source: string): { readonly body: string; readonly flags: string } | undefined {
  const m = REGEX_FORM.exec(source);
  return m ? { body: m[1]!, flags: m[2]! } : undefined;
}

/** Which engine `source` runs on in this process. */
export function engineFor(source: string): PatternEngine {
  return linearSources.has(source) ? 'linear' : 'backtracking';
}

/**
 * Load RE2 (once) and mark every `/…/` string among `sources` as linear-only. Plain strings are
 * ignored. Must complete before those patterns are compiled: a linear pattern compiled without the
 * engine is `invalid`, never backtracked.
 */
export async function requireLinearEngine(sources: Iterable<string>): Promise<void> {
  const patterns = [...sources].filter((s) => REGEX_FORM.test(s));
  if (patterns.length === 0) return;
  re2 ??= await import('re2js');
  for (const p of patterns) linearSources.add(p);
}

/** Compile a `/body/flags` string on the engine {@link engineFor} names. */
export function compilePattern(source: string): CompiledPattern {
  const form = regexForm(source);
  if (form === undefined) return { kind: 'invalid', reason: 'not a /regular expression/' };
  // `g`/`y` would make RegExp#test stateful.
  const flags = form.flags.replace(/[gy]/g, '');
  const engine = engineFor(source);
  switch (engine) {
    case 'backtracking':
      try {
        return { kind: 'ok', engine, matcher: new RegExp(form.body, flags) };
      } catch (error) {
        return { kind: 'invalid', reason: `invalid regular expression: ${(error as Error).message}` };
      }
    case 'linear':
      return compileLinear(form.body, flags);
    default:
      return assertNeverEngine(engine);
  }
}

function compileLinear(body: string, flags: string): CompiledPattern {
  if (re2 === undefined) return { kind: 'invalid', reason: 'the linear-time regular expression engine is not loaded' };
  const { RE2JS: Re2 } = re2;
  let bits = 0;
  for (const flag of flags) {
    if (flag === 'i') bits |= Re2.CASE_INSENSITIVE;
    else if (flag === 'm') bits |= Re2.MULTILINE;
    else if (flag === 's') bits |= Re2.DOTALL;
    else if (flag !== 'u' && flag !== 'd') return { kind: 'invalid', reason: `flag "${flag}" is not supported in a project file's regular expression` };
  }
  try {
    const compiled = Re2.compile(body, bits);
    return { kind: 'ok', engine: 'linear', matcher: { test: (text) => compiled.test(text.length > MAX_LINEAR_INPUT_CHARS ? text.slice(0, MAX_LINEAR_INPUT_CHARS) : text) } };
  } catch (error) {
    return {
      kind: 'invalid',
      reason: `not supported in a project file's regular expression (RE2 syntax: no backreferences or lookaround): ${(error as Error).message}`,
    };
  }
}

function assertNeverEngine(value: never): never {
  throw new Error(`Unexpected pattern engine: ${JSON.stringify(value)}`);
}
