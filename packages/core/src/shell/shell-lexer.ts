/**
 * A POSIX/bash lexer for the command text of shell tool calls. It is deliberately a lexer, not a full
 * parser: the engine only needs simple commands (words and redirections) split at control operators,
 * with exact source offsets.
 *
 * Why hand-written: `shell-quote` was evaluated first (see docs/heuristics.md, "Shell parsing"). It gives
 * no source offsets, treats newlines as blanks, starts a comment at `#` inside a word (`a#b`), tokenizes
 * `$(…)` as operators, mangles `${A:-x}`, splits `2>&1` so the fd is an argument, and has no heredocs.
 * Heredocs and nested substitutions (Claude Code's `git commit -m "$(cat <<'EOF' … EOF)"`) need a
 * recursive scanner anyway, and the same scanner then yields words for free. `shell-quote` stays as an
 * independent oracle in the property tests.
 *
 * Guarantees: never throws, always terminates (every step consumes input), linear in the input size.
 * Unterminated quotes or substitutions run to the end of the text, as a shell waiting for more input
 * would read them.
 */

/** Operators that end a simple command. `'\n'` is a newline outside quotes. */
export type ControlOperator = '&&' | '||' | ';' | '|' | '|&' | '&' | ';;' | ';&' | ';;&' | '\n' | '(' | ')';

/** Redirection operators. */
export type RedirectOperator = '>' | '>>' | '>|' | '&>' | '&>>' | '<' | '<<' | '<<-' | '<<<' | '<>' | '>&' | '<&';

/** A word after quote removal. */
export interface WordToken {
  readonly kind: 'word';
  /** The word after quote removal. Expansions (`$VAR`, `$(…)`, `` `…` ``) are kept literally. */
  readonly value: string;
  readonly start: number;
  readonly end: number;
  /** True when any part of the word was quoted or escaped. */
  readonly quoted: boolean;
  /** True when the word contains an unquoted or double-quoted expansion or substitution: its runtime value is unknown. */
  readonly dynamic: boolean;
  /** True when the word contains a command or process substitution (`$(…)`, `` `…` ``, `<(…)`). */
  readonly substitution: boolean;
  /** True when the word contains an unquoted glob character (`*`, `?`, `[`). */
  readonly glob: boolean;
}

export interface ControlToken {
  readonly kind: 'control';
  readonly op: ControlOperator;
  readonly start: number;
  readonly end: number;
}

/** A heredoc body (never lexed as commands). */
export interface HeredocBody {
  readonly delimiter: string;
  /** True when the delimiter was quoted (`<<'EOF'`): the body is literal. */
  readonly quoted: boolean;
  readonly body: string;
  readonly start: number;
  readonly end: number;
}

export interface RedirectToken {
  readonly kind: 'redirect';
  readonly op: RedirectOperator;
  /** The file descriptor written before the operator (`2>`), when present. */
  readonly fd?: string;
  readonly start: number;
  readonly end: number;
  /** For `<<`/`<<-`: the body, filled in once the lexer reaches it. */
  heredoc?: HeredocBody;
}

export type ShellToken = WordToken | ControlToken | RedirectToken;

const CONTROL_OPS: readonly ControlOperator[] = [';;&', '&&', '||', ';;', ';&', '|&', ';', '|', '&', '(', ')'];
const REDIRECT_OPS: readonly RedirectOperator[] = [
  '&>>',
  '<<<',
  '<<-',
  '&>',
  '>>',
  '>|',
  '>&',
  '<<',
  '<>',
  '<&',
  '<',
  '>',
];

interface PendingHeredoc {
  readonly token: RedirectToken;
  readonly delimiter: string;
  readonly quoted: boolean;
  readonly stripTabs: boolean;
}

