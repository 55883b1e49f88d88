import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fg from 'fast-glob';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { claudeUsageRecords, usageLineOf, usageLineRecords } from './claude-usage-records.ts';
import { parseClaudeLine } from './parse-claude-entry.ts';
import { parseClaudeUsageLine } from './parse-claude-usage.ts';

// The newest-usage reader (the monitor, after every tool call) parses only the usage fields; the turn
// reader parses whole entries. Both must give the same usage for every line, or the monitor and the
// turn end would see different context levels for one transcript.

const FIXTURES = fileURLToPath(new URL('../../../fixtures/claude/', import.meta.url));

/** What the turn reader's parse gives for a line, as a usage line. */
function viaEntry(raw: unknown) {
  const parsed = parseClaudeLine(raw);
  return parsed.kind === 'entry' ? usageLineOf(parsed.entry) : undefined;
}

describe('parseClaudeUsageLine', () => {
  it('agrees with parseClaudeLine + hasContextUsage on every line of every recorded Claude transcript', () => {
    const files = fg.sync('**/*.jsonl', { cwd: FIXTURES, absolute: true });
    expect(files.length).toBeGreaterThan(20);
    let lines = 0;
    let withUsage = 0;
    for (const file of files) {
      for (const text of readFileSync(file, 'utf8').split('\n')) {
        let raw: unknown;
        try {
          raw = JSON.parse(text);
        } catch {
          continue;
        }
        lines += 1;
        const expected = viaEntry(raw);
        if (expected !== undefined) withUsage += 1;
        expect(parseClaudeUsageLine(raw), `${file}: ${text.slice(0, 200)}`).toEqual(expected);
      }
    }
    // The corpus exercises both answers.
    expect(lines).toBeGreaterThan(1000);
    expect(withUsage).toBeGreaterThan(100);
  });

  it('agrees on arbitrary assistant-like shapes (property)', () => {
    const scalar = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(undefined));
    const usage = fc.oneof(
      scalar,
      fc.record(
        { input_tokens: fc.oneof(fc.integer({ min: -5, max: 1e6 }), fc.double(), scalar), output_tokens: scalar, cache_read_input_tokens: fc.oneof(fc.nat(), scalar), cache_creation_input_tokens: fc.oneof(fc.nat(), scalar) },
        { requiredKeys: [] },
      ),
    );
    const message = fc.oneof(
      scalar,
      fc.array(scalar),
      fc.record({ id: scalar, model: fc.oneof(scalar, fc.constant('<synthetic>'), fc.constant('claude-opus-4-5')), content: fc.oneof(scalar, fc.array(scalar), fc.constant([])), usage }, { requiredKeys: [] }),
    );
    const line = fc.record(
      { uuid: fc.oneof(fc.constant(''), fc.uuid(), scalar), type: fc.oneof(fc.constantFrom('assistant', 'user', 'system', 'attachment'), scalar), isSidechain: fc.oneof(fc.boolean(), scalar), timestamp: scalar, message },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(line, scalar, fc.array(scalar)), (raw) => {
        expect(parseClaudeUsageLine(raw)).toEqual(viaEntry(raw));
      }),
      { numRuns: 2000 },
    );
  });

  it('usage records from lines equal those from entries', () => {
    const raws = [
      { uuid: 'a', type: 'assistant', timestamp: 't1', message: { id: 'm1', model: 'x', content: [], usage: { input_tokens: 10, cache_read_input_tokens: 5 } } },
      { uuid: 'b', type: 'assistant', timestamp: 't2', message: { id: 'm1', model: 'x', content: [], usage: { input_tokens: 12, output_tokens: 3 } } },
      { uuid: 'c', type: 'assistant', message: { model: '<synthetic>', content: [], usage: { input_tokens: 0 } } },
      { uuid: 'd', type: 'assistant', message: { content: [], usage: { input_tokens: 7, cache_creation_input_tokens: 2 } } },
    ];
    const entries = raws.map((raw) => parseClaudeLine(raw)).flatMap((parsed) => (parsed.kind === 'entry' ? [parsed.entry] : []));
    const lines = raws.map(parseClaudeUsageLine).filter((line) => line !== undefined);
    expect(usageLineRecords(lines)).toEqual(claudeUsageRecords(entries));
    expect(usageLineRecords(lines)).toEqual([
      { contextTokens: 12, outputTokens: 3, model: 'x', timestamp: 't2' },
      { contextTokens: 9 },
    ]);
  });
});
