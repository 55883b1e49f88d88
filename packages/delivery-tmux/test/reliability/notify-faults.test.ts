import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverToPane } from '../../src/deliver-to-pane.ts';
import { findCodexPane, type CodexPane } from '../../src/find-codex-pane.ts';
import { buildBundle, createCodexWorld, RECORDED, type CodexWorld } from '../../src/__fixtures__/codex-world.ts';
import { startFakeCodex, startTestTmux, type FakeCodexPane, type TestTmux } from '../../src/__fixtures__/tmux-test-server.ts';
import { asSubmitted, expectedForTurn1, expectNotifyContract, runNotifyBounded, waitFor } from './support.ts';

// Faults on the tmux route (docs/reliability.md): the tmux server or the pane disappearing mid-way,
// a tmux that hangs or is missing, a git that hangs, a state directory that cannot be written. Each
// is time-boxed, fails open (nothing typed, or exactly getCheckpoint's message) and never throws.

let bundleDir: string;
let bundle: string;
beforeAll(async () => {
  bundleDir = mkdtempSync(join(tmpdir(), 'ac-tmux-rel-faults-'));
  bundle = await buildBundle(bundleDir);
}, 60_000);
afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));

async function withServer(test: (server: TestTmux) => Promise<void>): Promise<void> {
  const server = await startTestTmux();
  try {
    await test(server);
  } finally {
    await server.dispose();
  }
}

async function paneOf(fake: FakeCodexPane): Promise<CodexPane> {
  const found = await findCodexPane(fake.env);
  if (!found.ok) throw new Error(found.reason);
  return found.pane;
}

const MESSAGE = '[agent-checkpoint] Before you finish this turn:\n\nRun the tests.';

describe('the pane or the server disappears mid-way (deliverToPane, real tmux)', () => {
  it.concurrent('the tmux server is killed between the checks and the paste: refused, nothing thrown', { timeout: 60_000 }, () =>
    withServer(async (server) => {
      const fake = await startFakeCodex(server);
      const pane = await paneOf(fake);
      const started = Date.now();
      const result = await deliverToPane(pane, MESSAGE, {
        beforePaste: async () => {
          await server.tmux('kill-server');
          return undefined;
        },
      });
      expect(result).toMatchObject({ status: 'refused' });
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(fake.submissions()).toEqual([]);
    }),
  );

  it.concurrent('the pane is closed between the checks and the paste: refused', { timeout: 60_000 }, () =>
    withServer(async (server) => {
      const fake = await startFakeCodex(server);
      // A second session keeps the server alive once the Codex pane is gone.
      await server.startPane(['sleep', '600']);
      const pane = await paneOf(fake);
      const result = await deliverToPane(pane, MESSAGE, {
        beforePaste: async () => {
          await server.tmux('kill-pane', '-t', fake.paneId);
          return undefined;
        },
      });
      expect(result).toMatchObject({ status: 'refused' });
      expect(fake.submissions()).toEqual([]);
    }),
  );

  it.concurrent('the pane is closed after the paste, while Enter is being confirmed: failed (typed), in bounded time', { timeout: 60_000 }, () =>
    withServer(async (server) => {
      // Codex swallows every Enter, so the route keeps confirming when the pane goes away.
      const fake = await startFakeCodex(server, ['--swallow-enters', '10']);
      await server.startPane(['sleep', '600']);
      const pane = await paneOf(fake);
      const started = Date.now();
      const delivery = deliverToPane(pane, MESSAGE, { confirmTimeoutMs: 3000 });
      await waitFor(() => fake.events().some((e) => e.type === 'paste'), 'the paste to arrive');
      await server.tmux('kill-pane', '-t', fake.paneId);
      const result = await delivery;
      expect(result).toMatchObject({ status: 'failed', typed: true });
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(fake.submissions()).toEqual([]);
    }),
  );
});

