import { execFileSync } from 'node:child_process';
import { chmodSync, closeSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle, createCodexWorld, RECORDED, type CodexWorld } from '../../src/__fixtures__/codex-world.ts';
import { startFakeCodex, startTestTmux, type FakeCodexPane, type TestTmux } from '../../src/__fixtures__/tmux-test-server.ts';
import { asSubmitted, expectedForTurn1, expectNotifyContract, rolloutPath, runNotifyBounded } from './support.ts';

// The corpus of bad inputs through the bundled notify program, in a real Codex pane (fake Codex TUI
// on a private tmux server), so every input reaches the stage that reads it (docs/reliability.md).
// Whatever the input: exit 0 in bounded time, one-line prefixed diagnostics, and either nothing
// typed or exactly what getCheckpoint says for the same inputs.

const CLAUDE_TRANSCRIPT = join(import.meta.dirname, '..', '..', '..', '..', 'fixtures', 'claude', '2.1.330', 'stop-hook-exit1.jsonl');

let bundleDir: string;
let bundle: string;
beforeAll(async () => {
  bundleDir = mkdtempSync(join(tmpdir(), 'ac-tmux-rel-bundle-'));
  bundle = await buildBundle(bundleDir);
}, 60_000);
afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));

/** One world per test (tests run concurrently): repo, CODEX_HOME, tmux server and fake Codex TUI. */
interface Ctx {
  readonly world: CodexWorld;
  readonly fake: FakeCodexPane;
  notify(payload: string, env?: Record<string, string>): ReturnType<typeof runNotifyBounded>;
  turn1Payload(): string;
}

async function withPane(test: (ctx: Ctx) => Promise<void>): Promise<void> {
  const world = createCodexWorld();
  let server: TestTmux | undefined;
  try {
    server = await startTestTmux();
    const fake = await startFakeCodex(server, ['--busy-ms', '100', '--hold-open', world.rolloutPath]);
    await test({
      world,
      fake,
      notify: (payload, env = {}) => runNotifyBounded(bundle, [payload], { ...world.env, ...fake.env, ...env }),
      turn1Payload: () => world.payload(RECORDED.turn1, [RECORDED.prompt]),
    });
  } finally {
    await server?.dispose();
    world.remove();
  }
}

const prefix = '[agent-checkpoint] ';

/** Replace the located rollout with something else. `located`: whether it is still a regular file. */
interface RolloutCase {
  readonly name: string;
  readonly located: boolean;
  readonly skip?: boolean;
  plant(path: string, real: Buffer): void;
}

const ROLLOUT_CASES: readonly RolloutCase[] = [
  { name: 'truncated in the middle of a line', located: true, plant: (p, real) => writeFileSync(p, real.subarray(0, Math.floor(real.length * 0.7))) },
  {
    name: 'every other line corrupt',
    located: true,
    plant: (p, real) =>
      writeFileSync(
        p,
        real
          .toString('utf8')
          .split('\n')
          .map((l, i) => (i % 2 ? `${l.slice(0, 9)}\u0000` : l))
          .join('\n'),
      ),
  },
  { name: 'binary bytes', located: true, plant: (p) => writeFileSync(p, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 97) % 256))) },
  { name: 'empty', located: true, plant: (p) => writeFileSync(p, '') },
  { name: 'one line larger than the cap', located: true, plant: (p) => writeFileSync(p, `${JSON.stringify({ type: 'event_msg', payload: { type: 'user_message', message: 'y'.repeat(600 * 1024) } })}\n`) },
  { name: "another agent's transcript (Claude Code)", located: true, plant: (p) => writeFileSync(p, readFileSync(CLAUDE_TRANSCRIPT)) },
  {
    name: 'a 4 GiB sparse file ending with the real rollout',
    located: true,
    plant: (p, real) => {
      const fd = openSync(p, 'w');
      ftruncateSync(fd, 4 * 1024 ** 3);
      writeSync(fd, Buffer.concat([Buffer.from('\n'), real]), 0, real.length + 1, 4 * 1024 ** 3);
      closeSync(fd);
    },
  },
  {
    name: 'without read permission (chmod 000; root reads it anyway)',
    located: true,
    skip: process.getuid?.() === 0,
    plant: (p, real) => {
      writeFileSync(p, real);
      chmodSync(p, 0o000);
    },
  },
  { name: 'a symlink loop', located: false, plant: (p) => symlinkSync(p, p) },
  { name: 'a FIFO', located: false, plant: (p) => execFileSync('mkfifo', [p]) },
  { name: 'a directory', located: false, plant: (p) => mkdirSync(p) },
  { name: 'a symlink to /dev/zero', located: false, plant: (p) => symlinkSync('/dev/zero', p) },
];

describe('bad rollouts', () => {
  for (const testCase of ROLLOUT_CASES) {
    it.skipIf(testCase.skip ?? false).concurrent(testCase.name, { timeout: 90_000 }, () =>
      withPane(async ({ world, fake, notify, turn1Payload }) => {
        const real = readFileSync(world.writeRollout(RECORDED.turn1End, prefix));
        const path = rolloutPath(world);
        rmSync(path, { force: true });
        mkdirSync(dirname(path), { recursive: true });
        testCase.plant(path, real);
        const expected = await expectedForTurn1(world, path);
        const run = await notify(turn1Payload());
        expectNotifyContract(run);
        if (!testCase.located) {
          expect(run.outcome).toEqual({ kind: 'skipped', reason: `no rollout found for thread ${RECORDED.threadId}` });
          expect(fake.submissions()).toEqual([]);
          return;
        }
        if (expected.decision === 'message') {
          expect(run.outcome, run.stderr).toMatchObject({ kind: 'delivered' });
          expect(fake.submissions()).toEqual([asSubmitted(expected.message)]);
        } else {
          expect(fake.submissions()).toEqual([]);
        }
      }),
    );
  }
});

