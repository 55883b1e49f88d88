/**
 * Just enough TOML scanning to edit one top-level key by text: where the top-level section ends (the
 * first table header), and where each top-level `key = value` statement starts and ends. Strings
 * (basic, literal, multi-line), comments and nested arrays / inline tables are skipped correctly;
 * values are not interpreted (smol-toml parses the document before and after every edit).
 */

/** A `key = value` statement of the top-level section. */
export interface TopLevelStatement {
  /** The key as written (`notify`, `"notify"`, `a.b`). */
  readonly rawKey: string;
  /** Offset of the first character of the statement's line. */
  readonly lineStart: number;
  /** Offset of the value's first character. */
  readonly valueStart: number;
  /** Offset just after the value's last character. */
  readonly valueEnd: number;
  /** Offset of the end of the statement's last line (its newline, or the text's end). */
  readonly lineEnd: number;
}

export interface TopLevelScan {
  readonly statements: readonly TopLevelStatement[];
  /** Offset of the first table header's line, or the text's length when there is none. */
  readonly sectionEnd: number;
}

/** Scan the top-level section of a TOML document. Assumes the document parses. */
export function scanTomlTopLevel(text: string): TopLevelScan {
  const statements: TopLevelStatement[] = [];
  let i = 0;
  while (i < text.length) {
    const lineStart = i;
    i = skipSpaces(text, i);
    const c = text[i];
    if (c === undefined) break;
    if (c === '\n' || c === '\r') {
      i = nextLine(text, i);
      continue;
    }
    if (c === '#') {
      i = nextLine(text, i);
      continue;
    }
    if (c === '[') return { statements, sectionEnd: lineStart };
    // A key: bare, quoted, or dotted, up to "=".
    const keyStart = i;
    while (i < text.length && text[i] !== '=') {
      if (text[i] === '"' || text[i] === "'") i = skipString(text, i);
      else i++;
    }
    const rawKey = text.slice(keyStart, i).trim();
    i = skipSpaces(text, i + 1);
    const valueStart = i;
    i = skipValue(text, i);
    const valueEnd = i;
    // The rest of the line: spaces and an optional comment.
    const lineEnd = endOfLine(text, i);
    statements.push({ rawKey, lineStart, valueStart, valueEnd, lineEnd });
    i = nextLine(text, lineEnd);
  }
  return { statements, sectionEnd: text.length };
}

/** The unquoted key of a single-segment raw key (`notify`, `"notify"`, `'notify'`), else undefined. */
export function simpleKey(rawKey: string): string | undefined {
  if (/^[A-Za-z0-9_-]+$/.test(rawKey)) return rawKey;
  const quoted = /^"([^"\\]*)"$|^'([^']*)'$/.exec(rawKey);
  return quoted ? (quoted[1] ?? quoted[2]) : undefined;
}

function skipValue(text: string, start: number): number {
  let i = start;
  let depth = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"' || c === "'") {
      i = skipString(text, i);
      if (depth === 0) return i;
      continue;
    }
    if (c === '#' && depth > 0) {
      i = nextLine(text, i);
      continue;
    }
    if (c === '[' || c === '{') {
      depth++;
      i++;
      continue;
    }
    if (c === ']' || c === '}') {
      depth--;
      i++;
      if (depth === 0) return i;
      continue;
    }
    if (depth === 0 && (c === '\n' || c === '\r' || c === '#')) {
      // A scalar ends at the comment or the line's end; trailing spaces are not part of it.
      let end = i;
      while (end > start && (text[end - 1] === ' ' || text[end - 1] === '\t')) end--;
      return end;
    }
    i++;
  }
  return i;
}

/** Offset after the string starting at `start` (basic, literal, or their multi-line forms). */
function skipString(text: string, start: number): number {
  const quote = text[start] as '"' | "'";
  const triple = text.startsWith(quote.repeat(3), start);
  if (triple) {
    let i = start + 3;
    for (;;) {
      const close = text.indexOf(quote.repeat(3), i);
      if (close === -1) return text.length;
      if (quote === '"' && isEscaped(text, close)) {
        i = close + 1;
        continue;
      }
      // Up to two more quotes may belong to the content ("""a"""" is `a"`).
      let end = close + 3;
      while (text[end] === quote && end - close < 5) end++;
      return end;
    }
  }
  let i = start + 1;
  while (i < text.length) {
    const c = text[i];
    if (quote === '"' && c === '\\') {
      i += 2;
      continue;
    }
    if (c === quote) return i + 1;
    if (c === '\n') return i;
    i++;
  }
  return i;
}

function isEscaped(text: string, index: number): boolean {
  let backslashes = 0;
  for (let j = index - 1; j >= 0 && text[j] === '\\'; j--) backslashes++;
  return backslashes % 2 === 1;
}

function skipSpaces(text: string, start: number): number {
  let i = start;
  while (text[i] === ' ' || text[i] === '\t') i++;
  return i;
}

/** Offset of the line's end (`\r\n` or `\n`), or the text's length. */
function endOfLine(text: string, start: number): number {
  const newline = text.indexOf('\n', start);
  if (newline === -1) return text.length;
  return text[newline - 1] === '\r' ? newline - 1 : newline;
}

function nextLine(text: string, start: number): number {
  const newline = text.indexOf('\n', start);
  return newline === -1 ? text.length : newline + 1;
}
