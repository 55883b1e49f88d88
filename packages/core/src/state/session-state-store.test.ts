import { mkdtemp, readdir, readFile, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordBlock } from './session-state.ts';
import { readSessionState, StateLockTimeoutError, updateSessionState } from './session-state-store.ts';
import { sessionStatePath } from './state-files.ts';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'ac-state-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const NOW = new Date('2026-01-10T10:00:00.000Z');

describe('session state store', () => {
  it('reads a missing file as an empty state', async () => {
    const stateDir = join(root, 'state');
    const { state, diagnostics } = await readSessionState({ stateDir, agent: 'claude', sessionId: 's1' });
    expect(state).toEqual({ version: 1, agent: 'claude', sessionId: 's1', turns: [] });
    expect(diagnostics).toEqual([]);
  });

  it('writes atomically with user-only permissions and reads back', async () => {
    const stateDir = join(root, 'nested', 'state');
    const location = { stateDir, agent: 'codex' as const, sessionId: 'sess-1' };
    const result = await updateSessionState(location, (s) => ({ state: recordBlock(s, 't1', NOW), value: 42 }));
    expect(result).toMatchObject({ written: true, value: 42 });

    const path = sessionStatePath(location);
    expect(path).toBe(join(stateDir, 'sessions', 'codex-sess-1.json'));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(stateDir, 'sessions'))).mode & 0o777).toBe(0o700);
    expect((await stat(stateDir)).mode & 0o777).toBe(0o700);
    // No temp files or lock left behind.
    expect(await readdir(join(stateDir, 'sessions'))).toEqual(['codex-sess-1.json']);

    const { state } = await readSessionState(location);
    expect(state.turns).toEqual([{ turnId: 't1', blocks: 1, firstBlockAt: NOW.toISOString(), lastBlockAt: NOW.toISOString() }]);
    expect(state.lastCheckpointAt).toBe(NOW.toISOString());
  });

  it('does not write when the update returns no state', async () => {
    const location = { stateDir: join(root, 's'), agent: 'claude' as const, sessionId: 's1' };
    const result = await updateSessionState(location, () => ({ state: undefined, value: 'x' }));
    expect(result.written).toBe(false);
    expect(await readdir(join(root, 's', 'sessions'))).toEqual([]);
  });

  it('keeps hostile session ids inside the state directory', async () => {
    const stateDir = join(root, 'state');
    const location = { stateDir, agent: 'gemini' as const, sessionId: '../../escape' };
    await updateSessionState(location, (s) => ({ state: recordBlock(s, 't', NOW), value: null }));
    expect(sessionStatePath(location).startsWith(join(stateDir, 'sessions') + '/')).toBe(true);
    expect(await readdir(root)).toEqual(['state']);
    const { state } = await readSessionState(location);
    expect(state.sessionId).toBe('../../escape');
    expect(state.turns).toHaveLength(1);
  });

  it.each([
    ['not JSON', '{"version":1,'],
    ['wrong shape', '{"version":1,"agent":"claude","sessionId":"s1","turns":"many"}'],
    ['a JSON array', '[]'],
    ['another agent', '{"version":1,"agent":"codex","sessionId":"s1","turns":[]}'],
    ['oversized', `{"pad":"${'x'.repeat(300 * 1024)}"}`],
  ])('treats a corrupt file (%s) as empty with a diagnostic, and repairs it on the next update', async (_label, content) => {
    const location = { stateDir: join(root, 'state'), agent: 'claude' as const, sessionId: 's1' };
    await mkdir(join(root, 'state', 'sessions'), { recursive: true });
    await writeFile(sessionStatePath(location), content);
    const read = await readSessionState(location);
    expect(read.state.turns).toEqual([]);
    expect(read.diagnostics).toHaveLength(1);
    await updateSessionState(location, (s) => ({ state: recordBlock(s, 't', NOW), value: null }));
    const again = await readSessionState(location);
    expect(again.diagnostics).toEqual([]);
    expect(again.state.turns).toHaveLength(1);
  });

  it('a state path that is a directory yields a diagnostic, not a crash', async () => {
    const location = { stateDir: join(root, 'state'), agent: 'claude' as const, sessionId: 's1' };
    await mkdir(sessionStatePath(location), { recursive: true });
    const read = await readSessionState(location);
    expect(read.state.turns).toEqual([]);
    expect(read.diagnostics[0]).toMatch(/cannot read/);
  });

  it('gives up on a held lock after the bounded wait', async () => {
    const location = { stateDir: join(root, 'state'), agent: 'claude' as const, sessionId: 's1' };
    await mkdir(join(root, 'state', 'sessions'), { recursive: true });
    // A fresh lock directory held by "another process".
    await mkdir(`${sessionStatePath(location)}.lock`);
    const started = Date.now();
    await expect(updateSessionState(location, () => ({ state: undefined, value: null }), { lockWaitMs: 200 })).rejects.toBeInstanceOf(
      StateLockTimeoutError,
    );
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('takes over a stale lock left by a crashed process', async () => {
    const location = { stateDir: join(root, 'state'), agent: 'claude' as const, sessionId: 's1' };
    const lockDir = `${sessionStatePath(location)}.lock`;
    await mkdir(lockDir, { recursive: true });
    const old = new Date(Date.now() - 60_000);
    const { utimes } = await import('node:fs/promises');
    await utimes(lockDir, old, old);
    const result = await updateSessionState(location, (s) => ({ state: recordBlock(s, 't', NOW), value: 'ok' }), { lockWaitMs: 500 });
    expect(result.value).toBe('ok');
    expect(JSON.parse(await readFile(sessionStatePath(location), 'utf8')).turns).toHaveLength(1);
  });
});