/**
 * The shell language a command is written in. `sh`: POSIX shells (bash, zsh, Git Bash). `powershell`:
 * Windows PowerShell and pwsh, lexed with the same operators (`;`, `|`, `&&`, `||`, redirections)
 * but with PowerShell's quoting: a backslash is an ordinary character (a path separator), and the
 * backtick is the escape character (`` `" ``, and a backtick before a newline continues the line).
 * PowerShell's script blocks and `if (…)` conditions lex as harmless extra words; the commands they
 * run are still separate segments.
 */
export type ShellDialect = 'sh' | 'powershell';

/** Lex `text` into tokens. Comments are dropped; heredoc bodies are attached to their redirect token. */
export function lexShell(text: string, dialect: ShellDialect = 'sh'): ShellToken[] {
  const lexer = new Lexer(text, 0, false, dialect === 'powershell' ? '`' : '\\');
  lexer.run();
  return lexer.tokens;
}

/** The escape character of the dialect: `\` for sh, `` ` `` for PowerShell. */
type EscapeChar = '\\' | '`';

/**
 * Scan a nested command list starting at `pos` (just after `$(`) and return the index just after its
 * closing `)`, or `text.length` when unterminated.
 */
function scanNestedCommand(text: string, pos: number, escape: EscapeChar): number {
  const lexer = new Lexer(text, pos, true, escape);
  return lexer.run();
}

class Lexer {
  readonly tokens: ShellToken[] = [];
  private readonly text: string;
  /** Inside `$(…)`: stop at the unmatched `)`. */
  private readonly nested: boolean;
  private pos: number;
  private parenDepth = 0;
  private pending: PendingHeredoc[] = [];
  private awaitingDelimiter: { token: RedirectToken; stripTabs: boolean } | undefined;
  private readonly escape: EscapeChar;

  constructor(text: string, start: number, nested: boolean, escape: EscapeChar) {
    this.text = text;
    this.pos = start;
    this.nested = nested;
    this.escape = escape;
  }

  /** Lex to the end (or to the closing paren when nested). Returns the position where lexing stopped. */
  run(): number {
    const text = this.text;
    while (this.pos < text.length) {
      const ch = text[this.pos]!;
      if (ch === ' ' || ch === '\t' || ch === '\r') {
        this.pos++;
        continue;
      }
      if (ch === this.escape && text[this.pos + 1] === '\n') {
        this.pos += 2; // line continuation
        continue;
      }
      if (ch === '\n') {
        this.push({ kind: 'control', op: '\n', start: this.pos, end: this.pos + 1 });
        this.pos++;
        this.readHeredocBodies();
        continue;
      }
      if (ch === '#') {
        // A comment only starts a word; mid-word `#` is handled by lexWord.
        const nl = text.indexOf('\n', this.pos);
        this.pos = nl === -1 ? text.length : nl;
        continue;
      }
      // `N>`/`N<`: a file descriptor glued to a redirection.
      const fdMatch = /^(\d+)(?=[<>])/.exec(text.slice(this.pos, this.pos + 12));
      if (fdMatch) {
        const opStart = this.pos + fdMatch[1]!.length;
        const op = matchOp(text, opStart, REDIRECT_OPS);
        if (op) {
          this.pushRedirect(op, this.pos, opStart + op.length, fdMatch[1]);
          continue;
        }
      }
      if ((ch === '<' || ch === '>') && text[this.pos + 1] === '(') {
        this.lexWord(); // process substitution: a word
        continue;
      }
      const redirect = matchOp(text, this.pos, REDIRECT_OPS);
      if (redirect) {
        this.pushRedirect(redirect, this.pos, this.pos + redirect.length, undefined);
        continue;
      }
      const control = matchOp(text, this.pos, CONTROL_OPS);
      if (control) {
        if (control === ')' && this.nested && this.parenDepth === 0) {
          return this.pos + 1;
        }
        if (control === '(') this.parenDepth++;
        if (control === ')' && this.parenDepth > 0) this.parenDepth--;
        this.push({ kind: 'control', op: control, start: this.pos, end: this.pos + control.length });
        this.pos += control.length;
        continue;
      }
      this.lexWord();
    }
    return this.pos;
  }

