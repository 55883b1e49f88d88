import { readFileSync } from 'node:fs';
import { excerptText, type TurnTimeline } from '@agent-checkpoint/core';
import { describe, expect, it } from 'vitest';
import { createClaudeTranscriptReader } from './create-claude-transcript-reader.ts';
import { expectValidTimeline, fixture, PROBE_PREFIX, summarize } from './testing/fixtures.ts';

const reader = createClaudeTranscriptReader();

function read(name: string, hint?: { turnId?: string; lastAssistantMessage?: string }, prefix = PROBE_PREFIX): Promise<TurnTimeline> {
  return reader.readTurn({
    transcriptPath: fixture(name),
    checkpointPrefix: prefix,
    flushWaitMs: 0,
    ...(hint ? { hint } : {}),
  });
}

function payload(recordName: string): { prompt_id: string; last_assistant_message: string } {
  return JSON.parse(readFileSync(fixture(`hook-payloads/${recordName}`), 'utf8')).payload;
}

/** The calls of the recorded "basic script", in order, as written by the agent. */
const BASIC_SCRIPT = [
  { kind: 'shell', rawName: 'Bash', outcome: 'error', command: 'echo hello && false', exitCode: 1, paths: [] },
  { kind: 'shell', rawName: 'Bash', outcome: 'success', command: 'echo hello-ok', exitCode: 0, paths: [] },
  { kind: 'write', rawName: 'Write', outcome: 'success', paths: ['/home/user/repo/notes.txt'] },
  { kind: 'edit', rawName: 'Edit', outcome: 'success', paths: ['/home/user/repo/notes.txt'] },
  { kind: 'read', rawName: 'Read', outcome: 'success', paths: ['/home/user/repo/notes.txt'] },
];
const AFTER_BLOCK = { kind: 'shell', rawName: 'Bash', outcome: 'success', command: 'echo running-tests && cat notes.txt', exitCode: 0, paths: [] };

