import { createScanner, type Node } from 'jsonc-parser';

/** jsonc-parser's `SyntaxKind` values used here (an ambient const enum, not importable as a value). */
const TOKEN = { comma: 5, lineComment: 12, blockComment: 13, lineBreak: 14, trivia: 15 } as const;

/**
 * Targeted text edits of JSON / JSONC documents that leave every byte outside the edited member
 * alone: comments, blank lines, key order, compact or expanded style, trailing commas.
 *
 * jsonc-parser's own `modify` re-formats the whole parent container on insertion and can drop a
 * comment that follows a removed element, so members are inserted and removed here by offsets from
 * its syntax tree (`parseTree`), in the style of the surrounding text.
 */

/** How the document is indented, detected from its text. */
export interface JsonLayout {
  /** One indentation step: `"  "`, `"    "` or `"\t"`. */
  readonly unit: string;
  readonly eol: '\n' | '\r\n';
}

/** Detect indentation and line endings (defaults: two spaces, `\n`). */
export function detectJsonLayout(text: string): JsonLayout {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indented = /^([ \t]+)["{[\]}/]/m.exec(text);
  const first = indented?.[1];
  let unit = '  ';
  if (first !== undefined) unit = first.startsWith('\t') ? '\t' : ' '.repeat(Math.min(first.length, 8));
  return { unit, eol };
}

/** `value` as JSON indented with `layout.unit`, every line after the first prefixed by `indent`. */
export function renderJsonValue(value: unknown, layout: JsonLayout, indent: string): string {
  return JSON.stringify(value, null, layout.unit).split('\n').join(`${layout.eol}${indent}`);
}

/** A member to insert: an array element, or an object property. */
export type NewMember = { readonly kind: 'element'; readonly value: unknown } | { readonly kind: 'property'; readonly key: string; readonly value: unknown };

/** One text replacement. */
export interface TextEdit {
  readonly offset: number;
  readonly length: number;
  readonly content: string;
}

/** Apply edits (they must not overlap; insertions at one offset land in the order given). */
export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  let out = text;
  const ordered = edits.map((edit, index) => ({ edit, index })).sort((a, b) => b.edit.offset - a.edit.offset || b.index - a.index);
  for (const { edit } of ordered) {
    out = out.slice(0, edit.offset) + edit.content + out.slice(edit.offset + edit.length);
  }
  return out;
}

/**
 * Edits that append `member` as the last member of `container` (an object or array node of
 * `parseTree(text)`).
 *
 * - Expanded containers get the member on its own line after the last member's line (after any
 *   comment on that line), indented like that member; a comma is added after the previous member
 *   unless the container already uses a trailing comma, in which case the new member gets one too.
 * - Compact containers (last member and closing bracket on one line) get `, member` on that line.
 * - Empty containers get the member on its own line inside them.
 */
export function appendMember(text: string, container: Node, member: NewMember, layout: JsonLayout): TextEdit[] {
  const close = container.offset + container.length - 1;
  const children = container.children ?? [];
  const last = children.at(-1);
  if (last === undefined) {
    const trimmed = text.trim();
    if (!trimmed.includes('\n') && trimmed !== '{}' && trimmed !== '[]') {
      // A one-line document stays on one line.
      const compact = member.kind === 'element' ? JSON.stringify(member.value) : `${JSON.stringify(member.key)}: ${JSON.stringify(member.value)}`;
      return [{ offset: close, length: 0, content: compact }];
    }
    const indent = lineIndent(text, container.offset);
    const inner = indent + layout.unit;
    const rendered = renderMember(member, layout, inner);
    const closeLineStart = lineStart(text, close);
    if (/^[ \t]*$/.test(text.slice(closeLineStart, close)) && closeLineStart > container.offset) {
      // The closing bracket sits on its own line: the member goes on the line before it.
      return [{ offset: closeLineStart, length: 0, content: `${inner}${rendered}${layout.eol}` }];
    }
    return [{ offset: close, length: 0, content: `${layout.eol}${inner}${rendered}${layout.eol}${indent}` }];
  }
  const lastEnd = last.offset + last.length;
  const comma = commaAfter(text, lastEnd);
  const anchor = comma === undefined ? lastEnd : comma + 1;
  if (!text.slice(anchor, close).includes('\n')) {
    const compact = member.kind === 'element' ? JSON.stringify(member.value) : `${JSON.stringify(member.key)}: ${JSON.stringify(member.value)}`;
    return [{ offset: anchor, length: 0, content: comma === undefined ? `, ${compact}` : ` ${compact},` }];
  }
  const indent = lineIndent(text, last.offset);
  const rendered = renderMember(member, layout, indent);
  const edits: TextEdit[] = [];
  if (comma === undefined) edits.push({ offset: lastEnd, length: 0, content: ',' });
  const lineEnd = endOfLineAfter(text, anchor);
  // After a comment that ends the line; at the anchor when the line goes on (e.g. a block comment spanning lines).
  const insertAt = isTrivia(text.slice(anchor, lineEnd)) ? lineEnd : anchor;
  edits.push({ offset: insertAt, length: 0, content: `${layout.eol}${indent}${rendered}${comma === undefined ? '' : ','}` });
  return edits;
}

