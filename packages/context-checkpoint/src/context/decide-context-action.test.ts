import { describe, expect, it } from 'vitest';
import { contextCheckpointConfigOf, type ContextCheckpointConfig } from '../config/context-config.ts';
import { resolveContextCheckpointConfig } from '../config/context-sections.ts';
import { decideContextAction } from './decide-context-action.ts';

describe('decideContextAction', () => {
  const config = (over: Parameters<typeof resolveContextCheckpointConfig>[0][number]): ContextCheckpointConfig =>
    resolveContextCheckpointConfig([{ context: { enabled: true } }, over]);
  const usage = (tokens: number) => ({ contextTokens: tokens, contextWindow: 200_000 });

  it('does nothing when monitoring is disabled (the default)', () => {
    expect(decideContextAction(usage(199_000), contextCheckpointConfigOf({}))).toEqual({ kind: 'none', reason: 'disabled' });
  });

  it('does nothing without usage, with an unknown window, or at L0', () => {
    expect(decideContextAction(undefined, config(undefined))).toEqual({ kind: 'none', reason: 'no-usage' });
    expect(decideContextAction({ contextTokens: 9 }, config(undefined))).toMatchObject({ kind: 'none', reason: 'unknown-window' });
    expect(decideContextAction(usage(1000), config(undefined))).toMatchObject({ kind: 'none', reason: 'below-threshold' });
  });

  it('warns at every level while handoffs are disabled', () => {
    expect(decideContextAction(usage(150_000), config(undefined))).toMatchObject({ kind: 'warn', level: 'L1', line: expect.stringMatching(/^⚠️ Context at 75% - Consider completing current task/) });
    expect(decideContextAction(usage(195_000), config(undefined))).toMatchObject({ kind: 'warn', level: 'L3' });
  });

  it('asks for a handoff at the handoff level, directly when direct execution is on', () => {
    expect(decideContextAction(usage(150_000), config({ handoff: { enabled: true } }))).toMatchObject({ kind: 'warn', level: 'L1' });
    expect(decideContextAction(usage(172_000), config({ handoff: { enabled: true } }))).toMatchObject({ kind: 'handoff', level: 'L2', mode: 'ask-agent' });
    expect(decideContextAction(usage(172_000), config({ handoff: { enabled: true }, directExecution: { enabled: true } }))).toMatchObject({
      kind: 'handoff',
      mode: 'direct',
    });
    expect(decideContextAction(usage(172_000), config({ handoff: { enabled: true, atLevel: 'L3' } }))).toMatchObject({ kind: 'warn', level: 'L2' });
  });

  it('omits the line of a silenced level but keeps the decision', () => {
    const action = decideContextAction(usage(150_000), config({ context: { messages: { l1: '' } } }));
    expect(action).toMatchObject({ kind: 'warn', level: 'L1' });
    expect('line' in action).toBe(false);
  });

  it('uses context.windowTokens', () => {
    expect(decideContextAction({ contextTokens: 90_000, model: 'mock' }, config({ context: { windowTokens: 100_000 } }))).toMatchObject({
      kind: 'warn',
      level: 'L2',
    });
  });
});
