import { describe, expect, it } from 'vitest';
import { encodeSessionStart } from './encode-session-start.ts';

describe('encodeSessionStart', () => {
  it.each(['claude', 'codex', 'gemini'] as const)('%s: the context reaches the model with its lines and no raw control character', (agent) => {
    const out = JSON.parse(encodeSessionStart(agent, 'Read this.\n\n# Handoff\u001b[8m hidden\u0007 \u009b2J \u202eok\r')) as { hookSpecificOutput: { additionalContext: string } };
    expect(out.hookSpecificOutput.additionalContext).toBe('Read this.\n\n# Handoff\\x1b[8m hidden\\x07 \\x9b2J \\u202eok\\r');
  });

  it('nothing to add is an empty answer', () => {
    expect(encodeSessionStart('claude', undefined)).toBe('');
    expect(encodeSessionStart('claude', '')).toBe('');
  });
});