/**
 * Edits that remove member `index` of `container`. A member on lines of its own loses those lines
 * (with a comment on its last line); an inline member loses itself and one adjoining comma. When
 * the last member of a container without trailing commas goes, the comma after the new last member
 * goes too, so the result stays strict JSON where the input was.
 */
export function removeMember(text: string, container: Node, index: number): TextEdit[] {
  const children = container.children ?? [];
  const node = children[index];
  if (node === undefined) return [];
  const start = node.offset;
  const end = node.offset + node.length;
  const comma = commaAfter(text, end);
  const after = comma === undefined ? end : comma + 1;
  const startOfLine = lineStart(text, start);
  const lineEnd = endOfLineAfter(text, after);
  const ownsLines = /^[ \t]*$/.test(text.slice(startOfLine, start)) && isTrivia(text.slice(after, lineEnd)) && text[lineEnd] !== undefined;
  const isLast = index === children.length - 1;
  const previous = index > 0 ? children[index - 1] : undefined;
  if (children.length === 1 && isTrivia(text.slice(container.offset + 1, start).trim()) && /^\s*$/.test(text.slice(after, container.offset + container.length - 1))) {
    // The only member, with nothing but whitespace around it: the container becomes empty (`[]`, `{}`).
    return [{ offset: container.offset + 1, length: container.length - 2, content: '' }];
  }
  if (ownsLines) {
    const edits: TextEdit[] = [{ offset: startOfLine, length: lineEnd + eolLength(text, lineEnd) - startOfLine, content: '' }];
    if (isLast && comma === undefined && previous !== undefined) {
      const previousComma = commaAfter(text, previous.offset + previous.length);
      if (previousComma !== undefined) edits.push({ offset: previousComma, length: 1, content: '' });
    }
    return edits;
  }
  if (previous !== undefined && (isLast || comma === undefined)) {
    const previousEnd = previous.offset + previous.length;
    return [{ offset: previousEnd, length: end - previousEnd, content: '' }];
  }
  const next = children[index + 1];
  if (next !== undefined) {
    const nextStart = next.offset;
    return [{ offset: start, length: nextStart - start, content: '' }];
  }
  return [{ offset: start, length: after - start, content: '' }];
}

/** Edits that replace the value of a node (a property's value or an array element). */
export function replaceValue(text: string, node: Node, value: unknown, layout: JsonLayout): TextEdit[] {
  const indent = lineIndent(text, node.offset);
  const compact = !text.slice(node.offset, node.offset + node.length).includes('\n');
  const content = compact && node.type !== 'object' && node.type !== 'array' ? JSON.stringify(value) : renderJsonValue(value, layout, indent);
  return [{ offset: node.offset, length: node.length, content }];
}

function renderMember(member: NewMember, layout: JsonLayout, indent: string): string {
  const value = renderJsonValue(member.value, layout, indent);
  return member.kind === 'element' ? value : `${JSON.stringify(member.key)}: ${value}`;
}

/** Offset of the first comma after `offset`, skipping whitespace and comments; undefined when another token comes first. */
function commaAfter(text: string, offset: number): number | undefined {
  const scanner = createScanner(text, false);
  scanner.setPosition(offset);
  for (;;) {
    const token = scanner.scan();
    switch (token) {
      case TOKEN.trivia:
      case TOKEN.lineBreak:
      case TOKEN.lineComment:
      case TOKEN.blockComment:
        continue;
      case TOKEN.comma:
        return scanner.getTokenOffset();
      default:
        return undefined;
    }
  }
}

/** True when `text` is only spaces, tabs and at most one comment. */
function isTrivia(text: string): boolean {
  return /^[ \t]*(\/\/.*|\/\*.*\*\/[ \t]*)?$/.test(text);
}

function lineStart(text: string, offset: number): number {
  const newline = text.lastIndexOf('\n', offset - 1);
  return newline + 1;
}

/** The leading whitespace of the line containing `offset`. */
function lineIndent(text: string, offset: number): string {
  const start = lineStart(text, offset);
  return /^[ \t]*/.exec(text.slice(start))?.[0] ?? '';
}

/** Offset of the end of the line containing `offset` (the `\r` of a CRLF, the `\n`, or the text's end). */
function endOfLineAfter(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset);
  if (newline === -1) return text.length;
  return newline > 0 && text[newline - 1] === '\r' ? newline - 1 : newline;
}

function eolLength(text: string, offset: number): number {
  if (text.startsWith('\r\n', offset)) return 2;
  return text[offset] === '\n' ? 1 : 0;
}
