import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ShellToolCall, TurnTimeline } from '@agent-checkpoint/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createClaudeTranscriptReader } from './create-claude-transcript-reader.ts';
import { claudeSubagentTranscriptPath, readClaudeSubagents } from './read-claude-subagents.ts';
import { expectValidTimeline, fixture, makeTempDir, PROBE_PREFIX } from './testing/fixtures.ts';
import { ClaudeSessionWriter } from './testing/subagent-session.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

function session(): ClaudeSessionWriter {
  const { dir, cleanup } = makeTempDir('ac-claude-subagents-');
  cleanups.push(cleanup);
  return new ClaudeSessionWriter(dir);
}

const PROMPT = 'p-0001';
const T = (seconds: number): string => new Date(Date.UTC(2026, 10, 22, 2, 0, 0) + seconds * 1000).toISOString();

function read(s: ClaudeSessionWriter, extra: { turnId?: string; maxBytes?: number; signal?: AbortSignal } = {}): Promise<TurnTimeline> {
  return createClaudeTranscriptReader().readTurn({
    transcriptPath: s.transcriptPath,
    checkpointPrefix: PROBE_PREFIX,
    flushWaitMs: 0,
    hint: { turnId: extra.turnId ?? PROMPT },
    ...(extra.maxBytes === undefined ? {} : { maxBytes: extra.maxBytes }),
    ...(extra.signal ? { signal: extra.signal } : {}),
  });
}

const commands = (timeline: TurnTimeline): string[] =>
  timeline.calls.map((call) => (call.kind === 'shell' ? (call as ShellToolCall).command : `${call.rawName} ${call.paths.join(',')}`.trim()));
const codes = (timeline: TurnTimeline): string[] => timeline.diagnostics.map((d) => d.code);

/** A turn whose foreground subagent edits the daemon and restarts it; the main agent then says done. */
function editAndRestart(s: ClaudeSessionWriter, agentId = 'a20f94b6eebc13214'): ClaudeSessionWriter {
  s.prompt(PROMPT, 'fix the daemon', T(0));
  s.subagent(agentId)
    .prompt(PROMPT, 'SUBAGENT-TASK', T(2))
    .bookkeeping(T(2))
    .edit(PROMPT, 'toolu_sub_edit', '/home/user/repo/daemon/server.py', T(3), T(3.1))
    .bash(PROMPT, 'toolu_sub_restart', 'make restart', T(4), T(5));
  return s.agent(PROMPT, 'toolu_main_agent', agentId, T(1), T(6)).text('Done.', T(7));
}

describe('where Claude Code 2.1.330 writes a subagent transcript', () => {
  it("is the recorded SubagentStop payload's agent_transcript_path", () => {
    const { payload } = JSON.parse(readFileSync(fixture('hook-payloads/subagent-stop.record.json'), 'utf8')) as { payload: Record<string, string> };
    expect(claudeSubagentTranscriptPath(payload['transcript_path'] as string, payload['agent_id'] as string)).toBe(payload['agent_transcript_path']);
    expect(claudeSubagentTranscriptPath('/x/notes.txt', 'a1')).toBeUndefined();
  });

  it("a task notification's task-id is the agent id of the recorded UserPromptSubmit", async () => {
    const { payload } = JSON.parse(readFileSync(fixture('hook-payloads/user-prompt-submit-task-notification.record.json'), 'utf8')) as { payload: Record<string, string> };
    const timeline = await createClaudeTranscriptReader().readTurn({
      transcriptPath: fixture('subagent-background.jsonl'),
      checkpointPrefix: PROBE_PREFIX,
      flushWaitMs: 0,
      hint: { turnId: payload['prompt_id'] as string },
    });
    expect(timeline.prompt).toBe(payload['prompt']);
    expect(timeline.calls.map((call) => call.origin?.agentId)).toEqual(['a45c5977fba3e5deb']);
  });
});

