/**
 * Issue 11, class 5: rollouts written by other Codex versions read as the right timeline. Every case
 * starts from real recorded lines (fixtures/codex/0.169.0) or the older-protocol fixtures, changed
 * only in the way the other version writes them.
 */
import { deliveredMessageDigest, type ShellToolCall } from '@agent-checkpoint/core';
import { afterEach, describe, expect, it } from 'vitest';
import { SAMPLE_PREFIX, TURNS, olderDerived, rollout0169 } from './codex-fixtures.ts';
import { readCodexTurn } from './read-codex-turn.ts';
import { RolloutTestFiles, fixtureLines } from './rollout-test-files.ts';

const files = new RolloutTestFiles();
afterEach(() => files.cleanup());

type Line = { type: string; payload: Record<string, unknown> } & Record<string, unknown>;
const parse = (line: string): Line => JSON.parse(line) as Line;

function read(path: string, extra: { maxBytes?: number; turnId?: string } = {}) {
  return readCodexTurn({
    transcriptPath: path,
    checkpointPrefix: SAMPLE_PREFIX,
    ...(extra.maxBytes !== undefined ? { maxBytes: extra.maxBytes } : {}),
    ...(extra.turnId !== undefined ? { hint: { turnId: extra.turnId } } : {}),
  });
}

describe('tool names as other versions and models write them', () => {
  it.each([
    ['functions.exec_command', 'functions.apply_patch'],
    [' Exec_Command ', 'APPLY_PATCH'],
    ['functions.EXEC_COMMAND\n', ' functions.apply_patch'],
  ])('%j and %j read as the shell and patch calls of the recorded turn', (shellName, patchName) => {
    const lines = fixtureLines(rollout0169('exec')).map((line) => {
      const entry = parse(line);
      if (entry.type !== 'response_item') return line;
      const payload = entry.payload;
      if (payload['type'] === 'function_call' && payload['name'] === 'exec_command') return JSON.stringify({ ...entry, payload: { ...payload, name: shellName } });
      if (payload['type'] === 'custom_tool_call' && payload['name'] === 'apply_patch') return JSON.stringify({ ...entry, payload: { ...payload, name: patchName } });
      return line;
    });
    const timeline = read(files.writeLines(lines));
    expect(timeline.calls.map((call) => [call.kind, call.rawName, call.outcome])).toEqual([
      ['shell', 'exec_command', 'error'],
      ['shell', 'exec_command', 'success'],
      ['patch', 'apply_patch', 'success'],
    ]);
    expect((timeline.calls[0] as ShellToolCall).exitCode).toBe(3);
    expect((timeline.calls[1] as ShellToolCall).command).toBe('ls && echo listing-ok');
    expect(timeline.calls[2]?.paths).toContain('calc.py');
  });
});

describe('a web search is one call', () => {
  /** The recorded exec turn with web searches inserted before its first command, as 0.4x–0.16x write them. */
  function withSearches(searches: ReadonlyArray<{ query: string; endId?: string; itemId?: string; status?: string }>): string {
    const lines = fixtureLines(rollout0169('exec'));
    const at = lines.findIndex((line) => parse(line).payload['type'] === 'function_call');
    const turnId = TURNS.exec;
    const timestamp = String(parse(lines[at] ?? '{}')['timestamp']);
    const inserted = searches.flatMap(({ query, endId, itemId, status }) => [
      { timestamp, type: 'response_item', payload: { type: 'web_search_call', status: status ?? 'completed', ...(itemId ? { id: itemId } : {}), action: { type: 'search', query } } },
      ...(endId ? [{ timestamp, type: 'event_msg', payload: { type: 'web_search_end', call_id: endId, query, turn_id: turnId } }] : []),
    ]);
    return files.writeLines([...lines.slice(0, at), ...inserted, ...lines.slice(at)]);
  }

  const searches = (path: string) => read(path).calls.filter((call) => call.rawName === 'web_search');

  it('the id-less response item and its web_search_end event count once', () => {
    const found = searches(withSearches([{ query: 'vitest fake timers', endId: 'ws_1' }]));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ id: 'ws_1', kind: 'web', outcome: 'success' });
  });

  it('two searches with their events are two calls, each paired by query', () => {
    const found = searches(withSearches([{ query: 'first', endId: 'ws_a' }, { query: 'second', endId: 'ws_b' }]));
    expect(found.map((call) => call.id)).toEqual(['ws_a', 'ws_b']);
  });

  it('a response item with the same id as its event is one call; a search without an event stays one call', () => {
    expect(searches(withSearches([{ query: 'q', endId: 'ws_same', itemId: 'ws_same' }]))).toHaveLength(1);
    expect(searches(withSearches([{ query: 'alone' }]))).toHaveLength(1);
  });

  it('a failed response item makes the merged call an error', () => {
    expect(searches(withSearches([{ query: 'q', endId: 'ws_f', status: 'failed' }]))[0]).toMatchObject({ outcome: 'error' });
  });
});

