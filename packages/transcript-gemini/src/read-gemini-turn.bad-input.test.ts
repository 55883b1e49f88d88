import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGeminiTranscriptReader } from './create-gemini-transcript-reader.ts';
import { FOREIGN_FIXTURES, PREFIX, PROMPT, callSummary, fixture, makeTempDir, read } from './gemini-test-support.ts';

let temp: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  temp = makeTempDir();
});
afterEach(() => {
  temp.cleanup();
});

const codes = (path: string) => read(path).diagnostics.map((d) => d.code);
const HEADLESS = readFileSync(fixture('session-headless-deny-tools.jsonl'));

describe('bad inputs never throw and say why', () => {
  it('missing file', () => {
    const timeline = read(join(temp.dir, 'nope.jsonl'));
    expect(timeline).toMatchObject({ agent: 'gemini', hasData: false, calls: [], truncated: false, checkpointsDelivered: 0 });
    expect(timeline.diagnostics).toEqual([expect.objectContaining({ code: 'missing-file', level: 'warn' })]);
  });

  it('a directory', () => {
    const dir = join(temp.dir, 'chats');
    mkdirSync(dir);
    expect(codes(dir)).toEqual(['not-a-file']);
  });

  it('empty and whitespace-only files', () => {
    expect(codes(temp.write('empty.jsonl', ''))).toEqual(['empty-file']);
    expect(codes(temp.write('blank.jsonl', '\n\n  \n'))).toEqual(['empty-file']);
  });

  it('binary data', () => {
    const bytes = Uint8Array.from({ length: 4096 }, (_, i) => (i * 131 + 7) % 256);
    expect(codes(temp.write('bin.jsonl', bytes))).toEqual(['unknown-format']);
    expect(codes(temp.write('invalid-utf8.jsonl', Buffer.from([0x7b, 0xff, 0xfe, 0x0a])))).toEqual(['unknown-format']);
  });

  it('text that is not JSON', () => {
    expect(codes(temp.write('text.jsonl', 'hello\nworld\n'))).toEqual(['unknown-format']);
  });

  it('JSON lines that are not Gemini records', () => {
    const timeline = read(temp.write('other.jsonl', '{"a":1}\n{"b":2}\n[1,2]\n'));
    expect(timeline.hasData).toBe(false);
    expect(timeline.diagnostics[0]?.code).toBe('unknown-format');
  });

  it('corrupt lines among valid ones are skipped and counted', () => {
    const lines = HEADLESS.toString('utf8').split('\n');
    lines.splice(5, 0, '{"id": broken', 'garbage');
    const timeline = read(temp.write('corrupt.jsonl', lines.join('\n')), { hint: { prompt: PROMPT } });
    expect(callSummary(timeline)).toEqual(callSummary(read(fixture('session-headless-deny-tools.jsonl'), { hint: { prompt: PROMPT } })));
    expect(timeline.diagnostics.map((d) => d.code)).toEqual(['corrupt-line']);
  });

  it('a tool call entry of no known shape (no tool name) gives a diagnostic, never silence', () => {
    const lines = HEADLESS.toString('utf8').split('\n');
    const index = lines.findIndex((line) => line.includes('"toolCalls":[{'));
    const record = JSON.parse(lines[index] ?? '') as { toolCalls: Record<string, unknown>[] };
    const original = record.toolCalls.length;
    record.toolCalls.push({ id: 'future_call_1', args: { script: 'tools.run()' } }, { id: 'future_call_2' });
    lines[index] = JSON.stringify(record);
    const timeline = read(temp.write('unread-call.jsonl', lines.join('\n')), { hint: { prompt: PROMPT } });
    expect(callSummary(timeline)).toEqual(callSummary(read(fixture('session-headless-deny-tools.jsonl'), { hint: { prompt: PROMPT } })));
    expect(original).toBeGreaterThan(0);
    const diagnostic = timeline.diagnostics.find((d) => d.code === 'unread-tool-call');
    expect(diagnostic).toMatchObject({ level: 'warn' });
    expect(diagnostic?.message).toMatch(/^2 tool call entries/);
  });

  it('a last line cut mid-write is skipped; the rest is read', () => {
    const cut = Buffer.concat([HEADLESS, Buffer.from('{"id":"x","timestamp":"t","type":"gemini","content":"par')]);
    const timeline = read(temp.write('cut.jsonl', cut), { hint: { prompt: PROMPT } });
    expect(timeline.hasData).toBe(true);
    expect(timeline.calls).toHaveLength(7);
    expect(timeline.diagnostics.map((d) => d.code)).toEqual(['corrupt-line']);
  });

  it('a file cut in the middle of the turn still yields the calls recorded so far', () => {
    const cut = HEADLESS.subarray(0, HEADLESS.indexOf('{"id":"c66e5756-dce8-4d5f-a588-50e1398e48aa"') + 40);
    const timeline = read(temp.write('half.jsonl', cut), { hint: { prompt: PROMPT } });
    expect(callSummary(timeline).map((c) => c['rawName'])).toEqual(['run_shell_command', 'run_shell_command', 'write_file', 'replace']);
  });

  it.each([
    ['claude-2.1.330-excerpt.jsonl', 'Claude Code'],
    ['codex-0.169.0-excerpt.jsonl', 'Codex CLI'],
  ])('another agent’s transcript (%s) is named in the diagnostic', (name, agent) => {
    const timeline = read(join(FOREIGN_FIXTURES, name));
    expect(timeline).toMatchObject({ hasData: false, calls: [] });
    expect(timeline.diagnostics).toEqual([expect.objectContaining({ code: 'wrong-agent', message: expect.stringContaining(agent) })]);
  });

  it('a whole Claude Code 2.1.330 session is another agent, though its api-request lines look like messages', () => {
    // `{"type":"api-request","sessionId":…,"id":…}` has the `{id, type}` shape of a Gemini message.
    const path = join(import.meta.dirname, '../../../fixtures/claude/2.1.330/recorded/fail-fix-pass.jsonl');
    expect(readFileSync(path, 'utf8')).toContain('{"type":"api-request","sessionId":');
    const timeline = read(path);
    expect(timeline).toMatchObject({ hasData: false, calls: [] });
    expect(timeline.diagnostics).toEqual([expect.objectContaining({ code: 'wrong-agent', message: expect.stringContaining('Claude Code') })]);
  });

  it('an aborted signal returns without reading', () => {
    const controller = new AbortController();
    controller.abort();
    const timeline = read(fixture('session-headless-deny-tools.jsonl'), { signal: controller.signal });
    expect(timeline).toMatchObject({ hasData: false });
    expect(timeline.diagnostics[0]?.code).toBe('aborted');
  });

  it('the reader never rejects, whatever the request', async () => {
    const reader = createGeminiTranscriptReader();
    const requests = [
      { transcriptPath: '', checkpointPrefix: PREFIX },
      { transcriptPath: '\u0000bad', checkpointPrefix: PREFIX },
      { transcriptPath: fixture('session-headless-deny-tools.jsonl'), checkpointPrefix: '' },
      { transcriptPath: fixture('session-headless-deny-tools.jsonl'), checkpointPrefix: PREFIX, hint: { prompt: '' } },
      { transcriptPath: fixture('session-headless-deny-tools.jsonl'), checkpointPrefix: PREFIX, maxBytes: -5, flushWaitMs: 100 },
    ];
    for (const request of requests) {
      const timeline = await reader.readTurn(request);
      expect(timeline.agent).toBe('gemini');
      expect(Array.isArray(timeline.diagnostics)).toBe(true);
    }
  });

  it('an empty checkpoint prefix counts nothing as ours and still finds the prompt', () => {
    const timeline = read(fixture('session-headless-deny-tools.jsonl'), { checkpointPrefix: '', hint: { prompt: PROMPT } });
    expect(timeline).toMatchObject({ prompt: PROMPT, checkpointsDelivered: 0 });
    expect(timeline.calls).toHaveLength(7);
  });
});

describe('createGeminiTranscriptReader', () => {
  it('implements the TranscriptReader contract', async () => {
    const reader = createGeminiTranscriptReader();
    expect(reader).toMatchObject({ specificationVersion: 'transcript-reader-v1', agent: 'gemini' });
    const timeline = await reader.readTurn({ transcriptPath: fixture('session-headless-deny-tools.jsonl'), checkpointPrefix: PREFIX, hint: { prompt: PROMPT } });
    expect(timeline.calls).toHaveLength(7);
    await expect(reader.locateTranscript({ sessionId: '../../etc/passwd' })).resolves.toBeUndefined();
  });
});
