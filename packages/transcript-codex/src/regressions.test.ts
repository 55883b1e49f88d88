/**
 * Regression tests for the Codex parsing bugs of the original implementation (TeleClaude; reference
 * §3.3 and §7.2 items 4–6), and for its inability to read 0.169 rollouts.
 *
 * Each case runs the same input through a small model of the original behaviour (`originalParse`,
 * written from the reference's description) and through our reader: the expectation fails on the
 * original and passes on ours, so the test cannot pass by accident.
 */
import type { ShellToolCall, TurnTimeline } from '@agent-checkpoint/core';
import { afterEach, describe, expect, it } from 'vitest';
import { SAMPLE_PREFIX, rollout0169 } from './codex-fixtures.ts';
import { createCodexTranscriptReader } from './index.ts';
import { RolloutTestFiles, fixtureLines } from './rollout-test-files.ts';

const reader = createCodexTranscriptReader();
const files = new RolloutTestFiles();
afterEach(() => files.cleanup());

/** What the original recorded per call. */
interface OriginalRecord {
  readonly name: string;
  readonly command: string;
  readonly hadError: boolean;
}

/** Shell tool names the original recognised (`shell_command` was missing). */
const ORIGINAL_SHELL_TOOLS = new Set(['exec_command', 'shell', 'bash', 'container.exec']);

/**
 * The original's Codex path: the turn starts after the last `response_item` user message (any user
 * message, including `<hook_prompt>`, `<turn_aborted>` and environment context); `function_call` is
 * paired with `function_call_output` by call id and fails only on `Process exited with code N≠0`,
 * `err:` or `tool call error`; commands come from a string `cmd`/`command` only; `custom_tool_call`
 * is recorded at once, failing only on its own `status`; `custom_tool_call_output` and every
 * `event_msg` are ignored.
 */
function originalParse(lines: readonly string[]): OriginalRecord[] {
  const entries = lines.map((line) => JSON.parse(line) as { type: string; payload: Record<string, unknown> });
  let start = 0;
  entries.forEach((entry, index) => {
    if (entry.type === 'response_item' && entry.payload['type'] === 'message' && entry.payload['role'] === 'user') start = index + 1;
  });
  const records: OriginalRecord[] = [];
  const pending = new Map<string, { name: string; command: string }>();
  for (const entry of entries.slice(start)) {
    if (entry.type !== 'response_item') continue;
    const payload = entry.payload;
    if (payload['type'] === 'function_call') {
      let args: Record<string, unknown> = {};
      try {
        args = JSON.parse(String(payload['arguments'])) as Record<string, unknown>;
      } catch {
        args = { raw_arguments: payload['arguments'] };
      }
      const raw = args['cmd'] ?? args['command'];
      const name = String(payload['name']);
      pending.set(String(payload['call_id']), { name, command: ORIGINAL_SHELL_TOOLS.has(name) && typeof raw === 'string' ? raw : '' });
    } else if (payload['type'] === 'function_call_output') {
      const call = pending.get(String(payload['call_id']));
      if (!call) continue;
      pending.delete(String(payload['call_id']));
      const output = String(payload['output']);
      const exit = /Process exited with code (\d+)/.exec(output);
      const hadError = output.startsWith('err:') || /tool call error/i.test(output) || (exit !== null && exit[1] !== '0');
      records.push({ ...call, hadError });
    } else if (payload['type'] === 'custom_tool_call') {
      const status = String(payload['status'] ?? '');
      records.push({ name: String(payload['name']), command: '', hadError: ['error', 'failed', 'cancelled', 'canceled'].includes(status) });
    }
  }
  for (const call of pending.values()) records.push({ ...call, hadError: false });
  return records;
}

async function ours(lines: readonly string[]): Promise<TurnTimeline> {
  return reader.readTurn({ transcriptPath: files.writeLines(lines), checkpointPrefix: SAMPLE_PREFIX });
}

const TURN = '01a20400-0000-7000-8000-000000000001';
const meta = { internal_chat_message_metadata_passthrough: { turn_id: TURN } };
const turnStart = [
  JSON.stringify({ timestamp: 't', type: 'event_msg', payload: { type: 'task_started', turn_id: TURN } }),
  JSON.stringify({ timestamp: 't', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'run the tests' }], ...meta } }),
];
const ri = (payload: object) => JSON.stringify({ timestamp: 't', type: 'response_item', payload: { ...payload, ...meta } });

