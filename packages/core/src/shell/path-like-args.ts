import type { ShellSegment } from './parse-shell-command.ts';

/**
 * Arguments of a segment that name files: `pytest tests/test_a.py::test_x` → `tests/test_a.py`,
 * `--config=app.yml` → `app.yml`, `src/a.ts:12:3` → `src/a.ts`. Used to tell whether a later command
 * concerns the same file as an earlier failure. Options, URLs, dynamic words and globs are skipped.
 */
export function pathLikeArgs(segment: ShellSegment): string[] {
  const out = new Set<string>();
  for (const w of segment.argWords) {
    if (w.dynamic || w.glob) continue;
    let v = w.value;
    if (v.startsWith('-')) {
      const eq = v.indexOf('=');
      if (!v.startsWith('--') || eq === -1) continue;
      v = v.slice(eq + 1);
    }
    if (v === '' || v.includes('://') || /\s/.test(v)) continue;
    v = v.replace(/::.*$/, '').replace(/:\d+(:\d+)?$/, '');
    if (isPathLike(v)) out.add(v);
  }
  for (const r of segment.redirects) {
    const t = r.target;
    if (t && !t.dynamic && !t.glob && (r.op === '<' || r.op.includes('>')) && isPathLike(t.value) && !t.value.startsWith('/dev/')) out.add(t.value);
  }
  return [...out];
}

/** Contains a directory separator, or ends in a file extension. */
export function isPathLike(value: string): boolean {
  if (value.length === 0 || value.length > 4096) return false;
  if (/^s([/|#:,]).*\1.*\1[a-z]*$/.test(value)) return false; // sed expression
  if (value.includes('/')) return !/^\/+$/.test(value);
  return /^[^.][^/]*\.[A-Za-z0-9]{1,10}$/.test(value) && !/^\d+(\.\d+)+$/.test(value);
}
