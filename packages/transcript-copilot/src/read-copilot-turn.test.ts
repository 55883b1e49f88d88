import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCopilotLatestUsage } from './read-copilot-latest-usage.ts';
import { readCopilotTurn } from './read-copilot-turn.ts';

const own = join(import.meta.dirname, '../../../fixtures/copilot/1.0.102');
const PREFIX = '[agent-checkpoint] ';

describe('readCopilotTurn on recorded Copilot CLI 1.0.102 sessions', () => {
  it("gives a task subagent's calls to the parent's turn, marked with the task call; its prompt and final text are not the turn's", () => {
    const timeline = readCopilotTurn({ transcriptPath: join(own, 'subagent-task.jsonl'), checkpointPrefix: PREFIX });
    expect(timeline.prompt).toBe('main prompt');
    expect(timeline.lastUserMessage).toBe('main prompt');
    expect(timeline.lastAssistantMessage).toBe('Main done.');
    expect(timeline.calls.map((c) => [c.rawName, c.kind, c.origin?.agentId ?? 'main', c.origin?.agentType])).toEqual([
      ['task', 'other', 'main', undefined],
      ['bash', 'shell', 'call_e2e_s0_0_r1', 'general-purpose'],
    ]);
    const sub = timeline.calls[1];
    expect(sub?.kind === 'shell' ? [sub.command, sub.exitCode, sub.outcome] : undefined).toEqual(['echo sub > sub.txt', 0, 'success']);
    // The main agent's two model calls only: the subagent's records measure its own context.
    expect(timeline.usageHistory?.map((u) => u.timestamp)).toEqual(['2026-11-28T07:56:45.611Z', '2026-11-28T07:56:46.687Z']);
    expect(readCopilotLatestUsage({ transcriptPath: join(own, 'subagent-task.jsonl') })?.history).toEqual(timeline.usageHistory);
  });

  it('reads a failing command from its exit code, though Copilot marks it success: true', () => {
    const timeline = readCopilotTurn({ transcriptPath: join(own, 'recorded/fail-fix-pass.jsonl'), checkpointPrefix: PREFIX });
    const shells = timeline.calls.filter((c) => c.kind === 'shell');
    expect(shells.map((c) => [c.outcome, c.kind === 'shell' ? c.exitCode : undefined])).toEqual([
      ['error', 1],
      ['success', 0],
    ]);
  });

  it('counts the block reason, queued back as a user message, as our checkpoint and keeps the turn open across it', () => {
    const timeline = readCopilotTurn({ transcriptPath: join(own, 'recorded/block-and-continue.jsonl'), checkpointPrefix: PREFIX });
    expect(timeline.prompt).toBe('Fix the add function in calc.mjs.');
    expect(timeline.checkpointsDelivered).toBe(1);
    expect(timeline.lastUserMessage?.startsWith(PREFIX)).toBe(true);
    expect(timeline.calls.map((c) => c.rawName)).toEqual(['view', 'edit', 'bash']);
  });

  it('reads a file tool failure (success: false) as an error with its message', () => {
    const lines = [
      { type: 'user.message', data: { content: 'go', messageId: 'm1' }, id: 'e1', timestamp: '2026-01-01T00:00:00.000Z', parentId: null },
      {
        type: 'assistant.message',
        data: { content: '', toolRequests: [{ toolCallId: 'c1', name: 'view', arguments: { path: '/r/missing.txt' } }] },
        id: 'e2',
        timestamp: '2026-01-01T00:00:01.000Z',
        parentId: 'e1',
      },
      { type: 'tool.execution_complete', data: { toolCallId: 'c1', success: false, error: { message: 'Path does not exist', code: 'failure' } }, id: 'e3', timestamp: '2026-01-01T00:00:02.000Z', parentId: 'e2' },
    ];
    const dir = mkTemp();
    try {
      const file = join(dir, 'events.jsonl');
      writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
      const [call] = readCopilotTurn({ transcriptPath: file, checkpointPrefix: PREFIX }).calls;
      expect([call?.kind, call?.outcome, call?.paths, call?.output?.head]).toEqual(['read', 'error', ['/r/missing.txt'], 'Path does not exist']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function mkTemp(): string {
  return mkdtempSync(join(tmpdir(), 'ac-copilot-turn-'));
}
