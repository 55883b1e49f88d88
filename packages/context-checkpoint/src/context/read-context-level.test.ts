import { describe, expect, it } from 'vitest';
import type { TokenUsage } from '@agent-checkpoint/core';
import { DEFAULT_CONTEXT_MESSAGES } from '../config/context-config.ts';
import { lookupModelWindow } from './model-context-windows.ts';
import { implausibleUsage, levelOf, levelRank, MAX_PLAUSIBLE_CONTEXT_TOKENS, readContextLevel } from './read-context-level.ts';
import { formatTokens, renderContextLine, renderContextStatus } from './render-context-line.ts';

// Usage records shaped exactly as the transcript readers build them from the real fixtures:
// - Claude 2.1.330 (fixtures/claude/2.1.330/stop-block-json.jsonl): usage.input_tokens 2695, cache 0,
//   model "claude-opus-5-5" → contextTokens 2695, no window;
// - Codex 0.169.0 (fixtures/codex/0.169.0/exec/rollout-…jsonl): token_count last_token_usage.input_tokens
//   1000, model_context_window 258400, turn_context model "gpt-5.5";
// - Gemini 0.61.0 (fixtures/gemini/0.61.0/session-interactive-tmux.jsonl): tokens.input 100,
//   model "gemini-2.5-flash".
const claudeUsage: TokenUsage = { contextTokens: 2695, outputTokens: 10, model: 'claude-opus-5-5' };
const codexUsage: TokenUsage = {
  contextTokens: 1000,
  outputTokens: 50,
  contextWindow: 258_400,
  model: 'gpt-5.5',
  timestamp: '2026-11-22T02:13:04.109Z',
};
const geminiUsage: TokenUsage = { contextTokens: 100, outputTokens: 10, model: 'gemini-2.5-flash' };

describe('readContextLevel: window sources', () => {
  it('uses the window Codex records in the transcript', () => {
    const r = readContextLevel(codexUsage);
    expect(r).toMatchObject({ windowSource: 'transcript', contextWindow: 258_400, contextTokens: 1000, level: 'L0', displayPercent: 0 });
    expect(r?.percent).toBeCloseTo(0.387, 3);
  });

  it('looks up Claude and Gemini models in the table (Claude Code and Gemini CLI record no window)', () => {
    expect(readContextLevel(claudeUsage)).toMatchObject({
      windowSource: 'model-table',
      contextWindow: 200_000,
      level: 'L0',
      model: 'claude-opus-5-5',
      table: { family: 'Claude (later families)', certain: false, extended: false },
    });
    expect(readContextLevel(geminiUsage)).toMatchObject({
      windowSource: 'model-table',
      contextWindow: 1_048_576,
      table: { family: 'Gemini 2.x', certain: true },
    });
  });

  it('lets context.windowTokens win over the transcript and the table', () => {
    expect(readContextLevel(codexUsage, { windowTokens: 2000 })).toMatchObject({ windowSource: 'config', contextWindow: 2000, percent: 50, level: 'L0' });
    expect(readContextLevel({ ...claudeUsage, contextTokens: 1800 }, { windowTokens: 2000 })).toMatchObject({
      windowSource: 'config',
      level: 'L2',
      displayPercent: 90,
    });
  });

  it('reports an unknown model as unknown, with tokens and no level', () => {
    const r = readContextLevel({ contextTokens: 5000, model: 'mock-model' });
    expect(r).toEqual({ windowSource: 'unknown', contextTokens: 5000, model: 'mock-model' });
    expect(r?.level).toBeUndefined();
    expect(readContextLevel({ contextTokens: 5000 })).toEqual({ windowSource: 'unknown', contextTokens: 5000 });
  });

  it('returns undefined without usage or with nonsense counts', () => {
    expect(readContextLevel(undefined)).toBeUndefined();
    expect(readContextLevel({ contextTokens: Number.NaN })).toBeUndefined();
    expect(readContextLevel({ contextTokens: -1 })).toBeUndefined();
  });

  it('an absurd count (1e300 tokens, an infinite or absurd window) is no reading, with the reason: never L3 at 1e+297 %', () => {
    for (const usage of [{ contextTokens: 1e300 }, { contextTokens: MAX_PLAUSIBLE_CONTEXT_TOKENS + 1, contextWindow: 200_000 }, { contextTokens: 5000, contextWindow: Number.POSITIVE_INFINITY }, { contextTokens: 5000, contextWindow: 1e300 }]) {
      expect(readContextLevel(usage, { windowTokens: 200_000 }), JSON.stringify(usage)).toBeUndefined();
      expect(implausibleUsage(usage)).toMatch(/not a plausible (count|size): treated as unknown/);
    }
    expect(implausibleUsage({ contextTokens: 2_000_000, contextWindow: 2_000_000 })).toBeUndefined();
  });

  it('shows a share of at most 100 % (a window set too small): the level says L3, the number no more than full', () => {
    const r = readContextLevel({ contextTokens: 500_000 }, { windowTokens: 200_000 });
    expect(r).toMatchObject({ level: 'L3', displayPercent: 100, percent: 250 });
  });

  it('ignores a recorded window that is zero or not finite', () => {
    expect(readContextLevel({ ...codexUsage, contextWindow: 0 })).toMatchObject({ windowSource: 'model-table', contextWindow: 272_000 });
  });

  it('switches Claude to the extended 1M window when usage already exceeds 200k', () => {
    const r = readContextLevel({ contextTokens: 350_000, model: 'claude-sonnet-4-5-20250929' });
    expect(r).toMatchObject({ windowSource: 'model-table', contextWindow: 1_000_000, level: 'L0', table: { extended: true, certain: true } });
  });
});

