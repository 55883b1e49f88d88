/*
 * One sanitizer per boundary where untrusted text (file names, transcript excerpts, configured message
 * texts, ids) meets a reader (issue 12, class 3):
 * - {@link forModelText}: prose the model reads (the block reason, the session-start context);
 * - {@link forModelName}: one name inside such prose (a file name, an id);
 * - {@link forMarkdownCode} / {@link forMarkdownLine}: a Markdown file we write (the memory file's
 *   `## Last Session`, handoff documents);
 * - {@link forTerminal}: what a person's terminal shows (`explain`, stderr diagnostics);
 * - {@link forShellArg}: one word of a shell command we ask someone to run.
 *
 * "Control characters" here: C0 (U+0000–U+001F), DEL, C1 (U+0080–U+009F, where U+009B is a one-byte
 * CSI), Unicode line/paragraph separators, bidirectional overrides and isolates (they reorder what a
 * reader sees: "Trojan Source"), and lone surrogates. They are never dropped silently: each becomes a
 * visible escape (`\x1b`, `\u202e`, `\r`), so a reader can tell something was there.
 */

/** Every character the sanitizers escape, LF and TAB included (callers decide whether to keep those). */
// oxlint-disable-next-line no-control-regex -- matching control characters is this regex's whole job
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** True when `text` holds a character {@link escapeControls} would escape (LF and TAB count). */
export function hasControlCharacters(text: string): boolean {
  CONTROL.lastIndex = 0;
  const found = CONTROL.test(text);
  CONTROL.lastIndex = 0;
  return found;
}

/** The visible escape of one control character: `\n`, `\r`, `\t`, `\x1b`, `\u202e`. */
function escapeOne(char: string): string {
  switch (char) {
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\t':
      return '\\t';
    default: {
      const code = char.charCodeAt(0);
      return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
    }
  }
}

/**
 * Escape control characters. `keepLines: true` keeps LF (and TAB) as they are — the text stays
 * multi-line — while CR, lone or in CRLF, is escaped (a terminal would return to the line start; a
 * Markdown or model reader would see a line break we did not write). CRLF becomes LF first.
 */
export function escapeControls(text: string, options: { readonly keepLines: boolean }): string {
  const source = options.keepLines ? text.replace(/\r\n/g, '\n') : text;
  return source.replace(CONTROL, (char) => (options.keepLines && (char === '\n' || char === '\t') ? char : escapeOne(char)));
}

/**
 * Prose for the model (a block reason, an injected context): control characters escaped, line
 * breaks (LF) and tabs kept. Idempotent on its own output.
 */
export function forModelText(text: string): string {
  return escapeControls(text, { keepLines: true });
}

/**
 * One name (a file path, an id) inside model prose or a diagnostic: unchanged when it holds no control
 * character; otherwise JSON-quoted with its control characters escaped, so a name with a line break
 * reads as one quoted name and cannot start a line of its own.
 */
export function forModelName(name: string): string {
  if (!hasControlCharacters(name)) return name;
  return `"${escapeControls(name.replaceAll('\\', '\\\\').replaceAll('"', '\\"'), { keepLines: false })}"`;
}

/**
 * Inline code in a Markdown file: one line (control characters and line breaks escaped), fenced with
 * one backtick more than the longest backtick run inside (CommonMark), padded when the content starts
 * or ends with a backtick or is empty. Nothing inside can close the span or start a block.
 */
export function forMarkdownCode(text: string): string {
  const line = escapeControls(text, { keepLines: false });
  const longest = Math.max(0, ...[...line.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = line.startsWith('`') || line.endsWith('`') || line === '' || /^ .* $/.test(line) ? ' ' : '';
  return `${fence}${pad}${line}${pad}${fence}`;
}

/**
 * One line of plain text in a Markdown file: control characters and line breaks escaped, leading
 * spaces removed (four would make a code block), and a character that would open a block at the start
 * of a line (`#` heading, `>` quote, `-`/`+`/`*` list or rule, `=` setext underline, fences, `|`
 * table, `<` HTML, `1.` / `1)` ordered list) backslash-escaped. The result is one line that
 * renders as a paragraph's text.
 */
export function forMarkdownLine(text: string): string {
  const line = escapeControls(text, { keepLines: false }).replace(/^\s+/, '');
  const ordered = /^(\d{1,9})([.)])/.exec(line);
  if (ordered !== null) return `${ordered[1]}\\${line.slice(ordered[1]!.length)}`;
  return /^[#>\-+*=`~|<_]/.test(line) ? `\\${line}` : line;
}

/**
 * Text for a person's terminal: every control character escaped (ESC, so no escape sequence can
 * recolour, move the cursor, set the title or write the clipboard; C1 including the one-byte CSI; CR;
 * BEL; bidirectional overrides). `keepLines` (default true) keeps LF and TAB.
 */
export function forTerminal(text: string, options: { readonly keepLines?: boolean } = {}): string {
  return escapeControls(text, { keepLines: options.keepLines ?? true });
}

/**
 * One POSIX shell word that a shell passes as exactly `text`:
 * - unchanged when it holds only characters without shell meaning (UUIDs, plain paths);
 * - otherwise single-quoted (`'` written as `'\''`);
 * - control characters other than LF are written as `"$(printf '\ooo')"` (octal bytes of their UTF-8
 *   form), so the command itself holds none — plain POSIX, no `$'…'`, which `dash` lacks. LF stays
 *   literal inside the quotes: a command substitution would drop it. NUL cannot be an argument at all
 *   and is dropped.
 */
export function forShellArg(text: string): string {
  if (text !== '' && /^[A-Za-z0-9._:@%+=,/-]+$/.test(text)) return text;
  let out = '';
  let quoted = '';
  const flush = (): void => {
    if (quoted !== '') out += `'${quoted.replaceAll("'", "'\\''")}'`;
    quoted = '';
  };
  for (const char of text) {
    if (char === '\0') continue;
    if (char !== '\n' && hasControlCharacters(char)) {
      flush();
      const octal = [...Buffer.from(char, 'utf8')].map((byte) => `\\${byte.toString(8).padStart(3, '0')}`).join('');
      out += `"$(printf '${octal}')"`;
      continue;
    }
    quoted += char;
  }
  flush();
  return out === '' ? "''" : out;
}

/**
 * Serialized JSON that is also safe to print or `cat` on a terminal: `JSON.stringify` escapes C0
 * controls but leaves DEL, C1 (a one-byte CSI), Unicode separators and bidi controls raw; those
 * become `\uXXXX` escapes too. The result parses to the same value.
 */
export function jsonForTerminal(json: string): string {
  return json.replace(/[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
