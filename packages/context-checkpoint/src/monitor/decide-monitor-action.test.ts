import type { TokenUsage } from '@agent-checkpoint/core';
import { estimateContextGrowth, type ContextGrowth } from '../context/estimate-context-growth.ts';
import { readContextLevel } from '../context/read-context-level.ts';
import { describe, expect, it } from 'vitest';
import type { TaskBand } from '../estimate/estimate-task.ts';
import { decideMonitorAction } from './decide-monitor-action.ts';
import type { DecideMonitorActionInput, MonitorAction, MonitorDeferral, MonitorLevel } from './monitor-action.ts';

const WINDOW = 200_000;
/** A reading at `percent` % of a 200,000-token window (2,000 tokens per percent). */
const at = (percent: number) => readContextLevel({ contextTokens: Math.round(percent * 2000) }, { windowTokens: WINDOW });
const perCall = (tokens: number): ContextGrowth => ({ samples: 2, compacted: false, tokensPerCall: tokens });

interface Row {
  readonly name: string;
  readonly percent: number;
  readonly taskSize?: TaskBand;
  readonly announced?: readonly MonitorLevel[];
  readonly deferred?: MonitorDeferral;
  readonly growth?: ContextGrowth;
  readonly lookaheadCalls?: number;
  readonly expected: Pick<MonitorAction, 'kind' | 'reason'> & { readonly timing?: 'after-step' | 'after-task'; readonly heldBack?: MonitorLevel };
}

const decide = (row: Omit<Row, 'name' | 'expected'>): MonitorAction =>
  decideMonitorAction({
    reading: at(row.percent),
    announced: row.announced ?? [],
    ...(row.taskSize ? { taskSize: row.taskSize } : {}),
    ...(row.deferred ? { deferred: row.deferred } : {}),
    ...(row.growth ? { growth: row.growth } : {}),
    ...(row.lookaheadCalls !== undefined ? { config: { policy: { lookaheadCalls: row.lookaheadCalls } } } : {}),
  });

const ROWS: readonly Row[] = [
  // Plain levels (seed 004 table: L1 70, L2 85, L3 95).
  { name: 'below L1', percent: 50, expected: { kind: 'none', reason: 'below-threshold' } },
  { name: 'one token below L1', percent: 69.9995, expected: { kind: 'none', reason: 'below-threshold' } },
  { name: 'L1 exactly', percent: 70, expected: { kind: 'warn', reason: 'threshold' } },
  { name: 'L1', percent: 80, expected: { kind: 'warn', reason: 'threshold' } },
  { name: 'L2 exactly', percent: 85, expected: { kind: 'handoff', reason: 'threshold', timing: 'after-step' } },
  { name: 'L3 exactly', percent: 95, expected: { kind: 'emergency', reason: 'threshold' } },
  { name: 'over the window', percent: 104, expected: { kind: 'emergency', reason: 'threshold' } },
  // P1: "60 % + large task → hand off at 70 %".
  { name: 'large task below 60 %', percent: 59.9, taskSize: 'large', expected: { kind: 'none', reason: 'below-threshold' } },
  { name: 'large task at 60 %: early warning', percent: 60, taskSize: 'large', expected: { kind: 'warn', reason: 'large-task' } },
  { name: 'large task at 70 %: handoff', percent: 70, taskSize: 'large', expected: { kind: 'handoff', reason: 'large-task', timing: 'after-step' } },
  { name: 'medium task at 70 %: only the L1 warning', percent: 70, taskSize: 'medium', expected: { kind: 'warn', reason: 'threshold' } },
  { name: 'medium task at 84 %', percent: 84, taskSize: 'medium', expected: { kind: 'warn', reason: 'threshold' } },
  // P1: "80 % + small task → finish, then hand off".
  { name: 'small task at 79.9 %', percent: 79.9, taskSize: 'small', expected: { kind: 'warn', reason: 'threshold' } },
  { name: 'small task at 80 %: finish, then hand off', percent: 80, taskSize: 'small', expected: { kind: 'handoff', reason: 'small-task', timing: 'after-task' } },
  { name: 'small task at L2: the step, not the task', percent: 85, taskSize: 'small', expected: { kind: 'handoff', reason: 'threshold', timing: 'after-step' } },
  // P1: "90 % → emergency", whatever the task.
  { name: '89.9 %', percent: 89.9, expected: { kind: 'handoff', reason: 'threshold', timing: 'after-step' } },
  { name: '90 %, no estimate', percent: 90, expected: { kind: 'emergency', reason: 'p1-emergency' } },
  { name: '90 %, small task', percent: 90, taskSize: 'small', expected: { kind: 'emergency', reason: 'p1-emergency' } },
  { name: '90 %, large task', percent: 90, taskSize: 'large', expected: { kind: 'emergency', reason: 'p1-emergency' } },
  // Trajectory (MON-003): the next call would cross the next level.
  { name: 'L1 and the next call reaches L2', percent: 75, growth: perCall(20_000), expected: { kind: 'handoff', reason: 'trajectory', timing: 'after-step' } },
  { name: 'L1 and the next call stops short of L2', percent: 75, growth: perCall(19_999), expected: { kind: 'warn', reason: 'threshold' } },
  { name: 'L2 and the next call reaches L3', percent: 86, growth: perCall(18_000), expected: { kind: 'emergency', reason: 'trajectory' } },
  { name: 'below L1 a fast pace alone does nothing', percent: 60, growth: perCall(100_000), expected: { kind: 'none', reason: 'below-threshold' } },
  { name: 'trajectory off (lookaheadCalls 0)', percent: 75, growth: perCall(20_000), lookaheadCalls: 0, expected: { kind: 'warn', reason: 'threshold' } },
  { name: 'two calls of look-ahead', percent: 75, growth: perCall(10_000), lookaheadCalls: 2, expected: { kind: 'handoff', reason: 'trajectory', timing: 'after-step' } },
  // Once per level.
  { name: 'L1 already announced', percent: 72, announced: ['L1'], expected: { kind: 'none', reason: 'already-announced', heldBack: 'L1' } },
  { name: 'L2 after L1', percent: 86, announced: ['L1'], expected: { kind: 'handoff', reason: 'threshold', timing: 'after-step' } },
  { name: 'L2 already acted on', percent: 86, announced: ['L1', 'L2'], expected: { kind: 'none', reason: 'already-announced', heldBack: 'L2' } },
  { name: 'L1 after L2 (a dip): nothing', percent: 72, announced: ['L2'], expected: { kind: 'none', reason: 'already-announced', heldBack: 'L1' } },
  { name: 'L3 after L2', percent: 96, announced: ['L2'], expected: { kind: 'emergency', reason: 'threshold' } },
  { name: 'L3 already acted on', percent: 99, announced: ['L3'], expected: { kind: 'none', reason: 'already-announced', heldBack: 'L3' } },
  { name: 'large-task handoff after the early warning', percent: 70, taskSize: 'large', announced: ['L1'], expected: { kind: 'handoff', reason: 'large-task', timing: 'after-step' } },
  // "One more task" (point 8): L1/L2 deferred, never the emergency.
  { name: 'L1 deferred', percent: 72, deferred: { upTo: 'L1' }, expected: { kind: 'none', reason: 'deferred', heldBack: 'L1' } },
  { name: 'L2 not covered by an L1 deferral', percent: 86, deferred: { upTo: 'L1' }, expected: { kind: 'handoff', reason: 'threshold', timing: 'after-step' } },
  { name: 'L2 deferred', percent: 86, deferred: { upTo: 'L2' }, expected: { kind: 'none', reason: 'deferred', heldBack: 'L2' } },
  { name: 'a deferral never holds the 90 % emergency', percent: 90, deferred: { upTo: 'L2' }, expected: { kind: 'emergency', reason: 'p1-emergency' } },
  { name: 'a deferral never holds L3', percent: 96, deferred: { upTo: 'L2' }, expected: { kind: 'emergency', reason: 'threshold' } },
];

