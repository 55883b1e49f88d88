import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { parseCodexLine } from './parse-codex-line.ts';
import { parseCodexUsageLine } from './parse-codex-usage-line.ts';

// The newest-usage reader (the monitor, after every tool call) parses only usage, turn starts and turn
// contexts; the turn reader parses everything. Both must give the same records for those types on
// every line, or the monitor and the turn end would see different context levels.

const FIXTURES = fileURLToPath(new URL('../../../fixtures/codex/', import.meta.url));
const USAGE_TYPES = new Set(['usage', 'turn-start', 'turn-context']);

describe('parseCodexUsageLine', () => {
  it('gives exactly the usage, turn-start and turn-context records of parseCodexLine on every recorded rollout line', () => {
    const files = fg.sync('**/*.jsonl', { cwd: FIXTURES, absolute: true });
    expect(files.length).toBeGreaterThan(10);
    const seen = new Map<string, number>();
    let lines = 0;
    for (const file of files) {
      const texts = readFileSync(file, 'utf8').split('\n');
      texts.forEach((text, index) => {
        let entry: unknown;
        try {
          entry = JSON.parse(text);
        } catch {
          return;
        }
        lines += 1;
        const expected = parseCodexLine(entry, index).filter((record) => USAGE_TYPES.has(record.type));
        for (const record of expected) seen.set(record.type, (seen.get(record.type) ?? 0) + 1);
        expect(parseCodexUsageLine(entry, index), `${file}:${index + 1}`).toEqual(expected);
      });
    }
    // The corpus exercises every kind (and the token_usage_record form of 0.169).
    expect(lines).toBeGreaterThan(1000);
    for (const type of USAGE_TYPES) expect(seen.get(type) ?? 0, type).toBeGreaterThan(10);
  });

  it('reads nothing from other lines, foreign shapes and bad values', () => {
    const cases: unknown[] = [
      null,
      [],
      'x',
      { type: 'event_msg' },
      { type: 'event_msg', payload: { type: 'token_count', info: null } },
      { type: 'event_msg', payload: { type: 'token_count', info: { last_token_usage: { input_tokens: Number.NaN } } } },
      { type: 'token_usage_record', payload: { usage: { input_tokens: '12' } } },
      { type: 'response_item', payload: { type: 'message', role: 'assistant', content: [] } },
      { type: 'message', role: 'user', content: [] },
    ];
    for (const entry of cases) {
      expect(parseCodexUsageLine(entry, 0)).toEqual(parseCodexLine(entry, 0).filter((record) => USAGE_TYPES.has(record.type)));
      expect(parseCodexUsageLine(entry, 0)).toEqual([]);
    }
  });
});
