import pc from 'picocolors';

/** ANSI styling for human output, or plain text when colour is off. */
export type TerminalStyle = ReturnType<typeof pc.createColors>;

/**
 * Colour only for a person at a terminal: stdout is a TTY, `NO_COLOR` is unset or empty
 * (no-color.org), and `TERM` is not `dumb`. `FORCE_COLOR` (non-empty, not `0`) turns it on anyway,
 * for terminals that do not look like one.
 */
export function colorEnabled(env: Readonly<Record<string, string | undefined>>, isTTY: boolean | undefined): boolean {
  const force = env['FORCE_COLOR'];
  if (force !== undefined && force !== '' && force !== '0') return true;
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  if (env['TERM'] === 'dumb') return false;
  return isTTY === true;
}

export function terminalStyle(enabled: boolean): TerminalStyle {
  return pc.createColors(enabled);
}

/** The style for this process's stdout. */
export function stdoutStyle(env: Readonly<Record<string, string | undefined>> = process.env): TerminalStyle {
  return terminalStyle(colorEnabled(env, process.stdout.isTTY));
}
