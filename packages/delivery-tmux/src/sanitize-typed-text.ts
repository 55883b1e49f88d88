/**
 * Makes text safe to paste into a terminal application: nothing in the result can act as a key, a
 * terminal command, or the end of a bracketed paste.
 *
 * The message we type is composed from the agent's transcript (command lines, output excerpts), so it
 * can carry anything a command printed: colour codes, OSC 52 clipboard writes, a literal `ESC [201~`
 * that would end the bracketed paste early and turn the rest into keystrokes, a `^C` byte.
 *
 * Rules, in order:
 * 1. CRLF and lone CR become LF (a CR is the Enter key; line structure is kept as LF).
 * 2. Whole escape sequences are removed, 7-bit and 8-bit forms alike:
 *    - CSI `ESC [` / `0x9B` … final byte (covers colours and the paste markers `ESC[200~`/`ESC[201~`);
 *    - string sequences OSC `ESC ]`/`0x9D`, DCS `ESC P`/`0x90`, SOS `ESC X`/`0x98`, PM `ESC ^`/`0x9E`,
 *      APC `ESC _`/`0x9F`, up to their terminator (BEL for OSC, ST = `ESC \` or `0x9C`, CAN, SUB).
 *      An unterminated string sequence ends at the end of its line, so a truncated excerpt cannot
 *      swallow the rest of the message;
 *    - other escapes `ESC` [intermediates] final (`ESC c`, `ESC 7`, `ESC ( B`…).
 * 3. Every remaining C0 control except LF and TAB, DEL, and every C1 control (U+0080–U+009F) is
 *    dropped — including a lone ESC and NUL.
 *
 * Printable text, including non-ASCII, is kept as is. The result never contains ESC, so no escape
 * sequence can be re-formed by the removals.
 */
export function sanitizeTypedText(input: string): string {
  const text = input.replace(/\r\n?/g, '\n');
  let out = '';
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === 0x1b) {
      i = skipEscape(text, i + 1);
      continue;
    }
    if (code === 0x9b) {
      i = skipCsiBody(text, i + 1);
      continue;
    }
    if (code === 0x9d || code === 0x90 || code === 0x98 || code === 0x9e || code === 0x9f) {
      i = skipStringBody(text, i + 1, code === 0x9d);
      continue;
    }
    if (isDroppedControl(code)) {
      i += 1;
      continue;
    }
    out += text[i];
    i += 1;
  }
  return out;
}

/** True for a code unit that must never reach the pane (C0 except LF/TAB, DEL, C1). */
export function isDroppedControl(code: number): boolean {
  if (code === 0x0a || code === 0x09) return false;
  return code < 0x20 || code === 0x7f || (code >= 0x80 && code <= 0x9f);
}

/** `i` points just past an ESC. Returns the index after the whole sequence. */
function skipEscape(text: string, i: number): number {
  if (i >= text.length) return i;
  const next = text.charCodeAt(i);
  if (next === 0x5b /* [ */) return skipCsiBody(text, i + 1);
  if (next === 0x5d /* ] */) return skipStringBody(text, i + 1, true);
  if (next === 0x50 /* P */ || next === 0x58 /* X */ || next === 0x5e /* ^ */ || next === 0x5f /* _ */) {
    return skipStringBody(text, i + 1, false);
  }
  // nF: intermediates 0x20–0x2F, then one final byte 0x30–0x7E (ESC ( B, ESC # 8).
  let j = i;
  while (j < text.length && text.charCodeAt(j) >= 0x20 && text.charCodeAt(j) <= 0x2f) j += 1;
  if (j < text.length && text.charCodeAt(j) >= 0x30 && text.charCodeAt(j) <= 0x7e) return j + 1;
  // Malformed (ESC followed by a control or non-ASCII): drop the ESC and any intermediates only;
  // what follows is judged on its own.
  return j;
}

/** `i` points at the first parameter byte of a CSI. Returns the index after the final byte. */
function skipCsiBody(text: string, i: number): number {
  let j = i;
  // Parameter bytes 0x30–0x3F, then intermediate bytes 0x20–0x2F.
  while (j < text.length && text.charCodeAt(j) >= 0x30 && text.charCodeAt(j) <= 0x3f) j += 1;
  while (j < text.length && text.charCodeAt(j) >= 0x20 && text.charCodeAt(j) <= 0x2f) j += 1;
  if (j < text.length && text.charCodeAt(j) >= 0x40 && text.charCodeAt(j) <= 0x7e) return j + 1;
  // No final byte: the introducer and its parameters are dropped, the offending character stays
  // subject to the control filter.
  return j;
}

/**
 * `i` points at the first byte of an OSC/DCS/SOS/PM/APC body. Returns the index after the
 * terminator, or the index of the line end (the LF itself is kept) when unterminated.
 */
function skipStringBody(text: string, i: number, belTerminates: boolean): number {
  let j = i;
  while (j < text.length) {
    const code = text.charCodeAt(j);
    if (code === 0x0a) return j;
    if ((belTerminates && code === 0x07) || code === 0x9c || code === 0x18 || code === 0x1a) return j + 1;
    if (code === 0x1b) {
      // ST is ESC \. Any other ESC aborts the string and starts a new sequence.
      return text.charCodeAt(j + 1) === 0x5c ? j + 2 : j;
    }
    j += 1;
  }
  return j;
}