  private push(token: ShellToken): void {
    if (token.kind === 'control') this.awaitingDelimiter = undefined;
    this.tokens.push(token);
  }

  private pushRedirect(op: RedirectOperator, start: number, end: number, fd: string | undefined): void {
    const token: RedirectToken = fd === undefined ? { kind: 'redirect', op, start, end } : { kind: 'redirect', op, fd, start, end };
    this.push(token);
    this.pos = end;
    if (op === '<<' || op === '<<-') this.awaitingDelimiter = { token, stripTabs: op === '<<-' };
  }

  /** After a newline: consume the bodies of heredocs opened on the line just ended. */
  private readHeredocBodies(): void {
    const text = this.text;
    const pendings = this.pending;
    this.pending = [];
    for (const p of pendings) {
      const bodyStart = this.pos;
      let lineStart = this.pos;
      let bodyEnd = text.length;
      let next = text.length;
      while (lineStart < text.length) {
        const nl = text.indexOf('\n', lineStart);
        const lineEnd = nl === -1 ? text.length : nl;
        let line = text.slice(lineStart, lineEnd);
        if (p.stripTabs) line = line.replace(/^\t+/, '');
        if (line.endsWith('\r')) line = line.slice(0, -1);
        if (line === p.delimiter) {
          bodyEnd = lineStart;
          next = nl === -1 ? text.length : nl + 1;
          break;
        }
        if (this.nested && line.startsWith(p.delimiter) && /^\s*\)/.test(line.slice(p.delimiter.length))) {
          // `EOF)` closing a `$(cat <<EOF` on the delimiter line.
          bodyEnd = lineStart;
          next = lineStart + text.slice(lineStart, lineEnd).indexOf(p.delimiter) + p.delimiter.length;
          break;
        }
        lineStart = nl === -1 ? text.length : nl + 1;
      }
      p.token.heredoc = {
        delimiter: p.delimiter,
        quoted: p.quoted,
        body: text.slice(bodyStart, bodyEnd),
        start: bodyStart,
        end: bodyEnd,
      };
      this.pos = next;
      if (this.pos >= text.length) break;
    }
    // Bodies not reached (text ended) still get an empty body so consumers see the heredoc.
    for (const p of pendings) {
      if (!p.token.heredoc) {
        p.token.heredoc = { delimiter: p.delimiter, quoted: p.quoted, body: '', start: text.length, end: text.length };
      }
    }
  }

  private lexWord(): void {
    const text = this.text;
    const start = this.pos;
    let value = '';
    let quoted = false;
    let dynamic = false;
    let substitution = false;
    let glob = false;
    loop: while (this.pos < text.length) {
      const ch = text[this.pos]!;
      switch (ch) {
        case ' ':
        case '\t':
        case '\r':
        case '\n':
        case ';':
        case '&':
        case '|':
          break loop;
        case '<':
        case '>':
          if (text[this.pos + 1] === '(') {
            const end = scanNestedCommand(text, this.pos + 2, this.escape);
            value += text.slice(this.pos, end);
            this.pos = end;
            substitution = true;
            dynamic = true;
            continue;
          }
          break loop;
        case '(':
          if (value.endsWith('=') && /^[A-Za-z_][A-Za-z0-9_]*\+?=$/.test(value)) {
            // Array assignment `a=(x y)`.
            const end = scanBalanced(text, this.pos, '(', ')', this.escape);
            value += text.slice(this.pos, end);
            this.pos = end;
            continue;
          }
          break loop;
        case ')':
          break loop;
        case '\\':
        case '`': {
          if (ch !== this.escape) {
            if (ch === '`') {
              const end = scanBackticks(text, this.pos + 1, this.escape);
              value += text.slice(this.pos, end);
              this.pos = end;
              dynamic = true;
              substitution = true;
            } else {
              value += ch;
              this.pos++;
            }
            continue;
          }
          const next = text[this.pos + 1];
          if (next === undefined) {
            value += ch;
            this.pos++;
          } else if (next === '\n') {
            this.pos += 2;
          } else {
            value += next;
            quoted = true;
            this.pos += 2;
          }
          continue;
        }
        case "'": {
          const close = text.indexOf("'", this.pos + 1);
          const end = close === -1 ? text.length : close;
          value += text.slice(this.pos + 1, end);
          quoted = true;
          this.pos = close === -1 ? text.length : close + 1;
          continue;
        }
        case '"': {
          const r = this.lexDoubleQuoted(this.pos + 1);
          value += r.value;
          quoted = true;
          dynamic ||= r.dynamic;
          substitution ||= r.substitution;
          continue;
        }
        case '$': {
          const r = this.lexDollar();
          value += r.value;
          dynamic ||= r.dynamic;
          substitution ||= r.substitution;
          quoted ||= r.quoted;
          continue;
        }
        case '*':
        case '?':
        case '[':
          glob = true;
          value += ch;
          this.pos++;
          continue;
        default:
          value += ch;
          this.pos++;
      }
    }
    if (this.pos === start) {
      // Defensive: an unexpected character that no branch consumed.
      value += text[this.pos] ?? '';
      this.pos++;
    }
    const token: WordToken = { kind: 'word', value, start, end: this.pos, quoted, dynamic, substitution, glob };
    this.push(token);
    if (this.awaitingDelimiter) {
      const { token: redirect, stripTabs } = this.awaitingDelimiter;
      this.awaitingDelimiter = undefined;
      this.pending.push({ token: redirect, delimiter: value, quoted, stripTabs });
    }
  }

  /** `$…` outside double quotes. */
  private lexDollar(): { value: string; dynamic: boolean; substitution: boolean; quoted: boolean } {
    const text = this.text;
    const next = text[this.pos + 1];
    if (next === "'") {
      // ANSI-C quoting.
      const r = scanAnsiC(text, this.pos + 2);
      this.pos = r.end;
      return { value: r.value, dynamic: false, substitution: false, quoted: true };
    }
    if (next === '"') {
      this.pos += 1; // `$"…"` behaves like "…"
      const r = this.lexDoubleQuoted(this.pos + 1);
      return { value: r.value, dynamic: r.dynamic, substitution: r.substitution, quoted: true };
    }
    return this.lexExpansion();
  }

  /** `$(…)`, `$((…))`, `${…}`, `$name`, `$1`, `$?`… : returned verbatim. */
  private lexExpansion(): { value: string; dynamic: boolean; substitution: boolean; quoted: boolean } {
    const text = this.text;
    const start = this.pos;
    const next = text[this.pos + 1];
    if (next === '(' && text[this.pos + 2] === '(') {
      const end = scanBalanced(text, this.pos + 1, '(', ')', this.escape);
      this.pos = end;
      return { value: text.slice(start, end), dynamic: true, substitution: false, quoted: false };
    }
    if (next === '(') {
      const end = scanNestedCommand(text, this.pos + 2, this.escape);
      this.pos = end;
      return { value: text.slice(start, end), dynamic: true, substitution: true, quoted: false };
    }
    if (next === '{') {
      const end = scanBalanced(text, this.pos + 1, '{', '}', this.escape);
      this.pos = end;
      return { value: text.slice(start, end), dynamic: true, substitution: false, quoted: false };
    }
    const m = /^\$(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]|[@*#?$!-])/.exec(text.slice(this.pos, this.pos + 256));
    if (m) {
      this.pos += m[0].length;
      return { value: m[0], dynamic: true, substitution: false, quoted: false };
    }
    this.pos++;
    return { value: '$', dynamic: false, substitution: false, quoted: false };
  }

  /** Body of "…" starting at `pos` (after the opening quote). Moves past the closing quote. */
  private lexDoubleQuoted(pos: number): { value: string; dynamic: boolean; substitution: boolean } {
    const text = this.text;
    this.pos = pos;
    let value = '';
    let dynamic = false;
    let substitution = false;
    while (this.pos < text.length) {
      const ch = text[this.pos]!;
      if (ch === '"') {
        this.pos++;
        return { value, dynamic, substitution };
      }
      if (ch === '`' && this.escape === '`') {
        // PowerShell: the backtick escapes the next character; before a newline it continues the line.
        const next = text[this.pos + 1];
        if (next !== undefined && next !== '\n') value += next;
        this.pos += next === undefined ? 1 : 2;
        continue;
      }
      if (ch === '\\' && this.escape === '\\') {
        const next = text[this.pos + 1];
        if (next === '\n') {
          this.pos += 2;
        } else if (next === '$' || next === '`' || next === '"' || next === '\\') {
          value += next;
          this.pos += 2;
        } else {
          value += '\\';
          this.pos++;
        }
        continue;
      }
      if (ch === '`') {
        const end = scanBackticks(text, this.pos + 1, this.escape);
        value += text.slice(this.pos, end);
        this.pos = end;
        dynamic = true;
        substitution = true;
        continue;
      }
      if (ch === '$') {
        const r = this.lexExpansion();
        value += r.value;
        dynamic ||= r.dynamic;
        substitution ||= r.substitution;
        continue;
      }
      value += ch;
      this.pos++;
    }
    return { value, dynamic, substitution };
  }
}