describe('the notify program under faults', () => {
  /** A world with the turn-1 rollout and a Codex pane; `env` is what the notify program gets. */
  async function withWorld(test: (ctx: { world: CodexWorld; server: TestTmux; fake: FakeCodexPane; rollout: string }) => Promise<void>, fakeOptions: string[] = ['--busy-ms', '100']): Promise<void> {
    const world = createCodexWorld();
    try {
      await withServer(async (server) => {
        const fake = await startFakeCodex(server, [...fakeOptions, '--hold-open', world.rolloutPath]);
        const rollout = world.writeRollout(RECORDED.turn1End, '[agent-checkpoint] ');
        await test({ world, server, fake, rollout });
      });
    } finally {
      world.remove();
    }
  }
  const payload = (world: CodexWorld): string => world.payload(RECORDED.turn1, [RECORDED.prompt]);

  it.concurrent('the pane is closed while the program waits for Codex to be idle: exit 0 at once, nothing typed', { timeout: 60_000 }, () =>
    withWorld(
      async ({ world, server, fake }) => {
        await server.startPane(['sleep', '600']);
        const running = runNotifyBounded(bundle, ['--idle-wait-ms=20000', payload(world)], { ...world.env, ...fake.env, AGENT_CHECKPOINT_DEBUG: '1' });
        // The program found the pane and is working on the turn (its debug log says so): close the pane.
        const log = join(world.stateDir, 'debug.log');
        await waitFor(() => existsSync(log) && readFileSync(log, 'utf8').includes('turn complete'), 'the notify program to start on the turn', 20_000);
        await server.tmux('kill-pane', '-t', fake.paneId);
        const run = await running;
        expectNotifyContract(run);
        expect(run.outcome.kind).toMatch(/refused|skipped/);
        // Far from the 20 s idle wait: a pane that is gone is not waited for.
        expect(run.endedAt - run.startedAt).toBeLessThan(15_000);
      },
      ['--start-busy-ms', '60000'],
    ),
  );

  it.concurrent('a tmux that hangs: every call is time-limited, exit 0, nothing typed', { timeout: 90_000 }, () =>
    withWorld(async ({ world, fake }) => {
      const bin = join(world.root, 'hanging-bin');
      mkdirSync(bin);
      const pids = join(world.root, 'tmux-pids');
      writeFileSync(join(bin, 'tmux'), `#!/bin/sh\necho $$ >> '${pids}'\nexec sleep 120\n`);
      chmodSync(join(bin, 'tmux'), 0o755);
      try {
        const run = await runNotifyBounded(bundle, [payload(world)], { ...world.env, ...fake.env, PATH: `${bin}:${world.env['PATH']}` });
        expectNotifyContract(run);
        expect(run.outcome.kind).toBe('skipped');
        expect(fake.submissions()).toEqual([]);
      } finally {
        for (const pid of readFileSync(pids, 'utf8').split('\n').filter(Boolean).map(Number)) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // Already gone (killed at its time limit).
          }
        }
      }
    }),
  );

  it.concurrent('no tmux on PATH: exit 0, skipped', { timeout: 60_000 }, () =>
    withWorld(async ({ world, fake }) => {
      const bin = join(world.root, 'empty-bin');
      mkdirSync(bin);
      const run = await runNotifyBounded(bundle, [payload(world)], { ...world.env, ...fake.env, PATH: bin });
      expectNotifyContract(run);
      expect(run.outcome.kind).toBe('skipped');
      expect(fake.submissions()).toEqual([]);
    }),
  );

  it.concurrent('a git that hangs: cut at the configured git time limit, the generic message is typed', { timeout: 90_000 }, () =>
    withWorld(async ({ world, fake, rollout }) => {
      const bin = join(world.root, 'slow-git-bin');
      mkdirSync(bin);
      const pids = join(world.root, 'git-pids');
      writeFileSync(join(bin, 'git'), `#!/bin/sh\necho $$ >> '${pids}'\nexec sleep 120\n`);
      chmodSync(join(bin, 'git'), 0o755);
      writeFileSync(join(world.repo, '.agent-checkpoint.json'), JSON.stringify({ gitTimeoutMs: 500 }));
      const env = { ...world.env, PATH: `${bin}:${world.env['PATH']}` };
      try {
        const run = await runNotifyBounded(bundle, [payload(world)], { ...env, ...fake.env });
        expectNotifyContract(run);
        const expected = await expectedForTurn1(world, rollout, env);
        expect(expected.mode).toBe('generic-fallback');
        expect(run.outcome, run.stderr).toMatchObject({ kind: 'delivered' });
        expect(fake.submissions()).toEqual([asSubmitted(expected.message)]);
      } finally {
        for (const pid of readFileSync(pids, 'utf8').split('\n').filter(Boolean).map(Number)) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // Already gone.
          }
        }
      }
    }),
  );

  it.concurrent('a state directory that is a regular file: nothing typed (an unrecorded delivery could repeat), exit 0', { timeout: 60_000 }, () =>
    withWorld(async ({ world, fake }) => {
      const stateFile = join(world.root, 'state-is-a-file');
      writeFileSync(stateFile, '');
      const run = await runNotifyBounded(bundle, [payload(world)], { ...world.env, ...fake.env, AGENT_CHECKPOINT_STATE_DIR: stateFile });
      expectNotifyContract(run);
      expect(run.outcome.kind).toMatch(/refused|skipped/);
      expect(fake.submissions()).toEqual([]);
    }),
  );
});
