/** What a patch does to one file. */
export interface PatchFileOp {
  readonly path: string;
  readonly op: 'add' | 'update' | 'delete';
  /** For a rename: the new path. */
  readonly moveTo?: string;
}

const APPLY_PATCH_LINE = /^\*\*\* (Add|Update|Delete) File: (.+?)\s*$/;
const APPLY_PATCH_MOVE = /^\*\*\* Move to: (.+?)\s*$/;

/**
 * Files named by a Codex-style `apply_patch` envelope (`*** Begin Patch` … `*** Update File: x`). Returns
 * [] when the text holds none.
 */
export function parseApplyPatch(text: string): PatchFileOp[] {
  if (!text.includes('*** ')) return [];
  const out: PatchFileOp[] = [];
  for (const line of text.split('\n')) {
    const m = APPLY_PATCH_LINE.exec(line);
    if (m) {
      const kind = m[1]!;
      out.push({ path: m[2]!, op: kind === 'Add' ? 'add' : kind === 'Delete' ? 'delete' : 'update' });
      continue;
    }
    const mv = APPLY_PATCH_MOVE.exec(line);
    const last = out[out.length - 1];
    if (mv && last && last.op === 'update') out[out.length - 1] = { ...last, moveTo: mv[1]! };
  }
  return out;
}

/**
 * Files named by a unified diff (`git diff` / `diff -u` output fed to `git apply` or `patch`).
 * `strip` removes that many leading path components (`patch -p1`); when undefined, a leading `a/` or `b/`
 * is removed, as `git apply` does.
 */
export function parseUnifiedDiff(text: string, strip?: number): PatchFileOp[] {
  if (!text.includes('--- ') && !text.includes('diff --git ')) return [];
  const out: PatchFileOp[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.startsWith('--- ')) continue;
    const next = lines[i + 1];
    if (!next?.startsWith('+++ ')) continue;
    const from = diffPath(line.slice(4));
    const to = diffPath(next.slice(4));
    i++;
    if (to === '/dev/null' && from !== '/dev/null') {
      out.push({ path: stripComponents(from, strip), op: 'delete' });
    } else if (from === '/dev/null' && to !== '/dev/null') {
      out.push({ path: stripComponents(to, strip), op: 'add' });
    } else if (to !== '/dev/null') {
      const fromPath = stripComponents(from, strip);
      const toPath = stripComponents(to, strip);
      out.push(fromPath === toPath ? { path: toPath, op: 'update' } : { path: fromPath, op: 'update', moveTo: toPath });
    }
  }
  return out;
}

/** `a/x.py\t2024-01-01 …` → `a/x.py`; quoted git paths are unquoted. */
function diffPath(header: string): string {
  let p = header.split('\t')[0]!.trim();
  if (p.startsWith('"') && p.endsWith('"') && p.length >= 2) p = p.slice(1, -1).replace(/\\(.)/g, '$1');
  return p;
}

function stripComponents(path: string, strip: number | undefined): string {
  if (path === '/dev/null') return path;
  if (strip === undefined) return path.replace(/^[ab]\//, '');
  const parts = path.split('/');
  return parts.slice(Math.min(strip, parts.length - 1)).join('/');
}
