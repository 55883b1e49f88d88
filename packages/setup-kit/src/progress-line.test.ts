import { describe, expect, it } from 'vitest';
import { createProgressLine } from './progress-line.ts';

describe('createProgressLine', () => {
  it('redraws one line with the running checks and erases it when none is left', () => {
    const out: string[] = [];
    const progress = createProgressLine({ write: (text: string) => out.push(text) }, 'doctor');
    progress('gemini --version', 'start');
    progress('git', 'start');
    progress('git', 'done');
    progress('gemini --version', 'done');
    expect(out).toEqual([
      '\r\u001b[Kdoctor: 0/1 checks done; waiting for gemini --version',
      '\r\u001b[Kdoctor: 0/2 checks done; waiting for gemini --version, git',
      '\r\u001b[Kdoctor: 1/2 checks done; waiting for gemini --version',
      '\r\u001b[K',
    ]);
  });
});
