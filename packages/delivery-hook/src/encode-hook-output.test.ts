import { AGENT_IDS, type AgentId } from '@agent-checkpoint/core';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { encodeClaudeStop } from './agents/claude-profile.ts';
import { encodeCodexStop } from './agents/codex-profile.ts';
import { encodeGeminiAfterAgent } from './agents/gemini-profile.ts';
import { encodeHookOutput } from './encode-hook-output.ts';
import { PASS } from './hook-verdict.ts';

// Characters that must survive JSON encoding byte for byte: quotes, backslashes, newlines, XML-ish
// markup (Codex escapes it itself), non-ASCII and a lone surrogate-free emoji.
const REASON = 'Checkpoint — "quoted" \\ back\nline 2\t<tag> & </hook_prompt> ✓ 🚀';

describe('encoders', () => {
  it.each(AGENT_IDS)('%s: a block reason reaches the model with no raw control character (ESC, BEL, C1, CR, bidi)', (agent) => {
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

  it.each(AGENT_IDS)('%s: pass is empty stdout', (agent) => {
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

// Each CLI's turn-end output shape, strict (no other key), as its own code defines it:
// - Codex 0.169: the `stop.command.output` JSON Schema embedded in the binary (`additionalProperties:
//   false`; `decision` only `block`);
// - Claude Code: the common hook output fields plus Stop's `decision`/`reason` (its hooks reference);
// - Gemini 0.61: `HookOutput` fields the bundled CLI reads (`decision`, `reason`, `systemMessage`…).
const common = {
  continue: z.optional(z.boolean()),
  stopReason: z.optional(z.string()),
  suppressOutput: z.optional(z.boolean()),
  systemMessage: z.optional(z.string()),
  reason: z.optional(z.string()),
};
const OUTPUT_SHAPES: Record<AgentId, z.ZodMiniType> = {
  codex: z.strictObject({ ...common, decision: z.optional(z.literal('block')) }),
  claude: z.strictObject({ ...common, decision: z.optional(z.literal('block')) }),
  gemini: z.strictObject({ ...common, decision: z.optional(z.enum(['deny', 'block', 'allow', 'approve'])) }),
  // Only the block both document (copilot-cli.md agentStop, qwen-code.md Stop): what else they accept is unchecked.
  copilot: z.strictObject({ decision: z.literal('block'), reason: z.string() }),
  qwen: z.strictObject({ decision: z.literal('block'), reason: z.string() }),
  // What our extension reads (plugins/agent-checkpoint/pi/agent-checkpoint/index.js `readAnswer`).
  pi: z.strictObject({ decision: z.optional(z.literal('block')), reason: z.optional(z.string()), systemMessage: z.optional(z.string()) }),
};

describe('user notices (systemMessage)', () => {
  const NOTICE = 'agent-checkpoint: configuration problem: /r/.agent-checkpoint.json: line 3; run `agent-checkpoint-hook doctor`';

  // The CLIs whose output shape documents `systemMessage` (OUTPUT_SHAPES: Copilot CLI's and Qwen Code's
  // beyond the block are unchecked), and our Pi extension.
  it.each(['claude', 'gemini', 'codex', 'pi'] as const)('%s: a pass with a notice is {"systemMessage":N} alone: valid output, no decision, so the stop passes', (agent) => {
    const out = encodeHookOutput(agent, { kind: 'pass', notice: NOTICE });
    expect(JSON.parse(out)).toEqual({ systemMessage: NOTICE });
    expect(OUTPUT_SHAPES[agent].safeParse(JSON.parse(out)).success).toBe(true);
    expect(out).not.toContain('decision');
    expect(out).not.toMatch(/[\n\r]/);
  });

  it.each([
    ['claude', 'block'],
    ['gemini', 'deny'],
    ['codex', 'block'],
    ['pi', 'block'],
  ] as const)('%s: a block with a notice keeps the block and adds systemMessage; the reason holds no notice', (agent, decision) => {
    const out = encodeHookOutput(agent, { kind: 'block', reason: REASON, notice: NOTICE });
    expect(JSON.parse(out)).toEqual({ decision, reason: REASON, systemMessage: NOTICE });
    expect(OUTPUT_SHAPES[agent].safeParse(JSON.parse(out)).success).toBe(true);
  });

  it.each(AGENT_IDS)('%s: a bare pass is empty stdout and a bare block fits the CLI shape', (agent) => {
    expect(encodeHookOutput(agent, PASS)).toBe('');
    expect(OUTPUT_SHAPES[agent].safeParse(JSON.parse(encodeHookOutput(agent, { kind: 'block', reason: REASON }))).success).toBe(true);
  });

  it.each(AGENT_IDS)('%s: a notice reaches the terminal with no raw control character; a blank one is dropped', (agent) => {
    const out = JSON.parse(encodeHookOutput(agent, { kind: 'pass', notice: 'bad \u001b]0;x\u0007 path\r\u202e' })) as { systemMessage: string };
    expect(out.systemMessage).toBe('bad \\x1b]0;x\\x07 path\\r\\u202e');
    expect(encodeHookOutput(agent, { kind: 'pass', notice: '  ' })).toBe('');
  });
});
