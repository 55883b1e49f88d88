import { describe, expect, it } from 'vitest';
import { checkHandoffResponse, createHandoffRequest, phaseStatusOf, SUB_AGENT_MODES, truncateSummary } from './handoff-protocol.ts';
import { countTokens } from './token-counter.ts';

const words = (n: number): string => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
const request = (previous: string | null, extra: Record<string, unknown> = {}) => ({ mode: 'code', task: 'Implement the token exchange', context: { previous_summary: previous }, ...extra });

describe('the sub-agent handoff request (seed 002 protocol)', () => {
  it('requires a known mode, a task and context.previous_summary (null for the first phase); unknown fields are kept', () => {
    for (const mode of SUB_AGENT_MODES) expect(createHandoffRequest({ ...request(null), mode }).ok).toBe(true);
    const made = createHandoffRequest(request('design done', { priority: 'high' }));
    expect(made).toMatchObject({ ok: true, value: { mode: 'code', context: { previous_summary: 'design done' }, priority: 'high' } });
    const noMode = createHandoffRequest({ task: 't', context: { previous_summary: null } });
    expect(noMode.ok).toBe(false);
    expect(!noMode.ok && noMode.errors[0]).toMatch(/^mode: /);
    expect(createHandoffRequest({ ...request(null), mode: 'deploy' }).ok).toBe(false);
    expect(createHandoffRequest({ mode: 'code', task: 't', context: {} }).ok).toBe(false);
  });

  it('refuses the old previous_findings name with a pointer to previous_summary', () => {
    const old = createHandoffRequest({ mode: 'plan', task: 't', context: { previous_findings: 'x' } });
    expect(old).toEqual({ ok: false, errors: ['context.previous_findings was renamed context.previous_summary'] });
  });

  it('enforces the 500-token limit on creation: 500 words pass, 501 are rejected with the seed\'s message', () => {
    expect(createHandoffRequest(request(words(500))).ok).toBe(true);
    expect(createHandoffRequest(request(words(501)))).toEqual({ ok: false, errors: ['Context summary exceeds 500 token limit (actual: 501 tokens)'] });
  });
});

describe('the sub-agent response', () => {
  it('validates the shape; a context_summary over the limit is a warning, not an error', () => {
    expect(checkHandoffResponse({ status: 'complete', context_summary: words(10), files_created: ['a.ts'] })).toMatchObject({ ok: true, warnings: [] });
    expect(checkHandoffResponse({ status: 'complete', context_summary: words(600) })).toMatchObject({ ok: true, warnings: ['Context summary exceeds 500 token limit (actual: 600 tokens)'] });
    expect(checkHandoffResponse({ status: 'done' }).ok).toBe(false);
    expect(checkHandoffResponse({ status: 'complete', files_created: 'a.ts' }).ok).toBe(false);
    expect(checkHandoffResponse('complete').ok).toBe(false);
  });

  it('truncates to the limit when the orchestrator chooses to; maps statuses to phase statuses', () => {
    const cut = truncateSummary(words(600));
    expect(countTokens(cut)).toBe(500);
    expect(cut.endsWith(' …')).toBe(true);
    expect(truncateSummary('short one')).toBe('short one');
    expect([phaseStatusOf('complete'), phaseStatusOf('failed'), phaseStatusOf('partial'), phaseStatusOf('blocked')]).toEqual(['complete', 'failed', 'in_progress', 'in_progress']);
  });
});
