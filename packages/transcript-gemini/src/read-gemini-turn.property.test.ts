import { readFileSync } from 'node:fs';
import { TOOL_KINDS } from '@agent-checkpoint/core';
import type { TurnTimeline } from '@agent-checkpoint/core';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { PROMPT, fixture, makeTempDir, read } from './gemini-test-support.ts';

const temp = makeTempDir('ac-gemini-prop-');
afterAll(() => temp.cleanup());
let counter = 0;
const write = (content: string | Uint8Array) => temp.write(`case-${(counter += 1)}.jsonl`, content);

const FIXTURES = [
  'session-headless-deny-tools.jsonl',
  'session-headless-deny-tools.snapshot-at-first-AfterAgent.jsonl',
  'session-interactive-tmux.jsonl',
  'derived-interactive-second-prompt.jsonl',
  'derived-rewind.jsonl',
  'derived-set-messages-rewrite.jsonl',
  'derived-legacy-session.json',
].map((name) => readFileSync(fixture(name)));

/** Structural invariants every timeline must satisfy. */
function assertValidTimeline(timeline: TurnTimeline, maxBytes: number): void {
  expect(timeline.agent).toBe('gemini');
  expect(typeof timeline.hasData).toBe('boolean');
  expect(typeof timeline.truncated).toBe('boolean');
  expect(Number.isInteger(timeline.checkpointsDelivered) && timeline.checkpointsDelivered >= 0).toBe(true);
  expect(Array.isArray(timeline.diagnostics)).toBe(true);
  if (!timeline.hasData) {
    expect(timeline.calls).toEqual([]);
    expect(timeline.diagnostics.length).toBeGreaterThan(0);
  }
  const ids = new Set<string>();
  for (const call of timeline.calls) {
    expect(TOOL_KINDS).toContain(call.kind);
    expect(['success', 'error', 'pending']).toContain(call.outcome);
    expect(typeof call.id).toBe('string');
    expect(ids.has(call.id)).toBe(false);
    ids.add(call.id);
    expect(typeof call.rawName).toBe('string');
    expect(call.paths.every((p) => typeof p === 'string')).toBe(true);
    if (call.kind === 'shell') {
      expect(typeof call.command).toBe('string');
      if (call.exitCode !== undefined) expect(Number.isInteger(call.exitCode)).toBe(true);
      if (call.exitCode !== undefined && call.exitCode !== 0) expect(call.outcome).toBe('error');
    }
  }
  if (timeline.readStats) expect(timeline.readStats.bytesRead).toBeLessThanOrEqual(Math.max(maxBytes, 0));
  expect(() => JSON.stringify(timeline)).not.toThrow();
}

describe('property: the reader never throws and always returns a valid timeline', () => {
  it('on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), fc.integer({ min: 0, max: 4096 }), (bytes, maxBytes) => {
        assertValidTimeline(read(write(bytes), { maxBytes }), maxBytes);
      }),
      { numRuns: 150 },
    );
  });

  it('on arbitrary JSON lines', () => {
    const line = fc.oneof(
      fc.json(),
      fc.record({ id: fc.string(), type: fc.constantFrom('user', 'gemini', 'info'), content: fc.jsonValue(), toolCalls: fc.option(fc.array(fc.jsonValue())) }),
      fc.record({ $rewindTo: fc.string() }),
      fc.record({ $set: fc.record({ messages: fc.array(fc.jsonValue()) }) }),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), (lines) => {
        const content = lines.map((l) => JSON.stringify(l)).join('\n');
        assertValidTimeline(read(write(content), { hint: { prompt: PROMPT } }), 512 * 1024);
      }),
      { numRuns: 150 },
    );
  });

  it('on real recordings truncated at a random byte', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FIXTURES), fc.double({ min: 0, max: 1, noNaN: true }), (file, cut) => {
        const path = write(file.subarray(0, Math.floor(file.length * cut)));
        assertValidTimeline(read(path, { hint: { prompt: PROMPT } }), 512 * 1024);
        assertValidTimeline(read(path), 512 * 1024);
      }),
      { numRuns: 150 },
    );
  });

  it('on real recordings with shuffled lines', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FIXTURES.slice(0, 6)), fc.integer(), (file, seed) => {
        const lines = file.toString('utf8').split('\n');
        // Deterministic Fisher-Yates from the seed.
        let state = seed >>> 0 || 1;
        for (let i = lines.length - 1; i > 0; i -= 1) {
          state = (state * 1103515245 + 12345) >>> 0;
          const j = state % (i + 1);
          [lines[i], lines[j]] = [lines[j] as string, lines[i] as string];
        }
        assertValidTimeline(read(write(lines.join('\n'))), 512 * 1024);
      }),
      { numRuns: 100 },
    );
  });

  it('a bounded read either matches the full read or says it is truncated (random caps and chunk sizes)', () => {
    const names = ['session-headless-deny-tools.jsonl', 'session-interactive-tmux.jsonl', 'derived-interactive-second-prompt.jsonl', 'derived-rewind.jsonl', 'derived-set-messages-rewrite.jsonl'];
    fc.assert(
      fc.property(
        fc.constantFrom(...names),
        fc.integer({ min: 0, max: 25_000 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.boolean(),
        (name, maxBytes, chunkBytes, withHint) => {
          const request = withHint ? { hint: { prompt: name.includes('second-prompt') ? 'Now run the tests.' : name.includes('rewind') ? 'Only write notes.txt.' : PROMPT } } : {};
          const full = read(fixture(name), request);
          const bounded = read(fixture(name), { ...request, maxBytes }, { chunkBytes });
          assertValidTimeline(bounded, maxBytes);
          if (bounded.hasData && !bounded.truncated) {
            expect(bounded.calls).toEqual(full.calls);
            expect(bounded.turnId).toBe(full.turnId);
            expect(bounded.prompt).toBe(full.prompt);
            expect(bounded.checkpointsDelivered).toBe(full.checkpointsDelivered);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