describe('subagent calls belong to the turn', () => {
  it('a foreground subagent edit + restart: both calls, between the Agent call and the end, marked with their origin', async () => {
    const timeline = await read(editAndRestart(session()));
    expectValidTimeline(timeline);
    expect(commands(timeline)).toEqual(['Agent', 'Edit /home/user/repo/daemon/server.py', 'make restart']);
    const origin = { kind: 'subagent', agentId: 'a20f94b6eebc13214', agentType: 'general-purpose', parentCallId: 'toolu_main_agent' };
    expect(timeline.calls.map((call) => call.origin)).toEqual([undefined, origin, origin]);
    expect(timeline.calls[2]).toMatchObject({ outcome: 'success', exitCode: 0, timestamp: T(4) });
    expect(timeline.truncated).toBe(false);
    expect(codes(timeline)).toEqual(['subagents-read']);
  });

  it('merges by time with the main agent\'s calls (a background agent working while the main agent runs)', async () => {
    const s = session();
    s.prompt(PROMPT, 'go', T(0));
    s.toolUse('toolu_bg', 'Agent', { description: 'bg', prompt: 'x', subagent_type: 'general-purpose' }, T(1));
    s.toolResult(PROMPT, 'toolu_bg', 'Async agent launched successfully.\nagentId: abc123 (internal ID)', T(1.1), {
      toolUseResult: { isAsync: true, status: 'async_launched', agentId: 'abc123' },
    });
    s.subagent('abc123').prompt(PROMPT, 'x', T(1.2)).bash(PROMPT, 'toolu_s1', 'sub one', T(2), T(2.1)).bash(PROMPT, 'toolu_s2', 'sub two', T(4), T(4.1));
    s.toolUse('toolu_m1', 'Bash', { command: 'main one' }, T(3)).toolResult(PROMPT, 'toolu_m1', 'ok', T(3.1));
    s.toolUse('toolu_m2', 'Bash', { command: 'main two' }, T(5)).toolResult(PROMPT, 'toolu_m2', 'ok', T(5.1));
    const timeline = await read(s);
    expect(commands(timeline)).toEqual(['Agent', 'sub one', 'main one', 'sub two', 'main two']);
    expect(timeline.calls[1]?.origin).toEqual({ kind: 'subagent', agentId: 'abc123', agentType: 'general-purpose', parentCallId: 'toolu_bg' });
  });

  it('the launch text alone (no toolUseResult) names a background agent', async () => {
    const s = session();
    s.prompt(PROMPT, 'go', T(0));
    s.toolUse('toolu_bg', 'Agent', { description: 'bg', prompt: 'x' }, T(1));
    s.toolResult(PROMPT, 'toolu_bg', 'Async agent launched successfully.\nagentId: abc123 (internal ID - do not mention to user.)', T(1.1));
    s.subagent('abc123').prompt(PROMPT, 'x', T(1.2)).bash(PROMPT, 'toolu_s1', 'make restart', T(2), T(2.1));
    expect(commands(await read(s))).toEqual(['Agent', 'make restart']);
  });

  it('a subagent resumed with SendMessage: only its calls since the message count', async () => {
    const s = session();
    const sub = s.subagent('abc123');
    sub.prompt('p-old', 'x', T(0)).bash('p-old', 'toolu_old', 'old work', T(1), T(1.1));
    s.prompt(PROMPT, 'continue it', T(10));
    s.toolUse('toolu_send', 'SendMessage', { to: 'abc123', message: 'go on' }, T(11)).toolResult(PROMPT, 'toolu_send', 'sent', T(11.1));
    sub.prompt(PROMPT, 'go on', T(12)).bash(PROMPT, 'toolu_new', 'new work', T(13), T(13.1));
    const timeline = await read(s);
    expect(commands(timeline)).toEqual(['SendMessage', 'new work']);
    expect(timeline.calls[1]?.origin).toEqual({ kind: 'subagent', agentId: 'abc123', parentCallId: 'toolu_send' });
  });

  it('a subagent spawned by a subagent is followed, its parent call being the subagent\'s Agent call', async () => {
    const s = session();
    s.prompt(PROMPT, 'go', T(0));
    s.subagent('outer1').prompt(PROMPT, 'x', T(2)).toolUse('toolu_inner_agent', 'Task', { prompt: 'y', subagent_type: 'Explore' }, T(3)).toolResult(PROMPT, 'toolu_inner_agent', 'done', T(5), {
      toolUseResult: { status: 'completed', agentId: 'inner2' },
    });
    s.subagent('inner2').prompt(PROMPT, 'y', T(3.5)).bash(PROMPT, 'toolu_inner_bash', 'inner work', T(4), T(4.1));
    s.agent(PROMPT, 'toolu_outer_agent', 'outer1', T(1), T(6));
    const timeline = await read(s);
    expect(commands(timeline)).toEqual(['Agent', 'Task', 'inner work']);
    expect(timeline.calls[2]?.origin).toEqual({ kind: 'subagent', agentId: 'inner2', agentType: 'Explore', parentCallId: 'toolu_inner_agent' });
  });

  it("a subagent of an earlier turn is not this turn's: its file is never read", async () => {
    const s = editAndRestart(session());
    s.prompt('p-0002', 'say hi', T(20)).text('hi', T(21));
    const timeline = await read(s, { turnId: 'p-0002' });
    expect(timeline.calls).toEqual([]);
    expect(codes(timeline)).toEqual([]);
  });

  it('the task-notification turn of a background agent gets its calls, including those after the spawning turn ended', async () => {
    const s = session();
    s.prompt(PROMPT, 'go', T(0));
    s.toolUse('toolu_bg', 'Agent', { description: 'bg', prompt: 'x' }, T(1));
    s.toolResult(PROMPT, 'toolu_bg', 'Async agent launched successfully.\nagentId: abc123 (internal ID)', T(1.1));
    s.text('Launched.', T(2));
    s.subagent('abc123').prompt(PROMPT, 'x', T(1.2)).edit(PROMPT, 'toolu_e', '/home/user/repo/daemon/a.py', T(3), T(3.1)).bash(PROMPT, 'toolu_r', 'make restart', T(4), T(4.1));
    s.taskNotification('p-0002', 'abc123', 'toolu_bg', T(5)).text('It finished.', T(6));
    const timeline = await read(s, { turnId: 'p-0002' });
    expect(commands(timeline)).toEqual(['Edit /home/user/repo/daemon/a.py', 'make restart']);
    expect(timeline.calls[0]?.origin).toEqual({ kind: 'subagent', agentId: 'abc123' });
  });
});

