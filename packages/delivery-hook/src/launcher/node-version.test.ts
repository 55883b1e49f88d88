import { describe, expect, it } from 'vitest';
import { MIN_NODE_MAJOR, tooOldNodeAnswer } from './node-version.ts';

describe('tooOldNodeAnswer', () => {
  it('lets the minimum and newer through', () => {
    expect(tooOldNodeAnswer(`${MIN_NODE_MAJOR}.0.0`, ['claude'], MIN_NODE_MAJOR)).toBeUndefined();
    expect(tooOldNodeAnswer('24.1.0', ['session-start', 'codex'], MIN_NODE_MAJOR)).toBeUndefined();
  });

  it('one major below: the session start gets one systemMessage, every other hook exit 0 and nothing', () => {
    const start = tooOldNodeAnswer('17.9.1', ['session-start', 'claude'], 18);
    expect(start?.exitCode).toBe(0);
    expect(start?.stderr).toBe('');
    expect(JSON.parse(start?.stdout ?? '')).toEqual({
      systemMessage: 'agent-checkpoint: needs Node.js 18 or later; the node on PATH is 17.9.1, so its hooks do nothing. Install Node.js 18+ (https://nodejs.org) and start a new session.',
    });
    for (const args of [['claude'], ['post-tool', 'codex'], ['prompt-submit', 'gemini'], ['pre-compact', 'claude'], ['hook'], ['statusline']]) {
      expect(tooOldNodeAnswer('17.9.1', args, 18), args.join(' ')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    }
  });

  it('a command run by a person: the sentence on stderr, exit 1', () => {
    const answer = tooOldNodeAnswer('16.20.2', ['doctor'], 18);
    expect(answer).toEqual({ stdout: '', stderr: expect.stringMatching(/^agent-checkpoint-hook needs Node\.js 18 or later; the node on PATH is 16\.20\.2/), exitCode: 1 });
  });
});
