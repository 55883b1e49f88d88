import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ShellToolCall, ToolCall, TurnTimeline } from '@agent-checkpoint/core';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES_ROOT, SAMPLE_PREFIX, TURNS, olderDerived, rollout0169 } from './codex-fixtures.ts';
import { createCodexTranscriptReader } from './index.ts';
import { RolloutTestFiles, fixtureLines, ordinalOf } from './rollout-test-files.ts';

const reader = createCodexTranscriptReader();
/** Small backwards reads, so `bytesRead` shows where reading stopped even in small fixtures. */
const fineReader = createCodexTranscriptReader({ chunkBytes: 512 });
const files = new RolloutTestFiles();
afterEach(() => files.cleanup());

function read(transcriptPath: string, checkpointPrefix = SAMPLE_PREFIX, turnId?: string): Promise<TurnTimeline> {
  return reader.readTurn({ transcriptPath, checkpointPrefix, ...(turnId !== undefined ? { hint: { turnId } } : {}) });
}

function shell(call: ToolCall | undefined): ShellToolCall {
  if (call?.kind !== 'shell') throw new Error(`expected a shell call, got ${call?.kind}`);
  return call;
}

/** A copy of a 0.169 fixture without the lines whose ordinal satisfies `drop`. */
function without(path: string, drop: (ordinal: number) => boolean): string {
  return files.writeLines(fixtureLines(path).filter((line) => !drop(ordinalOf(line))));
}

const FAILING_TEST =
  "python3 -c 'import calc,sys; sys.exit(0 if calc.add(2,2)==4 else 1)' && echo PASS || { echo 'FAIL: test_add: add(2,2) != 4' >&2; exit 3; }";

