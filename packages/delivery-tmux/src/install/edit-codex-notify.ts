import { basename, isAbsolute } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parse, TomlError } from 'smol-toml';
import { scanTomlTopLevel, simpleKey, type TopLevelStatement } from './scan-toml-top-level.ts';

/**
 * Setting Codex's top-level `notify` in `config.toml` by a minimal text edit: only the `notify`
 * statement changes (or one line is added or removed); comments, order, quoting and spacing of
 * everything else stay byte for byte. The document is never re-serialized: smol-toml parses it
 * before and after, and the edit is refused unless the result parses to the same data with only
 * `notify` changed.
 *
 * A previous `notify` program is chained, not replaced: `["prog", "arg"]` becomes
 * `[<node>, <agent-checkpoint-tmux.mjs>, "--", "prog", "arg"]`, the argv contract of
 * `agent-checkpoint-tmux` (it starts the program after `--` with the same payload).
 */

export type NotifyEditResult =
  | {
      readonly ok: true;
      readonly text: string;
      /** `notify` before the edit (undefined: not set). */
      readonly before?: readonly string[];
      /** `notify` after the edit (undefined: removed). */
      readonly after?: readonly string[];
      /** The chained previous program (empty when none). */
      readonly chain: readonly string[];
    }
  | { readonly ok: false; readonly error: string };

/**
 * The `--name=value` options and chain of a notify argv that an install of ours wrote; undefined when
 * it is anything else. Ours is exactly what install writes (issue 12 class 4): the part before the
 * first `--` is either recorded in the install record (`recorded`: the JSON of each head we wrote,
 * exact match), or has our form — a Node executable, the absolute path of `agent-checkpoint-tmux.mjs`,
 * then only `--name[=value]` options. A user's wrapper that merely names our program (a script taking
 * it as an argument, `bash -c '…agent-checkpoint-tmux…'`, `time node …`) is the user's: install chains
 * it and uninstall keeps it.
 */
export function readOurNotify(
  argv: readonly string[],
  recorded: readonly string[] = [],
): { readonly options: readonly string[]; readonly chain: readonly string[] } | undefined {
  const dashDash = argv.indexOf('--');
  const head = dashDash === -1 ? argv : argv.slice(0, dashDash);
  if (!recorded.includes(notifyHeadKey(head)) && !isOurNotifyForm(head)) return undefined;
  return { options: head.slice(2), chain: dashDash === -1 ? [] : argv.slice(dashDash + 1) };
}

/** How a head we wrote is kept in the install record's `commands`: its JSON. */
export function notifyHeadKey(head: readonly string[]): string {
  return JSON.stringify(head);
}

/** The part of a notify argv before the first `--`: our program and its options, when it is ours. */
export function notifyHead(argv: readonly string[]): readonly string[] {
  const dashDash = argv.indexOf('--');
  return dashDash === -1 ? argv : argv.slice(0, dashDash);
}

/** `[<node>, <abs>/agent-checkpoint-tmux.mjs, --opt=value…]`, as install and `install --print` write it. */
function isOurNotifyForm(head: readonly string[]): boolean {
  const [node, bundle, ...options] = head;
  if (node === undefined || bundle === undefined) return false;
  if (!NODE_NAME.test(basename(node)) || !isAbsolute(bundle) || basename(bundle) !== OUR_BUNDLE_NAME) return false;
  return options.every((o) => OPTION.test(o));
}

const OUR_BUNDLE_NAME = 'agent-checkpoint-tmux.mjs';
/** `node`, `nodejs`, `node20`, `node.exe`: the executable install registers (absolute, or bare in a hand-written line). */
const NODE_NAME = /^node(?:js)?(?:[-.]?\d[\w.]*)?(?:\.exe)?$/i;
const OPTION = /^--[A-Za-z][\w-]*(?:=.*)?$/s;

/** Whether an argument names our notify program at all: only to tell the user about a wrapper of theirs, never to decide what is ours. */
export function isOurProgram(arg: string): boolean {
  return /^agent-checkpoint-tmux(\.m?js)?$/.test(basename(arg));
}

/**
 * `text` (undefined: no config.toml yet) with `notify` running `program`, chaining any previous
 * program that is not ours (`recorded`: see {@link readOurNotify}).
 */
export function installNotify(text: string | undefined, program: readonly string[], recorded: readonly string[] = []): NotifyEditResult {
  const source = text ?? '';
  const read = readNotify(source);
  if (!read.ok) return read;
  const { before, statement } = read;
  const ours = before === undefined ? undefined : readOurNotify(before, recorded);
  const chain = ours !== undefined ? ours.chain : (before ?? []);
  const after = [...program, ...(ours?.options ?? []), ...(chain.length > 0 ? ['--', ...chain] : [])];
  if (before !== undefined && isDeepStrictEqual(before, after)) return { ok: true, text: source, before, after, chain };
  const edited = statement === undefined ? insertStatement(source, `notify = ${renderArray(after)}`) : replaceValue(source, statement, renderArray(after));
  return verified(source, edited, before, after, chain);
}

/**
 * `text` with our program taken out of `notify`: the chained program becomes `notify` again (its
 * original text when `originalText` — the file before install — shows it), or the statement is
 * removed when nothing was chained.
 */
