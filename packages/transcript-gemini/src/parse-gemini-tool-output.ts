/**
 * Tool output as the model saw it, minus the wrappers the CLI adds around it:
 * - `<untrusted_context>…</untrusted_context>` around shell output (0.61);
 * - `[Tool Output Masked]` + `<tool_output_masked_guidance …>…</tool_output_masked_guidance>` and the
 *   `... [Full output available at …]` pointer, when the CLI masked a large output in history.
 *
 * What remains is kept verbatim (including `Output:` and trailer lines such as `Exit Code: 1`), except
 * trailer lines whose value is `(none)`: older CLI versions print `Error: (none)`, `Signal: (none)`…
 * on every call, which would look like errors to anyone scanning the text.
 */
export interface UnwrappedToolOutput {
  readonly text: string;
  /** True when the CLI replaced the output with a masked preview: lines may be missing. */
  readonly masked: boolean;
}

const MASKED_MARKER = '[Tool Output Masked]';
const NONE_TRAILER = /^(?:Error|Exit Code|Signal|Background PIDs|Process Group PGID): \(none\)$/;

export function unwrapGeminiToolOutput(raw: string): UnwrappedToolOutput {
  let lines = raw.split('\n');
  let masked = false;
  const dropLeading = (test: (line: string) => boolean): boolean => {
    if (lines.length > 0 && test((lines[0] ?? '').trim())) {
      lines = lines.slice(1);
      return true;
    }
    return false;
  };
  const dropTrailing = (test: (line: string) => boolean): boolean => {
    let end = lines.length;
    while (end > 0 && (lines[end - 1] ?? '').trim() === '') end -= 1;
    if (end > 0 && test((lines[end - 1] ?? '').trim())) {
      lines = lines.slice(0, end - 1);
      return true;
    }
    return false;
  };

  dropLeading((line) => line === '');
  if (dropLeading((line) => line === MASKED_MARKER)) {
    masked = true;
    // The guidance open tag spans several lines (`<tool_output_masked_guidance` … `>`).
    if ((lines[0] ?? '').trim().startsWith('<tool_output_masked_guidance')) {
      const close = lines.findIndex((line) => line.trimEnd().endsWith('>'));
      lines = close >= 0 ? lines.slice(close + 1) : [];
    }
    dropTrailing((line) => line === '</tool_output_masked_guidance>');
    dropTrailing((line) => line.startsWith('... [Full output available at'));
  }
  dropLeading((line) => line === '<untrusted_context>');
  dropTrailing((line) => line === '</untrusted_context>');
  const text = lines.filter((line) => !NONE_TRAILER.test(line)).join('\n');
  return { text, masked };
}

/** What the trailer of a `run_shell_command` result says about how the command ended. */
export interface GeminiShellResult {
  /** From an `Exit Code: N` trailer line. 0.61 prints it only when N is not 0. */
  readonly exitCode?: number;
  /** From a `Signal: X` trailer line. */
  readonly signal?: string;
  /** From an `Error: X` trailer line (spawn failures and the like). */
  readonly error?: string;
  /** The command was cancelled or timed out before it completed. */
  readonly interrupted: boolean;
}

/** Trailer keys in the order the shell tool prints them after the `Output:` block. */
const TRAILER_KEYS = ['Error', 'Exit Code', 'Signal', 'Background PIDs', 'Process Group PGID'] as const;
const TRAILER_LINE = /^(Error|Exit Code|Signal|Background PIDs|Process Group PGID): (.*)$/;
const INTERRUPTED = /^Command (?:was cancelled|timed out)/;
const DISPLAY_LINE = /^Command (?:exited with code: (-?\d+)|terminated by signal: (.+)|failed: (.+))$/;

/**
 * Parse the unwrapped output of a shell call. Only the trailer block at the very end is read, from
 * the bottom up and in the CLI's fixed key order, so an `Exit Code: 1` printed by the program itself
 * in the middle of its output is not mistaken for the command's exit code. (A program whose *last*
 * output line looks like a trailer line is indistinguishable; the CLI's format allows no better.)
 */
export function parseGeminiShellResult(unwrapped: string): GeminiShellResult {
  const lines = unwrapped.split('\n');
  let end = lines.length;
  while (end > 0 && (lines[end - 1] ?? '').trim() === '') end -= 1;
  const values = new Map<string, string>();
  let lastKeyIndex: number = TRAILER_KEYS.length;
  for (let i = end - 1; i >= 0; i -= 1) {
    const found = TRAILER_LINE.exec((lines[i] ?? '').trimEnd());
    if (!found) break;
    const key = found[1] ?? '';
    const keyIndex = TRAILER_KEYS.indexOf(key as (typeof TRAILER_KEYS)[number]);
    if (keyIndex < 0 || keyIndex >= lastKeyIndex) break;
    lastKeyIndex = keyIndex;
    values.set(key, (found[2] ?? '').trim());
  }
  const meaningful = (value: string | undefined): string | undefined =>
    value === undefined || value === '' || value === '(none)' ? undefined : value;
  const exitText = meaningful(values.get('Exit Code'));
  const exitFromTrailer = exitText !== undefined && /^-?\d+$/.test(exitText) ? Number(exitText) : undefined;
  // `resultDisplay` when stdout was empty: `Command exited with code: N`, `Command terminated by
  // signal: X`, `Command failed: …` (used when the functionResponse itself is missing).
  const first = (lines[0] ?? '').trim();
  const display = end === 1 ? DISPLAY_LINE.exec(first) : null;
  const displayExit = display?.[1] !== undefined ? Number(display[1]) : undefined;
  // Older shell tools print `Signal: 0` (or `(none)`) on every call that was not killed: no signal.
  const signalText = meaningful(values.get('Signal'));
  const signal = (signalText === '0' || signalText === 'null' ? undefined : signalText) ?? display?.[2];
  const error = meaningful(values.get('Error')) ?? display?.[3];
  const interrupted = INTERRUPTED.test(first);
  const exitCode = exitFromTrailer ?? displayExit;
  return {
    ...(exitCode !== undefined ? { exitCode } : {}),
    ...(signal !== undefined ? { signal } : {}),
    ...(error !== undefined ? { error } : {}),
    interrupted,
  };
}
