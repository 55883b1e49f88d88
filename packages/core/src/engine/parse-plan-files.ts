/**
 * Files an implementation plan says it will change. Reads markdown tables whose header has a file
 * column (`File`, `Files`, `Path`, `Files to Change`…), taking every backticked path in that column's
 * cells or else the cell's first word (annotations such as `(NEW)` dropped), and bullet lists under a
 * heading that mentions files (`## Files to Change` → "- `src/a.ts` — why"). Returns unique paths in
 * order of appearance, `./` removed.
 */
export function parsePlanFiles(markdown: string): string[] {
  const lines = markdown.split(/\r?\n/);
  const out = new Set<string>();
  let underFilesHeading = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (/^#{1,6}\s/.test(line)) {
      underFilesHeading = /\bfiles?\b/i.test(line);
      continue;
    }
    if (line.startsWith('|') && isSeparator(lines[i + 1]?.trim() ?? '')) {
      const header = cells(line);
      const col = header.findIndex((h) => /\b(files?|paths?)\b/i.test(stripMarkdown(h)));
      i += 1;
      while (i + 1 < lines.length && lines[i + 1]!.trim().startsWith('|')) {
        i++;
        if (col === -1) continue;
        const cell = cells(lines[i]!.trim())[col];
        if (cell !== undefined) for (const p of pathsInCell(cell)) out.add(p);
      }
      continue;
    }
    if (underFilesHeading) {
      const bullet = /^(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
      if (bullet) {
        const code = /`([^`]+)`/.exec(bullet[1]!);
        const p = code ? cleanPath(code[1]!) : undefined;
        if (p) out.add(p);
      }
    }
  }
  return [...out];
}

function isSeparator(line: string): boolean {
  return /^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?$/.test(line);
}

/** Split a table row into cells, honouring `\|`. */
function cells(row: string): string[] {
  const inner = row.replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

function stripMarkdown(text: string): string {
  return text.replace(/[*_`]/g, '').trim();
}

function pathsInCell(cell: string): string[] {
  const code = [...cell.matchAll(/`([^`]+)`/g)].map((m) => cleanPath(m[1]!)).filter((p): p is string => p !== undefined);
  if (code.length > 0) return code;
  const text = cell
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\([^)]*\)/g, ' ')
    .trim();
  let first = text.split(/\s+/)[0];
  // Emphasis around the name (`**src/a.py**`), never underscores inside it (`__init__.py`).
  const emphasis = first ? /^([*_]+)(.+?)([*_]+)$/.exec(first) : null;
  if (emphasis) first = emphasis[2];
  const p = first ? cleanPath(first) : undefined;
  return p ? [p] : [];
}

function cleanPath(raw: string): string | undefined {
  let p = raw.trim().replace(/^\.\//, '').replace(/[,;:]+$/, '');
  if (p.includes(' ') || p === '' || p.includes('://')) return undefined;
  p = p.replace(/^\/+/, '');
  return /[A-Za-z0-9_*]/.test(p) ? p : undefined;
}