export function uninstallNotify(text: string, originalText?: string, recorded: readonly string[] = []): NotifyEditResult {
  const read = readNotify(text);
  if (!read.ok) return read;
  const { before, statement } = read;
  const ours = before === undefined ? undefined : readOurNotify(before, recorded);
  if (before === undefined || statement === undefined || ours === undefined) return { ok: true, text, ...(before === undefined ? {} : { before, after: before }), chain: [] };
  if (ours.chain.length === 0) return verified(text, removeStatement(text, statement), before, undefined, []);
  const original = originalText === undefined ? undefined : readNotify(originalText);
  const originalValue =
    original?.ok === true && original.statement !== undefined && isDeepStrictEqual(original.before, ours.chain)
      ? originalText!.slice(original.statement.valueStart, original.statement.valueEnd)
      : renderArray(ours.chain);
  return verified(text, replaceValue(text, statement, originalValue), before, ours.chain, ours.chain);
}

/** The current top-level `notify` and its statement. */
export function readNotify(text: string): { ok: true; before?: readonly string[]; statement?: TopLevelStatement } | { ok: false; error: string } {
  let doc: Record<string, unknown>;
  try {
    doc = parse(text) as Record<string, unknown>;
  } catch (error) {
    return { ok: false, error: describeTomlError(error) };
  }
  const value = doc['notify'];
  if (value === undefined) return { ok: true };
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return { ok: false, error: '`notify` is not an array of strings' };
  const statement = scanTomlTopLevel(text).statements.find((s) => simpleKey(s.rawKey) === 'notify');
  if (statement === undefined) return { ok: false, error: '`notify` is set in a form this installer does not edit (e.g. a dotted key)' };
  return { ok: true, before: value as string[], statement };
}

/** A TOML array of basic strings, on one line (JSON string escapes are valid TOML basic-string escapes). */
export function renderArray(values: readonly string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(', ')}]`;
}

function replaceValue(text: string, statement: TopLevelStatement, value: string): string {
  return text.slice(0, statement.valueStart) + value + text.slice(statement.valueEnd);
}

/**
 * Insert a top-level statement: after the last top-level statement's line, else before the first
 * table (after any comment lines that open the file), else at the end.
 */
function insertStatement(text: string, line: string): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const { statements, sectionEnd } = scanTomlTopLevel(text);
  const last = statements.at(-1);
  if (last !== undefined) {
    const at = last.lineEnd;
    return `${text.slice(0, at)}${eol}${line}${text.slice(at)}`;
  }
  if (text === '') return `${line}${eol}`;
  if (sectionEnd === text.length) return text.endsWith('\n') ? `${text}${line}${eol}` : `${text}${eol}${line}`;
  // Before the first table; keep a blank line between our line and it.
  return `${text.slice(0, sectionEnd)}${line}${eol}${eol}${text.slice(sectionEnd)}`;
}

/** The edit, if it parses and changes nothing but `notify`. */
function verified(
  source: string,
  edited: string,
  before: readonly string[] | undefined,
  after: readonly string[] | undefined,
  chain: readonly string[],
): NotifyEditResult {
  let doc: Record<string, unknown>;
  let original: Record<string, unknown>;
  try {
    doc = parse(edited) as Record<string, unknown>;
    original = parse(source) as Record<string, unknown>;
  } catch (error) {
    return { ok: false, error: `the edit would not parse (${describeTomlError(error)}); nothing was changed` };
  }
  const { notify: newNotify, ...rest } = doc;
  const { notify: _oldNotify, ...originalRest } = original;
  if (!isDeepStrictEqual(newNotify, after === undefined ? undefined : [...after]) || !isDeepStrictEqual(rest, originalRest)) {
    return { ok: false, error: 'the edit would change more than `notify`; nothing was changed' };
  }
  return { ok: true, text: edited, ...(before === undefined ? {} : { before }), ...(after === undefined ? {} : { after }), chain };
}

/**
 * Remove a statement's lines. Undoes {@link insertStatement}: the newline that joined it to the text
 * before it goes too when it was the last line, and the blank line it kept before a table goes when
 * was the only top-level statement.
 */
function removeStatement(text: string, statement: TopLevelStatement): string {
  let start = statement.lineStart;
  let end = nextLineStart(text, statement.lineEnd);
  if (end === statement.lineEnd && start > 0) start -= text[start - 2] === '\r' ? 2 : 1;
  else if (scanTomlTopLevel(text).statements[0]?.lineStart === statement.lineStart && /^\r?\n\[/.test(text.slice(end))) end = nextLineStart(text, end);
  return text.slice(0, start) + text.slice(end);
}

function nextLineStart(text: string, lineEnd: number): number {
  if (text.startsWith('\r\n', lineEnd)) return lineEnd + 2;
  return text[lineEnd] === '\n' ? lineEnd + 1 : lineEnd;
}

function describeTomlError(error: unknown): string {
  if (error instanceof TomlError) return `${error.line}:${error.column}: ${error.message.split('\n')[0] ?? 'syntax error'}`;
  return error instanceof Error ? error.message : String(error);
}
