import { escapeControls, forMarkdownCode, jsonForTerminal } from '@agent-checkpoint/core';

/**
 * Small, safe Markdown and YAML building blocks for handoff documents and the memory file. What they
 * wrap comes from transcripts, file names and git (untrusted): control characters are escaped
 * visibly (see text-safety), and only multi-line blocks keep line breaks.
 */

/**
 * Inline code that survives backticks in `text` (CommonMark: a longer fence, padded when needed), on
 * one line: a name with a line break cannot start a heading or a list.
 */
export function codeSpan(text: string): string {
  return forMarkdownCode(text);
}

/** Text placed in the middle of a line: control characters and line breaks escaped. */
export function inlineText(text: string): string {
  return escapeControls(text, { keepLines: false });
}

/** A fenced code block whose fence no line of `text` can close (control characters escaped). */
export function fencedBlock(raw: string, indent = ''): string {
  const text = escapeControls(raw, { keepLines: true });
  const longest = Math.max(2, ...[...text.matchAll(/`{3,}/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const body = text.split('\n').map((line) => `${indent}${line}`);
  return [`${indent}${fence}`, ...body, `${indent}${fence}`].join('\n');
}

/**
 * The first line of `text`, trimmed and cut to `max` characters (with `…` when cut or when more lines
 * follow); control characters (a lone CR is a line break to Markdown) escaped.
 */
export function firstLine(text: string, max: number): string {
  const lines = text.trim().split(/\r?\n/);
  const line = (lines[0] ?? '').trim();
  const more = lines.length > 1;
  if (line.length > max) return inlineText(`${line.slice(0, max - 1)}…`);
  return inlineText(more ? `${line} …` : line);
}

/** Cut `text` to `max` characters, marking the cut. */
export function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Prefix every line with `> ` (a Markdown quote); control characters escaped, so every line is quoted. */
export function quoteBlock(text: string): string {
  return escapeControls(text, { keepLines: true })
    .split('\n')
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
  // JSON escapes C0 but not DEL, C1 or Unicode separators and bidi controls: those too, as \uXXXX.
  return plain ? value : jsonForTerminal(JSON.stringify(value));
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
