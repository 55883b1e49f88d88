import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_TURNS_KEPT, recordBlock, SessionStateSchema } from './session-state.ts';
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

  it('replaces the file atomically without fsync: a reader polling during 4 writer processes only ever sees complete states', { timeout: 120_000 }, async () => {
    // The update writes with rename and no fsync; atomicity for readers must come from the rename.
    // (A plain in-place write fails this at once: the reader sees empty and half-written files.)
    const worker = join(root, 'writer.mjs');
    await build({
      stdin: {
        contents: `
          import { existsSync } from 'node:fs';
          import { updateSessionState } from ${JSON.stringify(fileURLToPath(new URL('./session-state-store.ts', import.meta.url)))};
          import { recordBlock } from ${JSON.stringify(fileURLToPath(new URL('./session-state.ts', import.meta.url)))};
          const [stateDir, writer, goFile] = process.argv.slice(2);
          const deadline = Date.now() + 60000;
          while (!existsSync(goFile) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
          for (let i = 0; i < 150; i += 1) {
            // Long turn ids: each state is several KiB, written in more than one piece if not atomic.
            const turnId = writer + '-' + i + '-' + 'x'.repeat(180);
            await updateSessionState({ stateDir, agent: 'claude', sessionId: 'shared' }, (s) => ({ state: recordBlock(s, turnId, new Date()), value: null }), { lockWaitMs: 60000 });
          }
        `,
        resolveDir: root,
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile: worker,
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url); const __filename = import.meta.filename ?? '';" },
      logLevel: 'silent',
    });
    const location = { stateDir: join(root, 'state'), agent: 'claude' as const, sessionId: 'shared' };
    const path = sessionStatePath(location);
    const goFile = join(root, 'go');
    const children: ChildProcess[] = [];
    try {
      const exits = ['a', 'b', 'c', 'd'].map((writer) => {
        const child = spawn(process.execPath, [worker, location.stateDir, writer, goFile], { stdio: ['ignore', 'ignore', 'pipe'] });
        children.push(child);
        let stderr = '';
        child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
        return new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
          child.on('error', reject);
          child.on('close', (code) => resolve({ code, stderr }));
        });
      });
      let running = exits.length;
      for (const exit of exits) void exit.then(() => (running -= 1));
      await writeFile(goFile, '');

      let reads = 0;
      const broken: string[] = [];
      const versions = new Set<string>();
      while (running > 0) {
        for (let i = 0; i < 50; i += 1) {
          let text: string;
          try {
            text = readFileSync(path, 'utf8');
          } catch {
            continue; // not written yet
          }
          reads += 1;
          try {
            const parsed = SessionStateSchema.parse(JSON.parse(text));
            versions.add(JSON.stringify(parsed.turns.at(-1)));
          } catch {
            if (broken.length < 3) broken.push(text.slice(0, 80));
          }
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
      for (const exit of await Promise.all(exits)) expect(exit.code, exit.stderr).toBe(0);
      expect(broken).toEqual([]);
      // The reader really overlapped the writers: it saw many successive states, not just the last.
      expect(reads).toBeGreaterThan(100);
      expect(versions.size).toBeGreaterThan(20);
      const { state, diagnostics } = await readSessionState(location);
      expect(diagnostics).toEqual([]);
      expect(state.turns).toHaveLength(MAX_TURNS_KEPT);
      expect(await readdir(join(location.stateDir, 'sessions'))).toEqual(['claude-shared.json']);
    } finally {
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