/** Call ids named by a rollout line (any form: the call, its text result, its structured result). */
function callIdsOf(line: string): string[] {
  const { type, payload } = parse(line);
  const kind = payload['type'];
  if (type === 'response_item' && typeof kind === 'string' && /^(function_call|custom_tool_call|local_shell_call)(_output)?$/.test(kind)) {
    return [String(payload['call_id'] ?? payload['id'])];
  }
  if (type === 'event_msg' && (kind === 'exec_command_end' || kind === 'patch_apply_end' || kind === 'view_image_tool_call')) return [String(payload['call_id'])];
  if (type === 'event_msg' && kind === 'item_completed') {
    const item = payload['item'] as { type?: string; id?: string };
    if (item.type === 'CommandExecution' || item.type === 'FileChange') return [String(item.id)];
  }
  return [];
}

describe('a turn that began before the byte cap keeps its tail calls', () => {
  const cases = [
    { name: '0.169 exec', lines: () => fixtureLines(rollout0169('exec')), steer: undefined },
    { name: '0.169 TUI turn with a steer', lines: () => fixtureLines(rollout0169('tui-steer-and-injection')).slice(0, 21), steer: 'STEER message while busy' },
    { name: 'turn ids on events only (0.128 form)', lines: () => fixtureLines(olderDerived('turn-ids-legacy-events')), steer: undefined },
    { name: 'markers without turn ids (0.40 form)', lines: () => fixtureLines(olderDerived('positional-markers')), steer: undefined },
  ];

  it.each(cases)('$name: every cut keeps exactly the window’s calls of the last turn, never a steer as prompt', ({ lines: load, steer }) => {
    const lines = load();
    const path = files.writeLines(lines);
    const lastStart = lines.findLastIndex((line) => parse(line).payload['type'] === 'task_started');
    const full = read(path);
    for (let first = lines.length - 1; first > 0; first -= 1) {
      const window = lines.slice(first);
      const maxBytes = window.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
      const timeline = read(path, { maxBytes });
      const label = `window from line ${first} (${maxBytes} bytes)`;
      const expected = new Set(lines.slice(Math.max(first, lastStart)).flatMap(callIdsOf));
      if (expected.size > 0) expect(timeline.hasData, label).toBe(true);
      expect(new Set(timeline.calls.map((call) => call.id)), label).toEqual(expected);
      // A window of bookkeeping only (`task_complete`, token counts) has no turn to read. A window
      // that lost only the lines before the prompt may read as whole (no `task_started` in it: the
      // oldest forms open the turn at the prompt).
      if (timeline.hasData && first <= lastStart) expect(timeline.truncated, label).toBe(false);
      if (timeline.hasData && first > lastStart && timeline.prompt === undefined) expect(timeline.truncated, label).toBe(true);
      if (first <= lastStart) expect(timeline.calls, label).toEqual(full.calls);
      if (steer !== undefined) expect(timeline.prompt, label).not.toBe(steer);
      if (timeline.truncated && timeline.prompt === undefined) expect(timeline.startedAt, label).toBeUndefined();
    }
  });

  it('a steer typed while the turn runs neither starts the turn nor hides its calls (0.169 TUI, cut after the call line)', () => {
    const lines = fixtureLines(rollout0169('tui-steer-and-injection')).slice(0, 21);
    // The window starts at the command's `CommandExecution` item: its `function_call` line is cut off.
    const result = lines.findIndex((line) => (parse(line).payload['item'] as { type?: string } | undefined)?.type === 'CommandExecution');
    const window = lines.slice(result);
    const timeline = read(files.writeLines(lines), { maxBytes: window.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0) });
    expect(timeline).toMatchObject({ hasData: true, truncated: true, turnId: TURNS.steer.slow });
    expect(timeline.prompt).toBeUndefined();
    expect(timeline.calls).toHaveLength(1);
    expect(timeline.calls[0]).toMatchObject({ kind: 'shell', outcome: 'error', exitCode: 1 });
  });
});

