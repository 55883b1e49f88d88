import { describe, expect, it } from 'vitest';
import { makeOutputExcerpt } from '../timeline/make-output-excerpt.ts';
import type { ShellToolCall, ToolCall } from '../timeline/tool-call.ts';
import { emptyTimeline, type TurnTimeline } from '../timeline/turn-timeline.ts';
import { timelineViolations } from './transcript-timeline-invariants.ts';

const shell = (over: Partial<ShellToolCall> = {}): ShellToolCall => ({
  kind: 'shell',
  id: 'c1',
  rawName: 'Bash',
  input: { command: 'npm test' },
  paths: [],
  outcome: 'success',
  command: 'npm test',
  exitCode: 0,
  ...over,
});

const timeline = (over: Partial<TurnTimeline> = {}): TurnTimeline => ({
  agent: 'claude',
  hasData: true,
  calls: [shell()],
  checkpointsDelivered: 0,
  truncated: false,
  diagnostics: [],
  turnId: 't1',
  startedAt: '2026-11-22T03:20:59.533Z',
  readStats: { bytesRead: 100, fileBytes: 100 },
  ...over,
});

const check = (t: unknown, maxBytes?: number): string[] =>
  timelineViolations(t as TurnTimeline, { agent: 'claude', ...(maxBytes === undefined ? {} : { maxBytes }) });

describe('timelineViolations', () => {
  it('accepts valid timelines, with data or without', () => {
    expect(check(timeline())).toEqual([]);
    expect(check(emptyTimeline('claude', { level: 'warn', code: 'missing-file', message: 'gone' }))).toEqual([]);
    const long = 'x'.repeat(10_000);
    expect(check(timeline({ calls: [shell({ output: makeOutputExcerpt(long) }), shell({ id: 'c2', output: makeOutputExcerpt('short') })] }))).toEqual([]);
    // An output that fits the whole budget is kept whole in `head`.
    expect(check(timeline({ calls: [shell({ output: makeOutputExcerpt('y'.repeat(4000)) })] }))).toEqual([]);
  });

  it.each<[string, unknown, RegExp]>([
    ['wrong agent', timeline({ agent: 'codex' }), /agent is "codex"/],
    ['calls without data', timeline({ hasData: false }), /hasData is false but 1 call/],
    ['no data without a reason', emptyTimeline('claude'), /without a diagnostic/],
    ['truncated without data', { ...emptyTimeline('claude', { level: 'warn', code: 'x', message: 'y' }), truncated: true }, /hasData is false but truncated/],
    ['duplicate ids', timeline({ calls: [shell(), shell()] }), /not unique/],
    ['empty id', timeline({ calls: [shell({ id: '' })] }), /id is not a non-empty string/],
    ['unknown kind', timeline({ calls: [{ ...shell(), kind: 'exec' } as unknown as ToolCall] }), /kind "exec"/],
    ['empty rawName', timeline({ calls: [shell({ rawName: ' ' })] }), /rawName/],
    ['shell without command', timeline({ calls: [{ ...shell(), command: undefined } as unknown as ToolCall] }), /without a command/],
    ['shell with paths', timeline({ calls: [shell({ paths: ['a.py'] })] }), /lists paths/],
    ['web call with paths', timeline({ calls: [{ kind: 'web', id: 'w', rawName: 'WebFetch', input: {}, paths: ['a.md'], outcome: 'success' }] }), /a web call lists paths/],
    ['plan call with paths', timeline({ calls: [{ kind: 'plan', id: 'p', rawName: 'update_plan', input: {}, paths: ['PLAN.md'], outcome: 'success' }] }), /a plan call lists paths/],
    ['non-zero exit as success', timeline({ calls: [shell({ exitCode: 2 })] }), /exit code 2 with outcome success/],
    ['pending with an exit code', timeline({ calls: [shell({ outcome: 'pending', exitCode: 0 })] }), /pending call .* exit code 0/],
    ['fractional exit code', timeline({ calls: [shell({ exitCode: 1.5, outcome: 'error' })] }), /not an integer/],
    ['unknown outcome', timeline({ calls: [shell({ outcome: 'done' as 'success' })] }), /outcome "done"/],
    ['exit code on a read', timeline({ calls: [{ kind: 'read', id: 'r', rawName: 'Read', input: {}, paths: ['a'], outcome: 'success', exitCode: 0 } as unknown as ToolCall] }), /shell fields/],
    ['oversized excerpt', timeline({ calls: [shell({ output: { head: 'h'.repeat(5000), tail: '', totalLength: 5000, truncated: false } })] }), /keeps 5000 characters, budget 4096/],
    ['cut head over budget', timeline({ calls: [shell({ output: { head: 'h'.repeat(2000), tail: 't', totalLength: 9000, truncated: true } })] }), /cut output head has 2000/],
    ['inconsistent truncated flag', timeline({ calls: [shell({ output: { head: 'abc', tail: '', totalLength: 10, truncated: false } })] }), /truncated=false but keeps 3 of 10/],
    ['bad timestamp', timeline({ calls: [shell({ timestamp: 'yesterday' })] }), /not an ISO-8601 time/],
    ['bad diagnostic code', timeline({ diagnostics: [{ level: 'warn', code: 'Cap Reached', message: 'm' }] }), /lower-case hyphenated/],
    ['bad diagnostic level', timeline({ diagnostics: [{ level: 'error' as 'warn', code: 'x', message: 'm' }] }), /level "error"/],
    ['truncated without a warning', timeline({ truncated: true, diagnostics: [{ level: 'info', code: 'x', message: 'm' }] }), /truncated is true without a warning/],
    ['negative checkpoints', timeline({ checkpointsDelivered: -1 }), /checkpointsDelivered/],
    ['empty turn id', timeline({ turnId: '' }), /turnId is an empty string/],
    ['long prompt', timeline({ prompt: 'p'.repeat(2001) }), /prompt has 2001 characters/],
    ['read past the file', timeline({ readStats: { bytesRead: 200, fileBytes: 100 } }), /exceeds the file size/],
    ['usage history too long', timeline({ usageHistory: Array.from({ length: 21 }, () => ({ contextTokens: 1 })) }), /usageHistory has 21/],
    ['negative tokens', timeline({ tokenUsage: { contextTokens: -5 } }), /contextTokens is -5/],
  ])('rejects %s', (_name, value, message) => {
    const violations = check(value);
    expect(violations.join('\n')).toMatch(message);
  });

  it('checks bytesRead against the cap it is given', () => {
    expect(check(timeline({ readStats: { bytesRead: 600, fileBytes: 10_000 } }), 512)).toEqual([
      'readStats.bytesRead 600 exceeds the 512-byte cap',
    ]);
    expect(check(timeline({ readStats: { bytesRead: 512, fileBytes: 10_000 } }), 512)).toEqual([]);
  });

  it('never throws, whatever it is given', () => {
    for (const value of [null, undefined, 42, 'x', {}, { agent: 'claude', calls: 'no' }, { agent: 'claude', calls: [null], diagnostics: [] }]) {
      expect(() => check(value)).not.toThrow();
      expect(check(value).length).toBeGreaterThan(0);
    }
  });
});
