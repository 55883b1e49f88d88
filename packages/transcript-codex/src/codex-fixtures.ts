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
