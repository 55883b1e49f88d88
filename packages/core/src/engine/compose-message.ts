import { dirname } from 'node:path';
import { forMarkdownCode, forModelText, forShellArg, hasControlCharacters } from '../text-safety/text-safety.ts';
import type { ResolvedConfig } from '../config/config-schema.ts';
import { categorizeFiles, isDocsOnly, type Categorization } from './categorize-files.ts';
import type { AttributedFile, CheckpointResult } from './checkpoint-result.ts';
import { CLI_USER_COMMANDS, type UserCommands } from './user-commands.ts';

/** Options of {@link composeMessage}. */
export interface ComposeMessageOptions {
  /** The session id, substituted for `{sessionId}` in the escape hatch. */
  readonly sessionId?: string;
  /**
   * Absolute path of this session's off-switch file (`<state dir>/switches/session-<id>.off`),
   * substituted for `{offFile}` and used by `{offCommand}`. An agent can create it with its own shell
   * tool — it cannot set the hook's environment, and `agent-checkpoint-hook` may not be on its PATH.
   */
  readonly offFile?: string;
  /** How a person runs our commands on the route that delivers the message (default: the CLI on the PATH). */
  readonly commands?: UserCommands;
  /**
   * The hook's own test run (`runTests`, opt-in): its headline goes under the header, the failing
   * output after the actions.
   */
  readonly tests?: { readonly headline: string; readonly outputTail?: string };
  /** Context lines (`context.enabled`, opt-in): their own section before the reminder. */
  readonly contextLines?: readonly string[];
  /**
   * The files' categorization, when the caller already has it: it must be
   * `categorizeFiles(files.map((f) => f.file.path), config)` (what `runHeuristics` was given), so the
   * files are not sorted again. Computed here when absent.
   */
  readonly categorization?: Categorization;
}

/** How many file names the "Changed:" line lists when no category matched. */
const MAX_LISTED_FILES = 5;

/**
 * Render the checkpoint message (seed R9), or undefined to stay silent.
 *
 * Layout of the actionable message, sections separated by a blank line:
 * 1. prefix + header;
 * 2. `Changed: <category labels>` (configuration order), or a short file list when no category matched;
 * 3. actions header and numbered actions in precedence order, then the footer steps (only with actions);
 * 4. observations header and `- <observation>` lines (only with observations);
 * With the opt-ins: a test run's headline is the second line of section 1 and its failing output a
 * fenced block after the actions; context lines are a section before the reminder.
 * 5. the reminder; 6. the capture reminder (`messages.capture`, when set); 7. the escape hatch (`{sessionId}`, `{offFile}` and `{offCommand}` substituted,
 *    see {@link renderEscapeHatch}).
 *
 * Only docs changed (or nothing): silent, or prefix + `noChanges` + capture + escape hatch when
 * `silentWhenNoChanges` is false. All clear: silent, or prefix + `allClear` + capture + escape hatch
 * when `silentWhenAllClear` is false. Same inputs always give the same bytes.
 */
export function composeMessage(
  result: CheckpointResult,
  files: readonly AttributedFile[],
  config: ResolvedConfig,
  options: ComposeMessageOptions = {},
): string | undefined {
  const m = config.messages;
  const hatch = renderEscapeHatch(m.escapeHatch, options.sessionId, options.offFile, options.commands);
  const categorization = options.categorization ?? categorizeFiles(files.map((f) => f.file.path), config);
  const context = (options.contextLines ?? []).join('\n');
  // The no-change policy comes first: a turn that changed nothing stays silent even with a capture
  // line configured, so a turn that only read and answered is never blocked to be asked to capture.
  if (isDocsOnly(categorization)) {
    return config.silentWhenNoChanges ? undefined : joinSections([`${m.prefix}${m.noChanges}`, context, m.capture, hatch]);
  }
  if (result.isAllClear) {
    return config.silentWhenAllClear ? undefined : joinSections([`${m.prefix}${m.allClear}`, context, m.capture, hatch]);
  }
  const header = `${m.prefix}${m.header}`.trimEnd();
  const sections: string[] = [options.tests ? `${header}\n${options.tests.headline}` : header];
  const summary = changedSummary(result, categorization);
  if (summary !== '') sections.push(`${m.changedLabel} ${summary}`.trim());
  if (result.requiredActions.length > 0) {
    const steps = [...result.requiredActions.map((a) => a.text), ...m.actionsFooter];
    sections.push([m.actionsHeader, ...steps.map((s, i) => `${i + 1}. ${s}`)].filter((l) => l !== '').join('\n'));
  }
  if (options.tests?.outputTail !== undefined && options.tests.outputTail !== '') sections.push(fenced(options.tests.outputTail));
  if (result.observations.length > 0) {
    sections.push([m.observationsHeader, ...result.observations.map((o) => `- ${o.text}`)].filter((l) => l !== '').join('\n'));
  }
  sections.push(context, m.reminder, m.capture, hatch);
  return joinSections(sections);
}

