/** Small, safe Markdown and YAML building blocks for handoff documents. */

/** Inline code that survives backticks in `text` (CommonMark: a longer fence, padded when needed). */
export function codeSpan(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') || text === '' ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** A fenced code block whose fence no line of `text` can close. */
export function fencedBlock(text: string, indent = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`{3,}/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const body = text.split('\n').map((line) => `${indent}${line}`);
  return [`${indent}${fence}`, ...body, `${indent}${fence}`].join('\n');
}

/** The first line of `text`, trimmed and cut to `max` characters (with `…` when cut or when more lines follow). */
export function firstLine(text: string, max: number): string {
  const lines = text.trim().split(/\r?\n/);
  const line = (lines[0] ?? '').trim();
  const more = lines.length > 1;
  if (line.length > max) return `${line.slice(0, max - 1)}…`;
  return more ? `${line} …` : line;
}

/** Cut `text` to `max` characters, marking the cut. */
export function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Prefix every line with `> ` (a Markdown quote). */
export function quoteBlock(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => (line === '' ? '>' : `> ${line}`))
    .join('\n');
}

/**
 * A YAML scalar: plain when unambiguous, otherwise double-quoted with JSON escapes (JSON strings are
 * valid YAML double-quoted scalars).
 */
export function yamlScalar(value: string): string {
  const plain =
    /^[A-Za-z0-9_./@(][A-Za-z0-9_./@+ ()%,-]*$/.test(value) &&
    !value.endsWith(' ') &&
    !/^(true|false|null|yes|no|on|off|y|n)$/i.test(value) &&
    !/^[-+]?(\.?\d[\d_]*(\.\d*)?([eE][-+]?\d+)?|\.inf|\.nan)$/i.test(value);
  return plain ? value : JSON.stringify(value);
}

/** Read back a scalar written by {@link yamlScalar}. */
export function parseYamlScalar(raw: string): string {
  const value = raw.trim();
  if (value.startsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(value);
      if (typeof parsed === 'string') return parsed;
    } catch {
      /* not ours: keep the raw text */
    }
  }
  return value;
}