function matchOp<T extends string>(text: string, pos: number, ops: readonly T[]): T | undefined {
  for (const op of ops) {
    if (text.startsWith(op, pos)) return op;
  }
  return undefined;
}

/** From an opening `open` at `pos`, return the index after its matching `close` (quotes respected). */
function scanBalanced(text: string, pos: number, open: string, close: string, escape: EscapeChar): number {
  let depth = 0;
  let i = pos;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === escape) {
      i += 2;
      continue;
    }
    if (ch === "'") {
      const c = text.indexOf("'", i + 1);
      i = c === -1 ? text.length : c + 1;
      continue;
    }
    if (ch === '"') {
      i = scanDoubleQuotedEnd(text, i + 1, escape);
      continue;
    }
    if (ch === '$' && text[i + 1] === '(' && open !== '(') {
      i = scanNestedCommand(text, i + 2, escape);
      continue;
    }
    if (ch === open) depth++;
    else if (ch === close) {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return text.length;
}

function scanDoubleQuotedEnd(text: string, pos: number, escape: EscapeChar): number {
  let i = pos;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === escape) {
      i += 2;
      continue;
    }
    if (ch === '"') return i + 1;
    if (ch === '$' && text[i + 1] === '(') {
      i = scanNestedCommand(text, i + 2, escape);
      continue;
    }
    if (ch === '`') {
      i = scanBackticks(text, i + 1, escape);
      continue;
    }
    i++;
  }
  return text.length;
}

/** From just after an opening backtick, return the index after the closing one. */
function scanBackticks(text: string, pos: number, escape: EscapeChar): number {
  let i = pos;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === escape) {
      i += 2;
      continue;
    }
    if (ch === '`') return i + 1;
    i++;
  }
  return text.length;
}

const ANSI_ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

function scanAnsiC(text: string, pos: number): { value: string; end: number } {
  let value = '';
  let i = pos;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === "'") return { value, end: i + 1 };
    if (ch === '\\' && i + 1 < text.length) {
      const next = text[i + 1]!;
      value += ANSI_ESCAPES[next] ?? `\\${next}`;
      i += 2;
      continue;
    }
    value += ch;
    i++;
  }
  return { value, end: text.length };
}