describe('subagent transcripts are untrusted input', () => {
  it('a symlinked subagent file is refused with a diagnostic; the main calls stay', async () => {
    const s = editAndRestart(session());
    const elsewhere = join(s.dir, 'elsewhere.jsonl');
    renameSync(s.subagentPath('a20f94b6eebc13214'), elsewhere);
    symlinkSync(elsewhere, s.subagentPath('a20f94b6eebc13214'));
    const timeline = await read(s);
    expectValidTimeline(timeline);
    expect(commands(timeline)).toEqual(['Agent']);
    expect(codes(timeline)).toEqual(['subagent-refused']);
  });

  it('a symlinked subagents folder (pointing outside the session folder) is refused', async () => {
    const s = editAndRestart(session());
    const outside = join(s.dir, 'outside');
    renameSync(s.subagentsDir, outside);
    symlinkSync(outside, s.subagentsDir);
    const timeline = await read(s);
    expect(commands(timeline)).toEqual(['Agent']);
    expect(codes(timeline)).toEqual(['subagent-refused']);
    expect(timeline.diagnostics[0]?.message).toContain('symbolic link');
  });

  it('an agent id that is a path (../) is never used as a file name', async () => {
    const s = session();
    mkdirSync(join(s.dir, 'secret'));
    writeFileSync(join(s.dir, 'secret', 'agent-x.jsonl'), '');
    s.prompt(PROMPT, 'go', T(0));
    s.toolUse('toolu_send', 'SendMessage', { to: '../../secret/x' }, T(1)).toolResult(PROMPT, 'toolu_send', 'sent', T(1.1));
    s.toolUse('toolu_a', 'Agent', { prompt: 'x' }, T(2)).toolResult(PROMPT, 'toolu_a', 'done', T(2.1), { toolUseResult: { status: 'completed', agentId: '../secret/x' } });
    const timeline = await read(s);
    expect(commands(timeline)).toEqual(['SendMessage', 'Agent']);
    expect(codes(timeline)).toEqual([]);
  });

  it('a missing subagent file is an info diagnostic, never a throw', async () => {
    const s = editAndRestart(session());
    rmSync(s.subagentPath('a20f94b6eebc13214'));
    const timeline = await read(s);
    expect(commands(timeline)).toEqual(['Agent']);
    expect(timeline.diagnostics).toEqual([expect.objectContaining({ level: 'info', code: 'subagent-missing' })]);
  });

  it('a corrupt subagent file: the valid lines count, the others are a diagnostic', async () => {
    const s = editAndRestart(session());
    appendFileSync(s.subagentPath('a20f94b6eebc13214'), '{"parentUuid": not json\n\u0000\u0001garbage\n');
    const timeline = await read(s);
    expectValidTimeline(timeline);
    expect(commands(timeline)).toEqual(['Agent', 'Edit /home/user/repo/daemon/server.py', 'make restart']);
    expect(codes(timeline)).toEqual(['subagent-corrupt-line', 'subagents-read']);
  });

  it('a subagent "file" that is a directory or a FIFO is refused without blocking', async () => {
    const s = editAndRestart(session());
    rmSync(s.subagentPath('a20f94b6eebc13214'));
    mkdirSync(s.subagentPath('a20f94b6eebc13214'));
    expect(codes(await read(s))).toEqual(['subagent-refused']);
    rmSync(s.subagentPath('a20f94b6eebc13214'), { recursive: true });
    execFileSync('mkfifo', [s.subagentPath('a20f94b6eebc13214')]);
    expect(codes(await read(s))).toEqual(['subagent-refused']);
  });
});

