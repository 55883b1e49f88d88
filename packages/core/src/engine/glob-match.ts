import picomatch from 'picomatch';

/**
 * The options every glob of ours is compiled with. `windows` is spelled out because `picomatch.makeRe`
 * (unlike `picomatch()`) does not default it to the platform; `process.platform` is what picomatch
 * itself consults on Node.
 */
const WINDOWS = process.platform === 'win32';
const OPTIONS = { dot: true, windows: WINDOWS } as const;
/** What picomatch's `toPosixSlashes` replaces on Windows: a backslash that escapes nothing. */
const LONE_BACKSLASH = /\\(?![*+?^${}(|)[\]])/g;

const cache = new Map<string, (path: string) => boolean>();
/** Config arrays are long-lived: look them up by identity first, without building the string key. */
const byArray = new WeakMap<readonly string[], (path: string) => boolean>();

/**
 * A matcher for a list of globs (picomatch, real globstar, dot files included): `teleclaude/**\/*.py`
 * matches `teleclaude/daemon.py`, `**\/*.md` matches `README.md` and `.github/x.md`. An invalid glob
 * matches nothing rather than throwing.
 *
 * The whole list is compiled once into **one** regular expression (the alternation of picomatch's own
 * per-glob expressions), so a path costs one regex test whatever the list's length: categorizing
 * 5,000 changed files against the presets' lists is a handful of tests per file. Semantics are
 * exactly `globs.some((g) => picomatch(g, { dot: true })(path))`, including picomatch's literal
 * shortcut (a path equal to the glob text matches, even `a[1].ts`); the equivalence is a property test.
 */
export function globMatcher(globs: readonly string[]): (path: string) => boolean {
  const same = byArray.get(globs);
  if (same) return same;
  const key = globs.join('\0');
  let fn = cache.get(key);
  if (!fn) {
    fn = compileGlobs(globs);
    if (cache.size > 500) cache.clear();
    cache.set(key, fn);
  }
  byArray.set(globs, fn);
  return fn;
}

function compileGlobs(globs: readonly string[]): (path: string) => boolean {
  const literals = new Set<string>();
  const sources: string[] = [];
  for (const glob of globs) {
    // picomatch() throws on an empty glob; such a glob matched nothing before and still does.
    if (glob === '') continue;
    let regex: RegExp;
    try {
      regex = picomatch.makeRe(glob, OPTIONS);
    } catch {
      // picomatch() threw here too: the glob was dropped whole, literal shortcut included.
      continue;
    }
    literals.add(glob);
    // A source that does not compile becomes /$^/, which no non-empty path matches (the literal
    // shortcut above still applies, as in picomatch).
    if (regex.source === '$^') continue;
    sources.push(regex.source);
  }
  const combined = combine(sources);
  if (WINDOWS) {
    return (path) => {
      if (path === '') return false;
      if (literals.has(path)) return true;
      const posix = path.replace(LONE_BACKSLASH, '/');
      return literals.has(posix) || combined(posix);
    };
  }
  return (path) => path !== '' && (literals.has(path) || combined(path));
}

/** One test for all sources; each keeps its own anchors, so alternation means "any of them". */
function combine(sources: readonly string[]): (path: string) => boolean {
  if (sources.length === 0) return () => false;
  try {
    const regex = new RegExp(sources.map((s) => `(?:${s})`).join('|'));
    return (path) => regex.test(path);
  } catch {
    // Defensive: sources that compile alone but not together (never seen) are tested one by one.
    const each = sources.map((s) => new RegExp(s));
    return (path) => each.some((r) => r.test(path));
  }
}
