import picomatch from 'picomatch';

/**
 * Why a configured glob can never do what it says, or undefined when it is fine. The matcher
 * (`engine/glob-match.ts`) silently drops a glob picomatch cannot compile and matches nothing with an
 * empty range, so a typo such as `"src/**\/*.{ts"` would turn a category off without a word; the
 * schema rejects such a glob at load instead (the file is ignored with this reason).
 *
 * Rejected: unbalanced `[`, `{`, `(` (picomatch's `strictBrackets`), a character range that is empty
 * (`[z-a]`), and an absolute path (globs match repo-relative paths, which never start with `/`).
 */
export function globProblem(glob: string): string | undefined {
  if (glob.startsWith('/')) return 'globs match repo-relative paths; remove the leading "/"';
  let regex: RegExp;
  try {
    regex = picomatch.makeRe(glob, { dot: true, strictBrackets: true });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  // picomatch compiles a pattern whose regular expression would not be valid (an empty range) to `$^`.
  if (regex.source === '$^') return 'it can never match (an empty character range?)';
  return undefined;
}
