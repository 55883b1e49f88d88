import type { ClaudeUserEntry } from './parse-claude-entry.ts';

/**
 * What a `type:"user"` entry is, for turn detection.
 *
 * - `prompt`: a genuine prompt that opens a turn (typed, `-p`, or a background-task notification).
 * - `checkpoint`: one of our own checkpoint messages (Stop-hook feedback carrying our prefix, or a
 *   message starting with it). Never a boundary; counted in `checkpointsDelivered`.
 * - `tool-results`: only `tool_result` blocks.
 * - `meta`: `isMeta` (hook feedback from other hooks, `<local-command-caveat>`, skill expansions…).
 * - `compact-summary`: the summary written after a compaction (`isCompactSummary` /
 *   `isVisibleInTranscriptOnly`).
 * - `command-echo`: a slash-command or `!`-bash echo (`<command-name>`, `<local-command-stdout>`…).
 * - `interrupt`: Claude's `[Request interrupted by user…]` marker.
 * - `empty`: no text and no tool result.
 */
export type ClaudeUserEntryRole =
  | 'prompt'
  | 'checkpoint'
  | 'tool-results'
  | 'meta'
  | 'compact-summary'
  | 'command-echo'
  | 'interrupt'
  | 'empty';

/** Header Claude puts in front of a Stop hook's blocking reason (JSON block and exit-2 forms). */
export const STOP_HOOK_FEEDBACK_HEADER = 'Stop hook feedback:\n';

/** Tags Claude writes for local slash commands and `!` bash mode. Such entries are never prompts. */
const COMMAND_ECHO_PREFIXES: readonly string[] = [
  '<command-name>',
  '<command-message>',
  '<command-args>',
  '<local-command-stdout>',
  '<local-command-stderr>',
  '<local-command-caveat>',
  '<bash-input>',
  '<bash-stdout>',
  '<bash-stderr>',
];

const INTERRUPT_PREFIX = '[Request interrupted by user';

/**
 * Classify a user entry. Our checkpoints are recognised first (they are `isMeta` on 2.1.330, but a
 * checkpoint must never become a boundary whatever flags a future version puts on it).
 *
 * On 2.1.330 every prompt carries `promptSource`/`turnOrigin`; those fields win over the text
 * heuristics (a slash command that prompts the model is a turn). Older versions have neither, so the
 * text rules (not tool-result-only, not a command echo, not an interrupt marker) decide.
 */
export function classifyClaudeUserEntry(entry: ClaudeUserEntry, checkpointPrefix: string): ClaudeUserEntryRole {
  const text = entry.text;
  if (text !== undefined && isOwnCheckpointText(entry, text, checkpointPrefix)) return 'checkpoint';
  if (entry.isCompactSummary || entry.isVisibleInTranscriptOnly) return 'compact-summary';
  if (entry.isMeta) return 'meta';
  if (text === undefined) return entry.toolResults.length > 0 ? 'tool-results' : 'empty';
  if (entry.promptSource !== undefined || entry.turnOrigin !== undefined) return 'prompt';
  // A message typed while the turn ran is sent along with a tool result (older versions: text blocks
  // next to the `tool_result`): part of the running turn, never its start.
  if (entry.toolResults.length > 0) return 'tool-results';
  const trimmed = text.trimStart();
  if (COMMAND_ECHO_PREFIXES.some((prefix) => trimmed.startsWith(prefix))) return 'command-echo';
  if (trimmed.startsWith(INTERRUPT_PREFIX)) return 'interrupt';
  if (trimmed.length === 0) return entry.toolResults.length > 0 ? 'tool-results' : 'empty';
  return 'prompt';
}

/**
 * Stop-hook feedback carrying our prefix is ours by structure. A plain message starting with the
 * prefix is ours only when the reader found it among the delivered messages (`ours`); without a
 * delivery record (`ours` undefined) the prefix decides.
 */
function isOwnCheckpointText(entry: ClaudeUserEntry, text: string, checkpointPrefix: string): boolean {
  if (text.startsWith(STOP_HOOK_FEEDBACK_HEADER)) return extractCheckpointText(text, checkpointPrefix) !== undefined;
  return entry.ours ?? (checkpointPrefix.length > 0 && text.startsWith(checkpointPrefix));
}

/**
 * If `text` is one of our checkpoints, return the checkpoint message itself (starting with the
 * prefix, without Claude's `Stop hook feedback:` wrapper); otherwise undefined.
 *
 * Recognised forms (claude-cli.md §2.3):
 * - JSON block: `Stop hook feedback:\n<prefix>…`;
 * - exit 2: `Stop hook feedback:\n[<hook command>]: <prefix>…\n` (the command is verbatim and may
 *   contain anything except a newline);
 * - a message that itself starts with the prefix (delivered by typing it into the agent).
 *
 * An empty prefix matches nothing: it would otherwise turn every prompt into a checkpoint.
 */
export function extractCheckpointText(text: string, checkpointPrefix: string): string | undefined {
  if (checkpointPrefix.length === 0) return undefined;
  if (text.startsWith(checkpointPrefix)) return text;
  if (!text.startsWith(STOP_HOOK_FEEDBACK_HEADER)) return undefined;
  const body = text.slice(STOP_HOOK_FEEDBACK_HEADER.length);
  if (body.startsWith(checkpointPrefix)) return body.trimEnd();
  // Exit-2 form, possibly one line per blocking hook: find our `[<cmd>]: <prefix>` line.
  let lineStart = 0;
  while (lineStart < body.length) {
    const lineEnd = body.indexOf('\n', lineStart);
    const end = lineEnd === -1 ? body.length : lineEnd;
    if (body.startsWith('[', lineStart)) {
      const marker = body.indexOf(`]: ${checkpointPrefix}`, lineStart);
      if (marker !== -1 && marker < end) return body.slice(marker + 3).trimEnd();
    }
    if (lineEnd === -1) break;
    lineStart = lineEnd + 1;
  }
  return undefined;
}

const COMMAND_NAME = /<command-name>\s*([^<]*?)\s*<\/command-name>/;
const COMMAND_ARGS = /<command-args>([\s\S]*?)<\/command-args>/;

/**
 * The slash command or skill a `<command-name>` echo invokes, as the user typed it (`/review src/`),
 * or undefined for any other entry and for a local command's output (`<local-command-stdout>`).
 *
 * Such an echo opens a turn when the model answers it (a prompt-type command or a skill; Claude may
 * reuse the previous prompt id for it), but not when the command ran locally (`/compact`, `/model`):
 * that context decides in `collect-claude-turn.ts`.
 */
export function commandInvocation(entry: ClaudeUserEntry): string | undefined {
  const text = entry.text;
  if (text === undefined || entry.isMeta || entry.toolResults.length > 0) return undefined;
  const name = COMMAND_NAME.exec(text)?.[1];
  if (name === undefined || name === '' || text.includes('<local-command-stdout>')) return undefined;
  const args = COMMAND_ARGS.exec(text)?.[1]?.trim() ?? '';
  return args === '' ? name : `${name} ${args}`;
}

/** True for prompts Claude starts itself when a background agent finishes (`turnOrigin:"task_notification"`). */
export function isTaskNotificationPrompt(entry: ClaudeUserEntry): boolean {
  return entry.turnOrigin === 'task_notification' || (entry.text?.trimStart().startsWith('<task-notification>') ?? false);
}
