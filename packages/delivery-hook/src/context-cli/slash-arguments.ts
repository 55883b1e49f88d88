/**
 * Slash commands and skills hand the bin the user's argument text as ONE word (`agent-checkpoint-hook
 * slash <command> <text>`), never pasted into a shell line: Gemini CLI shell-quotes `{{args}}` inside
 * `!{…}` into a single word, and Claude Code's `$ARGUMENTS` is pasted unescaped, so its commands ask the
 * model to pass the text as one single-quoted word. The text is split here, by this grammar only:
 *
 * - words are separated by blanks (space, tab, line breaks);
 * - `'…'` and `"…"` group blanks into a word and are removed; a backslash outside single quotes keeps the
 *   next character as it is (`\"`, `\ `);
 * - nothing else means anything: `$`, `` ` ``, `;`, `|`, `&`, `#`, `*`, `<`, `>` are plain characters, as
 *   typed. No shell ever sees the text, so nothing in it runs.
 *
 * A shell lexer (core's, `shell-quote`) is not this grammar: both drop a `#…` "comment" and give `;`,
 * `<<`, `$(…)` a meaning the user never asked for (`--reason fix #42; then docs` would lose words).
 */

/** The commands a slash command or skill runs. */
export const SLASH_COMMANDS = ['checkpoint', 'estimate', 'shard', 'report', 'off', 'on', 'status', 'doctor'] as const;

/** The options of `off` / `on` that choose the switch; the slash form adds `--current` when none is given. */
const SWITCH_SCOPES = ['--session', '--current', '--project', '--all'];

/** One of {@link SLASH_COMMANDS}. */
export type SlashCommand = (typeof SLASH_COMMANDS)[number];

/** Split argument text into words by the grammar above. An unclosed quote runs to the end. */
export function splitArgumentText(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && (text[i + 1] === '"' || text[i + 1] === '\\')) word += text[++i];
      else word += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < text.length) {
      word += text[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/**
 * The argv of `agent-checkpoint-hook <command> …` for a slash command's argument text:
 * - `estimate`: the whole text (trimmed) is the task, one argument after `--`, so a task that starts
 *   with `-` is not read as an option;
 * - `checkpoint`: split; `--reason` takes every word up to the next `--option` (`/checkpoint --reason
 *   fix the login flow` needs no quotes);
 * - `off`, `on`: split; with no `--session`, `--current`, `--project` or `--all`, `--current` (from
 *   inside an agent, "off" means this session: the newest one in this directory);
 * - `shard`, `report`, `status`, `doctor`: split.
 */
export function slashCommandArgv(command: SlashCommand, text: string): string[] {
  switch (command) {
    case 'estimate': {
      const task = text.trim();
      return task === '' ? ['estimate'] : ['estimate', '--', task];
    }
    case 'checkpoint':
      return ['checkpoint', ...joinReason(splitArgumentText(text))];
    case 'off':
    case 'on': {
      const words = splitArgumentText(text);
      const scoped = words.some((word) => SWITCH_SCOPES.some((scope) => word === scope || word.startsWith(`${scope}=`)));
      return [command, ...(scoped ? [] : ['--current']), ...words];
    }
    case 'shard':
    case 'report':
    case 'status':
    case 'doctor':
      return [command, ...splitArgumentText(text)];
    default: {
      const never: never = command;
      return never;
    }
  }
}

/** `--reason a b c --status` → `--reason`, `a b c`, `--status`. */
function joinReason(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i]!;
    out.push(word);
    if (word !== '--reason') continue;
    const reason: string[] = [];
    while (i + 1 < words.length && !words[i + 1]!.startsWith('--')) reason.push(words[++i]!);
    if (reason.length > 0) out.push(reason.join(' '));
  }
  return out;
}