describe('readTurn on the recorded Claude Code 2.1.330 transcripts', () => {
  it('JSON block: the calls after the block belong to the same turn (keyed by the Stop payload)', async () => {
    const stop = payload('stop-after-block-active.record.json');
    const timeline = await read('stop-block-json.jsonl', { turnId: stop.prompt_id, lastAssistantMessage: stop.last_assistant_message });
    expectValidTimeline(timeline);
    expect(timeline).toMatchObject({
      hasData: true,
      truncated: false,
      turnId: '26503c65-2dad-486e-b957-ffba2c73ee59',
      startedAt: '2026-11-22T02:05:12.088Z',
      prompt: 'do the task',
      checkpointsDelivered: 1,
      lastUserMessage: 'CHECKPOINT-PROBE: run the tests',
      lastAssistantMessage: 'Tests ran; finished after the checkpoint.',
      cwd: '/home/user/repo',
      cliVersion: '2.1.330',
    });
    expect(timeline.calls.map(summarize)).toEqual([...BASIC_SCRIPT, AFTER_BLOCK]);
    expect(timeline.calls.map((call) => call.id)).toEqual([
      'toolu_mock7caef9c37104c57c5172',
      'toolu_mockb954a88a8aaab7fd93b7',
      'toolu_mock149863ad0e5305349d6b',
      'toolu_mock7bbcfb8d8e7bae6f4763',
      'toolu_mock1e7bd9a0b7ef8eac3b98',
      'toolu_mocke9284f4b669310c51b9a',
    ]);
    expect(excerptText(timeline.calls[0]?.output)).toBe('Exit code 1\nhello');
    expect(timeline.calls[0]?.timestamp).toBe('2026-11-22T02:05:12.323Z');
    expect(timeline.calls[4]?.input).toEqual({ file_path: '/home/user/repo/notes.txt' });
    expect(timeline.diagnostics).toEqual([]);
  });

  it('JSON block: the fallback (no prompt id) finds the same turn', async () => {
    const keyed = await read('stop-block-json.jsonl', { turnId: '26503c65-2dad-486e-b957-ffba2c73ee59' });
    const fallback = await read('stop-block-json.jsonl');
    expect(fallback).toEqual(keyed);
  });

  it('first Stop: the reader sees the five calls before any block', async () => {
    // The transcript as it stood when the first Stop hook ran (transcriptLinesAtHookTime: 45).
    const stop = payload('stop-first.record.json');
    const lines = readFileSync(fixture('stop-block-json.jsonl'), 'utf8').split('\n').slice(0, 45).join('\n') + '\n';
    const { writeFileSync, mkdtempSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'ac-claude-first-'));
    try {
      const path = join(dir, 'session.jsonl');
      writeFileSync(path, lines);
      const timeline = await reader.readTurn({
        transcriptPath: path,
        checkpointPrefix: PROBE_PREFIX,
        hint: { turnId: stop.prompt_id, lastAssistantMessage: stop.last_assistant_message },
      });
      expect(timeline.calls.map(summarize)).toEqual(BASIC_SCRIPT);
      expect(timeline.checkpointsDelivered).toBe(0);
      expect(timeline.lastAssistantMessage).toBe('All done: notes.txt now says alpha/gamma.');
      expect(timeline.diagnostics).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exit-2 block: `[<cmd>]: <prefix>` feedback counts as our checkpoint and is not a boundary', async () => {
    const timeline = await read('stop-block-exit2.jsonl');
    expectValidTimeline(timeline);
    expect(timeline.calls.map(summarize)).toEqual([...BASIC_SCRIPT, AFTER_BLOCK]);
    expect(timeline.checkpointsDelivered).toBe(1);
    expect(timeline.lastUserMessage).toBe('CHECKPOINT-PROBE: run the tests');
    expect(timeline.turnId).toBe('150aacfd-5737-45f2-82da-ba3edfb7000e');
  });

  it('counts only feedback carrying our prefix', async () => {
    const other = await read('stop-block-json.jsonl', undefined, 'AGENT-CHECKPOINT');
    // Someone else's Stop-hook feedback is isMeta: still not a boundary, but not ours either.
    expect(other.checkpointsDelivered).toBe(0);
    expect(other.calls).toHaveLength(6);
    expect(other.lastUserMessage).toBe('Stop hook feedback:\nCHECKPOINT-PROBE: run the tests');
    const exit2 = await read('stop-block-exit2.jsonl', undefined, 'AGENT-CHECKPOINT');
    expect(exit2.checkpointsDelivered).toBe(0);
    expect(exit2.lastUserMessage).toBe('Stop hook feedback:\n[node "/opt/harness/probe-hook.mjs"]: CHECKPOINT-PROBE: run the tests\n');
  });

  it('block cap: nine delivered checkpoints, all in one turn', async () => {
    const timeline = await read('stop-block-cap-reached.jsonl', { turnId: 'a7c1d26a-dddb-4dde-add2-f7ef2db1c069' });
    expectValidTimeline(timeline);
    expect(timeline).toMatchObject({
      hasData: true,
      prompt: 'do the task',
      checkpointsDelivered: 9,
      lastUserMessage: 'CHECKPOINT-PROBE: run the tests #9',
      lastAssistantMessage: 'Final answer #8',
      calls: [],
    });
    // One usage record per response, not per entry.
    expect(timeline.usageHistory).toHaveLength(9);
  });

  it.each([
    ['stop-additional-context.jsonl', [...BASIC_SCRIPT, AFTER_BLOCK], 0, 'Tests ran; finished after the checkpoint.'],
    ['stop-hook-timeout.jsonl', BASIC_SCRIPT, 0, 'All done: notes.txt now says alpha/gamma.'],
    ['stop-hook-exit1.jsonl', BASIC_SCRIPT, 0, 'All done: notes.txt now says alpha/gamma.'],
  ])('%s: calls, no delivered checkpoint (additionalContext is not a user message)', async (name, calls, delivered, last) => {
    const timeline = await read(name);
    expectValidTimeline(timeline);
    expect(timeline.calls.map(summarize)).toEqual(calls);
    expect(timeline.checkpointsDelivered).toBe(delivered);
    expect(timeline.lastAssistantMessage).toBe(last);
    expect(timeline.lastUserMessage).toBe('do the task');
    expect(timeline.prompt).toBe('do the task');
  });

  it('resume: the second prompt opens a new turn; the first turn is still readable by its prompt id', async () => {
    const second = await read('resume-second-prompt.jsonl');
    expect(second).toMatchObject({
      turnId: '6d4c2a7a-f015-4a95-ba8d-9ce01f2238b2',
      prompt: 'second prompt: check again',
      calls: [],
      checkpointsDelivered: 1,
      lastAssistantMessage: 'MOCK: script exhausted',
    });
    const keyedSecond = await read('resume-second-prompt.jsonl', { turnId: '6d4c2a7a-f015-4a95-ba8d-9ce01f2238b2' });
    expect(keyedSecond).toEqual(second);
    // The second turn's boundary is near the end: the reader stops there.
    expect(second.readStats?.bytesRead).toBeLessThan(second.readStats?.fileBytes ?? 0);

    const first = await read('resume-second-prompt.jsonl', { turnId: '215b1f76-f134-4379-9757-5c46f609efb3' });
    expect(first.calls.map(summarize)).toEqual([...BASIC_SCRIPT, AFTER_BLOCK]);
    expect(first.prompt).toBe('do the task');
    expect(first.checkpointsDelivered).toBe(1);
    expect(first.lastAssistantMessage).toBe('Tests ran; finished after the checkpoint.');
  });

  it('compaction then a prompt: the new prompt opens the turn, the compact summary and command echoes do not', async () => {
    const timeline = await read('compact-then-prompt.jsonl');
    expectValidTimeline(timeline);
    expect(timeline).toMatchObject({
      turnId: '962ee5a4-7f22-41ca-b530-f34de0f6982e',
      prompt: 'after compact prompt',
      startedAt: '2026-11-22T02:08:20.696Z',
      checkpointsDelivered: 1,
      truncated: false,
    });
    expect(timeline.calls.map(summarize)).toEqual([
      { kind: 'shell', rawName: 'Bash', outcome: 'success', command: 'echo hello-ok', exitCode: 0, paths: [] },
      { kind: 'write', rawName: 'Write', outcome: 'success', paths: ['/home/user/repo/notes.txt'] },
      { kind: 'edit', rawName: 'Edit', outcome: 'success', paths: ['/home/user/repo/notes.txt'] },
      { kind: 'read', rawName: 'Read', outcome: 'success', paths: ['/home/user/repo/notes.txt'] },
      AFTER_BLOCK,
    ]);
    const keyed = await read('compact-then-prompt.jsonl', { turnId: '962ee5a4-7f22-41ca-b530-f34de0f6982e' });
    expect(keyed).toEqual(timeline);
  });

  it('compaction: the /compact turn itself, keyed by its prompt id, starts at the compact summary and has no calls', async () => {
    const timeline = await read('compact-then-prompt.jsonl', { turnId: '85d09af0-1161-4aa1-84ca-1e30b237adb7' });
    expectValidTimeline(timeline);
    expect(timeline.hasData).toBe(true);
    expect(timeline.turnId).toBe('85d09af0-1161-4aa1-84ca-1e30b237adb7');
    expect(timeline.startedAt).toBe('2026-11-22T02:08:19.794Z');
    expect(timeline.prompt).toBeUndefined(); // not a genuine prompt
    expect(timeline.calls).toEqual([]);
    expect(timeline.checkpointsDelivered).toBe(0);
  });

  it('background subagent: its calls so far belong to the spawning turn (marked as the subagent\'s); the task notification turn gets them too', async () => {
    const stop = payload('stop-with-background-task.record.json');
    const first = await read('subagent-background.jsonl', { turnId: stop.prompt_id });
    expectValidTimeline(first);
    expect(first.prompt).toBe('do the task');
    const subagentLs = { kind: 'shell', rawName: 'Bash', outcome: 'success', command: 'ls -a', exitCode: 0, paths: [] };
    // In time order: the Agent call (16.832), the main Bash (18.227), the subagent's Bash (18.638).
    expect(first.calls.map(summarize)).toEqual([
      { kind: 'other', rawName: 'Agent', outcome: 'success', paths: [] },
      { kind: 'shell', rawName: 'Bash', outcome: 'success', command: 'echo checkpoint-ok', exitCode: 0, paths: [] },
      subagentLs,
    ]);
    expect(first.calls.map((call) => call.origin)).toEqual([
      undefined,
      undefined,
      { kind: 'subagent', agentId: 'a45c5977fba3e5deb', agentType: 'general-purpose', parentCallId: 'toolu_mock08eb1bfd131f3933a542' },
    ]);
    expect(first.calls[2]?.timestamp).toBe('2026-11-22T02:07:18.638Z');
    expect(excerptText(first.calls[0]?.output)).toMatch(/^Async agent launched successfully\./);
    expect(first.lastAssistantMessage).toBe('Checked after the checkpoint.');
    expect(first.truncated).toBe(false);
    expect(first.diagnostics.map((d) => d.code)).toEqual(['subagents-read']);
    // The turn ends where the task-notification turn begins.
    expect(first.checkpointsDelivered).toBe(1);

    // The completion notice names the agent (<task-id>): its work is reported in this turn.
    const notification = await read('subagent-background.jsonl');
    expect(notification).toMatchObject({ turnId: 'ea35ecdc-74ad-4213-be6d-09ab95474ed2', checkpointsDelivered: 1 });
    expect(notification.calls.map(summarize)).toEqual([subagentLs]);
    expect(notification.calls[0]?.origin).toEqual({ kind: 'subagent', agentId: 'a45c5977fba3e5deb' });
    expect(notification.prompt).toMatch(/^<task-notification>\n<task-id>a45c5977fba3e5deb<\/task-id>/);
    expect(notification.diagnostics.map((d) => d.code)).toEqual(['task-notification-turn', 'subagents-read']);
    const keyed = await read('subagent-background.jsonl', { turnId: 'ea35ecdc-74ad-4213-be6d-09ab95474ed2' });
    expect(keyed).toEqual(notification);
  });

  it('foreground subagent: the Agent call with the hand-back text, then the subagent\'s failing Bash (its error counts), then the main Bash', async () => {
    const timeline = await read('subagent-foreground.jsonl');
    expectValidTimeline(timeline);
    expect(timeline.calls.map(summarize)).toEqual([
      { kind: 'other', rawName: 'Agent', outcome: 'success', paths: [] },
      { kind: 'shell', rawName: 'Bash', outcome: 'error', command: 'ls -a && false', exitCode: 1, paths: [] },
      { kind: 'shell', rawName: 'Bash', outcome: 'success', command: 'echo checkpoint-ok', exitCode: 0, paths: [] },
    ]);
    const handBack = excerptText(timeline.calls[0]?.output);
    expect(handBack).toContain('[Subagent hand-back]');
    expect(handBack).toContain('Files: README.md and .claude');
    expect(timeline.calls.map((call) => call.origin)).toEqual([
      undefined,
      { kind: 'subagent', agentId: 'a20f94b6eebc13214', agentType: 'general-purpose', parentCallId: 'toolu_mock0e4476fe3b0610c0cc8b' },
      undefined,
    ]);
    // Without subagents (reader option), the main agent's calls alone.
    const mainOnly = await createClaudeTranscriptReader({ subagents: false }).readTurn({ transcriptPath: fixture('subagent-foreground.jsonl'), checkpointPrefix: PROBE_PREFIX, flushWaitMs: 0 });
    expect(mainOnly.calls.map((call) => call.rawName)).toEqual(['Agent', 'Bash']);
    expect(mainOnly.calls.every((call) => call.origin === undefined)).toBe(true);
  });

  it("a subagent's own file has no main-agent turn", async () => {
    for (const name of ['subagent-foreground/subagents/agent-a20f94b6eebc13214.jsonl', 'subagent-background/subagents/agent-a45c5977fba3e5deb.jsonl']) {
      const timeline = await read(name);
      expectValidTimeline(timeline);
      expect(timeline.hasData).toBe(false);
      expect(timeline.diagnostics.map((d) => d.code)).toEqual(['no-turn']);
    }
  });

  it('TUI typed prompts: every typed prompt (including multi-line and pasted) opens its own turn', async () => {
    const expectations: [string, string, number][] = [
      ['06337469-0918-464e-9ec2-476224d74c84', 'do the task from tmux', 6],
      ['d55a691a-02f1-4b1c-b196-4a805369be81', 'second prompt no delay', 0],
      ['a04af7a8-83d1-452b-96f8-635e491f6810', 'third line A\nthird line B', 0],
      ['74c37b2e-9920-4205-abec-24ff842ba616', 'pasted via buffer\nsecond pasted line', 0],
    ];
    for (const [turnId, prompt, calls] of expectations) {
      const timeline = await read('tui-typed-prompts.jsonl', { turnId });
      expectValidTimeline(timeline);
      expect(timeline.turnId).toBe(turnId);
      expect(timeline.prompt).toBe(prompt);
      expect(timeline.calls).toHaveLength(calls);
      expect(timeline.checkpointsDelivered).toBe(1);
    }
    const first = await read('tui-typed-prompts.jsonl', { turnId: '06337469-0918-464e-9ec2-476224d74c84' });
    expect(first.calls.map(summarize)).toEqual([...BASIC_SCRIPT, AFTER_BLOCK]);
    const latest = await read('tui-typed-prompts.jsonl');
    expect(latest.turnId).toBe('74c37b2e-9920-4205-abec-24ff842ba616');
  });

  it('mid-turn queued prompt: absorbed into the running turn, not a boundary; it is a user message', async () => {
    const timeline = await read('tui-midturn-queued-prompt.jsonl');
    expectValidTimeline(timeline);
    expect(timeline).toMatchObject({
      turnId: '329cb3c0-a03a-4e52-ab0d-b1fe5e048980',
      prompt: 'busy task',
      checkpointsDelivered: 1,
      lastAssistantMessage: 'second answer',
    });
    expect(timeline.calls.map(summarize)).toEqual([
      { kind: 'shell', rawName: 'Bash', outcome: 'success', command: 'sleep 5 && echo slept', exitCode: 0, paths: [] },
    ]);
    // Cut the file right after the queued_command attachment: it is then the newest user message.
    const lines = readFileSync(fixture('tui-midturn-queued-prompt.jsonl'), 'utf8').split('\n');
    const queued = lines.findIndex((line) => line.includes('"type":"queued_command"'));
    const { writeFileSync, mkdtempSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'ac-claude-queued-'));
    try {
      const path = join(dir, 'session.jsonl');
      writeFileSync(path, lines.slice(0, queued + 1).join('\n') + '\n');
      const cut = await reader.readTurn({ transcriptPath: path, checkpointPrefix: PROBE_PREFIX, flushWaitMs: 0 });
      expect(cut.lastUserMessage).toBe('typed while busy');
      expect(cut.prompt).toBe('busy task');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('token usage: context = input + cache read + cache creation, deduplicated per response', async () => {
    const timeline = await read('stop-block-json.jsonl');
    expect(timeline.tokenUsage).toEqual({
      contextTokens: 3332,
      outputTokens: 10,
      model: 'claude-opus-5-5',
      timestamp: '2026-11-22T02:05:13.111Z',
    });
    // 8 responses (the first spans two entries: text + tool_use).
    expect(timeline.usageHistory).toHaveLength(8);
    const timestamps = timeline.usageHistory?.map((usage) => usage.timestamp) ?? [];
    expect([...timestamps].sort()).toEqual(timestamps);
  });

  it('a prompt id absent from the file falls back to the last genuine prompt, with a diagnostic', async () => {
    const timeline = await read('resume-second-prompt.jsonl', { turnId: '00000000-0000-4000-8000-000000000000' });
    expect(timeline.hasData).toBe(true);
    expect(timeline.turnId).toBe('6d4c2a7a-f015-4a95-ba8d-9ce01f2238b2');
    expect(timeline.diagnostics.map((d) => d.code)).toEqual(['turn-not-found']);
  });
});

describe('derived fixtures', () => {
  it('parallel calls with results out of order are paired by tool_use_id', async () => {
    const timeline = await read('derived/parallel-tool-calls.jsonl');
    expectValidTimeline(timeline);
    expect(timeline.calls.map(summarize)).toEqual([
      { kind: 'shell', rawName: 'Bash', outcome: 'error', command: 'npm test', exitCode: 1, paths: [] },
      { kind: 'shell', rawName: 'Bash', outcome: 'success', command: 'git status --short', exitCode: 0, paths: [] },
      { kind: 'read', rawName: 'Read', outcome: 'success', paths: ['/home/user/repo/notes.txt'] },
      { kind: 'search', rawName: 'Grep', outcome: 'success', paths: [] },
    ]);
    expect(excerptText(timeline.calls[0]?.output)).toContain('AssertionError: expected 1 to be 2');
    expect(excerptText(timeline.calls[1]?.output)).toBe(' M notes.txt');
    expect(excerptText(timeline.calls[2]?.output)).toBe('1\talpha\n2\tgamma\n');
    expect(excerptText(timeline.calls[3]?.output)).toBe('src/a.ts:1:alpha');
    expect(timeline.lastAssistantMessage).toBe('Tests fail in notes.test.ts.');
  });

  it('tool and result shapes: notebook paths, list content, persisted output, background, rejections, pending', async () => {
    const timeline = await read('derived/tool-result-shapes.jsonl');
    expectValidTimeline(timeline);
    expect(timeline.prompt).toBe('exercise every result shape');
    expect(timeline.calls.map(summarize)).toEqual([
      { kind: 'edit', rawName: 'NotebookEdit', outcome: 'success', paths: ['/home/user/repo/analysis.ipynb'] },
      { kind: 'edit', rawName: 'MultiEdit', outcome: 'success', paths: ['/home/user/repo/src/a.ts'] },
      { kind: 'search', rawName: 'Glob', outcome: 'success', paths: [] },
      { kind: 'other', rawName: 'mcp__docs__search', outcome: 'success', paths: [] },
      { kind: 'shell', rawName: 'Bash', outcome: 'error', command: 'make test', exitCode: 2, paths: [] },
      { kind: 'shell', rawName: 'Bash', outcome: 'pending', command: 'npm run dev', exitCode: undefined, paths: [] },
      { kind: 'write', rawName: 'Write', outcome: 'error', paths: ['/home/user/repo/secret.txt'] },
      { kind: 'read', rawName: 'Read', outcome: 'error', paths: ['/home/user/repo/missing.txt'] },
      { kind: 'shell', rawName: 'Bash', outcome: 'error', command: 'sleep 100', exitCode: undefined, paths: [] },
      { kind: 'web', rawName: 'WebFetch', outcome: 'pending', paths: [] },
    ]);
    expect(excerptText(timeline.calls[3]?.output)).toBe('first block\nsecond block');
    const persisted = excerptText(timeline.calls[4]?.output);
    expect(persisted).toMatch(/^<persisted-output>\nOutput too large \(61\.2KB\)\. Full output saved to: \/home\/user\/\.claude\/projects\/.*\/tool-results\/toolu_derived_persisted\.txt/);
    expect(excerptText(timeline.calls[5]?.output)).toBe('Command running in background with ID: bash_1');
    expect(excerptText(timeline.calls[8]?.output)).toBe('[Request interrupted by user for tool use]');
    expect(timeline.calls[9]?.output).toBeUndefined();
    // The interrupt marker is a non-meta user text entry, but not a prompt.
    expect(timeline.lastUserMessage).toBe('[Request interrupted by user for tool use]');
  });
});

describe("regressions of the original's Claude parsing bugs (teleclaude.md §7.2)", () => {
  it('bug 1: parallel results are not paired by position', async () => {
    // Positional pairing gives `npm test` the success of `git status` and `git status` the failure.
    const timeline = await read('derived/parallel-tool-calls.jsonl');
    const [npmTest, gitStatus] = timeline.calls;
    expect(npmTest).toMatchObject({ id: 'toolu_derived_A_npm_test', outcome: 'error', exitCode: 1 });
    expect(gitStatus).toMatchObject({ id: 'toolu_derived_B_git_status', outcome: 'success', exitCode: 0 });
    expect(excerptText(gitStatus?.output)).not.toContain('FAIL');
  });

  it('bug 9a: isMeta Stop-hook feedback is not a turn boundary', async () => {
    // Taking the feedback as the boundary leaves only the call made after the block. The prefix does
    // not match the probe's, so only the isMeta rule (not our checkpoint rule) protects the boundary.
    const timeline = await read('stop-block-json.jsonl', undefined, 'SOME-OTHER-PREFIX');
    expect(timeline.calls).toHaveLength(6);
    expect(timeline.prompt).toBe('do the task');
  });

  it('bug 9b: sidechain entries in the main file are neither a boundary nor calls of the turn', async () => {
    const timeline = await read('derived/sidechain-interleaved.jsonl');
    expectValidTimeline(timeline);
    expect(timeline.prompt).toBe('delegate the listing');
    expect(timeline.calls.map(summarize)).toEqual([{ kind: 'other', rawName: 'Task', outcome: 'success', paths: [] }]);
    expect(excerptText(timeline.calls[0]?.output)).toBe('Files: README.md');
  });

  it('bug 10: list-typed tool_result content is joined text, never a repr', async () => {
    const timeline = await read('subagent-foreground.jsonl');
    const text = excerptText(timeline.calls[0]?.output);
    expect(text.startsWith('  <tools-used-before-summary>Bash</tools-used-before-summary>')).toBe(true);
    expect(text).not.toMatch(/^\[\{|'type': 'text'|"type":"text"/);
  });

  it('bug 8: NotebookEdit names its notebook through notebook_path', async () => {
    const timeline = await read('derived/tool-result-shapes.jsonl');
    expect(timeline.calls[0]).toMatchObject({ kind: 'edit', rawName: 'NotebookEdit', paths: ['/home/user/repo/analysis.ipynb'] });
  });
});
