import { appendFileSync, closeSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { DEFAULT_TRANSCRIPT_MAX_BYTES } from '@agent-checkpoint/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROMPT, callSummary, fixture, fixtureRecords, makeTempDir, read, toJsonl } from './gemini-test-support.ts';
import { SNIFF_BYTES } from './sniff-gemini-file.ts';

const HEADLESS = fixtureRecords('session-headless-deny-tools.jsonl');
const PROMPT_ID = '6e18cf6c-0a8c-464b-b803-754766fe5b62';
/** The real tool rounds of the first pass (from the first gemini message to the last tool result). */
const ROUNDS = toJsonl(HEADLESS.slice(4, HEADLESS.findIndex((r) => r['id'] === '607fc012-7ba1-4953-941f-c11fc75b1b2d')));
const FINAL = toJsonl(HEADLESS.slice(HEADLESS.findIndex((r) => r['id'] === '607fc012-7ba1-4953-941f-c11fc75b1b2d')));

/** The real rounds again under fresh ids (message ids and call ids, consistently). */
function roundsCopy(n: number): string {
  return ROUNDS.replace(/"id":"([^"]+)"/g, (_m, id: string) => `"id":"${id}-r${n}"`);
}

describe('bounded read of a ~50 MiB recording', () => {
  const temp = makeTempDir('ac-gemini-big-');
  const path = `${temp.dir}/session-2026-11-22T02-17-c16cc519.jsonl`;
  let size = 0;

  beforeAll(() => {
    // metadata, session context, the prompt, then ~50 MiB of real tool rounds with fresh ids.
    const fd = openSync(path, 'w');
    try {
      writeSync(fd, toJsonl(HEADLESS.slice(0, 4)));
      for (let n = 0; size < 50 * 1024 * 1024; n += 1) {
        const text = roundsCopy(n);
        writeSync(fd, text);
        size += Buffer.byteLength(text);
      }
      writeSync(fd, FINAL.replace(/"id":"([^"]+)"/g, (_m, id: string) => `"id":"${id}-final"`));
    } finally {
      closeSync(fd);
    }
    size = statSync(path).size;
  });
  afterAll(() => temp.cleanup());

  it('a turn longer than the cap: reads at most maxBytes and says truncated', () => {
    expect(size).toBeGreaterThan(50 * 1024 * 1024);
    for (const hint of [{ hint: { prompt: PROMPT } }, {}]) {
      const timeline = read(path, hint);
      expect(timeline.readStats?.fileBytes).toBe(size);
      expect(timeline.readStats?.bytesRead).toBeLessThanOrEqual(DEFAULT_TRANSCRIPT_MAX_BYTES);
      expect(timeline).toMatchObject({ hasData: true, truncated: true });
      expect(timeline.prompt).toBeUndefined();
      expect(timeline.turnId).toBeUndefined();
      expect(timeline.diagnostics.map((d) => d.code)).toContain('cap-reached');
      // The window still yields the latest calls, with the last one being the final pass's.
      expect(timeline.calls.length).toBeGreaterThan(20);
      expect(timeline.calls.at(-1)?.rawName).toBe('run_shell_command');
      expect(timeline.checkpointsDelivered).toBe(1);
    }
  });

  it('honours a smaller cap', () => {
    const timeline = read(path, { maxBytes: 64 * 1024 }, { chunkBytes: 4096 });
    expect(timeline.readStats?.bytesRead).toBeLessThanOrEqual(64 * 1024);
    expect(timeline.truncated).toBe(true);
  });

  it('a new prompt at the end: stops at the boundary and reads one chunk', () => {
    const prompt = { id: 'second-prompt', timestamp: '2026-11-22T03:00:00.000Z', type: 'user', content: [{ text: 'Now run the tests.' }] };
    appendFileSync(path, toJsonl([prompt]) + roundsCopy(999_999).split('\n').slice(0, 4).join('\n') + '\n');
    const timeline = read(path, { hint: { prompt: 'Now run the tests.' } });
    expect(timeline).toMatchObject({ hasData: true, truncated: false, prompt: 'Now run the tests.' });
    expect(callSummary(timeline)).toEqual([
      { kind: 'shell', rawName: 'run_shell_command', outcome: 'error', command: 'echo about-to-fail; exit 1', exitCode: 1, paths: [] },
    ]);
    // One 64 KiB backwards chunk plus the sniffed head, out of ~50 MiB.
    expect(timeline.readStats?.bytesRead).toBeLessThanOrEqual(64 * 1024 + SNIFF_BYTES);
    const withoutHint = read(path);
    expect(withoutHint.turnId).toBe(timeline.turnId);
  });
});

