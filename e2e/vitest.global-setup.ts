import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { assertBundlesBuilt, HOOK_BUNDLE, TMUX_BUNDLE } from './src/harness/agent-checkpoint-bins.ts';
import { ensureAgentClis } from './src/harness/agent-clis.ts';
import { claimOwnership, reapLeftovers } from './src/harness/leftovers.ts';

/**
 * Reap the leftovers of killed runs (leftovers.ts). Rebuild the two bundled bins under test from the current sources, with their packages' own
 * bundle scripts, so a direct `pnpm --filter @agent-checkpoint/e2e test` never runs a stale bundle.
 * (`pnpm test` builds them anyway: they are workspace devDependencies of this package, and turbo
 * runs `^build` before `test`.) Then install the pinned agent CLIs unless an intact install is
 * cached (`pnpm install` does not fetch them; see e2e/README.md).
 */
export default function setup(): void {
  // First, what an earlier run killed mid-way left (tmux servers, Codex daemons, temp workspaces);
  // then this run owns what its workers create, so the next run can do the same for it.
  const reaped = reapLeftovers();
  if (reaped.workspaces.length + reaped.tmuxServers.length > 0) {
    console.log(`[e2e] reaped leftovers of killed runs: ${reaped.workspaces.length} workspace(s), ${reaped.tmuxServers.length} tmux server(s), ${reaped.processes.length} process(es)`);
  }
  claimOwnership();
  const hookDir = path.dirname(path.dirname(HOOK_BUNDLE));
  const tmuxDir = path.dirname(path.dirname(TMUX_BUNDLE));
  execFileSync(process.execPath, [path.join(hookDir, 'build-hook.mjs')], { cwd: hookDir, stdio: 'inherit' });
  execFileSync(process.execPath, [path.join(tmuxDir, 'scripts', 'bundle-cli.mjs')], { cwd: tmuxDir, stdio: 'inherit' });
  assertBundlesBuilt();
  // Same switch as SKIP_REAL_CLIS (define-headless-agent-tests.ts), read here without importing vitest.
  if (process.env['AGENT_CHECKPOINT_E2E_SKIP_CLIS'] !== '1') ensureAgentClis((line) => console.log(`[e2e] ${line}`));
}
