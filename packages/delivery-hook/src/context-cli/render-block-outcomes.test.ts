import { describe, expect, it } from 'vitest';
import type { BlockOutcomeReport } from '@agent-checkpoint/core';
import { renderBlockOutcomes } from './render-block-outcomes.ts';

const counts = (acted: number, disputed: number) => ({
  blocks: acted + disputed,
  outcomes: { 'acted-on': acted, disputed, ignored: 0, 'switched-off': 0, unknown: 0 },
  precision: acted / (acted + disputed),
});

describe('renderBlockOutcomes', () => {
  it('shows every count and the precision per category and rule', () => {
    const report: BlockOutcomeReport = {
      sessionsRead: 2,
      total: counts(2, 1),
      pending: 1,
      byCategory: { daemon: counts(2, 1) },
      byRule: { daemon: counts(2, 0), 'unresolved-error': counts(0, 1) },
      from: '2026-11-27T10:00:00.000Z',
      to: '2026-11-28T10:00:00.000Z',
    };
    expect(renderBlockOutcomes(report)).toBe(
      [
        'Block outcomes: 3 blocks (2026-11-27 to 2026-11-28); 1 waiting for the next stop',
        '  all: 3 blocks: acted on 2, disputed 1, ignored 0, switched off 0, unknown 0; precision 67 %',
        'By category:',
        '  daemon: 3 blocks: acted on 2, disputed 1, ignored 0, switched off 0, unknown 0; precision 67 %',
        'By rule:',
        '  daemon: 2 blocks: acted on 2, disputed 0, ignored 0, switched off 0, unknown 0; precision 100 %',
        '  unresolved-error: 1 block: acted on 0, disputed 1, ignored 0, switched off 0, unknown 0; precision 0 %',
        '',
      ].join('\n'),
    );
  });

  it('escapes control characters a configured category or rule id may hold', () => {
    const evil = 'x\u001b]0;pwned\u0007\u001b[2J';
    const text = renderBlockOutcomes({ sessionsRead: 1, total: counts(1, 0), pending: 0, byCategory: { [evil]: counts(1, 0) }, byRule: { [evil]: counts(1, 0) } });
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(text).toContain('x\\x1b]0;pwned');
  });

  it('says so when there was no block yet', () => {
    expect(renderBlockOutcomes({ sessionsRead: 0, total: { blocks: 0, outcomes: counts(0, 0).outcomes, precision: undefined }, pending: 0, byCategory: {}, byRule: {} })).toBe(
      'Block outcomes: 0 blocks\n',
    );
  });
});
