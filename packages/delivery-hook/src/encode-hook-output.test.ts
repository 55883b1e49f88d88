import { describe, expect, it } from 'vitest';
import { encodeClaudeStop } from './agents/claude-profile.ts';
import { encodeCodexStop } from './agents/codex-profile.ts';
import { encodeGeminiAfterAgent } from './agents/gemini-profile.ts';
import { encodeHookOutput } from './encode-hook-output.ts';
import { PASS } from './hook-verdict.ts';

// Characters that must survive JSON encoding byte for byte: quotes, backslashes, newlines, XML-ish
// markup (Codex escapes it itself), non-ASCII and a lone surrogate-free emoji.
const REASON = 'Checkpoint — "quoted" \\ back\nline 2\t<tag> & </hook_prompt> ✓ 🚀';

describe('encoders', () => {
  it.each(['claude', 'gemini', 'codex'] as const)('%s: a block reason reaches the model with no raw control character (ESC, BEL, C1, CR, bidi)', (agent) => {
    const out = JSON.parse(encodeHookOutput(agent, { kind: 'block', reason: 'Changed: `a\u001b]0;t\u0007.ts`\n\u009b2J\r\u202e' })) as { reason: string };
    expect(out.reason).toBe('Changed: `a\\x1b]0;t\\x07.ts`\n\\x9b2J\\r\\u202e');
  });

  it('Claude Stop: block is exactly {"decision":"block","reason":R}', () => {
    const out = encodeClaudeStop({ kind: 'block', reason: REASON });
    expect(out).toBe(`{"decision":"block","reason":${JSON.stringify(REASON)}}`);
    expect(JSON.parse(out)).toEqual({ decision: 'block', reason: REASON });
  });

  it('Gemini AfterAgent: block is exactly {"decision":"deny","reason":R}', () => {
    const out = encodeGeminiAfterAgent({ kind: 'block', reason: REASON });
    expect(out).toBe(`{"decision":"deny","reason":${JSON.stringify(REASON)}}`);
    expect(JSON.parse(out)).toEqual({ decision: 'deny', reason: REASON });
  });

  it('Codex Stop: block is exactly {"decision":"block","reason":R}, never approve', () => {
    const out = encodeCodexStop({ kind: 'block', reason: REASON });
    expect(out).toBe(`{"decision":"block","reason":${JSON.stringify(REASON)}}`);
    expect(out).not.toContain('approve');
  });

  it.each(['claude', 'gemini', 'codex'] as const)('%s: pass is empty stdout', (agent) => {
    expect(encodeHookOutput(agent, PASS)).toBe('');
  });

  it('dispatches per agent', () => {
    expect(JSON.parse(encodeHookOutput('claude', { kind: 'block', reason: 'r' })).decision).toBe('block');
    expect(JSON.parse(encodeHookOutput('gemini', { kind: 'block', reason: 'r' })).decision).toBe('deny');
    expect(JSON.parse(encodeHookOutput('codex', { kind: 'block', reason: 'r' })).decision).toBe('block');
  });

  it('output is a single line with no trailing newline', () => {
    const out = encodeHookOutput('claude', { kind: 'block', reason: 'a\nb\r\nc' });
    expect(out).not.toMatch(/[\n\r]/);
  });
});