describe('subagent reads are bounded', () => {
  it('one byte cap across all subagent files: past it, truncated + cap-reached, and never more bytes than the cap', async () => {
    const s = session();
    s.prompt(PROMPT, 'go', T(0));
    for (const [n, id] of ['s1', 's2', 's3'].entries()) {
      const sub = s.subagent(id).prompt(PROMPT, 'x', T(1 + n));
      for (let i = 0; i < 10; i += 1) sub.bookkeeping(T(1 + n), 4000).bash(PROMPT, `toolu_${id}_${i}`, `${id} step ${i}`, T(1 + n + i / 100), T(1 + n + i / 100));
      s.agent(PROMPT, `toolu_agent_${id}`, id, T(0.5 + n), T(10 + n));
    }
    const full = await read(s);
    expect(full.calls.filter((call) => call.origin !== undefined)).toHaveLength(30);
    expect(full.truncated).toBe(false);

    const maxBytes = 60_000; // the main file fits; the three subagent files (~45 KB each) do not
    const capped = await read(s, { maxBytes });
    expectValidTimeline(capped);
    expect(capped.truncated).toBe(true);
    expect(codes(capped)).toContain('cap-reached');
    const direct = readClaudeSubagents({
      transcriptPath: s.transcriptPath,
      refs: ['s1', 's2', 's3'].map((agentId) => ({ agentId })),
      maxBytes,
      knownCallIds: new Set(),
    });
    expect(direct.bytesRead).toBeLessThanOrEqual(maxBytes);
    expect(direct.truncated).toBe(true);
    // Files are read in spawn order, each from its end: s1 whole, the tail of s2, nothing of s3.
    const of = (id: string): string[] => direct.calls.filter((c) => c.origin?.agentId === id).map((c) => (c as ShellToolCall).command);
    expect(of('s1')).toHaveLength(10);
    expect(of('s2').length).toBeGreaterThan(0);
    expect(of('s2').length).toBeLessThan(10);
    expect(of('s2').at(-1)).toBe('s2 step 9');
    expect(of('s3')).toEqual([]);
  });

  it('at most MAX_SUBAGENTS_PER_TURN files', () => {
    const s = session();
    const refs = Array.from({ length: 5 }, (_, i) => ({ agentId: `s${i}` }));
    for (const { agentId } of refs) s.subagent(agentId).prompt(PROMPT, 'x', T(1)).bash(PROMPT, `toolu_${agentId}`, agentId, T(2), T(3));
    const read = readClaudeSubagents({ transcriptPath: s.transcriptPath, refs, maxBytes: 1e6, knownCallIds: new Set(), maxAgents: 3 });
    expect(read.agentsRead).toBe(3);
    expect(read.truncated).toBe(true);
    expect(read.diagnostics.map((d) => d.code)).toContain('subagent-limit');
  });

  it('an aborted signal: no subagent file is read, the timeline says aborted', async () => {
    const s = editAndRestart(session());
    const controller = new AbortController();
    controller.abort();
    const direct = readClaudeSubagents({ transcriptPath: s.transcriptPath, refs: [{ agentId: 'a20f94b6eebc13214' }], maxBytes: 1e6, knownCallIds: new Set(), signal: controller.signal });
    expect(direct).toMatchObject({ calls: [], truncated: true, agentsRead: 0 });
    expect(direct.diagnostics.map((d) => d.code)).toEqual(['aborted']);
  });
});
