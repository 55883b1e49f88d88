/** The gate's sentence (seed 001, "Second stop with uncommitted changes"). */
export const COMMIT_GATE_TEXT = 'You have uncommitted code changes. Commit your work before stopping.';

/** Most file names listed after `Changed:`. */
const MAX_LISTED = 10;

/**
 * The gate's message: the prefix, seed 001's sentence, a blank line, and `Changed:` with the files
 * (the first ten, then "and N more").
 */
export function composeCommitGateMessage(files: readonly string[], prefix: string): string {
  const shown = files.slice(0, MAX_LISTED).map((f) => `\`${f}\``);
  const more = files.length > MAX_LISTED ? ` and ${files.length - MAX_LISTED} more` : '';
  return `${prefix}${COMMIT_GATE_TEXT}\n\nChanged: ${shown.join(', ')}${more}`;
}