/**
 * A message made only of context lines (a handoff level reached in a turn that is otherwise silent):
 * prefix + the lines + the escape hatch.
 */
export function composeContextMessage(lines: readonly string[], config: ResolvedConfig, options: ComposeMessageOptions = {}): string {
  const m = config.messages;
  return joinSections([`${m.prefix}${lines.join('\n')}`, renderEscapeHatch(m.escapeHatch, options.sessionId, options.offFile, options.commands)]);
}

/** A fenced code block longer than any backtick run inside `text`, so it cannot be closed early. */
function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((r) => r[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${text}\n${fence}`;
}

/** The fail-open fallback: prefix + generic text. */
export function composeGenericMessage(config: ResolvedConfig): string {
  return forModelText(`${config.messages.prefix}${config.messages.generic}`);
}

/**
 * The escape hatch with its placeholders substituted:
 * - `{sessionId}`: the session id (`<session-id>` when unknown);
 * - `{offFile}`: the absolute path of the session's off-switch file;
 * - `{offCommand}`: a shell command that creates it, `mkdir -p '<dir>' && touch '<file>'` (paths
 *   single-quoted), which an agent can run with its own shell tool. Without an off file (no session id
 *   or no state directory) it falls back to the person's command;
 * - `{personOffCommand}`: the command a person runs to turn this session off, as the route spells it
 *   (`commands.offSession`; default `agent-checkpoint-hook off --session <id>`).
 */
export function renderEscapeHatch(template: string, sessionId: string | undefined, offFile?: string, commands: UserCommands = CLI_USER_COMMANDS): string {
  const id = sessionId && sessionId !== '' ? sessionId : '<session-id>';
  // The id comes from the agent's payload and ends up in commands the agent is asked to run: any id
  // that is not a plain word is single-quoted, so a shell never interprets it.
  const idWord = sessionId && sessionId !== '' ? shellWord(sessionId) : id;
  const file = offFile !== undefined && offFile !== '' ? offFile : undefined;
  const personCommand = commands.offSession.replaceAll('{sessionId}', () => idWord);
  const command = file === undefined ? personCommand : `mkdir -p ${shellQuote(dirname(file))} && touch ${shellQuote(file)}`;
  // Replacer functions: a replacement string would give `$$`, `$&`, `$'`… in ids and paths a meaning.
  return template
    .replaceAll('{sessionId}', () => idWord)
    .replaceAll('{offFile}', () => file ?? `<state dir>/switches/session-${id}.off`)
    .replaceAll('{offCommand}', () => command)
    .replaceAll('{personOffCommand}', () => personCommand);
}

/**
 * POSIX single quotes: the only character needing care inside them is the quote itself. Control
 * characters are spelled out by {@link forShellArg}, so the command shows none and the message
 * sanitizer cannot change what it does.
 */
function shellQuote(text: string): string {
  return hasControlCharacters(text) ? forShellArg(text) : `'${text.replaceAll("'", "'\\''")}'`;
}

/** `text` as one shell word: unchanged when it holds no shell syntax (UUIDs, ids), else quoted. */
function shellWord(text: string): string {
  return forShellArg(text);
}

function changedSummary(result: CheckpointResult, categorization: Categorization): string {
  if (result.categories.length > 0) return result.categories.map((c) => c.label).join(', ');
  const unique = [...new Set([...categorization.uncategorized, ...categorization.matched.flatMap((x) => x.files)])].sort();
  if (unique.length === 0) return '';
  // A file name can hold backticks and line breaks: one code span, on one line, whatever it holds.
  const shown = unique.slice(0, MAX_LISTED_FILES).map((p) => forMarkdownCode(p));
  const more = unique.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

/**
 * The message as the model will read it: control characters from any source (file names, a test
 * run's output, configured texts with ESC or BEL, the session id) escaped visibly, lines kept.
 */
function joinSections(sections: readonly string[]): string {
  return forModelText(sections.filter((s) => s.trim() !== '').join('\n\n'));
}
