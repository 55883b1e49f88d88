import { describe, expect, it } from 'vitest';
import { outcomeOf, sessionPayload } from './bench-hook.ts';

describe('sessionPayload', () => {
  it('makes each run a new session and keeps everything else as recorded', () => {
    const payload = JSON.stringify({ session_id: 'abc', prompt_id: 'p', cwd: '/r' });
    expect(JSON.parse(sessionPayload(payload, 7))).toEqual({ session_id: 'abc-bench-7', prompt_id: 'p', cwd: '/r' });
  });
});

describe('outcomeOf', () => {
  it('reads the decision of the hook answer', () => {
    expect(outcomeOf('')).toBe('pass');
    expect(outcomeOf('{"decision":"block","reason":"x"}\n')).toBe('block');
    expect(outcomeOf('{"decision":"deny","reason":"x"}')).toBe('deny');
    expect(outcomeOf('not json')).toBe('invalid-output');
  });
});
