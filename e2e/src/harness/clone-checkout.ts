import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { E2E_PACKAGE_DIR } from './agent-clis.ts';

/** The repository under test. */
export const REPO_ROOT = path.dirname(E2E_PACKAGE_DIR);

/**
 * A clone-like copy of this repository at `dest`: its tracked and untracked-but-not-ignored files (no
 * node_modules, no build output but the committed plugin bundle), what `git clone` gives a user.
 */
export function copyCheckout(dest: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\0')
    .filter((f) => f !== '' && existsSync(path.join(REPO_ROOT, f)));
  for (const file of files) {
    mkdirSync(path.dirname(path.join(dest, file)), { recursive: true });
    cpSync(path.join(REPO_ROOT, file), path.join(dest, file), { verbatimSymlinks: true });
  }
}
