import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitizeTypedText } from './sanitize-typed-text.ts';

/** Any code unit the pane must never receive from us. */
const FORBIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('sanitizeTypedText', () => {
  it('keeps ordinary text, newlines, tabs and non-ASCII unchanged', () => {
    const text = '[checkpoint] Required:\n\t1. Run `pnpm test` — ünïcödé 🚀\n$HOME "quotes" \\backslash';
    expect(sanitizeTypedText(text)).toBe(text);
  });

  it('turns CRLF and lone CR into LF', () => {
    expect(sanitizeTypedText('a\r\nb\rc\n')).toBe('a\nb\nc\n');
  });

  it('removes SGR colour codes but keeps the coloured text', () => {
    expect(sanitizeTypedText('\x1b[31;1mFAIL\x1b[0m src/a.test.ts')).toBe('FAIL src/a.test.ts');
  });

  it('removes bracketed-paste markers so the paste cannot be ended early', () => {
    expect(sanitizeTypedText('before\x1b[201~\rrm -rf ~\r\x1b[200~after')).toBe('before\nrm -rf ~\nafter');
  });

  it('removes OSC 52 clipboard writes with BEL or ST terminators, payload included', () => {
    expect(sanitizeTypedText('a\x1b]52;c;ZXZpbA==\x07b')).toBe('ab');
    expect(sanitizeTypedText('a\x1b]52;c;ZXZpbA==\x1b\\b')).toBe('ab');
    expect(sanitizeTypedText('a\x9d0;title\x9cb')).toBe('ab');
  });

  it('removes hyperlinks (OSC 8) but keeps the link text', () => {
    expect(sanitizeTypedText('\x1b]8;;https://x.test\x1b\\link\x1b]8;;\x1b\\ end')).toBe('link end');
  });

  it('removes DCS, SOS, PM and APC strings', () => {
    expect(sanitizeTypedText('a\x1bPq#0;2;0;0;0\x1b\\b')).toBe('ab');
    expect(sanitizeTypedText('a\x1bXsos\x1b\\b\x1b^pm\x1b\\c\x1b_apc\x1b\\d')).toBe('abcd');
    expect(sanitizeTypedText('a\x90dcs\x9cb')).toBe('ab');
  });

  it('ends an unterminated string sequence at the line end, keeping later lines', () => {
    expect(sanitizeTypedText('one\x1b]52;c;AAAA\ntwo')).toBe('one\ntwo');
  });

  it('removes two-byte and nF escapes (reset, save cursor, charset)', () => {
    expect(sanitizeTypedText('a\x1bcb\x1b7c\x1b(Bd\x1b#8e')).toBe('abcde');
  });

  it('removes 8-bit CSI', () => {
    expect(sanitizeTypedText('a\x9b2Jb')).toBe('ab');
  });

  it('drops C0 controls (C-c, C-d, NUL, BEL, backspace), DEL and C1', () => {
    expect(sanitizeTypedText('a\x03b\x04c\x00d\x07e\x08f\x7fg\x85h\x80i')).toBe('abcdefghi');
  });

  it('drops a lone or trailing ESC', () => {
    expect(sanitizeTypedText('a\x1b')).toBe('a');
    expect(sanitizeTypedText('a\x1b\nb')).toBe('a\nb');
    // ESC ESC b: the first ESC is malformed, the second forms `ESC b`, a complete escape.
    expect(sanitizeTypedText('a\x1b\x1bb')).toBe('a');
  });

  it('never emits a control character, whatever the input (property)', () => {
    const anyChar = fc.oneof(
      fc.constantFrom('\x1b', '[', ']', '\\', '\x07', '\x9c', '\x9b', '\x9d', 'P', '2', '0', '~', ';', '\r', '\n'),
      fc.integer({ min: 0, max: 0x2ff }).map((c) => String.fromCharCode(c)),
    );
    fc.assert(
      fc.property(fc.array(anyChar, { maxLength: 200 }).map((a) => a.join('')), (input) => {
        const out = sanitizeTypedText(input);
        expect(out).not.toMatch(FORBIDDEN);
        expect(out).not.toContain('\x1b');
        expect(out).not.toContain('\r');
      }),
      { numRuns: 2000 },
    );
  });

  it('is idempotent and never grows the text (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (input) => {
        const once = sanitizeTypedText(input);
        expect(sanitizeTypedText(once)).toBe(once);
        expect(once.length).toBeLessThanOrEqual(input.length);
        expect(once).not.toMatch(FORBIDDEN);
      }),
      { numRuns: 1000 },
    );
  });

  it('leaves text without controls untouched (property)', () => {
    const safe = fc.string({ unit: 'grapheme', maxLength: 100 }).map((s) => s.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\r]/g, ''));
    fc.assert(
      fc.property(safe, (input) => {
        expect(sanitizeTypedText(input)).toBe(input);
      }),
    );
  });
});
