import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The repository root (e2e/src/harness → ../../..). */
export const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..', '..');

/** package.json as published: publishConfig applied, `workspace:`/`catalog:` ranges rewritten by pnpm. */
export interface PublishedManifest {
  name: string;
  version: string;
  private?: boolean;
  bin?: Record<string, string>;
  exports?: Record<string, unknown>;
  files?: string[];
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  bundleDependencies?: string[];
  bundledDependencies?: string[];
}

/** One workspace package packed as `npm publish` would upload it. */
export interface PackedPackage {
  /** Its directory under packages/. */
  dir: string;
  name: string;
  tarball: string;
  /** Paths in the tarball relative to its `package/` root. */
  files: string[];
  /** The tarball unpacked; the package root is `<unpacked>/package`. */
  unpacked: string;
  manifest: PublishedManifest;
}

/** The packages under packages/ that are published (not `private`), by directory name. */
export function publishedPackageDirs(): string[] {
  const packagesDir = path.join(REPO_ROOT, 'packages');
  return readdirSync(packagesDir)
    .filter((dir) => {
      try {
        return JSON.parse(readFileSync(path.join(packagesDir, dir, 'package.json'), 'utf8')).private !== true;
      } catch {
        return false;
      }
    })
    .sort();
}

/**
 * Our environment without the lifecycle variables of the `pnpm test` that runs us, so nested tools
 * act as a user's would. Registry, proxy and certificate settings stay: the `npm_config_*` that pnpm
 * passes on (`npm_config_cafile` among them — removing it left npm retrying the registry until the
 * time limit on a machine behind a TLS-inspecting proxy) and the variables e2e/turbo.json lets through
 * turbo's strict environment.
 */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(npm_(lifecycle|package)_|npm_(execpath|node_execpath|command)$|npm_config_user_agent$|PNPM_|pnpm_)/i.test(key)) env[key] = value;
  }
  return { ...env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', ...extra };
}

/**
 * `pnpm pack` a package (its prepack builds it; publishConfig and `workspace:*` are applied as for
 * `pnpm publish`) into `destination`, then unpack it beside the tarball.
 */
export function packPackage(dir: string, destination: string): PackedPackage {
  mkdirSync(destination, { recursive: true });
  const out = execFileSync('pnpm', ['pack', '--pack-destination', destination], {
    cwd: path.join(REPO_ROOT, 'packages', dir),
    env: cleanEnv(),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 300_000,
  });
  const file = out.trim().split('\n').at(-1)!.trim();
  const tarball = path.isAbsolute(file) ? file : path.join(destination, path.basename(file));
  const unpacked = path.join(destination, `${dir}-unpacked`);
  mkdirSync(unpacked);
  execFileSync('tar', ['xzf', tarball, '-C', unpacked]);
  const files = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((entry) => entry.replace(/^package\//, ''))
    .filter((entry) => entry !== '' && !entry.endsWith('/'));
  const manifest = JSON.parse(readFileSync(path.join(unpacked, 'package', 'package.json'), 'utf8')) as PublishedManifest;
  return { dir, name: manifest.name, tarball, files, unpacked, manifest };
}
