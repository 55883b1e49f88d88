import { execFileSync } from 'node:child_process';
import { closeSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AGENT_IDS } from '../agent-id.ts';
import { claimCheckpoint, type ClaimCheckpointRequest } from './claim-checkpoint.ts';
import { offSwitchPath } from './off-switches.ts';
import { readSessionState } from './session-state-store.ts';
import { sessionStatePath, sessionsDir, switchesDir } from './state-files.ts';
import { runModuleSnippet, type SnippetRun } from '../test-support/run-module-snippet.ts';

// The per-session state under load, faults and hostile ids (docs/reliability.md). The 50-process
// single-turn claim, stale-lock takeover and user-only modes of the atomic writer are covered in
// claim-checkpoint.test.ts and session-state-store.test.ts. Here: many sessions claimed by many
// processes at once, state directories that cannot be written, damaged state files, special files
// where state files should be, user-only permissions under `umask 000`, and no path traversal for
// any session id.

const HERE = dirname(fileURLToPath(import.meta.url));

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'ac-rel-state-')));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function request(overrides: Partial<ClaimCheckpointRequest> = {}): ClaimCheckpointRequest {
  return {
    stateDir: join(root, 'state'),
    agent: 'codex',
    sessionId: 'session-1',
    turnId: 'turn-1',
    stopHookActive: false,
    config: { maxBlocksPerTurn: 1, minTurnSeconds: 0 },
    lockWaitMs: 20_000,
    ...overrides,
  };
}

function runIsolated(script: string, timeoutMs: number): Promise<SnippetRun> {
  return runModuleSnippet(script, HERE, { timeoutMs });
}

describe('many sessions, many processes', () => {
  it(`8 processes each claim the same ${AGENT_IDS.length * 5} sessions (every agent × 5) in their own order: exactly one grant per session`, { timeout: 180_000 }, async () => {
    const stateDir = join(root, 'state');
    const go = join(root, 'go');
    const script = (seed: number): string => `
      import { existsSync, writeFileSync } from 'node:fs';
      const { claimCheckpoint } = await import(${JSON.stringify(join(HERE, 'claim-checkpoint.ts'))});
      const sessions = [];
      for (const agent of ${JSON.stringify(AGENT_IDS)}) for (let i = 0; i < 5; i++) sessions.push({ agent, sessionId: 'many-' + i });
      // A different order per process, so lock contention moves around.
      let s = ${seed};
      const order = sessions.map((x) => [((s = (s * 1103515245 + 12345) % 2147483648)), x]).sort((a, b) => a[0] - b[0]).map((p) => p[1]);
      writeFileSync(${JSON.stringify(join(root, 'ready-'))} + ${seed}, '');
      const deadline = Date.now() + 60000;
      while (!existsSync(${JSON.stringify(go)}) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      const granted = await Promise.all(order.map(async ({ agent, sessionId }) => {
        const { claim } = await claimCheckpoint({ stateDir: ${JSON.stringify(stateDir)}, agent, sessionId, turnId: 'turn-1', stopHookActive: false,
          config: { maxBlocksPerTurn: 1, minTurnSeconds: 0 }, lockWaitMs: 60000 });
        return claim.verdict === 'allow' ? agent + '/' + sessionId : undefined;
      }));
      process.stdout.write(JSON.stringify(granted.filter(Boolean)) + '\\n');
      process.exit(0);`;
    const runs = Array.from({ length: 8 }, (_, i) => runIsolated(script(i * 7919 + 1), 150_000));
    // Start together once every child is up and polling for the go file.
    const readyBy = Date.now() + 60_000;
    while (readdirSync(root).filter((n) => n.startsWith('ready-')).length < 8 && Date.now() < readyBy) await new Promise((r) => setTimeout(r, 20));
    writeFileSync(go, '');
    const results = await Promise.all(runs);
    const grants: string[] = [];
    for (const r of results) {
      expect(r.timedOut).toBe(false);
      expect(r.code, r.stderr).toBe(0);
      grants.push(...(JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '[]') as string[]));
    }
    expect(grants.sort()).toEqual(AGENT_IDS.flatMap((a) => Array.from({ length: 5 }, (_, i) => `${a}/many-${i}`)).sort());
    // Every state file is valid JSON recording exactly that one block; no lock or temp file remains.
    const names = readdirSync(sessionsDir(stateDir));
    expect(names.filter((n) => !n.endsWith('.json'))).toEqual([]);
    expect(names).toHaveLength(AGENT_IDS.length * 5);
    for (const name of names) {
      const state = JSON.parse(readFileSync(join(sessionsDir(stateDir), name), 'utf8')) as { turns: Array<{ blocks: number }> };
      expect(state.turns.map((t) => t.blocks)).toEqual([1]);
    }
  });
});

