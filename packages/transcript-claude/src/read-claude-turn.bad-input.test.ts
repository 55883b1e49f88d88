import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClaudeTranscriptReader } from './create-claude-transcript-reader.ts';
import { expectValidTimeline, fixture, FOREIGN_FIXTURES, makeTempDir, PROBE_PREFIX } from './testing/fixtures.ts';

const reader = createClaudeTranscriptReader();
let temp: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  temp = makeTempDir('ac-claude-bad-');
});
afterEach(() => temp.cleanup());

function write(name: string, content: string | Buffer): string {
  const path = join(temp.dir, name);
  writeFileSync(path, content);
  return path;
}

async function codes(transcriptPath: string, hint?: { turnId?: string; lastAssistantMessage?: string }) {
  const timeline = await reader.readTurn({ transcriptPath, checkpointPrefix: PROBE_PREFIX, ...(hint ? { hint } : {}) });
  expectValidTimeline(timeline);
  return { timeline, codes: timeline.diagnostics.map((d) => d.code) };
}

const realLines = readFileSync(fixture('stop-block-json.jsonl'), 'utf8').split('\n').filter(Boolean);

describe('bad inputs never throw and say what is wrong', () => {
  it('missing file', async () => {
    const { timeline, codes: c } = await codes(join(temp.dir, 'nope.jsonl'), { lastAssistantMessage: 'x' });
    expect(timeline.hasData).toBe(false);
    expect(c).toEqual(['missing-file']);
  });

  it('empty path', async () => {
    const { timeline, codes: c } = await codes('');
    expect(timeline.hasData).toBe(false);
    expect(c).toEqual(['missing-file']);
  });

  it('empty file, and a file of blank lines', async () => {
    expect((await codes(write('empty.jsonl', ''))).codes).toEqual(['empty-file']);
    const blank = await codes(write('blank.jsonl', '\n\n\n'));
    expect(blank.timeline.hasData).toBe(false);
    expect(blank.codes).toEqual(['empty-file']);
  });

  it('a directory instead of a file', async () => {
    const dir = join(temp.dir, 'dir.jsonl');
    mkdirSync(dir);
    const { timeline, codes: c } = await codes(dir);
    expect(timeline.hasData).toBe(false);
    expect(c).toEqual(['not-a-file']);
  });

  it.skipIf(process.getuid?.() === 0)('an unreadable file', async () => {
    const path = write('secret.jsonl', realLines.join('\n'));
    chmodSync(path, 0o000);
    const { timeline, codes: c } = await codes(path);
    expect(timeline.hasData).toBe(false);
    expect(c).toEqual(['unreadable-file']);
  });

  it('corrupt lines are skipped and counted; the turn is still read', async () => {
    const lines = [...realLines];
    lines.splice(30, 0, '{"parentUuid":"x","isSidechain":false,"type":"user","mess');
    lines.splice(10, 0, 'not json at all');
    const { timeline, codes: c } = await codes(write('corrupt.jsonl', lines.join('\n') + '\n'));
    expect(timeline.hasData).toBe(true);
    expect(timeline.calls).toHaveLength(6);
    expect(c).toEqual(['corrupt-line']);
  });

  it('a truncated last line (still being written) is skipped', async () => {
    // Line 54 is the final assistant entry ("Tests ran; …"): cut it in half, unterminated.
    const last = realLines[53] ?? '';
    const cut = [...realLines.slice(0, 53), last.slice(0, Math.floor(last.length / 2))].join('\n');
    const { timeline, codes: c } = await codes(write('truncated.jsonl', cut));
    expect(timeline.hasData).toBe(true);
    expect(timeline.calls).toHaveLength(6);
    expect(timeline.lastAssistantMessage).toBe('All done: notes.txt now says alpha/gamma.');
    expect(c).toEqual(['corrupt-line']);
  });

  it('a transcript cut in the middle of the final assistant entry keeps the earlier calls', async () => {
    // Cut inside line 45 (the "All done" entry), as a reader racing the writer would see it.
    const text = realLines.slice(0, 44).join('\n') + '\n' + (realLines[44] ?? '').slice(0, 300);
    const { timeline } = await codes(write('mid-write.jsonl', text), { turnId: '26503c65-2dad-486e-b957-ffba2c73ee59' });
    expect(timeline.calls).toHaveLength(5);
    expect(timeline.lastAssistantMessage).toBe('Let me try the command.');
  });

  it('binary garbage', async () => {
    const bytes = Buffer.alloc(64 * 1024);
    let seed = 12345;
    for (let i = 0; i < bytes.length; i += 1) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      bytes[i] = seed & 0xff;
    }
    const { timeline, codes: c } = await codes(write('garbage.bin', bytes));
    expect(timeline.hasData).toBe(false);
    expect(c).toEqual(['unknown-format']);
  });

  it('a Codex rollout is another agent', async () => {
    const { timeline, codes: c } = await codes(join(FOREIGN_FIXTURES, 'codex-rollout.jsonl'));
    expect(timeline.hasData).toBe(false);
    expect(c).toEqual(['wrong-agent']);
    expect(timeline.diagnostics[0]?.message).toContain('Codex');
  });

  it('a Gemini session is another agent', async () => {
    const { timeline, codes: c } = await codes(join(FOREIGN_FIXTURES, 'gemini-session.jsonl'));
    expect(timeline.hasData).toBe(false);
    expect(c).toEqual(['wrong-agent']);
    expect(timeline.diagnostics[0]?.message).toContain('Gemini');
  });

  it('JSON that is not objects, and objects of no known shape', async () => {
    expect((await codes(write('numbers.jsonl', '1\n[2]\n"three"\nnull\n'))).codes).toEqual(['wrong-agent']);
    expect((await codes(write('objects.jsonl', '{"a":1}\n{"b":{"c":2}}\n'))).codes).toEqual(['wrong-agent']);
  });

  it('a Claude file with bookkeeping only has no turn', async () => {
    const bookkeeping = realLines.filter((line) => !line.includes('"uuid"'));
    const { timeline, codes: c } = await codes(write('bookkeeping.jsonl', bookkeeping.join('\n') + '\n'));
    expect(timeline.hasData).toBe(false);
    expect(c).toEqual(['no-turn']);
  });

  it('entries with unknown types and fields are skipped', async () => {
    const lines = [...realLines];
    lines.splice(25, 0, JSON.stringify({ parentUuid: 'p', isSidechain: false, type: 'hologram', uuid: 'u-1', payloadOfTheFuture: { x: 1 } }));
    lines.splice(40, 0, JSON.stringify({ type: 'brand-new-bookkeeping', sessionId: 's', blob: 'x'.repeat(1000) }));
    const odd = JSON.parse(realLines[21] ?? '');
    odd.message.content.push({ type: 'quantum_block', data: 1 }, { type: 'tool_use', id: 42, name: 'Bad' }, 'stray string');
    lines[21] = JSON.stringify(odd);
    const { timeline, codes: c } = await codes(write('unknown.jsonl', lines.join('\n') + '\n'));
    expect(timeline.hasData).toBe(true);
    expect(timeline.calls).toHaveLength(6);
    expect(c).toEqual([]);
  });

  it('a tool_result without a matching tool_use, and a tool_use without id, are ignored', async () => {
    const lines = [...realLines];
    const orphan = JSON.parse(realLines[24] ?? '');
    orphan.uuid = 'orphan-result';
    orphan.message.content[0].tool_use_id = 'toolu_never_called';
    lines.splice(26, 0, JSON.stringify(orphan));
    const { timeline } = await codes(write('orphan.jsonl', lines.join('\n') + '\n'));
    expect(timeline.calls.map((call) => call.id)).not.toContain('toolu_never_called');
    expect(timeline.calls).toHaveLength(6);
  });

  it('a duplicated tool_use entry (self-healed transcript) is one call', async () => {
    const lines = [...realLines];
    lines.splice(22, 0, realLines[21] ?? '');
    const { timeline } = await codes(write('duplicate.jsonl', lines.join('\n') + '\n'));
    expect(timeline.calls).toHaveLength(6);
    expect(new Set(timeline.calls.map((call) => call.id)).size).toBe(6);
  });

  it('an empty checkpoint prefix never turns prompts into checkpoints', async () => {
    const timeline = await reader.readTurn({ transcriptPath: fixture('stop-block-json.jsonl'), checkpointPrefix: '' });
    expect(timeline.prompt).toBe('do the task');
    expect(timeline.checkpointsDelivered).toBe(0);
    expect(timeline.calls).toHaveLength(6);
  });

  it('nonsense numeric options fall back to defaults', async () => {
    const timeline = await reader.readTurn({
      transcriptPath: fixture('stop-block-json.jsonl'),
      checkpointPrefix: PROBE_PREFIX,
      maxBytes: Number.NaN,
      flushWaitMs: -5,
      hint: { lastAssistantMessage: 'Tests ran; finished after the checkpoint.' },
    });
    expect(timeline.calls).toHaveLength(6);
    expect(timeline.diagnostics).toEqual([]);
  });
});
