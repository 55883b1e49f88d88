import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { checkpointEnv, withRouteRun } from '../src/checkpoint/checkpoint-routes.ts';
import { DAEMON_NOT_RESTARTED } from '../src/checkpoint/checkpoint-scenarios.ts';
import { HOOK_BUNDLE } from '../src/harness/agent-checkpoint-bins.ts';
import { SKIP_REAL_CLIS } from '../src/harness/define-headless-agent-tests.ts';

/**
 * Issue 20 "know when we are wrong", done means: `report` shows block outcomes after a real session.
 * The pinned Claude Code against the scripted mock: our hook blocks (the daemon was not restarted),
 * the model runs `make restart`, the escape-hatch stop settles the block — then `report` counts one
 * block acted on, for the `daemon` category and rule.
 */

interface Counts {
  readonly blocks: number;
  readonly outcomes: Readonly<Record<string, number>>;
  readonly precision?: number;
}

describe.skipIf(SKIP_REAL_CLIS)('block outcomes after a real Claude Code session', () => {
  it('report shows the block acted on', async () => {
    await withRouteRun('claude-hook', { scenario: DAEMON_NOT_RESTARTED }, async (run) => {
      // Two stops: our block, then the escape-hatch stop after the model ran `make restart`.
      expect(run.stops.map((s) => s.payload?.['stop_hook_active'])).toEqual([false, true]);
      expect(run.hookOutputs[0]).toMatchObject({ decision: 'block' });
      const workspace = run.session.workspace;
      const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: workspace.home, ...checkpointEnv(workspace, { debug: false }) };
      const report = spawnSync(process.execPath, [HOOK_BUNDLE, 'report', '--json', '--cwd', workspace.repo], { env, encoding: 'utf8', timeout: 30_000 });
      expect(report.status, report.stderr).toBe(0);
      const outcomes = (
        JSON.parse(report.stdout) as {
          blockOutcomes: { total: Counts; pending: number; byCategory: Record<string, Counts>; byRule: Record<string, Counts> };
        }
      ).blockOutcomes;
      expect(outcomes.pending).toBe(0);
      expect(outcomes.total).toEqual({ blocks: 1, outcomes: { 'acted-on': 1, disputed: 0, ignored: 0, 'switched-off': 0, unknown: 0 }, precision: 1 });
      expect(outcomes.byRule['daemon']).toMatchObject({ blocks: 1, outcomes: { 'acted-on': 1 } });
      expect(outcomes.byCategory['daemon']).toMatchObject({ blocks: 1, outcomes: { 'acted-on': 1 } });
      const text = spawnSync(process.execPath, [HOOK_BUNDLE, 'report', '--cwd', workspace.repo], { env, encoding: 'utf8', timeout: 30_000 });
      expect(text.stdout).toContain('  daemon: 1 block: acted on 1, disputed 0, ignored 0, switched off 0, unknown 0; precision 100 %');
    });
  });
});