describe('a state directory that cannot be written: the claim passes (state-unavailable), never throws', () => {
  it.each([
    ['the state dir is a regular file', (): string => (writeFileSync(join(root, 'f'), ''), join(root, 'f'))],
    ['the state dir lies below a regular file', (): string => (writeFileSync(join(root, 'f'), ''), join(root, 'f', 'state'))],
    ['sessions/ is a regular file', (): string => (mkdirSync(join(root, 's')), writeFileSync(join(root, 's', 'sessions'), ''), join(root, 's'))],
    ['the state dir is a symlink loop', (): string => (symlinkSync(join(root, 'loop'), join(root, 'loop')), join(root, 'loop'))],
    ['the state dir path is longer than PATH_MAX', (): string => join(root, `${'d'.repeat(200)}/`.repeat(25))],
  ])('%s', async (_name, make) => {
    const { claim, diagnostics } = await claimCheckpoint(request({ stateDir: make(), lockWaitMs: 500 }));
    expect(claim).toMatchObject({ verdict: 'pass', reason: 'state-unavailable' });
    expect(diagnostics.length).toBeGreaterThan(0);
    for (const line of diagnostics) expect(line).not.toContain('\n');
  });
});

describe('damaged state files are replaced by a valid one', () => {
  it.each([
    ['binary bytes', (p: string) => writeFileSync(p, Buffer.from([0xff, 0x00, 0x7b, 0x22]))],
    ['truncated JSON', (p: string) => writeFileSync(p, '{"version":1,"agent":"codex","sessionId":"session-1","turns":[{"turnId":"tu')],
    ['another agent’s state', (p: string) => writeFileSync(p, JSON.stringify({ version: 1, agent: 'claude', sessionId: 'session-1', turns: [] }))],
    ['a JSON array', (p: string) => writeFileSync(p, '[]')],
    [
      'a 1 GiB sparse file',
      (p: string) => {
        const fd = openSync(p, 'w');
        ftruncateSync(fd, 1024 ** 3);
        closeSync(fd);
      },
    ],
    ['a directory', (p: string) => mkdirSync(p)],
    ['a symlink loop', (p: string) => symlinkSync(p, p)],
  ])('%s', async (_name, damage) => {
    const path = sessionStatePath(request());
    mkdirSync(dirname(path), { recursive: true });
    damage(path);
    const first = await claimCheckpoint(request());
    // A damaged file never wedges the claim: it is granted and rewritten, or passes when the path
    // cannot hold a file (directory) — never a second grant for the same turn.
    const second = await claimCheckpoint(request());
    expect(second.claim.verdict).toBe('pass');
    if (first.claim.verdict === 'allow') {
      expect((await readSessionState(request())).state.turns.map((t) => t.blocks)).toEqual([1]);
    } else {
      expect(first.claim).toMatchObject({ reason: 'state-unavailable' });
    }
  });
});

