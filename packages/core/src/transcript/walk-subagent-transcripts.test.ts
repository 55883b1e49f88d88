import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolCall } from '../timeline/tool-call.ts';
import { readJsonlTail } from './read-jsonl-tail.ts';
import { walkSubagentTranscripts, type SubagentRefBase, type SubagentWalkResult, type WalkSubagentTranscriptsInput } from './walk-subagent-transcripts.ts';

/**
 * A toy agent format for the walk (core knows none): `<dir>/<agentId>.jsonl`, one line per call
 * `{"id","at","spawn"?}`, where `spawn` names a nested subagent.
 */
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ac-subwalk-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const T = (s: number): string => new Date(Date.UTC(2026, 0, 1, 12, 0, s)).toISOString();

interface Line {
  readonly id: string;
  readonly at: number;
  readonly spawn?: string;
}

function agentFile(agentId: string, lines: readonly Line[], pad = 0): string {
  const text = lines.map((line) => JSON.stringify({ id: line.id, at: T(line.at), ...(line.spawn ? { spawn: line.spawn } : {}), pad: 'x'.repeat(pad) })).join('\n') + '\n';
  const path = join(dir, `${agentId}.jsonl`);
  writeFileSync(path, text);
  return path;
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

function walk(refs: readonly SubagentRefBase[], overrides: Partial<WalkSubagentTranscriptsInput<SubagentRefBase>> = {}): SubagentWalkResult {
  return walkSubagentTranscripts<SubagentRefBase>({
    refs,
    maxBytes: 1_000_000,
    maxAgents: 16,
    knownCallIds: new Set(),
    noun: 'transcript',
    locate: (ref) =>
      ID.test(ref.agentId)
        ? { kind: 'file', path: join(dir, `${ref.agentId}.jsonl`) }
        : { kind: 'skip', diagnostic: { level: 'warn', code: 'subagent-refused', message: `bad id ${ref.agentId}` } },
    read: (path, ref, bounds) => {
      const newestFirst: Line[] = [];
      const tail = readJsonlTail(path, {
        ...bounds,
        visit: (raw) => {
          const r = raw as { id: string; at: string; spawn?: string };
          newestFirst.push({ id: r.id, at: Date.parse(r.at), ...(r.spawn ? { spawn: r.spawn } : {}) });
          return 'continue';
        },
      });
      const lines = newestFirst.reverse();
      const calls: ToolCall[] = lines.map((l) => ({ kind: 'shell', id: l.id, rawName: 'sh', input: {}, paths: [], outcome: 'success', command: l.id, timestamp: new Date(l.at).toISOString() }));
      const children = lines.flatMap((l) => (l.spawn ? [{ agentId: l.spawn, parentCallId: l.id, agentType: `child-of-${ref.agentId}` }] : []));
      return { tail, calls, children };
    },
    ...overrides,
  });
}

const codes = (result: SubagentWalkResult): string[] => result.diagnostics.map((d) => d.code);

describe('walkSubagentTranscripts', () => {
  it('reads every file, marks each call with its origin and sorts the calls by time across files', () => {
    agentFile('a', [{ id: 'a1', at: 1 }, { id: 'a2', at: 5 }]);
    agentFile('b', [{ id: 'b1', at: 3 }]);
    const result = walk([{ agentId: 'a', agentType: 'Explore', parentCallId: 'p1' }, { agentId: 'b' }]);
    expect(result.calls.map((c) => c.id)).toEqual(['a1', 'b1', 'a2']);
    expect(result.calls[0]?.origin).toEqual({ kind: 'subagent', agentId: 'a', agentType: 'Explore', parentCallId: 'p1' });
    expect(result.calls[1]?.origin).toEqual({ kind: 'subagent', agentId: 'b' });
    expect(result).toMatchObject({ truncated: false, agentsRead: 2 });
    expect(codes(result)).toEqual(['subagents-read']);
  });

  it('shares ONE byte cap across files: the second file gets only what is left, the third nothing', () => {
    const a = agentFile('a', [{ id: 'a1', at: 1 }, { id: 'a2', at: 2 }], 100);
    agentFile('b', [{ id: 'b1', at: 3 }, { id: 'b2', at: 4 }], 100);
    agentFile('c', [{ id: 'c1', at: 5 }], 100);
    const aBytes = readJsonlTail(a, { maxBytes: 1e6, visit: () => 'continue' }).bytesRead;
    const maxBytes = aBytes + 200; // b's newest line (~150 bytes) fits, its older one does not
    const result = walk([{ agentId: 'a' }, { agentId: 'b' }, { agentId: 'c' }], { maxBytes });
    expect(result.bytesRead).toBe(maxBytes);
    expect(result.agentsRead).toBe(2);
    expect(result.truncated).toBe(true);
    expect(result.calls.map((c) => c.id)).toEqual(['a1', 'a2', 'b2']);
    expect(codes(result)).toEqual(['cap-reached', 'cap-reached', 'subagents-read']);
    expect(result.diagnostics[0]?.message).toContain("subagent b's transcript");
    expect(result.diagnostics[1]?.message).toContain('used up before subagent c');
  });

  it('opens at most maxAgents files and says how many were skipped', () => {
    for (const id of ['a', 'b', 'c', 'd']) agentFile(id, [{ id: `${id}1`, at: 1 }]);
    const result = walk([{ agentId: 'a' }, { agentId: 'b' }, { agentId: 'c' }, { agentId: 'd' }], { maxAgents: 2 });
    expect(result.agentsRead).toBe(2);
    expect(result.truncated).toBe(true);
    expect(result.calls.map((c) => c.id)).toEqual(['a1', 'b1']);
    const limit = result.diagnostics.find((d) => d.code === 'subagent-limit');
    expect(limit?.message).toContain('first 2 subagent transcripts');
    expect(limit?.message).toContain('2 more were skipped');
  });

  it('follows nested subagents, each agent id once, and never repeats a known or already-seen call id', () => {
    agentFile('a', [{ id: 'a1', at: 1, spawn: 'b' }, { id: 'a2', at: 2, spawn: 'a' }, { id: 'known', at: 3 }]);
    agentFile('b', [{ id: 'b1', at: 4, spawn: 'a' }, { id: 'a1', at: 5 }, { id: 'b2', at: 6, spawn: 'c' }]);
    agentFile('c', [{ id: 'c1', at: 7 }]);
    const result = walk([{ agentId: 'a' }, { agentId: 'a' }], { knownCallIds: new Set(['known']) });
    expect(result.agentsRead).toBe(3);
    expect(result.calls.map((c) => c.id)).toEqual(['a1', 'a2', 'b1', 'b2', 'c1']);
    expect(result.calls.find((c) => c.id === 'b1')?.origin).toEqual({ kind: 'subagent', agentId: 'b', agentType: 'child-of-a', parentCallId: 'a1' });
    expect(result.calls.find((c) => c.id === 'c1')?.origin).toEqual({ kind: 'subagent', agentId: 'c', agentType: 'child-of-b', parentCallId: 'b2' });
    expect(result.truncated).toBe(false);
  });

  it('an aborted signal or a passed deadline reads nothing and says so', () => {
    agentFile('a', [{ id: 'a1', at: 1 }]);
    const controller = new AbortController();
    controller.abort();
    for (const overrides of [{ signal: controller.signal }, { deadlineAt: Date.now() - 1 }]) {
      const result = walk([{ agentId: 'a' }], overrides);
      expect(result).toMatchObject({ agentsRead: 0, bytesRead: 0, truncated: true, calls: [] });
      expect(codes(result)).toEqual(['aborted']);
    }
  });

  it('an abort during one file stops the walk before the next file', () => {
    agentFile('a', [{ id: 'a1', at: 1 }]);
    agentFile('b', [{ id: 'b1', at: 2 }]);
    const controller = new AbortController();
    let reads = 0;
    const result = walkSubagentTranscripts<SubagentRefBase>({
      refs: [{ agentId: 'a' }, { agentId: 'b' }],
      maxBytes: 1e6,
      maxAgents: 16,
      knownCallIds: new Set(),
      noun: 'recording',
      signal: controller.signal,
      locate: (ref) => ({ kind: 'file', path: join(dir, `${ref.agentId}.jsonl`) }),
      read: (path, _ref, bounds) => {
        reads += 1;
        const tail = readJsonlTail(path, { ...bounds, visit: () => 'continue' });
        controller.abort(); // the hook's budget ran out while this file was parsed
        return { tail, calls: [], children: [] };
      },
    });
    expect(reads).toBe(1);
    expect(result.truncated).toBe(true);
    expect(result.diagnostics[0]).toMatchObject({ code: 'aborted' });
    expect(result.diagnostics[0]?.message).toContain("subagent b's recording");
  });

  it('a refused id, a symbolic link, a missing file and a corrupt line each give a diagnostic; the other files are still read', () => {
    agentFile('a', [{ id: 'a1', at: 1 }]);
    const target = agentFile('elsewhere', [{ id: 'secret', at: 2 }]);
    symlinkSync(target, join(dir, 'link.jsonl'));
    writeFileSync(join(dir, 'z.jsonl'), `{not json\n${JSON.stringify({ id: 'z1', at: T(3) })}\n`);
    const result = walk([{ agentId: '../etc' }, { agentId: 'link' }, { agentId: 'gone' }, { agentId: 'a' }, { agentId: 'z' }]);
    expect(result.calls.map((c) => c.id)).toEqual(['a1', 'z1']);
    expect(result.agentsRead).toBe(2);
    expect(result.truncated).toBe(false);
    expect(codes(result)).toEqual(['subagent-refused', 'subagent-refused', 'subagent-missing', 'subagent-corrupt-line', 'subagents-read']);
    expect(result.diagnostics[1]?.message).toContain('symbolic link');
  });

  it('a read that reached a point where nothing older matters (complete) is not truncated by the cap', () => {
    agentFile('a', [{ id: 'a1', at: 1 }, { id: 'a2', at: 2 }], 100);
    const read: WalkSubagentTranscriptsInput<SubagentRefBase>['read'] = (path, _ref, bounds) => ({
      tail: readJsonlTail(path, { ...bounds, visit: () => 'continue' }),
      complete: true,
      calls: [],
      children: [],
    });
    const result = walk([{ agentId: 'a' }], { maxBytes: 150, read });
    expect(result.truncated).toBe(false);
    expect(codes(result)).toEqual(['subagents-read']);
  });
});