describe('decideMonitorAction: policy table', () => {
  it.each(ROWS)('$name', (row) => {
    const action = decide(row);
    expect(action.kind).toBe(row.expected.kind);
    expect(action.reason).toBe(row.expected.reason);
    if (row.expected.timing) expect(action.kind === 'handoff' && action.timing).toBe(row.expected.timing);
    if (row.expected.heldBack) expect(action.kind === 'none' && action.heldBack).toBe(row.expected.heldBack);
    // The action stands for the level its kind acts on.
    const expectedLevel = { none: undefined, warn: 'L1', handoff: 'L2', emergency: 'L3' }[action.kind];
    expect(action.kind === 'none' ? undefined : action.level).toBe(expectedLevel);
  });

  it('no usage and an unknown window are none', () => {
    expect(decideMonitorAction({ reading: undefined, announced: [] })).toEqual({ kind: 'none', reason: 'no-usage' });
    const unknown = readContextLevel({ contextTokens: 190_000, model: 'some-unknown-model' });
    expect(decideMonitorAction({ reading: unknown, announced: [] })).toMatchObject({ kind: 'none', reason: 'unknown-window' });
  });

  it('acting on a level, then recording it, never repeats it', () => {
    const announced: MonitorLevel[] = [];
    const kinds: string[] = [];
    for (const percent of [65, 70, 72, 78, 84, 85, 86, 90, 94, 95, 99]) {
      const action = decide({ percent, announced: [...announced] });
      kinds.push(action.kind);
      if (action.kind !== 'none') announced.push(action.level);
    }
    expect(kinds).toEqual(['none', 'warn', 'none', 'none', 'none', 'handoff', 'none', 'emergency', 'none', 'none', 'none']);
    expect(announced).toEqual(['L1', 'L2', 'L3']);
  });
});