describe('caps and single lines', () => {
  const temp = makeTempDir();
  afterAll(() => temp.cleanup());
  const huge = (id: string) => ({
    id,
    timestamp: 't',
    type: 'gemini',
    content: '',
    toolCalls: [{ id: `c-${id}`, name: 'read_file', args: { file_path: 'big.txt' }, result: [{ functionResponse: { id: `c-${id}`, name: 'read_file', response: { output: 'x'.repeat(600 * 1024) } } }], status: 'success' }],
  });

  it('a single last line larger than the cap: hasData false with a clear diagnostic', () => {
    const path = temp.write('one-huge-line.jsonl', toJsonl([...HEADLESS.slice(0, 3), huge('h1')]));
    const timeline = read(path);
    expect(timeline).toMatchObject({ hasData: false, calls: [] });
    expect(timeline.diagnostics[0]?.code).toBe('cap-reached');
    expect(timeline.readStats?.bytesRead).toBeLessThanOrEqual(DEFAULT_TRANSCRIPT_MAX_BYTES);
  });

  it('a huge line inside the turn: the window after it is kept, truncated', () => {
    const after = HEADLESS.slice(HEADLESS.findIndex((r) => r['id'] === 'c66e5756-dce8-4d5f-a588-50e1398e48aa'));
    const path = temp.write('huge-inside.jsonl', toJsonl([...HEADLESS.slice(0, 4), huge('h2'), ...after]));
    const timeline = read(path, { hint: { prompt: PROMPT } });
    expect(timeline).toMatchObject({ hasData: true, truncated: true });
    expect(callSummary(timeline).map((c) => c['rawName'])).toEqual(['read_file', 'read_file', 'run_shell_command']);
  });

  it('the same file with a cap that fits reads the whole turn', () => {
    const after = HEADLESS.slice(HEADLESS.findIndex((r) => r['id'] === 'c66e5756-dce8-4d5f-a588-50e1398e48aa'));
    const path = temp.write('huge-fits.jsonl', toJsonl([...HEADLESS.slice(0, 4), huge('h3'), ...after]));
    const timeline = read(path, { hint: { prompt: PROMPT }, maxBytes: 2 * 1024 * 1024 });
    expect(timeline).toMatchObject({ hasData: true, truncated: false, prompt: PROMPT });
    expect(timeline.calls.map((c) => c.rawName)).toEqual(['read_file', 'read_file', 'read_file', 'run_shell_command']);
  });

  it('stops at the boundary: bytes before the prompt are not read (small chunks)', () => {
    const file = readFileSync(fixture('derived-interactive-second-prompt.jsonl'));
    const offset = file.indexOf('{"id":"0b9f7a52-6a4c-4f43-9d0e-2f7f3b0c1a01"');
    expect(offset).toBeGreaterThan(10_000);
    const timeline = read(fixture('derived-interactive-second-prompt.jsonl'), { hint: { prompt: 'Now run the tests.' } }, { chunkBytes: 64 });
    expect(timeline.readStats?.bytesRead).toBeLessThanOrEqual(file.length - offset + 64 + SNIFF_BYTES);
    expect(timeline.prompt).toBe('Now run the tests.');
  });

  it('a maxBytes of 0 reads nothing', () => {
    const timeline = read(fixture('session-headless-deny-tools.jsonl'), { maxBytes: 0 });
    expect(timeline.hasData).toBe(false);
    expect(timeline.readStats?.bytesRead).toBe(0);
  });

  it('invalid maxBytes values fall back to the default cap', () => {
    for (const maxBytes of [Number.NaN, -1, Number.POSITIVE_INFINITY]) {
      expect(read(fixture('session-headless-deny-tools.jsonl'), { maxBytes, hint: { prompt: PROMPT } })).toMatchObject({ hasData: true, prompt: PROMPT });
    }
  });

  it('the hint beyond the cap while another genuine prompt is in the window: uses it, with a warning', () => {
    const records = [
      ...HEADLESS.slice(0, 3),
      huge('h4'),
      { id: 'p2', timestamp: 't', type: 'user', content: [{ text: 'a prompt typed while the hint says otherwise' }] },
      ...HEADLESS.slice(HEADLESS.findIndex((r) => r['id'] === 'fb7f0f41-cd3d-4930-98c2-c50f8650f3d8')),
    ];
    const timeline = read(temp.write('hint-beyond.jsonl', toJsonl(records)), { hint: { prompt: PROMPT } });
    expect(timeline).toMatchObject({ hasData: true, truncated: false, prompt: 'a prompt typed while the hint says otherwise' });
    expect(timeline.diagnostics.map((d) => d.code)).toContain('turn-not-found');
    expect(HEADLESS[2]?.['id']).toBe(PROMPT_ID);
  });
});
