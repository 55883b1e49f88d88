import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOOL_KINDS, type TurnTimeline } from '@agent-checkpoint/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_PREFIX, olderDerived, rollout0169 } from './codex-fixtures.ts';
import { createCodexTranscriptReader } from './index.ts';
import { RolloutTestFiles } from './rollout-test-files.ts';

const reader = createCodexTranscriptReader({ chunkBytes: 4096 });
const files = new RolloutTestFiles();
let path: string;
beforeAll(() => {
  path = join(files.dir(), 'rollout.jsonl');
});
afterAll(() => files.cleanup());

const SOURCES = [
  rollout0169('exec'),
  rollout0169('tmux'),
  rollout0169('tui-interrupt'),
  rollout0169('tui-steer-and-injection'),
  olderDerived('turn-ids-legacy-events'),
  olderDerived('positional-markers'),
  olderDerived('positional-messages'),
].map((source) => readFileSync(source));

/** The structural invariants every timeline must satisfy, whatever the input. */
function expectValidTimeline(timeline: TurnTimeline, maxBytes?: number): void {
  expect(timeline.agent).toBe('codex');
  expect(typeof timeline.hasData).toBe('boolean');
  expect(typeof timeline.truncated).toBe('boolean');
  expect(Number.isInteger(timeline.checkpointsDelivered) && timeline.checkpointsDelivered >= 0).toBe(true);
  if (!timeline.hasData) expect(timeline.calls).toEqual([]);
  const ids = timeline.calls.map((call) => call.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const call of timeline.calls) {
    expect(TOOL_KINDS).toContain(call.kind);
    expect(['success', 'error', 'pending']).toContain(call.outcome);
    expect(typeof call.rawName).toBe('string');
    expect(call.paths.every((entry) => typeof entry === 'string')).toBe(true);
    if (call.kind === 'shell') {
      expect(typeof call.command).toBe('string');
      if (call.exitCode !== undefined) expect(Number.isInteger(call.exitCode)).toBe(true);
    }
    if (call.output) expect(call.output.head.length + call.output.tail.length).toBeLessThanOrEqual(call.output.totalLength);
  }
  if (timeline.prompt !== undefined) expect(timeline.prompt.length).toBeLessThanOrEqual(2000);
  expect(timeline.usageHistory?.length ?? 0).toBeLessThanOrEqual(20);
  if (timeline.readStats) {
    expect(timeline.readStats.bytesRead).toBeLessThanOrEqual(timeline.readStats.fileBytes);
    if (maxBytes !== undefined) expect(timeline.readStats.bytesRead).toBeLessThanOrEqual(maxBytes);
  }
  for (const diagnostic of timeline.diagnostics) {
    // `internal-error` would mean an exception was caught by the reader's last-resort guard.
    expect(diagnostic.code).not.toBe('internal-error');
    expect(['info', 'warn']).toContain(diagnostic.level);
    expect(diagnostic.code.length).toBeGreaterThan(0);
  }
}

async function readContent(content: Buffer | string, options: { turnId?: string; maxBytes?: number; prefix?: string } = {}): Promise<TurnTimeline> {
  writeFileSync(path, content);
  return reader.readTurn({
    transcriptPath: path,
    checkpointPrefix: options.prefix ?? SAMPLE_PREFIX,
    ...(options.turnId !== undefined ? { hint: { turnId: options.turnId } } : {}),
    ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
  });
}

describe('properties', () => {
  it('never throws on arbitrary bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 4096 }), async (bytes) => {
        expectValidTimeline(await readContent(Buffer.from(bytes)));
      }),
      { numRuns: 150 },
    );
  });

  it('never throws on real rollouts cut at any byte, with any cap', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: SOURCES.length - 1 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 200_000 }),
        async (index, fraction, maxBytes) => {
          const source = SOURCES[index] ?? Buffer.alloc(0);
          const cut = source.subarray(0, Math.floor(source.length * fraction));
          expectValidTimeline(await readContent(cut, { maxBytes }), maxBytes);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('never throws on shuffled, duplicated or dropped lines', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: SOURCES.length - 1 }),
        fc.func(fc.integer()),
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.option(fc.constantFrom('01a20107-455b-73c3-a72e-db02ca7de868', '01a20101-fa07-7903-a827-1c826e687463', 'nope'), { nil: undefined }),
        fc.constantFrom(SAMPLE_PREFIX, 'CHECKPOINT', '', '<'),
        async (index, order, extra, turnId, prefix) => {
          const lines = (SOURCES[index] ?? Buffer.alloc(0)).toString('utf8').split('\n').filter(Boolean);
          const shuffled = lines
            .map((line, position) => ({ line, key: order(position) }))
            .sort((a, b) => a.key - b.key)
            .map((entry) => entry.line);
          const duplicated = extra.map((n) => shuffled[n % Math.max(1, shuffled.length)] ?? '');
          const content = [...shuffled.slice(0, shuffled.length - (extra[0] ?? 0) % 3), ...duplicated].join('\n');
          expectValidTimeline(await readContent(content, { ...(turnId !== undefined ? { turnId } : {}), prefix }));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('never throws on random Codex-shaped lines', async () => {
    const value = fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.boolean(), fc.array(fc.string(), { maxLength: 3 }));
    const payload = fc.record(
      {
        type: fc.constantFrom(
          'task_started',
          'task_complete',
          'turn_aborted',
          'item_completed',
          'message',
          'function_call',
          'function_call_output',
          'custom_tool_call',
          'custom_tool_call_output',
          'exec_command_end',
          'patch_apply_end',
          'token_count',
          'user_message',
          'local_shell_call',
        ),
        turn_id: fc.constantFrom('a', 'b', 'c', 42),
        call_id: fc.constantFrom('x', 'y', 'z'),
        role: fc.constantFrom('user', 'assistant', 'developer'),
        name: fc.constantFrom('exec_command', 'shell', 'apply_patch', 'write_stdin', 'other'),
        arguments: fc.oneof(fc.constant('{"cmd":"ls","command":["bash","-lc","x"],"session_id":1}'), fc.string()),
        output: value,
        exit_code: value,
        status: fc.constantFrom('completed', 'failed', 'declined', 'in_progress', 5),
        content: fc.array(fc.record({ type: fc.constantFrom('input_text', 'text'), text: fc.string() }), { maxLength: 2 }),
        item: fc.record({ type: fc.constantFrom('UserMessage', 'CommandExecution', 'FileChange', 'HookPrompt', 'AgentMessage', 'McpToolCall'), id: fc.constantFrom('x', 'y', 'z'), command: value, changes: fc.dictionary(fc.string(), fc.constant({ type: 'add' })) }, { requiredKeys: ['type'] }),
        info: fc.record({ last_token_usage: fc.record({ input_tokens: value }) }),
      },
      { requiredKeys: ['type'] },
    );
    const line = fc.record({ timestamp: fc.constant('2026-01-01T00:00:00Z'), type: fc.constantFrom('event_msg', 'response_item', 'turn_context', 'session_meta', 'token_usage_record'), payload });
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 40 }), fc.option(fc.constantFrom('a', 'b', 'c'), { nil: undefined }), async (lines, turnId) => {
        expectValidTimeline(await readContent(lines.map((entry) => JSON.stringify(entry)).join('\n'), turnId !== undefined ? { turnId } : {}));
      }),
      { numRuns: 200 },
    );
  });
});