/** A configuration problem: plant it, return the extra environment. */
const CONFIG_CASES: ReadonlyArray<[string, (w: CodexWorld) => Record<string, string>, RegExp]> = [
  ['a FIFO as the project file', (w) => (execFileSync('mkfifo', [join(w.repo, '.agent-checkpoint.json')]), {}), /\.agent-checkpoint\.json: is not a regular file/],
  ['/dev/zero as the user file', () => ({ AGENT_CHECKPOINT_CONFIG: '/dev/zero' }), /\/dev\/zero: is not a regular file/],
  ['invalid JSONC', (w) => (writeFileSync(join(w.repo, '.agent-checkpoint.json'), '{ "enabled": tru '), {}), /invalid configuration, file ignored/],
  [
    'a 2 GiB sparse project file',
    (w) => {
      const fd = openSync(join(w.repo, '.agent-checkpoint.json'), 'w');
      ftruncateSync(fd, 2 * 1024 ** 3);
      closeSync(fd);
      return {};
    },
    /too large for a configuration file/,
  ],
  ['a directory as the user file', (w) => (mkdirSync(join(w.root, 'cfg-dir')), { AGENT_CHECKPOINT_CONFIG: join(w.root, 'cfg-dir') }), /is a directory/],
  [
    'a symlink loop as the project file',
    (w) => (symlinkSync(join(w.repo, '.agent-checkpoint.json'), join(w.repo, '.agent-checkpoint.json')), {}),
    /cannot be read \(ELOOP\)/,
  ],
];

describe('bad configuration files: ignored with one line each, never waited on', () => {
  for (const [name, plant, diagnostic] of CONFIG_CASES) {
    it.concurrent(name, { timeout: 90_000 }, () =>
      withPane(async ({ world, fake, notify, turn1Payload }) => {
        const rollout = world.writeRollout(RECORDED.turn1End, prefix);
        const env = plant(world);
        const expected = await expectedForTurn1(world, rollout, { ...world.env, ...env });
        const run = await notify(turn1Payload(), env);
        expectNotifyContract(run);
        expect(run.stderr).toMatch(new RegExp(`^agent-checkpoint-tmux: config: .*${diagnostic.source}`, 'm'));
        // The broken file is ignored as a whole: the defaults decide, exactly as in getCheckpoint.
        expect(expected.decision).toBe('message');
        expect(run.outcome, run.stderr).toMatchObject({ kind: 'delivered' });
        expect(fake.submissions()).toEqual([asSubmitted(expected.message)]);
      }),
    );
  }
});

describe('diagnostics stay one line each', () => {
  it.concurrent('an invalid config in a repository whose path holds a newline and a carriage return', { timeout: 90_000 }, () =>
    withPane(async ({ world, fake, notify, turn1Payload }) => {
      world.writeRollout(RECORDED.turn1End, prefix);
      const odd = join(world.root, 'line\nbreak\rhere');
      symlinkSync(world.repo, odd);
      writeFileSync(join(world.repo, '.agent-checkpoint.json'), '{ "enabled": ');
      const run = await notify(JSON.stringify({ ...(JSON.parse(turn1Payload()) as Record<string, unknown>), cwd: odd }), { AGENT_CHECKPOINT_DEBUG: '1' });
      expectNotifyContract(run);
      expect(run.stderr).toMatch(/invalid configuration, file ignored/);
      expect(fake.submissions().length).toBeLessThanOrEqual(1);
    }),
  );
});

describe('bad payload fields', () => {
  const cases: ReadonlyArray<[string, (w: CodexWorld) => Record<string, unknown>]> = [
    ['a thread id with path separators', () => ({ 'thread-id': '../../../etc/passwd' })],
    ['a cwd that does not exist', (w) => ({ cwd: join(w.root, 'gone') })],
    ['a cwd that is a regular file', (w) => ({ cwd: join(w.repo, 'calc.py') })],
    ['a cwd that is a symlink loop', (w) => (symlinkSync(join(w.root, 'loop'), join(w.root, 'loop')), { cwd: join(w.root, 'loop') })],
    ['a turn id of control characters', () => ({ 'turn-id': '\u0000\u001b[2J\r\n\u0003'.repeat(20) })],
    // Linux limits one argv string to 128 KiB (MAX_ARG_STRLEN): Codex cannot pass more either.
    ['120 KiB of input messages', () => ({ 'input-messages': Array.from({ length: 30 }, (_, i) => `${i} ${'m'.repeat(4 * 1024)}`) })],
    ['input messages that are not strings', () => ({ 'input-messages': [1, null, { a: 1 }] })],
  ];
  for (const [name, fields] of cases) {
    it.concurrent(name, { timeout: 90_000 }, () =>
      withPane(async ({ world, fake, notify, turn1Payload }) => {
        const rollout = world.writeRollout(RECORDED.turn1End, prefix);
        const payload = { ...(JSON.parse(turn1Payload()) as Record<string, unknown>), ...fields(world) };
        const run = await notify(JSON.stringify(payload));
        expectNotifyContract(run);
        // Typed text, if any, is what getCheckpoint says for the payload's cwd (the generic message
        // when git cannot run there).
        const submitted = fake.submissions();
        expect(submitted.length).toBeLessThanOrEqual(1);
        if (submitted.length === 1) {
          const cwd = typeof payload['cwd'] === 'string' ? payload['cwd'] : world.repo;
          const expected = await expectedForTurn1(world, rollout, world.env, cwd);
          expect(submitted[0]).toBe(asSubmitted(expected.message));
        }
      }),
    );
  }
});