describe('exec sample (0.169, one turn with a Stop-hook block)', () => {
  it('extracts every call once, merged from response_item and item_completed', async () => {
    const timeline = await read(rollout0169('exec'));
    expect(timeline).toMatchObject({ agent: 'codex', hasData: true, truncated: false, diagnostics: [] });
    expect(timeline.calls.map((call) => [call.id, call.kind, call.rawName, call.outcome])).toEqual([
      ['call_mwr7cr0e_3', 'shell', 'exec_command', 'error'],
      ['call_mwr7cr9m_5', 'shell', 'exec_command', 'success'],
      ['call_mwr7crhv_7', 'patch', 'apply_patch', 'success'],
    ]);
    const [failing, listing, patch] = timeline.calls;
    expect(shell(failing)).toMatchObject({ command: FAILING_TEST, exitCode: 3, paths: [] });
    expect(shell(listing)).toMatchObject({ command: 'ls && echo listing-ok', exitCode: 0 });
    // The structured CommandExecution output wins over the model-facing "Chunk ID: … Output:" text.
    expect(failing?.output).toEqual({ head: 'FAIL: test_add: add(2,2) != 4\n', tail: '', totalLength: 30, truncated: false });
    expect(listing?.output?.head).toBe('AGENTS.md\ncalc.py\nlisting-ok\n');
    // Patch paths as the model wrote them; the absolute FileChange keys resolve to the same files.
    expect(patch?.paths).toEqual(['calc.py', 'NOTES.md']);
    expect(patch?.output?.head).toBe('Success. Updated the following files:\nA NOTES.md\nM calc.py\n');
    expect(patch?.input).toEqual({ input: expect.stringContaining('*** Update File: calc.py') });
    expect(failing?.timestamp).toBe('2026-11-22T02:13:03.813Z');
  });

  it('agrees with the reference parser (turn-summary.txt)', async () => {
    const timeline = await read(rollout0169('exec'));
    const shells = timeline.calls.filter((call) => call.kind === 'shell').map((call) => shell(call));
    expect(shells.map((call) => [call.id, call.command, call.exitCode, call.outcome === 'error'])).toEqual([
      ['call_mwr7cr0e_3', FAILING_TEST, 3, true],
      ['call_mwr7cr9m_5', 'ls && echo listing-ok', 0, false],
    ]);
  });

  it('reports the turn: id, start, prompt, cwd, last messages', async () => {
    const timeline = await read(rollout0169('exec'));
    expect(timeline).toMatchObject({
      turnId: TURNS.exec,
      startedAt: '2026-11-22T02:13:03.484Z',
      prompt: 'fix the failing test in calc.py',
      cwd: '/WORK/repo',
    });
    expect(timeline.lastAssistantMessage).toMatch(/^ACK: <hook_prompt/);
    // The Stop-hook prompt is the last user-role message; its raw text (the HookPrompt item) is reported.
    expect(timeline.lastUserMessage).toMatch(/^\[checkpoint\] turn 01a20107-455b-73c3-a72e-db02ca7de868: 2 command\(s\)/);
    expect(timeline.lastUserMessage).toContain('&& echo PASS');
  });

  it('keeps the Stop-hook continuation in the same turn and counts only our prefixed hook prompts', async () => {
    const ours = await read(rollout0169('exec'), SAMPLE_PREFIX, TURNS.exec);
    expect(ours.turnId).toBe(TURNS.exec);
    expect(ours.calls).toHaveLength(3);
    expect(ours.checkpointsDelivered).toBe(1);
    const someoneElses = await read(rollout0169('exec'), '[lint-hook]', TURNS.exec);
    expect(someoneElses.checkpointsDelivered).toBe(0);
    expect(someoneElses.calls).toHaveLength(3);
    expect(someoneElses.prompt).toBe('fix the failing test in calc.py');
  });

  it('matches the prefix against the raw HookPrompt text and the XML-escaped <hook_prompt> text', async () => {
    const prefixWithAmpersands = "[checkpoint] turn 01a20107-455b-73c3-a72e-db02ca7de868: 2 command(s), 1 failed; 2 file(s) patched.\n- FAILED (exit 3): python3 -c 'import calc,sys; sys.exit(0 if calc.add(2,2)==4 else 1)' && echo PASS";
    expect((await read(rollout0169('exec'), prefixWithAmpersands)).checkpointsDelivered).toBe(1);
    // Without the HookPrompt item only the escaped form (&amp;&amp;) is left.
    const escapedOnly = without(rollout0169('exec'), (ordinal) => ordinal === 31);
    expect((await read(escapedOnly, prefixWithAmpersands)).checkpointsDelivered).toBe(1);
    expect((await read(escapedOnly, SAMPLE_PREFIX)).lastUserMessage).toContain('&& echo PASS');
  });

  it('sees what each Stop hook saw: no checkpoint yet at the first Stop, one at the second', async () => {
    // First Stop ran after the assistant message (ordinal 29), before the hook prompt.
    const firstStop = await read(without(rollout0169('exec'), (ordinal) => ordinal >= 30), SAMPLE_PREFIX, TURNS.exec);
    expect(firstStop).toMatchObject({ turnId: TURNS.exec, checkpointsDelivered: 0, lastUserMessage: 'fix the failing test in calc.py' });
    expect(firstStop.calls).toHaveLength(3);
    // Second Stop (stop_hook_active) ran before task_complete.
    const secondStop = await read(without(rollout0169('exec'), (ordinal) => ordinal >= 36), SAMPLE_PREFIX, TURNS.exec);
    expect(secondStop.checkpointsDelivered).toBe(1);
    expect(secondStop.calls).toHaveLength(3);
  });

  it('falls back to the absolute FileChange paths when the patch text is not available', async () => {
    const noCallLine = without(rollout0169('exec'), (ordinal) => ordinal === 21);
    const patch = (await read(noCallLine)).calls.find((call) => call.id === 'call_mwr7crhv_7');
    expect(patch).toMatchObject({ kind: 'patch', rawName: 'FileChange', outcome: 'success', paths: ['/WORK/repo/NOTES.md', '/WORK/repo/calc.py'] });
  });

  it('adds absolute FileChange paths that do not resolve to a patch-text path', async () => {
    const lines = fixtureLines(rollout0169('exec')).map((line) =>
      line.includes('"type":"turn_context"') || line.includes('"type":"thread_settings_applied"')
        ? line.replace('"cwd":"/WORK/repo"', '"cwd":"/WORK/elsewhere"')
        : line,
    );
    const patch = (await read(files.writeLines(lines))).calls.find((call) => call.kind === 'patch');
    expect(patch?.paths).toEqual(['calc.py', 'NOTES.md', '/WORK/repo/NOTES.md', '/WORK/repo/calc.py']);
  });

  it('uses the model-facing text when the structured result is missing', async () => {
    const textOnly = without(rollout0169('exec'), (ordinal) => ordinal === 13 || ordinal === 23);
    const [failing, , patch] = (await read(textOnly)).calls;
    expect(shell(failing)).toMatchObject({ outcome: 'error', exitCode: 3, output: { head: 'FAIL: test_add: add(2,2) != 4\n' } });
    expect(patch).toMatchObject({ outcome: 'success', paths: ['calc.py', 'NOTES.md'] });
  });

  it('reads cwd and CLI version from session_meta when it is in the window', async () => {
    const timeline = await read(rollout0169('exec'), SAMPLE_PREFIX, 'not-a-turn-of-this-file');
    expect(timeline).toMatchObject({ cliVersion: '0.169.0', cwd: '/WORK/repo', turnId: TURNS.exec });
    expect(timeline.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(['turn-not-found']);
  });
});

describe('tui-interrupt sample (turn_aborted, late CommandExecution)', () => {
  it('credits the late CommandExecution written after turn_aborted to the aborted turn', async () => {
    const timeline = await read(rollout0169('tui-interrupt'));
    expect(timeline).toMatchObject({ turnId: TURNS.interrupt, prompt: 'run the slow test', lastUserMessage: 'run the slow test' });
    expect(timeline.calls).toHaveLength(1);
    expect(shell(timeline.calls[0])).toMatchObject({
      id: 'call_mwr7awtk_1',
      command: "sleep 5; echo 'FAIL: slow test' >&2; exit 1",
      outcome: 'error',
      exitCode: 1,
      output: { head: 'FAIL: slow test\n' },
    });
  });

  it('leaves an interrupted command pending when no exit code was recorded', async () => {
    const withoutLate = without(rollout0169('tui-interrupt'), (ordinal) => ordinal === 15);
    const call = shell((await read(withoutLate)).calls[0]);
    expect(call.outcome).toBe('pending');
    expect(call.exitCode).toBeUndefined();
  });

  it('groups by turn_id, not position, when the late item lands inside the next turn', async () => {
    const lines = fixtureLines(rollout0169('tui-interrupt'));
    const late = lines.pop() ?? '';
    const next = '01a20106-0000-7000-8000-000000000001';
    const turn = (payload: object, type = 'event_msg') => ({ timestamp: '2026-11-22T02:11:42.000Z', type, payload });
    const nextTurn = [
      turn({ type: 'task_started', turn_id: next, started_at: 1795313502, model_context_window: 258400 }),
      turn({ type: 'item_completed', turn_id: next, item: { type: 'UserMessage', id: 'u2', content: [{ type: 'text', text: 'try again' }] } }),
      late,
      turn({ type: 'function_call', name: 'exec_command', arguments: '{"cmd":"make test"}', call_id: 'call_next', internal_chat_message_metadata_passthrough: { turn_id: next } }, 'response_item'),
      turn({ type: 'item_completed', turn_id: next, item: { type: 'CommandExecution', id: 'call_next', command: ['/bin/bash', '-lc', 'make test'], status: 'completed', exit_code: 0, aggregated_output: 'ok\n' } }),
    ];
    const path = files.writeLines([...lines, ...nextTurn]);

    const current = await read(path);
    expect(current.turnId).toBe(next);
    expect(current.calls.map((call) => call.id)).toEqual(['call_next']);

    const aborted = await read(path, SAMPLE_PREFIX, TURNS.interrupt);
    expect(aborted.turnId).toBe(TURNS.interrupt);
    expect(aborted.calls.map((call) => [call.id, call.outcome])).toEqual([['call_mwr7awtk_1', 'error']]);
  });
});

describe('tmux sample (three turns: task, pasted checkpoint, typed checkpoint)', () => {
  const [first, second, third] = TURNS.tmux;

  it('picks each turn by turnId when none of them is ours', async () => {
    const path = rollout0169('tmux');
    const one = await read(path, '[not-ours]', first);
    expect(one).toMatchObject({ turnId: first, prompt: 'fix the failing test in calc.py', checkpointsDelivered: 0 });
    expect(one.calls.map((call) => call.id)).toEqual(['call_mwr7cueb_3', 'call_mwr7cupv_8', 'call_mwr7cv0t_10']);
    const two = await read(path, '[not-ours]', second);
    expect(two).toMatchObject({ turnId: second, calls: [], startedAt: '2026-11-22T02:13:10.286Z' });
    expect(two.prompt).toMatch(/^\[checkpoint\] turn 01a20107-566d/);
    const three = await read(path, '[not-ours]', third);
    expect(three).toMatchObject({ turnId: third, calls: [], prompt: '[checkpoint] via send-keys\nline two: exit 1 in `false`\nline three' });
    // Reading stopped at the third turn's task_started: far less than the file.
    expect(three.readStats?.bytesRead).toBeLessThan(three.readStats?.fileBytes ?? 0);
  });

  it('treats injected checkpoint turns as a continuation of the genuine turn', async () => {
    const path = rollout0169('tmux');
    const latest = await read(path);
    expect(latest).toMatchObject({ turnId: first, prompt: 'fix the failing test in calc.py', checkpointsDelivered: 2, startedAt: '2026-11-22T02:13:07.847Z' });
    expect(latest.calls).toHaveLength(3);
    expect(latest.lastUserMessage).toBe('[checkpoint] via send-keys\nline two: exit 1 in `false`\nline three');
    expect(latest.lastAssistantMessage).toBe('ACK: [checkpoint] via send-keys\nline two: exit 1 in `false`\nline three');

    const atSecond = await read(path, SAMPLE_PREFIX, second);
    expect(atSecond).toMatchObject({ turnId: first, checkpointsDelivered: 1 });
    expect(atSecond.calls).toHaveLength(3);
    expect(atSecond.lastAssistantMessage).toMatch(/^ACK: \[checkpoint\] turn 01a20107-566d/);

    const atFirst = await read(path, SAMPLE_PREFIX, first);
    expect(atFirst).toMatchObject({ turnId: first, checkpointsDelivered: 0, lastAssistantMessage: 'Fixed calc.add and added NOTES.md.' });
  });
});

describe('tui-steer-and-injection sample', () => {
  const path = rollout0169('tui-steer-and-injection');

  it('keeps a steer typed while busy in the same turn', async () => {
    const timeline = await read(path, 'CHECKPOINT', TURNS.steer.slow);
    expect(timeline).toMatchObject({ turnId: TURNS.steer.slow, prompt: 'run the slow test', lastAssistantMessage: 'Slow turn done.' });
    expect(timeline.calls.map((call) => [call.id, call.outcome])).toEqual([['call_mwr74x4j_1', 'error']]);
  });

  it('does not treat the steer as a turn boundary when it is the last user message', async () => {
    // The rollout as it was right after the steer arrived (ordinal 15).
    const timeline = await read(without(path, (ordinal) => ordinal > 15));
    expect(timeline).toMatchObject({ turnId: TURNS.steer.slow, prompt: 'run the slow test', lastUserMessage: 'STEER message while busy' });
    expect(timeline.calls).toHaveLength(1);
  });

  it('extends an injected checkpoint turn back to the genuine turn so its evidence counts', async () => {
    const timeline = await read(path, 'CHECKPOINT', TURNS.steer.checkpointA);
    expect(timeline).toMatchObject({ turnId: TURNS.steer.slow, prompt: 'run the slow test', checkpointsDelivered: 1, startedAt: '2026-11-22T02:06:58.146Z' });
    expect(timeline.calls.map((call) => call.id)).toEqual(['call_mwr74x4j_1']);
    expect(timeline.lastAssistantMessage).toBe('ACK: CHECKPOINT A line1\nline2: exit 1 in `false`\nline3 end');

    const checkpointB = await read(path, 'CHECKPOINT', TURNS.steer.checkpointB);
    expect(checkpointB).toMatchObject({ turnId: TURNS.steer.ab, prompt: 'a\nb', checkpointsDelivered: 1, calls: [] });
  });

  it('without a hint, uses the last genuine turn and counts the checkpoint turns after it', async () => {
    const timeline = await read(path, 'CHECKPOINT');
    expect(timeline).toMatchObject({ turnId: TURNS.steer.paste005, prompt: 'PASTE0.05 line1\nline2', checkpointsDelivered: 1 });
    expect(timeline.lastUserMessage).toMatch(/^CHECKPOINT LARGE\n/);
    expect(timeline.lastUserMessage).toHaveLength(3606);
    // A prefix that matches nothing makes the last turn genuine.
    const plain = await read(path, '[checkpoint]');
    expect(plain).toMatchObject({ turnId: TURNS.steer.large, checkpointsDelivered: 0 });
    expect(plain.prompt).toHaveLength(2000);
  });
});

describe('older protocol (derived fixtures)', () => {
  it('reads exec_command_end / patch_apply_end, list-form shell, shell_command and local_shell_call', async () => {
    const timeline = await read(olderDerived('turn-ids-legacy-events'));
    expect(timeline).toMatchObject({ turnId: '019df7b2-1df3-7e01-b2f9-f9283453cd1c', prompt: 'fix the build and run the tests', truncated: false });
    expect(timeline.calls.map((call) => [call.id, call.kind, call.rawName, call.outcome])).toEqual([
      ['call_shell_1', 'shell', 'shell', 'error'],
      ['call_patch_ok', 'patch', 'apply_patch', 'success'],
      ['call_shell_2', 'shell', 'shell_command', 'success'],
      ['call_local_1', 'shell', 'local_shell_call', 'success'],
      ['call_view_1', 'read', 'view_image', 'success'],
    ]);
    const [npmTest, patch, rerun, gitStatus, view] = timeline.calls;
    expect(shell(npmTest)).toMatchObject({ command: 'npm test', exitCode: 1 });
    expect(npmTest?.output?.head).toContain('FAIL src/config.test.ts > loads defaults');
    expect(patch?.paths).toEqual(['src/config.ts', 'src/load-config.ts', 'src/old-config.ts', 'src/config.test.ts']);
    expect(shell(rerun)).toMatchObject({ command: 'npm test -- --run', exitCode: 0 });
    expect(shell(gitStatus)).toMatchObject({ command: 'git status --short', exitCode: 0, output: { head: ' M src/load-config.ts\n' } });
    expect(view?.paths).toEqual(['/WORK/repo/docs/screenshot.png']);
    // Turn ids on events, none on response items: reading still stops at the turn's task_started.
    const fine = await fineReader.readTurn({ transcriptPath: olderDerived('turn-ids-legacy-events'), checkpointPrefix: SAMPLE_PREFIX });
    expect(fine.calls).toEqual(timeline.calls);
    const content = readFileSync(olderDerived('turn-ids-legacy-events'), 'utf8');
    const turnLine = content.lastIndexOf('\n', content.indexOf('"task_started","turn_id":"019df7b2')) + 1;
    expect(turnLine).toBeGreaterThan(4000);
    expect(fine.readStats?.bytesRead).toBeLessThanOrEqual(content.length - turnLine + 512);
    expect(fine.readStats?.fileBytes).toBe(Buffer.byteLength(content));
  });

  it('reports a failed patch_apply_end as an error', async () => {
    const timeline = await read(olderDerived('turn-ids-legacy-events'), SAMPLE_PREFIX, '019df7af-1111-7e01-b2f9-f9283453cd1c');
    expect(timeline.prompt).toBe('rename the config loader');
    expect(timeline.calls).toHaveLength(1);
    expect(timeline.calls[0]).toMatchObject({ kind: 'patch', outcome: 'error', paths: ['src/config.ts'] });
    expect(timeline.calls[0]?.output?.head).toContain('Failed to find expected lines');
  });

  it('groups id-less turns between task_started markers', async () => {
    const timeline = await read(olderDerived('positional-markers'));
    expect(timeline.turnId).toBeUndefined();
    expect(timeline).toMatchObject({ prompt: 'run the linter', startedAt: expect.any(String), truncated: false });
    expect(timeline.calls.map((call) => [call.id, call.kind, call.rawName, call.outcome])).toEqual([
      ['call_p2', 'shell', 'shell', 'error'],
      ['call_p3', 'patch', 'shell', 'success'],
    ]);
    expect(shell(timeline.calls[0])).toMatchObject({ command: "npx eslint 'src/a b.ts'", exitCode: 2 });
    expect(timeline.calls[1]?.paths).toEqual(['src/a b.ts']);
  });

  it('groups turns by genuine user messages when there are no markers at all', async () => {
    const timeline = await read(olderDerived('positional-messages'));
    expect(timeline).toMatchObject({ prompt: 'now run make', cliVersion: '0.20.0', lastAssistantMessage: 'There is no Makefile target.' });
    expect(timeline.calls.map((call) => call.id)).toEqual(['call_o2']);
    expect(shell(timeline.calls[0])).toMatchObject({ command: 'make', exitCode: 2, outcome: 'error' });
  });
});

describe('token usage', () => {
  it('uses token_count: last input tokens, context window, model, history without duplicates', async () => {
    const timeline = await read(rollout0169('exec'));
    expect(timeline.tokenUsage).toEqual({
      contextTokens: 1000,
      outputTokens: 50,
      contextWindow: 258400,
      model: 'gpt-5.5',
      timestamp: '2026-11-22T02:13:04.809Z',
    });
    // Five responses, each recorded as token_count and token_usage_record: five entries, not ten.
    expect(timeline.usageHistory).toHaveLength(5);
  });

  it('falls back to token_usage_record with the window from task_started', async () => {
    const lines = fixtureLines(rollout0169('exec')).filter((line) => !line.includes('"type":"token_count"'));
    const timeline = await read(files.writeLines(lines));
    expect(timeline.tokenUsage).toMatchObject({ contextTokens: 1000, outputTokens: 50, contextWindow: 258400, model: 'gpt-5.5' });
    expect(timeline.usageHistory).toHaveLength(5);
  });

  it('reads the older token_count shape', async () => {
    const timeline = await read(olderDerived('turn-ids-legacy-events'));
    expect(timeline.tokenUsage).toMatchObject({ contextTokens: 15000, outputTokens: 200, contextWindow: 272000, model: 'gpt-5.4' });
  });

  it('keeps at most the last 20 usage records', async () => {
    const lines = fixtureLines(rollout0169('exec'));
    const usage = JSON.parse(lines.find((line) => line.includes('"type":"token_count"')) ?? '{}');
    const many = Array.from({ length: 30 }, (_, index) => {
      const copy = structuredClone(usage);
      copy.payload.info.last_token_usage.input_tokens = index;
      return copy;
    });
    const timeline = await read(files.writeLines([...lines, ...many]));
    expect(timeline.usageHistory).toHaveLength(20);
    expect(timeline.tokenUsage?.contextTokens).toBe(29);
    expect(timeline.usageHistory?.[0]?.contextTokens).toBe(10);
  });
});

describe('hints from the real hook and notify payloads', () => {
  const payloads = (scenario: string, file: string): Record<string, unknown>[] =>
    readFileSync(join(FIXTURES_ROOT, '0.169.0', scenario, file), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { payload: Record<string, unknown> }).payload);

  it('reads the turn named by each Stop hook payload', async () => {
    const stops = payloads('exec', 'hooks.jsonl').filter((payload) => payload['hook_event_name'] === 'Stop');
    expect(stops).toHaveLength(2);
    for (const stop of stops) {
      const timeline = await read(rollout0169('exec'), SAMPLE_PREFIX, String(stop['turn_id']));
      expect(timeline.turnId).toBe(stop['turn_id']);
      expect(timeline.calls).toHaveLength(3);
    }
  });

  it('reads the turn named by each notify payload of the TUI thread, and ignores title threads', async () => {
    const rolloutThread = '01a20107-52ce-7eb2-962c-1aee279e5435';
    const notifies = payloads('tmux', 'notify.jsonl');
    const main = notifies.filter((payload) => payload['thread-id'] === rolloutThread);
    expect(main.map((payload) => payload['turn-id'])).toEqual(TURNS.tmux);
    for (const payload of main) {
      const timeline = await read(rollout0169('tmux'), '[not-ours]', String(payload['turn-id']));
      expect(timeline.turnId).toBe(payload['turn-id']);
      expect(timeline.diagnostics).toEqual([]);
    }
    const title = notifies.find((payload) => payload['thread-id'] !== rolloutThread);
    const fromTitle = await read(rollout0169('tmux'), SAMPLE_PREFIX, String(title?.['turn-id']));
    expect(fromTitle.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(['turn-not-found']);
  });
});
