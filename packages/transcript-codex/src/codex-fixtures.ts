import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Paths of the fixtures in `fixtures/codex/` (see its README). Used by tests only; not exported from
 * the package entry point.
 */
export const FIXTURES_ROOT = join(import.meta.dirname, '../../../fixtures/codex');

/** The rollout of a recorded 0.169.0 scenario (`exec`, `tmux`, `tui-interrupt`, `tui-steer-and-injection`). */
export function rollout0169(scenario: string): string {
  const dir = join(FIXTURES_ROOT, '0.169.0', scenario);
  const file = readdirSync(dir).find((name) => name.startsWith('rollout-') && name.endsWith('.jsonl'));
  if (!file) throw new Error(`no rollout in ${dir}`);
  return join(dir, file);
}

/** A derived older-protocol rollout (`turn-ids-legacy-events`, `positional-markers`, `positional-messages`). */
export function olderDerived(name: string): string {
  return join(FIXTURES_ROOT, 'older-derived', `${name}.jsonl`);
}

/**
 * The constructed 0.144.2-form code-mode rollout (`0.144.2/constructed/`, written from the documented
 * format, not recorded: see fixtures/codex/README.md).
 */
export const CODE_MODE_0144 = {
  path: join(FIXTURES_ROOT, '0.144.2/constructed/rollout-2026-07-21T14-30-00-01a0f3c2-6b1e-7a40-9d2e-4f0c8a1b2c3d.jsonl'),
  turns: ['01a0f3c2-7000-7c11-8a00-000000000001', '01a0f3c2-8000-7c11-8a00-000000000002'],
} as const;

/**
 * A recorded 0.169 multi-agent run (`0.169.0/subagent/<name>/`): the parent's and the subagent's
 * rollouts in their `sessions/YYYY/MM/DD/` layout. `restarts`: the subagent edits daemon code and
 * runs `make restart`; `no-restart`: it only edits, and after the Stop hook's block the parent
 * restarts.
 */
export const SUBAGENT_RUNS = {
  restarts: { parent: '01a22096-48c6-78c3-852c-a6da9e71b13b', child: '01a22096-4957-7e91-be78-e618da7cbb6e', turn: '01a22096-48e5-7e23-a881-a5321b8d7ff5', time: '05-17-29' },
  'no-restart': { parent: '01a22096-4fed-7c70-bb4e-3a3689d9644d', child: '01a22096-5084-7b93-be76-562008db0567', turn: '01a22096-500d-7281-a713-433d0397ba06', time: '05-17-31' },
} as const;

/** Path of a rollout of a recorded subagent run, relative to the run's folder, and the folder. */
export function subagentRun(name: keyof typeof SUBAGENT_RUNS): { dir: string; parent: string; child: string } {
  const run = SUBAGENT_RUNS[name];
  const rel = (thread: string): string => `sessions/2026/11/28/rollout-2026-11-28T${run.time}-${thread}.jsonl`;
  return { dir: join(FIXTURES_ROOT, '0.169.0/subagent', name), parent: rel(run.parent), child: rel(run.child) };
}

/** Turn ids of the recorded samples. */
export const TURNS = {
  exec: '01a20107-455b-73c3-a72e-db02ca7de868',
  tmux: ['01a20107-566d-7700-982b-c7149f58dec7', '01a20107-6001-7d41-bc50-a761a7d895e1', '01a20107-6488-75c1-9824-b3ed576bbb29'],
  interrupt: '01a20105-f626-7062-9c29-49ca684e2b5b',
  steer: {
    slow: '01a20101-b248-7600-a808-5e48bfeb4263',
    checkpointA: '01a20101-fa07-7903-a827-1c826e687463',
    ab: '01a20102-32d2-70a3-8256-b1c26dd582ce',
    checkpointB: '01a20102-3a65-77e0-a4a1-6ecc99c29f63',
    paste005: '01a20102-b043-7df3-b28d-7299ab11fda1',
    large: '01a20102-d1e3-74a0-a967-49ace0795d2c',
  },
} as const;

/** The prefix the recording harness put in front of its checkpoints. */
export const SAMPLE_PREFIX = '[checkpoint]';
