/** Characters that never need quoting in a POSIX shell word. */
const SAFE_WORD = /^[A-Za-z0-9_/.,:@%+=-]+$/;

/**
 * One POSIX shell word: unchanged when it is made of safe characters, else single-quoted (a quote
 * inside becomes `'\''`). Claude Code, Gemini CLI and Codex CLI run hook commands through `sh`/`bash`.
 */
export function shellWord(text: string): string {
  if (SAFE_WORD.test(text)) return text;
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/** A command line from argv, each word quoted as needed. */
export function shellCommand(argv: readonly string[]): string {
  return argv.map(shellWord).join(' ');
}
