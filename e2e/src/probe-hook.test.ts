import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

  it('exits 0 when misused, so it can never break an agent', () => {
    expect(spawnSync(process.execPath, [PROBE_HOOK_PATH], { encoding: 'utf8' }).status).toBe(0);
  });
});
