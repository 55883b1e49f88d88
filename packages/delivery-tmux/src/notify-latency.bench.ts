import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@agent-checkpoint/core';
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { deliverToPane } from './deliver-to-pane.ts';
import { findCodexPane, type CodexPane } from './find-codex-pane.ts';
import { buildBundle, createCodexWorld, RECORDED, runNotifyBundle, type CodexWorld } from './__fixtures__/codex-world.ts';
import { startFakeCodex, startTestTmux, waitFor, type FakeCodexPane, type TestTmux } from './__fixtures__/tmux-test-server.ts';

/**
 * Injection latency against the fake Codex TUI on real tmux:
 * - `deliverToPane`: idle check (two samples 250 ms apart) → paste → Enter delay (300 ms) → Enter →
 *   composer empty;
 * - full notify: process start of the bundled program → submission recorded by the TUI (includes
 *   Node startup, config, rollout lookup, git, the transcript read and the delivery).
 * Run with `pnpm --filter @agent-checkpoint/delivery-tmux bench`.
 */
let server: TestTmux;
let fake: FakeCodexPane;
let pane: CodexPane;
let world: CodexWorld;
let bundleDir: string;
let bundle: string;
let prefix: string;
let iteration = 0;
/** Exact latencies (start → the TUI's `submit` event time), printed after the run. */
const samples: Record<string, number[]> = { deliver: [], notify: [] };

function lastSubmitTime(): number {
  return fake.events().filter((e) => e.type === 'submit').at(-1)?.t ?? Number.NaN;
}

function summary(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return `n=${sorted.length} min=${sorted[0]} median=${at(0.5)} p90=${at(0.9)} max=${sorted.at(-1)} ms`;
}

beforeAll(async () => {
  server = await startTestTmux();
  fake = await startFakeCodex(server, ['--busy-ms', '50']);
  const found = await findCodexPane(fake.env);
  if (!found.ok) throw new Error(found.reason);
  pane = found.pane;
  world = createCodexWorld();
  prefix = (await loadConfig({ cwd: world.repo, env: world.env })).config.messages.prefix;
  world.writeRollout(RECORDED.turn1End, prefix);
  bundleDir = mkdtempSync(join(tmpdir(), 'ac-tmux-bench-'));
  bundle = await buildBundle(bundleDir);
});

afterAll(async () => {
  for (const [name, values] of Object.entries(samples)) console.log(`latency ${name}: ${summary(values)}`);
  await server.dispose();
  world.remove();
  rmSync(bundleDir, { recursive: true, force: true });
});

const idle = () => waitFor(async () => (await fake.capture()).includes('? for shortcuts') && !(await fake.capture()).includes('esc to interrupt'), 'idle');

describe('injection latency', () => {
  bench(
    'deliverToPane (idle check → paste → Enter → confirmed)',
    async () => {
      await idle();
      const before = fake.submissions().length;
      const started = Date.now();
      const result = await deliverToPane(pane, `[agent-checkpoint] bench ${iteration++}\nline two`);
      if (result.status !== 'delivered' || fake.submissions().length !== before + 1) throw new Error(JSON.stringify(result));
      samples['deliver']?.push(lastSubmitTime() - started);
    },
    { iterations: 8, time: 0, warmupIterations: 1 },
  );

  bench(
    'notify bundle start → submission recorded',
    async () => {
      await idle();
      const before = fake.submissions().length;
      // A fresh state dir per run: each run is a first delivery for the turn.
      const env = { ...world.env, ...fake.env, AGENT_CHECKPOINT_STATE_DIR: join(world.root, `state-${iteration++}`) };
      const run = await runNotifyBundle(bundle, [world.payload(RECORDED.turn1, [RECORDED.prompt])], env);
      if (run.outcome.kind !== 'delivered' || fake.submissions().length !== before + 1) throw new Error(`${JSON.stringify(run.outcome)} ${run.stderr}`);
      samples['notify']?.push(lastSubmitTime() - run.startedAt);
    },
    { iterations: 8, time: 0, warmupIterations: 1 },
  );
});