describe('only what we delivered counts as a delivered checkpoint', () => {
  /** The recorded exec turn, its prompt typed by the user with our prefix in front. */
  function prefixedPrompt(): string {
    const lines = fixtureLines(rollout0169('exec')).map((line) => line.replaceAll('fix the failing test in calc.py', `${SAMPLE_PREFIX} fix the failing test in calc.py`));
    return files.writeLines(lines);
  }

  it('a prompt the user starts with our prefix is a prompt; the Stop-hook block is counted by its structure', () => {
    const timeline = readCodexTurn({ transcriptPath: prefixedPrompt(), checkpointPrefix: SAMPLE_PREFIX, deliveredDigests: [] });
    expect(timeline).toMatchObject({ hasData: true, turnId: TURNS.exec, prompt: `${SAMPLE_PREFIX} fix the failing test in calc.py`, checkpointsDelivered: 1 });
    expect(timeline.calls).toHaveLength(3);
  });

  it('a checkpoint typed into the TUI counts when the session delivered exactly that text', () => {
    const path = rollout0169('tmux');
    const lines = fixtureLines(path);
    const [taskTurn, checkpointTurn] = TURNS.tmux;
    const texts = lines
      .map(parse)
      .flatMap((entry) => {
        const item = entry.payload['item'] as { type?: string; content?: Array<{ text?: string }> } | undefined;
        return entry.payload['turn_id'] === checkpointTurn && item?.type === 'UserMessage' ? [item.content?.map((part) => part.text ?? '').join('') ?? ''] : [];
      });
    expect(texts).toHaveLength(1);
    const cut = files.writeLines(lines.filter((line) => !line.includes(TURNS.tmux[2])));
    const delivered = readCodexTurn({ transcriptPath: cut, checkpointPrefix: SAMPLE_PREFIX, deliveredDigests: [deliveredMessageDigest(texts[0] ?? '')] });
    const notDelivered = readCodexTurn({ transcriptPath: cut, checkpointPrefix: SAMPLE_PREFIX, deliveredDigests: [deliveredMessageDigest('some other checkpoint')] });
    // Delivered: the typed checkpoint continues the task turn (which names the timeline) and is counted.
    expect(delivered).toMatchObject({ turnId: taskTurn, prompt: 'fix the failing test in calc.py', checkpointsDelivered: 1 });
    // Not delivered by us: the same text is the user's own prompt, a turn of its own.
    expect(notDelivered).toMatchObject({ turnId: checkpointTurn, checkpointsDelivered: 0 });
    expect(notDelivered.prompt).toBe(texts[0]);
  });
});

describe('a format the reader cannot read says so', () => {
  it('a TypeScript Codex CLI session (0.1.x, one JSON document) → unsupported-format, no timeline', () => {
    // The shape codex-cli 0.1.x's save-rollout wrote: JSON.stringify({ session, items }, null, 2).
    const document = {
      session: { timestamp: '2025-04-20T10:00:00.000Z', id: '7f1c2a34-0000-4000-8000-000000000001', instructions: '' },
      items: [
        { id: 'msg_1', type: 'message', role: 'user', content: [{ type: 'input_text', text: 'run the tests' }] },
        { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'shell', arguments: '{"command":["npm","test"]}' },
        { type: 'function_call_output', call_id: 'call_1', output: '{"output":"ok","metadata":{"exit_code":0,"duration_seconds":1.2}}' },
      ],
    };
    const timeline = read(files.write(JSON.stringify(document, null, 2), 'rollout-2025-04-20T10-00-00-7f1c2a34.json'));
    expect(timeline.hasData).toBe(false);
    expect(timeline.calls).toEqual([]);
    expect(timeline.diagnostics.map((d) => d.code)).toContain('unsupported-format');
  });
});