describe('special files where state files should be (child process: a blocked open would never return)', () => {
  it('a FIFO as the session state file and as the off switches: reads and claims return', { timeout: 60_000 }, async () => {
    const stateDir = join(root, 'state');
    mkdirSync(sessionsDir(stateDir), { recursive: true });
    mkdirSync(switchesDir(stateDir), { recursive: true });
    execFileSync('mkfifo', [sessionStatePath(request())]);
    execFileSync('mkfifo', [offSwitchPath(stateDir, { kind: 'all' })]);
    execFileSync('mkfifo', [offSwitchPath(stateDir, { kind: 'session', sessionId: 'session-1' })]);
    const script = `
      const { claimCheckpoint } = await import(${JSON.stringify(join(HERE, 'claim-checkpoint.ts'))});
      const { readSessionState } = await import(${JSON.stringify(join(HERE, 'session-state-store.ts'))});
      const { readOffSwitch } = await import(${JSON.stringify(join(HERE, 'off-switches.ts'))});
      const read = await readSessionState({ stateDir: ${JSON.stringify(stateDir)}, agent: 'codex', sessionId: 'session-1' });
      const off = await readOffSwitch({ stateDir: ${JSON.stringify(stateDir)}, sessionId: 'session-1', env: {} });
      const { claim } = await claimCheckpoint({ stateDir: ${JSON.stringify(stateDir)}, agent: 'codex', sessionId: 'session-1', turnId: 't',
        stopHookActive: false, config: { maxBlocksPerTurn: 1, minTurnSeconds: 0 }, lockWaitMs: 1000 });
      process.stdout.write(JSON.stringify({ read: read.diagnostics, off: off.off, claim: claim.verdict }) + '\\n');
      process.exit(0);`;
    const run = await runIsolated(script, 30_000);
    expect(run.timedOut, 'a FIFO state or switch file blocked the read').toBe(false);
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as { read: string[]; off: boolean; claim: string };
    expect(out.read.join(' ')).toMatch(/not a regular file/);
    // An unreadable switch counts as off: the user asked for silence.
    expect(out.off).toBe(true);
  });
});

describe('user-only permissions', () => {
  it('0600 files and 0700 directories under umask 000 (claims, switches, pruning)', { timeout: 60_000 }, async () => {
    const stateDir = join(root, 'state');
    const script = `
      process.umask(0);
      const { claimCheckpoint } = await import(${JSON.stringify(join(HERE, 'claim-checkpoint.ts'))});
      const { setOffSwitch } = await import(${JSON.stringify(join(HERE, 'off-switches.ts'))});
      for (const agent of ${JSON.stringify(AGENT_IDS)}) {
        await claimCheckpoint({ stateDir: ${JSON.stringify(stateDir)}, agent, sessionId: 's-' + agent, turnId: 't', stopHookActive: false,
          config: { maxBlocksPerTurn: 1, minTurnSeconds: 0 } });
      }
      await setOffSwitch({ stateDir: ${JSON.stringify(stateDir)}, scope: { kind: 'session', sessionId: 'x' }, off: true });
      await setOffSwitch({ stateDir: ${JSON.stringify(stateDir)}, scope: { kind: 'all' }, off: true });
      process.exit(0);`;
    const run = await runIsolated(script, 30_000);
    expect(run.code, run.stderr).toBe(0);
    const seen: string[] = [];
    const visit = (path: string): void => {
      const info = statSync(path);
      const mode = info.mode & 0o777;
      seen.push(basename(path));
      expect(mode, `${path} is ${mode.toString(8)}`).toBe(info.isDirectory() ? 0o700 : 0o600);
      if (info.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
    };
    visit(stateDir);
    expect(seen).toEqual(expect.arrayContaining(['sessions', 'switches', 'all.off', ...AGENT_IDS.map((agent) => `${agent}-s-${agent}.json`)]));
  });
});

describe('no path traversal through session ids', () => {
  it('for any session id and agent, the state and switch files are direct children of their directories', () => {
    const stateDir = '/state';
    fc.assert(
      fc.property(fc.constantFrom(...AGENT_IDS), fc.oneof(fc.string(), fc.constantFrom('..', '.', '../../etc/passwd', '/abs', 'a/../../b', '\u0000', '..\\..', '%2e%2e%2f')), (agent, sessionId) => {
        const state = sessionStatePath({ stateDir, agent, sessionId });
        expect(dirname(state)).toBe(sessionsDir(stateDir));
        expect(basename(state)).not.toMatch(/^\.\.?$|[/\\\u0000]/);
        const off = offSwitchPath(stateDir, { kind: 'session', sessionId });
        expect(dirname(off)).toBe(switchesDir(stateDir));
        expect(basename(off)).not.toMatch(/^\.\.?$|[/\\\u0000]/);
      }),
      { numRuns: 2000 },
    );
  });
});
