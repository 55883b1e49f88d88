import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROBE_HOOK_PATH } from './harness/agent-clis.ts';
import type { HookInvocation } from './harness/agent-session.ts';
import { readJsonlFile } from './harness/read-jsonl-file.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'ac-e2e-probe-test-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function configure(config: Record<string, unknown>): string {
  const file = path.join(dir, 'probe.json');
  writeFileSync(file, JSON.stringify({ log: path.join(dir, 'log.jsonl'), ...config }));
  return file;
}

function runHook(configFile: string, stdin: string, env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [PROBE_HOOK_PATH, 'hook', configFile], { input: stdin, encoding: 'utf8', cwd: dir, env: { PATH: process.env['PATH'] ?? '', ...env } });
}

const log = (): HookInvocation[] => readJsonlFile<HookInvocation>(path.join(dir, 'log.jsonl'));
const stop = JSON.stringify({ hook_event_name: 'Stop', session_id: 's1', transcript_path: '/nonexistent.jsonl' });

describe('probe-hook.mjs', () => {
  it('passes silently by default and records payload, env (secrets redacted) and cwd', () => {
    const result = runHook(configure({}), stop, { GEMINI_API_KEY: 'secret-value', CLAUDE_PROJECT_DIR: '/p' });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('');
    const [entry] = log();
    expect(entry).toMatchObject({ n: 1, mode: 'hook', event: 'Stop', cwd: dir, payload: { session_id: 's1' }, transcriptSizeAtHook: null, response: { action: 'pass' } });
    expect(entry?.env['CLAUDE_PROJECT_DIR']).toBe('/p');
    expect(entry?.env['GEMINI_API_KEY']).toBe('<redacted len=12>');
  });

  it('blocks the first call only, with the agent-specific JSON decision', () => {
    const config = configure({ blockOnce: { reason: '[agent-checkpoint] run the tests', decision: 'deny' } });
    const first = runHook(config, stop);
    const second = runHook(config, stop);
    expect(first.status).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ decision: 'deny', reason: '[agent-checkpoint] run the tests' });
    expect(second.stdout).toBe('');
    expect(log().map((e) => e.response.action)).toEqual(['block', 'pass']);
  });

  it('can block Claude-style with exit code 2 and the reason on stderr', () => {
    const result = runHook(configure({ blockOnce: { reason: 'R', style: 'exit2' } }), stop);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('R');
  });

  it('delegates to a real command, relaying its stdout and exit code and recording them', () => {
    const result = runHook(configure({ exec: 'cat >/dev/null; echo \'{"decision":"block","reason":"x"}\'; exit 0' }), stop);
    expect(result.stdout).toBe('{"decision":"block","reason":"x"}\n');
    expect(log()[0]?.response).toMatchObject({ action: 'exec', exitCode: 0, stdout: '{"decision":"block","reason":"x"}\n' });
    const failing = runHook(configure({ exec: 'echo oops >&2; exit 3' }), stop);
    expect(failing.status).toBe(3);
    expect(failing.stderr).toBe('oops\n');
  });

  it("records the relayed command's wall time", () => {
    runHook(configure({ exec: `cat >/dev/null; ${JSON.stringify(process.execPath)} -e "setTimeout(() => {}, 300)"` }), stop);
    const duration = log()[0]?.response.durationMs ?? 0;
    expect(duration).toBeGreaterThanOrEqual(300);
    expect(duration).toBeLessThan(30_000);
  });

  it('snapshots the transcript as the hook left it, and records its path', () => {
    const transcript = path.join(dir, 'session.jsonl');
    writeFileSync(transcript, '{"a":1}\n');
    const snapshots = path.join(dir, 'snapshots');
    mkdirSync(snapshots);
    // The relayed command appends a line: the snapshot is taken after it ran.
    const payload = JSON.stringify({ hook_event_name: 'Stop', transcript_path: transcript });
    runHook(configure({ snapshotDir: snapshots, exec: `cat >/dev/null; echo '{"b":2}' >> ${JSON.stringify(transcript)}` }), payload);
    writeFileSync(transcript, '{"later":true}\n', { flag: 'a' });
    const entry = log()[0];
    expect(entry?.transcriptSnapshot).toBe(path.join(snapshots, 'hook-1.jsonl'));
    expect(readFileSync(entry?.transcriptSnapshot ?? '', 'utf8')).toBe('{"a":1}\n{"b":2}\n');
    // A transcript that does not exist gives null, not a crash.
    runHook(configure({ snapshotDir: snapshots }), stop);
    expect(log()[1]?.transcriptSnapshot).toBeNull();
  });

  it("copies Claude's subagent transcripts (<session>/subagents/) beside the snapshot, where readers look", () => {
    const transcript = path.join(dir, 'session.jsonl');
    writeFileSync(transcript, '{"a":1}\n');
    mkdirSync(path.join(dir, 'session', 'subagents'), { recursive: true });
    writeFileSync(path.join(dir, 'session', 'subagents', 'agent-a1.jsonl'), '{"sub":1}\n');
    const snapshots = path.join(dir, 'snapshots');
    mkdirSync(snapshots);
    runHook(configure({ snapshotDir: snapshots }), JSON.stringify({ hook_event_name: 'Stop', transcript_path: transcript }));
    expect(log()[0]?.transcriptSnapshot).toBe(path.join(snapshots, 'hook-1.jsonl'));
    expect(readFileSync(path.join(snapshots, 'hook-1', 'subagents', 'agent-a1.jsonl'), 'utf8')).toBe('{"sub":1}\n');
  });

  it('records non-JSON stdin raw instead of crashing', () => {
    const result = runHook(configure({}), 'not json');
    expect(result.status).toBe(0);
    expect(log()[0]).toMatchObject({ payload: null, stdinRaw: 'not json', event: null });
  });

  it('records notify payloads passed as the last argument', () => {
    const config = configure({});
    const payload = JSON.stringify({ type: 'agent-turn-complete', 'thread-id': 't' });
    const result = spawnSync(process.execPath, [PROBE_HOOK_PATH, 'notify', config, payload], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(log()[0]).toMatchObject({ mode: 'notify', event: 'agent-turn-complete', payload: { 'thread-id': 't' }, response: { action: 'record' } });
  });

  it("snapshots the Codex rollout of a notify payload's thread", () => {
    const threadId = '01a2015b-2441-7d80-9619-f25f21b792d9';
    const day = path.join(dir, 'codex', 'sessions', '2026', '01', '02');
    mkdirSync(day, { recursive: true });
    writeFileSync(path.join(day, `rollout-2026-01-02T03-04-05-${threadId}.jsonl`), '{"turn":1}\n');
    writeFileSync(path.join(day, 'rollout-2026-01-02T03-04-05-00000000-0000-0000-0000-000000000000.jsonl'), '{"other":1}\n');
    const snapshots = path.join(dir, 'snapshots');
    mkdirSync(snapshots);
    const config = configure({ snapshotDir: snapshots });
    const payload = JSON.stringify({ type: 'agent-turn-complete', 'thread-id': threadId });
    spawnSync(process.execPath, [PROBE_HOOK_PATH, 'notify', config, payload], { encoding: 'utf8', env: { CODEX_HOME: path.join(dir, 'codex') } });
    const entry = log()[0];
    expect(readFileSync(entry?.transcriptSnapshot ?? '', 'utf8')).toBe('{"turn":1}\n');
  });

  it("snapshots a Codex rollout with its subagents' rollouts (transitively) in the sessions layout", () => {
    const [parent, child, grandchild, other] = ['01a22096-48c6-78c3-852c-a6da9e71b13b', '01a22096-4957-7e91-be78-e618da7cbb6e', '01a22096-4a00-7e91-be78-e618da7cbb6e', '01a22096-4b00-7e91-be78-e618da7cbb6e'];
    const day = path.join(dir, 'codex', 'sessions', '2026', '11', '28');
    mkdirSync(day, { recursive: true });
    const name = (thread: string): string => `rollout-2026-11-28T05-17-29-${thread}.jsonl`;
    const meta = (thread: string, parentThread?: string): string =>
      `${JSON.stringify({ type: 'session_meta', payload: { id: thread, ...(parentThread ? { parent_thread_id: parentThread } : {}) } })}\n`;
    writeFileSync(path.join(day, name(parent)), meta(parent));
    writeFileSync(path.join(day, name(child)), meta(child, parent));
    writeFileSync(path.join(day, name(grandchild)), meta(grandchild, child));
    writeFileSync(path.join(day, name(other)), meta(other, '01a22096-0000-7000-8000-000000000000'));
    const snapshots = path.join(dir, 'snapshots');
    mkdirSync(snapshots);
    runHook(configure({ snapshotDir: snapshots }), JSON.stringify({ hook_event_name: 'Stop', session_id: parent, transcript_path: path.join(day, name(parent)) }));
    const snapshot = log()[0]?.transcriptSnapshot ?? '';
    expect(snapshot).toBe(path.join(snapshots, 'hook-1', 'sessions', '2026', '11', '28', name(parent)));
    expect(readdirSync(path.dirname(snapshot)).sort()).toEqual([name(parent), name(child), name(grandchild)].sort());
  });

  it('exits 0 when misused, so it can never break an agent', () => {
    expect(spawnSync(process.execPath, [PROBE_HOOK_PATH], { encoding: 'utf8' }).status).toBe(0);
  });
});
