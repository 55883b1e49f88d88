import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { assertBundlesBuilt, HOOK_BUNDLE, TMUX_BUNDLE } from './src/harness/agent-checkpoint-bins.ts';
import { ensureAgentClis } from './src/harness/agent-clis.ts';

/**
 * Rebuild the two bundled bins under test from the current sources, with their packages' own
 * bundle scripts, so a direct `pnpm --filter @agent-checkpoint/e2e test` never runs a stale bundle.
 * (`pnpm test` builds them anyway: they are workspace devDependencies of this package, and turbo
 * runs `^build` before `test`.) Then install the pinned agent CLIs unless an intact install is
 * cached (`pnpm install` does not fetch them; see e2e/README.md).
 */
export default function setup(): void {
  const hookDir = path.dirname(path.dirname(HOOK_BUNDLE));
  const tmuxDir = path.dirname(path.dirname(TMUX_BUNDLE));
  execFileSync(process.execPath, [path.join(hookDir, 'build-hook.mjs')], { cwd: hookDir, stdio: 'inherit' });
  execFileSync(process.execPath, [path.join(tmuxDir, 'scripts', 'bundle-cli.mjs')], { cwd: tmuxDir, stdio: 'inherit' });
  assertBundlesBuilt();
  // Same switch as SKIP_REAL_CLIS (define-headless-agent-tests.ts), read here without importing vitest.
  if (process.env['AGENT_CHECKPOINT_E2E_SKIP_CLIS'] !== '1') ensureAgentClis((line) => console.log(`[e2e] ${line}`));
}
