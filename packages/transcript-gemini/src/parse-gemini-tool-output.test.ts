import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseGeminiShellResult, unwrapGeminiToolOutput } from './parse-gemini-tool-output.ts';

describe('unwrapGeminiToolOutput', () => {
  it('strips the <untrusted_context> wrapper of 0.61 shell output and keeps the rest verbatim', () => {
    const raw = '<untrusted_context>\nOutput: about-to-fail\nExit Code: 1\nProcess Group PGID: 30915\n</untrusted_context>';
    expect(unwrapGeminiToolOutput(raw)).toEqual({
      text: 'Output: about-to-fail\nExit Code: 1\nProcess Group PGID: 30915',
      masked: false,
    });
  });

  it('leaves unwrapped output alone', () => {
    expect(unwrapGeminiToolOutput('alpha\ngamma\n')).toEqual({ text: 'alpha\ngamma\n', masked: false });
  });

  it('unwraps a masked preview and flags it', () => {
    const raw = [
      '[Tool Output Masked]',
      '<tool_output_masked_guidance ',
      '  tool_name="run_shell_command" ',
      '  file_path="/h/.gemini/tmp/w/tool-outputs/x.txt" ',
      '  line_count="5" ',
      '>',
      '<untrusted_context>',
      'Output: about-to-fail',
      'Exit Code: 1',
      'Process Group PGID: 1',
      '</untrusted_context>',
      '',
      '',
      "... [Full output available at /h/.gemini/tmp/w/tool-outputs/x.txt. Use 'read_file' or 'grep_search' to inspect.]",
      '</tool_output_masked_guidance>',
    ].join('\n');
    expect(unwrapGeminiToolOutput(raw)).toEqual({ text: 'Output: about-to-fail\nExit Code: 1\nProcess Group PGID: 1', masked: true });
  });

  it('drops "(none)" trailer lines printed by older versions on every call', () => {
    const raw = 'Command: ls\nDirectory: (root)\nOutput: a\nError: (none)\nExit Code: 0\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 7';
    expect(unwrapGeminiToolOutput(raw).text).toBe('Command: ls\nDirectory: (root)\nOutput: a\nExit Code: 0\nProcess Group PGID: 7');
  });
});

describe('parseGeminiShellResult', () => {
  it('reads a non-zero Exit Code from the 0.61 trailer', () => {
    expect(parseGeminiShellResult('Output: about-to-fail\nExit Code: 1\nProcess Group PGID: 30915')).toEqual({
      exitCode: 1,
      interrupted: false,
    });
  });

  it('finds no exit code when 0.61 omits it (success)', () => {
    expect(parseGeminiShellResult('Output: hello-ok\nProcess Group PGID: 30917')).toEqual({ interrupted: false });
  });

  it('reads the older full trailer, ignoring (none) values', () => {
    const text = 'Command: false\nDirectory: (root)\nOutput: (empty)\nError: (none)\nExit Code: 2\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 9';
    expect(parseGeminiShellResult(text)).toEqual({ exitCode: 2, interrupted: false });
  });

  it('reads Signal and Error lines', () => {
    expect(parseGeminiShellResult('Output: x\nSignal: SIGKILL\nProcess Group PGID: 3')).toEqual({ signal: 'SIGKILL', interrupted: false });
    expect(parseGeminiShellResult('Output: (empty)\nError: spawn bash ENOENT\nProcess Group PGID: (none)')).toEqual({
      error: 'spawn bash ENOENT',
      interrupted: false,
    });
  });

  it('ignores an "Exit Code:" line the program printed in the middle of its output', () => {
    const text = 'Output: Exit Code: 3\nstill running\nall good\nProcess Group PGID: 5';
    expect(parseGeminiShellResult(text)).toEqual({ interrupted: false });
  });

  it('requires the trailer keys in the CLI order (a repeated key ends the trailer)', () => {
    const text = 'Output: x\nExit Code: 4\nExit Code: 1\nProcess Group PGID: 2';
    expect(parseGeminiShellResult(text).exitCode).toBe(1);
  });

  it('recognises cancelled and timed-out commands', () => {
    expect(parseGeminiShellResult('Command was cancelled by user before it could complete. There was no output before it was cancelled.').interrupted).toBe(true);
    expect(parseGeminiShellResult('Command timed out after 300000ms.').interrupted).toBe(true);
  });

  it('reads the resultDisplay forms used when stdout was empty', () => {
    expect(parseGeminiShellResult('Command exited with code: 127').exitCode).toBe(127);
    expect(parseGeminiShellResult('Command terminated by signal: SIGTERM').signal).toBe('SIGTERM');
    expect(parseGeminiShellResult('Command failed: boom').error).toBe('boom');
  });

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const result = parseGeminiShellResult(text);
        const unwrapped = unwrapGeminiToolOutput(text);
        return typeof result.interrupted === 'boolean' && typeof unwrapped.text === 'string';
      }),
    );
  });
});
