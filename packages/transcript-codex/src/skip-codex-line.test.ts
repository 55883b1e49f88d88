import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { olderDerived, rollout0169 } from './codex-fixtures.ts';
import { parseCodexLine } from './parse-codex-line.ts';
import { skipCodexLine } from './skip-codex-line.ts';

const ALL = [
  rollout0169('exec'),
  rollout0169('tmux'),
  rollout0169('tui-interrupt'),
  rollout0169('tui-steer-and-injection'),
  olderDerived('turn-ids-legacy-events'),
  olderDerived('positional-markers'),
  olderDerived('positional-messages'),
].flatMap((path) => readFileSync(path, 'utf8').split('\n').filter(Boolean));
/** The same lines in Codex's own compact layout (the fixtures' sanitized lines use ", " separators). */
const COMPACT = ALL.map((line) => JSON.stringify(JSON.parse(line)));

describe('skipCodexLine', () => {
  it('skips world_state, developer messages and reasoning written by Codex', () => {
    const skipped = COMPACT.filter(skipCodexLine).map((line) => {
      const { type, payload } = JSON.parse(line) as { type: string; payload: { type?: string; role?: string } };
      return type === 'response_item' ? `${payload.type}/${payload.role ?? ''}` : type;
    });
    expect(new Set(skipped)).toEqual(new Set(['world_state', 'message/developer', 'reasoning/']));
    expect(skipped.filter((kind) => kind === 'world_state')).toHaveLength(4);
  });

  it('never skips a line the reader needs', () => {
    const skipped = [...ALL, ...COMPACT].filter(skipCodexLine);
    expect(skipped.length, 'lines skipped, so the check below is not vacuous').toBeGreaterThan(0);
    for (const line of skipped) expect(parseCodexLine(JSON.parse(line), 0)).toEqual([]);
  });

  it('matches only the line structure, never text inside a payload', () => {
    const tricky = JSON.stringify({
      timestamp: 't',
      type: 'response_item',
      payload: { type: 'function_call_output', call_id: 'c', output: '{"timestamp":"t","type":"world_state"}' },
    });
    expect(skipCodexLine(tricky)).toBe(false);
    expect(skipCodexLine('{"timestamp":"t","ordinal":3,"type":"compacted","payload":{}}')).toBe(true);
    expect(skipCodexLine('{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[]}}')).toBe(false);
  });
});