describe('regressions of the original Codex parser', () => {
  it('§7.2-4: list-form shell commands keep their command text', async () => {
    const lines = [
      ...turnStart,
      ri({ type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', 'pytest -q'] }), call_id: 'c1' }),
      ri({ type: 'function_call_output', call_id: 'c1', output: 'Exit code: 0\nWall time: 1 seconds\nOutput:\n3 passed\n' }),
    ];
    expect(originalParse(lines)[0]?.command).not.toBe('pytest -q');
    const call = (await ours(lines)).calls[0] as ShellToolCall;
    expect(call).toMatchObject({ kind: 'shell', command: 'pytest -q', exitCode: 0, outcome: 'success' });
  });

  it('§7.2-4: shell_command is a shell tool', async () => {
    const lines = [
      ...turnStart,
      ri({ type: 'function_call', name: 'shell_command', arguments: JSON.stringify({ command: 'npm test' }), call_id: 'c1' }),
      ri({ type: 'function_call_output', call_id: 'c1', output: 'Exit code: 0\nWall time: 1 seconds\nOutput:\nok\n' }),
    ];
    expect(originalParse(lines)[0]?.command).toBe('');
    expect((await ours(lines)).calls[0]).toMatchObject({ kind: 'shell', rawName: 'shell_command', command: 'npm test' });
  });

  it('§7.2-5: custom_tool_call_output decides whether apply_patch failed', async () => {
    const lines = [
      ...turnStart,
      ri({ type: 'custom_tool_call', status: 'completed', name: 'apply_patch', call_id: 'p1', input: '*** Begin Patch\n*** Update File: a.py\n@@\n-x\n+y\n*** End Patch\n' }),
      ri({ type: 'custom_tool_call_output', call_id: 'p1', output: 'Exit code: 1\nWall time: 0 seconds\nOutput:\napply_patch verification failed: Failed to find expected lines in a.py\n' }),
    ];
    expect(originalParse(lines)[0]?.hadError).toBe(false);
    expect((await ours(lines)).calls[0]).toMatchObject({ kind: 'patch', outcome: 'error', paths: ['a.py'] });
  });

  it('§7.2-6: exit codes in JSON metadata are read', async () => {
    const lines = [
      ...turnStart,
      ri({ type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: 'pytest' }), call_id: 'c1' }),
      ri({ type: 'function_call_output', call_id: 'c1', output: JSON.stringify({ output: '1 failed\n', metadata: { exit_code: 1, duration_seconds: 0.3 } }) }),
    ];
    expect(originalParse(lines)[0]?.hadError).toBe(false);
    expect((await ours(lines)).calls[0]).toMatchObject({ outcome: 'error', exitCode: 1 });
  });

  it('§7.2-6: the structured exit code counts when the text has none (interrupted command)', async () => {
    const lines = fixtureLines(rollout0169('tui-interrupt'));
    // The original sees "aborted by user" and no exit code: success, after the <turn_aborted> boundary.
    expect(originalParse(lines).some((record) => record.hadError)).toBe(false);
    expect((await ours(lines)).calls[0]).toMatchObject({ outcome: 'error', exitCode: 1 });
  });

  it('0.169: a Stop-hook block no longer hides the whole turn', async () => {
    const lines = fixtureLines(rollout0169('exec'));
    // The original's boundary is the <hook_prompt> user message: nothing after it, no evidence at all.
    expect(originalParse(lines)).toEqual([]);
    const timeline = await ours(lines);
    expect(timeline.calls.map((call) => [call.rawName, call.outcome])).toEqual([
      ['exec_command', 'error'],
      ['exec_command', 'success'],
      ['apply_patch', 'success'],
    ]);
  });

  it('0.169: an interrupted turn keeps its calls despite the <turn_aborted> message', async () => {
    const lines = fixtureLines(rollout0169('tui-interrupt'));
    expect(originalParse(lines)).toEqual([]);
    expect((await ours(lines)).calls).toHaveLength(1);
  });
});
