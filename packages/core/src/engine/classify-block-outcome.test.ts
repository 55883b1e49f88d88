import { describe, expect, test } from 'vitest';
import type { CheckpointOutcome } from '../get-checkpoint-types.ts';
import type { PendingBlock } from '../state/block-outcomes.ts';
import type { ToolCall } from '../timeline/tool-call.ts';
import type { TurnTimeline } from '../timeline/turn-timeline.ts';
import { pendingBlockOf } from '../turn-end/pending-block-of.ts';
import { abs, context, edit, failed, files, read, ROOT, shell, teleclaudeConfig, timeline } from './build-test-timeline.ts';
import { classifyBlockOutcome } from './classify-block-outcome.ts';
import { runHeuristics } from './run-heuristics.ts';

const tc = teleclaudeConfig();
const DAEMON = 'teleclaude/core/foo.py';
const SWITCH = '/state/switches/session-s1.off';
const AT = '2026-11-28T05:00:00.000Z';

/** The block the engine would deliver for `blocked`: its real findings, as the claim records them. */
function blockOf(blocked: TurnTimeline): PendingBlock {
  const result = runHeuristics(files([DAEMON]), blocked, context(), tc);
  const outcome: CheckpointOutcome = { decision: 'message', message: 'x', mode: 'actionable', result, timeline: blocked, files: [], configSources: [], diagnostics: [] };
  return pendingBlockOf(outcome, tc, 'turn-1', ROOT, new Date(AT));
}

function classify(pending: PendingBlock, after: TurnTimeline | undefined, options: { sameTurn?: boolean; switchedOff?: boolean } = {}) {
  return classifyBlockOutcome({
    pending,
    timeline: after,
    sameTurn: options.sameTurn ?? true,
    switchedOff: options.switchedOff ?? false,
    escapeHatchPath: SWITCH,
    base: { root: ROOT, cwd: ROOT },
    config: tc,
  });
}

const before: ToolCall[] = [read(abs(DAEMON), { id: 'r1' }), edit(abs(DAEMON), { id: 'e1' })];
const blocked = timeline(before);

describe('block findings (pendingBlockOf)', () => {
  test('records each required action with the evidence configured for it, and the last call as the anchor', () => {
    const pending = blockOf(blocked);
    expect(pending.anchorCallId).toBe('e1');
    expect(pending.categories).toContain('daemon-code');
    const restart = pending.findings.find((f) => f.rule === 'daemon-code');
    expect(restart?.category).toBe('daemon-code');
    expect(restart?.check.kind === 'evidence' && restart.check.evidence).toContain('make restart');
  });

  test('an unresolved error is a finding checked by its failed calls', () => {
    const pending = blockOf(timeline([...before, failed('make deploy', 'boom', { id: 'f1' })]));
    const error = pending.findings.find((f) => f.rule.startsWith('unresolved-error'));
    expect(error?.check).toEqual({ kind: 'error-resolved', callIds: ['f1'] });
  });
});

describe('classifyBlockOutcome', () => {
  test('acted on: the continuation runs the required restart', () => {
    const pending = blockOf(blocked);
    const result = classify(pending, timeline([...before, shell('make restart', { id: 'c1' }), shell('make status', { id: 'c2' })]));
    expect(result.outcome).toBe('acted-on');
    expect(result.findings[pending.findings.findIndex((f) => f.rule === 'daemon-code')]).toBe('acted-on');
    expect(result.responseCalls).toBe(2);
  });

  test('a restart before the block is not the response: only calls after its last call count', () => {
    const withEarlierRestart = timeline([shell('make restart', { id: 'x0' }), ...before]);
    const pending = blockOf(withEarlierRestart);
    const result = classify(pending, timeline([...withEarlierRestart.calls, shell('ls', { id: 'c1' })]));
    expect(result.outcome).toBe('disputed');
  });

  test('a failed restart is not acted on (only successful commands are evidence)', () => {
    const pending = blockOf(blocked);
    expect(classify(pending, timeline([...before, failed('make restart', 'Error 1', { id: 'c1' })])).outcome).toBe('disputed');
  });

  test('disputed: the agent stops again in the same turn without doing anything', () => {
    expect(classify(blockOf(blocked), timeline(before)).outcome).toBe('disputed');
  });

  test('disputed: the agent runs the escape hatch, even in a later turn', () => {
    const hatch = shell(`mkdir -p '/state/switches' && touch '${SWITCH}'`, { id: 'c1' });
    const result = classify(blockOf(blocked), timeline([hatch]), { sameTurn: false, switchedOff: true });
    expect(result.outcome).toBe('disputed');
  });

  test('ignored: the next stop is of a later turn that did none of the actions', () => {
    const result = classify(blockOf(blocked), timeline([read(abs('README.md'), { id: 'n1' })]), { sameTurn: false });
    expect(result.outcome).toBe('ignored');
    expect(result.findings.every((f) => f === 'ignored')).toBe(true);
  });

  test('acted on in a later turn: the whole turn is the response', () => {
    expect(classify(blockOf(blocked), timeline([shell('make restart', { id: 'n1' })]), { sameTurn: false }).outcome).toBe('acted-on');
  });

  test('switched off: an off switch is on at the stop and nothing was done', () => {
    expect(classify(blockOf(blocked), timeline(before), { switchedOff: true }).outcome).toBe('switched-off');
  });

  test('unknown: the transcript had no data', () => {
    expect(classify(blockOf(blocked), timeline([], { hasData: false })).outcome).toBe('unknown');
    expect(classify(blockOf(blocked), undefined).outcome).toBe('unknown');
  });

  test("the block's last call lost from a truncated read: the response is found by time, or unknown", () => {
    const pending = blockOf(blocked);
    const later = { ...shell('make restart', { id: 'c1' }), timestamp: '2026-11-28T05:01:00.000Z' };
    const earlier = { ...shell('make restart', { id: 'c0' }), timestamp: '2026-11-28T04:59:00.000Z' };
    expect(classify(pending, timeline([earlier, later], { truncated: true })).outcome).toBe('acted-on');
    expect(classify(pending, timeline([earlier], { truncated: true })).outcome).toBe('disputed');
    expect(classify(pending, timeline([shell('make restart', { id: 'c1' })], { truncated: true })).outcome).toBe('unknown');
  });

  test('an unresolved error resolved by a re-run in the continuation is acted on', () => {
    const failing = timeline([...before, failed('make deploy', 'boom', { id: 'f1' })]);
    const pending = blockOf(failing);
    const result = classify(pending, timeline([...failing.calls, shell('make deploy', { id: 'c1' })]));
    const at = pending.findings.findIndex((f) => f.rule.startsWith('unresolved-error'));
    expect(result.findings[at]).toBe('acted-on');
    // The restart was not done: that finding was skipped while the block was acted on.
    expect(result.findings[pending.findings.findIndex((f) => f.rule === 'daemon-code')]).toBe('ignored');
    expect(result.outcome).toBe('acted-on');
  });

  test('a block with only advisory findings is acted on when the response made any call', () => {
    const pending: PendingBlock = { at: AT, turnId: 'turn-1', anchorCallId: 'e1', categories: [], findings: [{ rule: 'mode:context', check: { kind: 'advisory' } }] };
    expect(classify(pending, timeline([...before, read(abs('a.py'), { id: 'c1' })])).outcome).toBe('acted-on');
    expect(classify(pending, timeline(before)).outcome).toBe('disputed');
  });
});
