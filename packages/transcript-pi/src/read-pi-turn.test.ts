import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readPiTurn } from './read-pi-turn.ts';

// Pi-specific reading beyond the shared suites: the entry tree's branches, bash exit codes, our
// follow-ups, and the payload prompt.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ac-pi-reader-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const PREFIX = '[agent-checkpoint] ';
let clock = 0;
const at = (): string => new Date(Date.UTC(2026, 0, 1, 0, 0, (clock += 1))).toISOString();

function user(id: string, parentId: string | null, text: string): object {
  return { type: 'message', id, parentId, timestamp: at(), message: { role: 'user', content: [{ type: 'text', text }], timestamp: 0 } };
}
function bash(id: string, parentId: string, callId: string, command: string): object {
  return {
    type: 'message',
    id,
    parentId,
    timestamp: at(),
    message: { role: 'assistant', content: [{ type: 'toolCall', id: callId, name: 'bash', arguments: { command } }], model: 'm', stopReason: 'toolUse', usage: { input: 100, output: 5, cacheRead: 20, cacheWrite: 0 } },
  };
}
function result(id: string, parentId: string, callId: string, text: string, isError: boolean): object {
  return { type: 'message', id, parentId, timestamp: at(), message: { role: 'toolResult', toolCallId: callId, toolName: 'bash', content: [{ type: 'text', text }], isError, timestamp: 0 } };
}
function say(id: string, parentId: string, text: string): object {
  return { type: 'message', id, parentId, timestamp: at(), message: { role: 'assistant', content: [{ type: 'text', text }], model: 'm', stopReason: 'stop', usage: { input: 130, output: 5, cacheRead: 0, cacheWrite: 0 } } };
}

function write(entries: readonly object[]): string {
  const path = join(dir, 'session.jsonl');
  const header = { type: 'session', version: 3, id: '01a20000-0000-7000-8000-000000000001', timestamp: at(), cwd: '/repo' };
  writeFileSync(path, `${[header, ...entries].map((e) => JSON.stringify(e)).join('\n')}\n`);
  return path;
}

describe('readPiTurn', () => {
  it('reads the current branch only: an abandoned branch after the fork point is not part of the turn', () => {
    const path = write([
      user('u1', null, 'Fix the test.'),
      bash('a1', 'u1', 'c1', 'npm test'),
      result('r1', 'a1', 'c1', 'FAIL\n\nCommand exited with code 1', true),
      // Abandoned branch (the user went back with /tree to u1's answer).
      bash('a2', 'r1', 'c2', 'rm -rf build'),
      result('r2', 'a2', 'c2', '', false),
      // The current branch continues from r1.
      bash('a3', 'r1', 'c3', 'npm test'),
      result('r3', 'a3', 'c3', 'ok', false),
      say('a4', 'r3', 'Fixed.'),
    ]);
    const timeline = readPiTurn({ transcriptPath: path, checkpointPrefix: PREFIX });
    expect(timeline.prompt).toBe('Fix the test.');
    expect(timeline.turnId).toBe('u1');
    expect(timeline.calls.map((c) => [c.id, c.kind === 'shell' ? c.command : '', c.outcome, c.kind === 'shell' ? c.exitCode : undefined])).toEqual([
      ['c1', 'npm test', 'error', 1],
      ['c3', 'npm test', 'success', 0],
    ]);
    expect(timeline.lastAssistantMessage).toBe('Fixed.');
    expect(timeline.tokenUsage).toEqual({ contextTokens: 130, outputTokens: 5, model: 'm', timestamp: expect.any(String) });
  });

  it('our follow-up is no turn boundary and is counted; a timeout is an error without an exit code', () => {
    const path = write([
      user('u1', null, 'Do it.'),
      say('a1', 'u1', 'Done.'),
      user('u2', 'a1', `${PREFIX}run the tests`),
      bash('a2', 'u2', 'c1', 'npm test'),
      result('r1', 'a2', 'c1', 'partial\n\nCommand timed out after 5 seconds', true),
      say('a3', 'r1', 'The tests hang.'),
    ]);
    const timeline = readPiTurn({ transcriptPath: path, checkpointPrefix: PREFIX });
    expect(timeline.prompt).toBe('Do it.');
    expect(timeline.checkpointsDelivered).toBe(1);
    const [call] = timeline.calls;
    expect(call?.outcome).toBe('error');
    expect(call !== undefined && 'exitCode' in call, 'no exit code').toBe(false);
  });

  it('a payload prompt that is not the last genuine prompt → the last genuine prompt, with turn-not-found', () => {
    const path = write([user('u1', null, 'First.'), say('a1', 'u1', 'One.'), user('u2', 'a1', 'Second.'), say('a2', 'u2', 'Two.')]);
    expect(readPiTurn({ transcriptPath: path, checkpointPrefix: PREFIX, hint: { prompt: 'Second.' } }).diagnostics.map((d) => d.code)).not.toContain('turn-not-found');
    const off = readPiTurn({ transcriptPath: path, checkpointPrefix: PREFIX, hint: { prompt: 'First.' } });
    expect(off.prompt).toBe('Second.');
    expect(off.diagnostics.map((d) => d.code)).toContain('turn-not-found');
  });
});