describe('readContextLevel: threshold boundaries (defaults 70/85/95)', () => {
  const at = (tokens: number) => readContextLevel({ contextTokens: tokens, contextWindow: 200_000 });
  it.each([
    [139_999, 'L0', 69],
    [140_000, 'L1', 70],
    [169_999, 'L1', 84],
    [170_000, 'L2', 85],
    [189_999, 'L2', 94],
    [190_000, 'L3', 95],
    [200_000, 'L3', 100],
    [230_000, 'L3', 100], // over the window: a share shows at most 100 %
  ])('%i of 200,000 tokens is %s shown as %i%%', (tokens, level, shown) => {
    expect(at(tokens)).toMatchObject({ level, displayPercent: shown });
  });

  it('is exact where float percentages are not (258,400 window, 85 % = 219,640)', () => {
    expect(readContextLevel({ contextTokens: 219_640, contextWindow: 258_400 })?.level).toBe('L2');
    expect(readContextLevel({ contextTokens: 219_639, contextWindow: 258_400 })?.level).toBe('L1');
  });

  it('applies configured thresholds', () => {
    const thresholds = { l1: 40, l2: 60, l3: 80 };
    expect(readContextLevel({ contextTokens: 80, contextWindow: 200 }, { thresholds })?.level).toBe('L1');
    expect(readContextLevel({ contextTokens: 120, contextWindow: 200 }, { thresholds })?.level).toBe('L2');
    expect(readContextLevel({ contextTokens: 160, contextWindow: 200 }, { thresholds })?.level).toBe('L3');
    expect(levelOf(79, 200, thresholds)).toBe('L0');
  });

  it('orders levels', () => {
    expect(['L3', 'L0', 'L2', 'L1'].map((l) => levelRank(l as 'L0')).sort()).toEqual([0, 1, 2, 3]);
  });
});

describe('lookupModelWindow', () => {
  it.each([
    ['claude-opus-4-1-20250805', 200_000, true],
    ['us.anthropic.claude-sonnet-4-20250514-v1:0', 200_000, true],
    ['claude-3-5-haiku-20241022', 200_000, true],
    ['models/gemini-2.5-pro', 1_048_576, true],
    ['gemini-3-pro-preview', 1_048_576, false],
    ['gemini-1.5-pro-002', 2_097_152, true],
    ['gpt-5', 272_000, true],
    ['gpt-5-codex', 272_000, true],
    ['gpt-5.1-codex-max', 272_000, false],
    ['GPT-4.1-mini', 1_047_576, true],
    ['o4-mini', 200_000, true],
    ['o3', 200_000, true],
  ])('%s → %i (certain: %s)', (model, window, certain) => {
    expect(lookupModelWindow(model)).toMatchObject({ window, entry: { certain } });
  });

  it('knows nothing of unknown models', () => {
    expect(lookupModelWindow('mock-model')).toBeUndefined();
    expect(lookupModelWindow('gpt-4o')).toBeUndefined();
    expect(lookupModelWindow('')).toBeUndefined();
    expect(lookupModelWindow(undefined)).toBeUndefined();
  });
});

describe('renderContextLine / renderContextStatus', () => {
  const reading = (tokens: number) => readContextLevel({ contextTokens: tokens, contextWindow: 200_000 });

  it('renders the default line of each level, nothing at L0 or for an unknown window', () => {
    expect(renderContextLine(reading(100_000))).toBeUndefined();
    // Seed 004's alert texts ("Alert Messages"), `/handoff` renamed to the checkpoint command (the CLI on the PATH by default).
    expect(renderContextLine(reading(172_000))).toBe('🔶 Context at 86% - Initiating checkpoint sequence.\nCompleting current edit, then generating handoff document.');
    expect(renderContextLine(reading(140_000))).toBe(
      '⚠️ Context at 70% - Consider completing current task before starting new work.\nRun `agent-checkpoint-hook checkpoint` to checkpoint, or continue if task is nearly complete.',
    );
    // A plugin route's form of the command, as its hook passes it.
    expect(renderContextLine(reading(140_000), undefined, "node '/p q/dist/agent-checkpoint-hook.cjs' checkpoint")).toContain("Run `node '/p q/dist/agent-checkpoint-hook.cjs' checkpoint` to checkpoint");
    expect(renderContextLine(reading(199_000))).toBe(
      '🔴 Context at 99% - Emergency checkpoint!\nCommitting WIP changes and generating handoff NOW.\nThe next session resumes from the handoff.',
    );
    expect(renderContextLine(readContextLevel({ contextTokens: 10 }))).toBeUndefined();
    expect(renderContextLine(undefined)).toBeUndefined();
  });

  it('has no control characters besides line breaks in the default lines (the seed texts carry emoji by design, issue 14 point 8)', () => {
    for (const line of Object.values(DEFAULT_CONTEXT_MESSAGES)) expect(line).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });

  it('substitutes every placeholder and lets "" silence a level', () => {
    const messages = { l1: '{level} {percent}% {tokens}/{window}, {remaining} left {unknown}', l2: '', l3: 'x' };
    expect(renderContextLine(reading(150_000), messages)).toBe('L1 75% 150,000/200,000, 50,000 left {unknown}');
    expect(renderContextLine(reading(175_000), messages)).toBeUndefined();
  });

  it('renders a short status', () => {
    expect(renderContextStatus(reading(164_000))).toBe('ctx 82% L1');
    expect(renderContextStatus(readContextLevel({ contextTokens: 41_200 }))).toBe('ctx 41,200 tokens');
    expect(renderContextStatus(undefined)).toBe('ctx n/a');
    expect(formatTokens(1_048_576)).toBe('1,048,576');
    expect(formatTokens(999)).toBe('999');
  });
});
