import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimCheckpoint, type ClaimCheckpointRequest } from './claim-checkpoint.ts';
import { MAX_TURNS_KEPT, type SessionState } from './session-state.ts';
import { readSessionState } from './session-state-store.ts';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'ac-claim-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const START = new Date('2026-01-10T10:00:00.000Z');
const later = (seconds: number): Date => new Date(START.getTime() + seconds * 1000);

function request(overrides: Partial<ClaimCheckpointRequest> = {}): ClaimCheckpointRequest {
  return {
    stateDir: join(root, 'state'),
    agent: 'claude',
    sessionId: 'session-1',
    turnId: 'turn-1',
    stopHookActive: false,
    config: { maxBlocksPerTurn: 1, minTurnSeconds: 30 },
    now: later(60),
    ...overrides,
  };
}

describe('claimCheckpoint', () => {
  it('grants the first claim of a turn, records it, and passes the next', async () => {
    const first = await claimCheckpoint(request());
    expect(first.claim).toEqual({ verdict: 'allow', turnId: 'turn-1', blocksSoFar: 0 });
    const { state } = await readSessionState({ stateDir: join(root, 'state'), agent: 'claude', sessionId: 'session-1' });
    expect(state.turns).toEqual([
      { turnId: 'turn-1', blocks: 1, firstBlockAt: later(60).toISOString(), lastBlockAt: later(60).toISOString() },
    ]);
    const second = await claimCheckpoint(request({ now: later(600) }));
    expect(second.claim).toMatchObject({ verdict: 'pass', reason: 'turn-limit-reached' });
  });

  it('a late stop of a turn older than the 32 the state remembers passes as already checkpointed; a new turn is still granted (issue 23)', async () => {
    // 33 turns, one checkpoint each, a minute apart: turn-0 is dropped from the bounded state.
    const startOf = (i: number): string => later(i * 60).toISOString();
    for (let i = 0; i <= MAX_TURNS_KEPT; i += 1) {
      const granted = await claimCheckpoint(request({ turnId: `turn-${i}`, turnStartedAt: startOf(i), now: later(i * 60 + 30) }));
      expect(granted.claim.verdict).toBe('allow');
    }
    const location = { stateDir: join(root, 'state'), agent: 'claude' as const, sessionId: 'session-1' };
    const { state } = await readSessionState(location);
    expect(state.turns.map((t) => t.turnId)).not.toContain('turn-0');
    expect(state.forgottenThrough).toBe(later(30).toISOString());
    // turn-0's stop arrives late (a replayed or delayed Stop): it was checkpointed, not blocked again.
    const late = await claimCheckpoint(request({ turnId: 'turn-0', turnStartedAt: startOf(0), now: later(3000) }));
    expect(late.claim).toMatchObject({ verdict: 'pass', reason: 'turn-forgotten' });
    // A turn that started after everything the state forgot is a new turn.
    const fresh = await claimCheckpoint(request({ turnId: 'turn-new', turnStartedAt: later(2990).toISOString(), now: later(3000) }));
    expect(fresh.claim).toMatchObject({ verdict: 'allow' });
  });

  it("onGranted (a feature's bookkeeping) is applied with the granted block, under the lock, and never on a refused one", async () => {
    const seen: string[] = [];
    const onGranted = (state: SessionState, now: Date): SessionState => {
      seen.push(now.toISOString());
      return { ...state, updatedAt: now.toISOString(), delivered: [...(state.delivered ?? []), `mark-${seen.length}`] };
    };
    const location = { stateDir: join(root, 'state'), agent: 'claude' as const, sessionId: 'session-1' };
    expect((await claimCheckpoint(request({ onGranted }))).claim.verdict).toBe('allow');
    expect((await readSessionState(location)).state).toMatchObject({ delivered: ['mark-1'], turns: [{ turnId: 'turn-1', blocks: 1 }] });
    expect((await claimCheckpoint(request({ onGranted, now: later(600) }))).claim).toMatchObject({ verdict: 'pass', reason: 'turn-limit-reached' });
    expect(seen).toEqual([later(60).toISOString()]);
    expect((await readSessionState(location)).state.delivered).toEqual(['mark-1']);
  });

  it('stop_hook_active passes without creating any state', async () => {
    const result = await claimCheckpoint(request({ stopHookActive: true }));
    expect(result.claim).toMatchObject({ verdict: 'pass', reason: 'stop-hook-active' });
    expect(existsSync(join(root, 'state'))).toBe(false);
  });

  it('fails open when the state directory cannot be created', async () => {
    const blocker = join(root, 'file');
    await writeFile(blocker, '');
    const result = await claimCheckpoint(request({ stateDir: join(blocker, 'state') }));
    expect(result.claim).toMatchObject({ verdict: 'pass', reason: 'state-unavailable' });
  });

  it('a quick turn right after the previous turn got its checkpoint is granted (every turn is checked)', async () => {
    expect((await claimCheckpoint(request({ config: { maxBlocksPerTurn: 1, minTurnSeconds: 30 }, now: later(1) }))).claim.verdict).toBe('allow');
    const next = await claimCheckpoint(request({ turnId: 'turn-2', now: later(5) }));
    expect(next.claim).toEqual({ verdict: 'allow', turnId: 'turn-2', blocksSoFar: 0 });
  });

  it('a checkpoint recorded in the future (clock skew) does not silence later turns, and is reported', async () => {
    // The clock was ahead by a day when the first block was recorded, then set right.
    expect((await claimCheckpoint(request({ now: later(86_400) }))).claim.verdict).toBe('allow');
    const config = { maxBlocksPerTurn: 2, minTurnSeconds: 30 };
    const sameTurn = await claimCheckpoint(request({ config, now: later(120) }));
    expect(sameTurn.claim).toEqual({ verdict: 'allow', turnId: 'turn-1', blocksSoFar: 1 });
    expect(sameTurn.diagnostics.join('\n')).toMatch(/records a checkpoint at 2026-01-11T10:00:00\.000Z, later than now .*clock skew/);
    // The granted block rewrote the time: no note any more, and the next turn is checked normally.
    const next = await claimCheckpoint(request({ turnId: 'turn-2', now: later(130) }));
    expect(next.claim).toEqual({ verdict: 'allow', turnId: 'turn-2', blocksSoFar: 0 });
    expect(next.diagnostics.join('\n')).not.toMatch(/clock skew/);
  });

  it('keeps sessions and agents apart', async () => {
    expect((await claimCheckpoint(request())).claim.verdict).toBe('allow');
    expect((await claimCheckpoint(request({ sessionId: 'session-2' }))).claim.verdict).toBe('allow');
    expect((await claimCheckpoint(request({ agent: 'codex' }))).claim.verdict).toBe('allow');
    expect((await readdir(join(root, 'state', 'sessions'))).sort()).toEqual([
      'claude-session-1.json',
      'claude-session-2.json',
      'codex-session-1.json',
    ]);
  });

  it('grants exactly one of 50 concurrent processes claiming the same turn', { timeout: 120_000 }, async () => {
    const claimModule = fileURLToPath(new URL('./claim-checkpoint.ts', import.meta.url));
    const worker = join(root, 'claim-worker.mjs');
    // A real separate process per claim: bundle a tiny entry that waits for a shared start signal.
    await build({
      stdin: {
        contents: `
          import { existsSync } from 'node:fs';
          import { claimCheckpoint } from ${JSON.stringify(claimModule)};
          const [stateDir, goFile] = process.argv.slice(2);
          const deadline = Date.now() + 60000;
          while (!existsSync(goFile) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
          const result = await claimCheckpoint({
            stateDir, agent: 'gemini', sessionId: 'shared-session', turnId: 'turn-x', stopHookActive: false,
            config: { maxBlocksPerTurn: 1, minTurnSeconds: 0 }, lockWaitMs: 60000,
          });
          process.stdout.write(JSON.stringify(result.claim));
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
    const stateDir = join(root, 'state');
    const goFile = join(root, 'go');
    const runs = Array.from({ length: 50 }, () => runWorker(worker, [stateDir, goFile]));
    await writeFile(goFile, '');
    const results = await Promise.all(runs);
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const claims = results.map((r) => JSON.parse(r.stdout) as { verdict: string; reason?: string });
    expect(claims.filter((c) => c.verdict === 'allow')).toHaveLength(1);
    expect(claims.filter((c) => c.reason === 'turn-limit-reached')).toHaveLength(49);
    const { state } = await readSessionState({ stateDir, agent: 'gemini', sessionId: 'shared-session' });
    expect(state.turns).toMatchObject([{ turnId: 'turn-x', blocks: 1 }]);
    expect((await readdir(join(stateDir, 'sessions'))).sort()).toEqual(['gemini-shared-session.json']);
    expect(JSON.parse(await readFile(join(stateDir, 'sessions', 'gemini-shared-session.json'), 'utf8')).version).toBe(1);
  });
});

function runWorker(script: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
