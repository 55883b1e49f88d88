import picomatch from 'picomatch';

const cache = new Map<string, (path: string) => boolean>();
/** Config arrays are long-lived: look them up by identity first, without building the string key. */
const byArray = new WeakMap<readonly string[], (path: string) => boolean>();

/**
 * A matcher for a list of globs (picomatch, real globstar, dot files included): `teleclaude/**\/*.py`
 * matches `teleclaude/daemon.py`, `**\/*.md` matches `README.md` and `.github/x.md`. Compiled once
 * per list. An invalid glob matches nothing rather than throwing.
 */
export function globMatcher(globs: readonly string[]): (path: string) => boolean {
  const same = byArray.get(globs);
  if (same) return same;
  const key = globs.join('\0');
  const cached = cache.get(key);
  if (cached) {
    byArray.set(globs, cached);
    return cached;
  }
  const matchers = globs.flatMap((g) => {
    try {
      return [picomatch(g, { dot: true })];
    } catch {
      return [];
    }
  });
  const fn = (path: string): boolean => matchers.some((m) => m(path));
  if (cache.size > 500) cache.clear();
  cache.set(key, fn);
  byArray.set(globs, fn);
  return fn;
}
