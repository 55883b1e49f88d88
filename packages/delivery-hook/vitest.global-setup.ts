import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** Build `dist/agent-checkpoint-hook.cjs` from the current sources, so tests never run a stale bundle. */
export default function setup(): void {
  execFileSync(process.execPath, [join(import.meta.dirname, 'build-hook.mjs')], { stdio: 'inherit' });
}
