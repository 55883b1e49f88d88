import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { assertBundlesBuilt, HOOK_BUNDLE, TMUX_BUNDLE } from './src/harness/agent-checkpoint-bins.ts';

/**
 * Rebuild the two bundled bins under test from the current sources, with their packages' own
 * bundle scripts, so a direct `pnpm --filter @agent-checkpoint/e2e test` never runs a stale bundle.
 * (`pnpm test` builds them anyway: they are workspace devDependencies of this package, and turbo
 * runs `^build` before `test`.)
 */
export default function setup(): void {
  const hookDir = path.dirname(path.dirname(HOOK_BUNDLE));
  const tmuxDir = path.dirname(path.dirname(TMUX_BUNDLE));
  execFileSync(process.execPath, [path.join(hookDir, 'build-hook.mjs')], { cwd: hookDir, stdio: 'inherit' });
  execFileSync(process.execPath, [path.join(tmuxDir, 'scripts', 'bundle-cli.mjs')], { cwd: tmuxDir, stdio: 'inherit' });
  assertBundlesBuilt();
}
