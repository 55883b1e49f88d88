import { emptyTimeline } from '@agent-checkpoint/core';
import { describe, expect, it } from 'vitest';
import type { HookEvent } from './hook-event.ts';
import { payloadTurnIdIsFinal, sessionKeyOf, turnKeyOf } from './hook-identity.ts';

const base: HookEvent = { agent: 'gemini', eventName: 'AfterAgent', isTurnEnd: true, stopHookActive: false, hint: {}, runningBackgroundTasks: 0 };

describe('turnKeyOf', () => {
  it('prefers the payload turn id (Claude prompt_id, Codex turn_id)', () => {
    const timeline = { ...emptyTimeline('claude'), turnId: 'from-transcript' };
    expect(turnKeyOf({ ...base, agent: 'claude', hint: { turnId: 'p1' } }, timeline)).toBe('p1');
  });

  it("takes the reader's id only when it refines the payload's (a Claude command turn reusing the prompt id)", () => {
    const claude = { ...base, agent: 'claude' as const, hint: { turnId: 'p1' } };
    expect(turnKeyOf(claude, { ...emptyTimeline('claude'), turnId: 'p1#uuid-of-command-echo' })).toBe('p1#uuid-of-command-echo');
    expect(turnKeyOf(claude, { ...emptyTimeline('claude'), turnId: 'p1' })).toBe('p1');
    // Another turn (the transcript lags the payload), or a bare suffix: the payload's id.
    expect(turnKeyOf(claude, { ...emptyTimeline('claude'), turnId: 'p0' })).toBe('p1');
    expect(turnKeyOf(claude, { ...emptyTimeline('claude'), turnId: 'p1#' })).toBe('p1');
    expect(turnKeyOf(claude, { ...emptyTimeline('claude'), turnId: 'p10' })).toBe('p1');
  });

  it('the payload id is final (early guard) only for Codex', () => {
    expect(payloadTurnIdIsFinal('codex')).toBe(true);
    expect(payloadTurnIdIsFinal('claude')).toBe(false);
    expect(payloadTurnIdIsFinal('gemini')).toBe(false);
  });

  it("uses the reader's turn id for Gemini, else a digest of the payload prompt", () => {
    const timeline = { ...emptyTimeline('gemini'), turnId: 'abc123' };
    expect(turnKeyOf({ ...base, hint: { prompt: 'do it' } }, timeline)).toBe('abc123');
    const fallback = turnKeyOf({ ...base, hint: { prompt: 'do it' } }, emptyTimeline('gemini'));
    expect(fallback).toMatch(/^prompt-[0-9a-f]{32}$/);
    expect(turnKeyOf({ ...base, hint: { prompt: 'do it' } }, undefined)).toBe(fallback);
    expect(turnKeyOf({ ...base, hint: { prompt: 'other' } }, undefined)).not.toBe(fallback);
  });

  it('is undefined when nothing identifies the turn', () => {
    expect(turnKeyOf(base, emptyTimeline('gemini'))).toBeUndefined();
  });

  it('falls back to the session when neither payload nor transcript names the turn (Copilot with an unreadable log): one key per session', () => {
    const copilot = { ...base, agent: 'copilot' as const, eventName: 'agentStop', sessionId: 's-1' };
    const key = turnKeyOf(copilot, undefined);
    expect(key).toMatch(/^unidentified-[0-9a-f]{32}$/);
    expect(turnKeyOf(copilot, emptyTimeline('copilot'))).toBe(key);
    expect(turnKeyOf({ ...copilot, sessionId: 's-2' }, undefined)).not.toBe(key);
    // A readable log names the turn: its id wins.
    expect(turnKeyOf(copilot, { ...emptyTimeline('copilot'), turnId: 't-9' })).toBe('t-9');
  });
});

describe('sessionKeyOf', () => {
  it('uses the session id, else a digest of the transcript path, else of the cwd', () => {
    expect(sessionKeyOf({ ...base, sessionId: 's1' }, '/repo')).toBe('s1');
    expect(sessionKeyOf({ ...base, transcriptPath: '/t.jsonl' }, '/repo')).toMatch(/^transcript-[0-9a-f]{32}$/);
    expect(sessionKeyOf(base, '/repo')).toMatch(/^cwd-[0-9a-f]{32}$/);
    expect(sessionKeyOf(base, '/repo')).not.toBe(sessionKeyOf(base, '/other'));
  });
});