describe('decideMonitorAction: alert texts', () => {
  it('defaults to the seed texts with the percentage filled in', () => {
    const warn = decide({ percent: 72.6 });
    expect(warn.kind === 'warn' && warn.text).toMatch(/^⚠️ Context at 72% - Consider completing current task before starting new work\.\n/);
    const handoff = decide({ percent: 85 });
    expect(handoff.kind === 'handoff' && handoff.text).toMatch(/^🔶 Context at 85% - Initiating checkpoint sequence\.\nCompleting current edit, then generating handoff document\./);
    const emergency = decide({ percent: 95 });
    expect(emergency.kind === 'emergency' && emergency.text).toMatch(/^🔴 Context at 95% - Emergency checkpoint!\nCommitting WIP changes and generating handoff NOW\./);
  });

  it('says why a Principle 1 rule acted early', () => {
    const large = decide({ percent: 70, taskSize: 'large' });
    expect(large.kind !== 'none' && large.text).toContain('A large task is ahead: handing off at 70% instead of 85%');
    const small = decide({ percent: 80, taskSize: 'small' });
    expect(small.kind !== 'none' && small.text).toContain('A small task remains: finish it, then hand off.');
    const emergency = decide({ percent: 91 });
    expect(emergency.kind !== 'none' && emergency.text).toContain('Past 90%');
    const trajectory = decide({ percent: 75, growth: perCall(20_000) });
    expect(trajectory.kind !== 'none' && trajectory.text).toContain('At about 20,000 tokens per call the next call would pass 85%');
  });

  it('predicts calls and minutes to the next level from the measured growth (MON-002/003)', () => {
    // 10 calls, one a minute, 5,000 tokens each: 95,000 → 140,000 tokens (70 %).
    const history: TokenUsage[] = Array.from({ length: 10 }, (_, i) => ({
      contextTokens: 95_000 + 5_000 * i,
      timestamp: new Date(Date.UTC(2026, 0, 1, 10, i)).toISOString(),
    }));
    const growth = estimateContextGrowth(history, { contextWindow: WINDOW });
    const reading = readContextLevel(history.at(-1), { windowTokens: WINDOW });
    const action = decideMonitorAction({ reading, growth, announced: [] });
    expect(action.kind).toBe('warn');
    if (action.kind !== 'warn') return;
    // L2 is 170,000: 30,000 tokens left, 6 calls at 5,000 per call, 6 minutes at 5,000 per minute.
    expect(action.forecast).toEqual({ target: 'L2', percent: 85, tokens: 30_000, calls: 6, minutes: 6 });
    expect(action.text).toContain('L2 (85%) comes in about 6 calls / 6 min at the current pace (30,000 tokens left).');
  });

  it('adds the issue line at L2 and L3 only, and escapes untrusted names', () => {
    const issueId = 'ANV-123\u001b[2J\rX';
    const handoff = decideMonitorAction({ reading: at(86), announced: [], issueId });
    expect(handoff.kind === 'handoff' && handoff.text).toContain('Linear issue "ANV-123\\x1b[2J\\rX" will be updated with progress.');
    const warn = decideMonitorAction({ reading: at(72), announced: [], issueId });
    expect(warn.kind === 'warn' && warn.text).not.toContain('Linear');
    // An assumed window names the model, escaped.
    const reading = readContextLevel({ contextTokens: 175_000, model: 'claude-opus-9\u0007\nFAKE LINE' });
    expect(reading?.windowSource).toBe('model-table');
    const action = decideMonitorAction({ reading, announced: [] });
    expect(action.kind).toBe('handoff');
    const text = action.kind === 'handoff' ? (action.text ?? '') : '';
    expect(text).toContain('assumed for model "claude-opus-9\\x07\\nFAKE LINE"');
    expect(text.split('\n').some((line) => line.startsWith('FAKE LINE'))).toBe(false);
    for (const value of [handoff, warn, action]) {
      const raw = [...(value.kind === 'none' ? '' : (value.text ?? ''))].filter((char) => {
        const code = char.charCodeAt(0);
        return (code < 0x20 && char !== '\n' && char !== '\t') || code === 0x7f;
      });
      expect(raw).toEqual([]);
    }
  });

  it('configured texts: placeholders, control characters escaped, "" drops the text but not the action', () => {
    const custom = decideMonitorAction({ reading: at(72), announced: [], config: { alerts: { l1: 'ctx {percent}% {level}\u001b' } } });
    expect(custom.kind === 'warn' && custom.text).toBe('ctx 72% L1\\x1b');
    const silent = decideMonitorAction({ reading: at(72), announced: [], config: { alerts: { l1: '' } } });
    expect(silent.kind).toBe('warn');
    expect(silent.kind === 'warn' && 'text' in silent).toBe(false);
  });

  it('untrusted policy numbers fall back to the defaults', () => {
    const input: DecideMonitorActionInput = {
      reading: at(90),
      announced: [],
      config: { policy: { emergencyPercent: Number.NaN, largeTaskHandoffPercent: -5, lookaheadCalls: Number.POSITIVE_INFINITY } },
    };
    expect(decideMonitorAction(input)).toMatchObject({ kind: 'emergency', reason: 'p1-emergency' });
    expect(decideMonitorAction({ ...input, reading: at(60), taskSize: 'large' })).toMatchObject({ kind: 'warn', reason: 'large-task' });
  });
});
